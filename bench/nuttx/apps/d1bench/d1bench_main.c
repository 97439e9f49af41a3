/****************************************************************************
 * bench/nuttx/apps/d1bench/d1bench_main.c
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.  The
 * ASF licenses this file to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance with the
 * License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 * WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.  See the
 * License for the specific language governing permissions and limitations
 * under the License.
 *
 ****************************************************************************/

/* d1bench: Timer-IRQ and task wake-up latency under NuttX on the D1, a
 * thin shell around the library's bench accounting (include/d1/bench.h:
 * the grid, the samples, missed periods, late and spurious wake-ups,
 * defined once for every OS) and its recorder, reported in the same text
 * and JSON forms as every other OS's bench.
 *
 * Timer0 runs periodic through the library (OSC24M, PERIOD_US us).  Its
 * ISR captures the Timer's sample with d1_bench_isr() and posts a
 * semaphore; the bench's own thread waits on it at the highest priority
 * and passes its wake-up time to d1_bench_wake().  A wait longer than
 * 1 s + 100 periods ends the run as failed (no interrupt: the timer is
 * stopped, the handler detached); d1_bench_finish() then counts every
 * boundary no interrupt or wake-up accounted as missed.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef CONFIG_D1LIB_BENCH_LOAD
#  include <pthread.h>
#  include <unistd.h>
#endif

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <arch/irq.h>

#include "d1/bench.h"
#include "d1bench.h"
#include "d1/error.h"
#include "d1/latency.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define BENCH_PERIODS   CONFIG_D1LIB_BENCH_PERIODS
#define BENCH_CLOCKS    ((uint64_t)CONFIG_D1LIB_BENCH_PERIOD_US * 24u)
#define BENCH_IRQ       (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER0)

/* The longest wait for a post: 1 s + 100 periods, in ns. */

#define BENCH_WAIT_NS   (1000000000ull + \
                         (uint64_t)CONFIG_D1LIB_BENCH_PERIOD_US * 100000u)

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_timer g_bench_timer;
static struct d1_lat g_lat_irq;
static struct d1_lat g_lat_wake;
static struct d1_bench g_bench;
static sem_t g_bench_sem;
static char g_report[D1_LAT_REPORT_SIZE];
static const char *g_load = "idle";

#ifdef CONFIG_D1LIB_BENCH_LOAD
static volatile bool g_load_stop;
static uint8_t g_copy_a[D1_BENCH_LOAD_COPY_BYTES];
static uint8_t g_copy_b[D1_BENCH_LOAD_COPY_BYTES];
static pthread_t g_load_thread[2];
#endif

/****************************************************************************
 * Private Functions
 ****************************************************************************/

static int bench_isr(int irq, void *context, void *arg)
{
  UNUSED(irq);
  UNUSED(context);
  UNUSED(arg);

  /* The capture only (the counter, then the time CSR); the accounting
   * runs in the task, after its wake-up sample.
   */

  if (d1_bench_isr(&g_bench, &g_bench_timer) == D1_BENCH_SAMPLE)
    {
      sem_post(&g_bench_sem);
    }

  return OK;
}

/* Waits for the ISR's post, at most BENCH_WAIT_NS; returns 0 or -errno. */

static int bench_wait(void)
{
  struct timespec deadline;
  uint64_t ns;
  int ret;

  clock_gettime(CLOCK_MONOTONIC, &deadline);
  ns = (uint64_t)deadline.tv_nsec + BENCH_WAIT_NS;
  deadline.tv_sec += (time_t)(ns / 1000000000u);
  deadline.tv_nsec = (long)(ns % 1000000000u);
  do
    {
      ret = sem_clockwait(&g_bench_sem, CLOCK_MONOTONIC, &deadline);
      if (ret < 0)
        {
          ret = -errno;
        }
    }
  while (ret == -EINTR);

  return ret;
}

/* One wake-up, accounted by the library (the captures, then the wake-up
 * sample); posts already there are for boundaries it accounted, or
 * captured since (accounted now: their wake-ups are missed): they are
 * taken.  True once the run's last boundary is accounted: the Timer's
 * interrupt is turned off.
 */

static bool bench_wake(void)
{
  uint64_t now = d1_time_now();
  bool done = d1_bench_wake(&g_bench, now);

  while (sem_trywait(&g_bench_sem) == 0)
    {
    }

  if (!done)
    {
      done = d1_bench_account(&g_bench) == D1_BENCH_DONE;
    }

  if (done)
    {
      d1_timer_irq_enable(&g_bench_timer, false);
    }

  return done;
}

#ifdef CONFIG_D1LIB_BENCH_LOAD
/* The comparison's load (docs/comparison.md): one thread at the lowest
 * priority copies 64 KiB in a loop; one just above it keeps the console's
 * UART transmitting (it sleeps in write() while the transmit buffer is
 * full, so the line stays busy at its baud and the copy gets the rest).
 */

static void *load_copy(void *arg)
{
  UNUSED(arg);
  while (!g_load_stop)
    {
      memcpy(g_copy_b, g_copy_a, sizeof(g_copy_a));
    }

  return NULL;
}

static void *load_uart(void *arg)
{
  static const char line[] = D1_BENCH_LOAD_LINE;

  UNUSED(arg);
  while (!g_load_stop)
    {
      if (write(STDOUT_FILENO, line, sizeof(line) - 1) < 0)
        {
          break;
        }
    }

  return NULL;
}

int d1bench_load_start(void)
{
  struct sched_param param;
  pthread_attr_t attr;
  int ret;

  g_load_stop = false;
  pthread_attr_init(&attr);
  pthread_attr_setschedpolicy(&attr, SCHED_RR);
  param.sched_priority = sched_get_priority_min(SCHED_RR);
  pthread_attr_setschedparam(&attr, &param);
  ret = pthread_create(&g_load_thread[0], &attr, load_copy, NULL);
  if (ret == 0)
    {
      param.sched_priority++;
      pthread_attr_setschedparam(&attr, &param);
      ret = pthread_create(&g_load_thread[1], &attr, load_uart, NULL);
      if (ret != 0)
        {
          g_load_stop = true;
          pthread_join(g_load_thread[0], NULL);
        }
    }

  pthread_attr_destroy(&attr);
  return ret;
}

void d1bench_load_stop(void)
{
  g_load_stop = true;
  pthread_join(g_load_thread[0], NULL);
  pthread_join(g_load_thread[1], NULL);
}
#endif

/* d1_lat_dump()'s output, to stdout. */

static void bench_put(void *ctx, const char *s, size_t n)
{
  UNUSED(ctx);

  /* A short write shows in ferror(stdout), which the run's result reads */

  (void)fwrite(s, 1, n, stdout);
}

/* The reports of one run of the latency bench (d1bench_print()). */

static bool bench_report(const char *what, struct d1_lat *lat)
{
  struct d1_bench_stats st;
  struct d1_lat_meta meta =
  {
    .os          = "nuttx",
    .board       = "allwinner-d1",
    .load        = g_load,
    .period_ns   = (uint64_t)CONFIG_D1LIB_BENCH_PERIOD_US * 1000u,
    .measurement = what,
    .wake        = lat == &g_lat_wake ? "semaphore" : "none",
  };

  d1_bench_get_stats(&g_bench, &st);
  meta.bench_instr_min = st.irq_instr_min;
  meta.bench_instr_max = st.irq_instr_max;
  return d1bench_print(lat, &meta);
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/* Prints both reports of one recorder and its dump line; a report that
 * does not fit or a failed write is said, and counts as a failed run
 * (returns false).
 */

bool d1bench_print(const struct d1_lat *lat, const struct d1_lat_meta *meta)
{
  bool ok = true;
  int err;

  err = d1_lat_report_text(lat, meta, g_report, sizeof(g_report), NULL);
  if (err != D1_OK || fputs(g_report, stdout) == EOF)
    {
      ok = false;
    }

  if (err == D1_OK)
    {
      err = d1_lat_report_json(lat, meta, g_report, sizeof(g_report),
                               NULL);
    }

  if (err != D1_OK || fputs(g_report, stdout) == EOF)
    {
      ok = false;
    }

  /* The recorder's dump line: every bin, so that any percentile can be
   * recomputed from the log (bench/tools/d1lat_dump.py).
   */

  if (err == D1_OK)
    {
      err = d1_lat_dump(lat, meta, bench_put, NULL);
    }

  if (err != D1_OK)
    {
      printf("d1bench: %s report failed: %s\n", meta->measurement,
             d1_strerror(err));
      ok = false;
    }

  return ok;
}

int main(int argc, char *argv[])
{
  struct sched_param param;
  struct d1_bench_stats st;
  uint64_t t0;
  uint64_t t1;
  bool done = false;
  int err;
  int ret = 0;
  bool ok;

  UNUSED(argv);
  g_load = "idle";
#ifdef CONFIG_D1LIB_BENCH_SVC
  if (argc > 1 && strcmp(argv[1], "svc") == 0)
    {
      argc--;
      argv++;
      if (argc > 1 && strcmp(argv[1], "load") != 0)
        {
          printf("usage: d1bench [svc] [load]\n");
          return 1;
        }

      return d1bench_svc(argc > 1);
    }
#endif

  if (argc > 1)
    {
#ifdef CONFIG_D1LIB_BENCH_LOAD
      if (strcmp(argv[1], "load") == 0)
        {
          g_load = "memcpy+uart";
        }
      else
#endif
        {
          printf("usage: d1bench [svc] [load]\n");
          return 1;
        }
    }

  err = d1_lat_init(&g_lat_irq, D1_TIME_HZ);
  if (err == D1_OK)
    {
      err = d1_lat_init(&g_lat_wake, D1_TIME_HZ);
    }

  if (err == D1_OK)
    {
      err = d1_bench_init(&g_bench, &g_lat_irq, &g_lat_wake, BENCH_CLOCKS,
                          BENCH_PERIODS);
    }

  if (err == D1_OK)
    {
      err = d1_timer_init(&g_bench_timer, D1_TIMER_BASE, 0u, D1_OSC24M_HZ,
                          D1_LOSC_HZ);
    }

  if (err == D1_OK)
    {
      err = d1_timer_set_clock(&g_bench_timer, D1_TIMER_SRC_OSC24M, 0u);
    }

  if (err == D1_OK)
    {
      err = d1_timer_set_period_clocks(&g_bench_timer, BENCH_CLOCKS, NULL);
    }

  if (err != D1_OK)
    {
      printf("d1bench: setup failed: %s\n", d1_strerror(err));
      return 1;
    }

  sem_init(&g_bench_sem, 0, 0);
  ret = irq_attach(BENCH_IRQ, bench_isr, NULL);
  if (ret < 0)
    {
      printf("d1bench: irq_attach(%d) failed: %d\n", BENCH_IRQ, ret);
      sem_destroy(&g_bench_sem);
      return 1;
    }

  /* The waiting thread runs at the highest priority. */

  param.sched_priority = sched_get_priority_max(SCHED_FIFO);
  sched_setscheduler(0, SCHED_FIFO, &param);

  printf("d1bench: %u periods of %u us on Timer0, tick %u us, load %s\n",
         (unsigned)BENCH_PERIODS, (unsigned)CONFIG_D1LIB_BENCH_PERIOD_US,
         (unsigned)CONFIG_USEC_PER_TICK, g_load);

  /* Its failure stays in stdout's error indicator, checked at the end. */

  (void)fflush(stdout);
#ifdef CONFIG_D1LIB_BENCH_LOAD
  if (argc > 1 && d1bench_load_start() != 0)
    {
      printf("d1bench: the load threads did not start\n");
      irq_detach(BENCH_IRQ);
      param.sched_priority = SCHED_PRIORITY_DEFAULT;
      sched_setscheduler(0, SCHED_FIFO, &param);
      sem_destroy(&g_bench_sem);
      return 1;
    }
#endif

  up_enable_irq(BENCH_IRQ);
  t0 = d1_time_now();
  d1_bench_start(&g_bench, t0);
  d1_timer_start(&g_bench_timer, D1_TIMER_PERIODIC);
  d1_timer_irq_enable(&g_bench_timer, true);

  while (!done)
    {
      ret = bench_wait();
      if (ret < 0)
        {
          break;
        }

      done = bench_wake();
    }

  t1 = d1_time_now();
  up_disable_irq(BENCH_IRQ);
  d1_timer_stop(&g_bench_timer);
  irq_detach(BENCH_IRQ);

#ifdef CONFIG_D1LIB_BENCH_LOAD
  if (argc > 1)
    {
      d1bench_load_stop();
      printf("\n");
    }
#endif

  param.sched_priority = SCHED_PRIORITY_DEFAULT;
  sched_setscheduler(0, SCHED_FIFO, &param);
  sem_destroy(&g_bench_sem);

  /* Boundaries no interrupt or wake-up accounted up to now are missed. */

  d1_bench_finish(&g_bench, t1);
  d1_bench_get_stats(&g_bench, &st);
  if (ret < 0)
    {
      printf("d1bench: no Timer0 interrupt for %llu ms (error %d) after "
             "%llu of %u periods: stopped\n",
             (unsigned long long)(BENCH_WAIT_NS / 1000000u), ret,
             (unsigned long long)st.boundaries, (unsigned)BENCH_PERIODS);
      return 1;
    }

  if (d1_bench_report_run(&g_bench, t1 - t0, g_report, sizeof(g_report),
                          NULL) == D1_OK)
    {
      printf("%s\n", g_report);
    }

  ok = bench_report("timer-irq", &g_lat_irq);
  ok = bench_report("task-wakeup", &g_lat_wake) && ok;
  return ok && fflush(stdout) != EOF && !ferror(stdout) ? 0 : 1;
}
