/****************************************************************************
 * ports/nuttx/apps/d1bench/d1bench_main.c
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

/* d1bench: Timer-IRQ and task wake-up latency under NuttX on the D1,
 * recorded with the library's latency recorder (include/d1/latency.h) and
 * reported in the same text and JSON forms as the bare-metal and Linux
 * benches, so that tools/ compares them side by side.
 *
 * Timer0 runs periodic through the library (OSC24M, PERIOD_US us).  Its
 * ISR takes d1_timer_isr()'s sample (24 MHz clocks from the boundary to
 * the handler: the interrupt-entry latency), finds the boundary on the
 * time CSR (same OSC24M; the first period is measured from the start) to
 * count the periods whose interrupt never ran as missed, and posts a
 * semaphore.  The bench's own thread waits on it at the highest priority
 * and records how long after the latest boundary it ran: the task wake-up
 * latency.  Every boundary is a sample or a missed period of both
 * recorders.  A wait longer than 1 s + 100 periods ends the run as failed
 * (no interrupt: the timer is stopped and the handler detached).
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
#include <time.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <arch/irq.h>

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
static sem_t g_bench_sem;
static volatile uint64_t g_boundary;     /* time CSR of the last boundary */
static volatile uint64_t g_boundaries;   /* periods seen, missed included */
static volatile uint32_t g_spurious;
static volatile bool g_done;
static uint64_t g_last_boundary;         /* the run's start before the first */
static char g_report[D1_LAT_REPORT_SIZE];

/****************************************************************************
 * Private Functions
 ****************************************************************************/

static int bench_isr(int irq, void *context, void *arg)
{
  uint32_t sample = d1_timer_isr(&g_bench_timer);
  uint64_t boundary;
  uint64_t n;

  UNUSED(irq);
  UNUSED(context);
  UNUSED(arg);
  if (sample == D1_TIMER_ISR_SPURIOUS)
    {
      g_spurious++;
      return OK;
    }

  /* The boundary on the time CSR; more than one period since the last
   * one (or since the start) means periods whose interrupt never ran.
   */

  boundary = d1_time_now() - sample;
  n = (boundary - g_last_boundary + BENCH_CLOCKS / 2) / BENCH_CLOCKS;
  if (n > 1)
    {
      d1_lat_missed(&g_lat_irq, (uint32_t)(n - 1));
    }
  else
    {
      n = 1;
    }

  g_last_boundary = boundary;
  d1_lat_record(&g_lat_irq, sample);
  g_boundary = boundary;
  g_boundaries += n;
  if (g_boundaries >= BENCH_PERIODS)
    {
      d1_timer_irq_enable(&g_bench_timer, false);
      g_done = true;
    }

  sem_post(&g_bench_sem);
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

/* One wake-up: its sample from the latest boundary, and the boundaries
 * since the last wake-up that it does not sample counted as missed.
 * Posts already there are for boundaries counted here; they are taken.
 */

static void bench_wake(uint64_t *accounted)
{
  irqstate_t flags;
  uint64_t now;
  uint64_t boundary;
  uint64_t total;

  flags = up_irq_save();
  now = d1_time_now();
  boundary = g_boundary;
  total = g_boundaries;
  up_irq_restore(flags);

  d1_lat_record(&g_lat_wake, (uint32_t)(now - boundary));
  if (total - *accounted > 1)
    {
      d1_lat_missed(&g_lat_wake, (uint32_t)(total - *accounted - 1));
    }

  *accounted = total;
  while (sem_trywait(&g_bench_sem) == 0)
    {
    }
}

/* Prints both reports of one recorder; a report that does not fit or a
 * failed write is said, and counts as a failed run (returns false).
 */

static bool bench_report(const char *what, struct d1_lat *lat)
{
  struct d1_lat_meta meta =
  {
    .os        = "nuttx",
    .board     = what,
    .load      = "none",
    .period_ns = (uint64_t)CONFIG_D1LIB_BENCH_PERIOD_US * 1000u,
  };

  bool ok = true;
  int err;

  err = d1_lat_report_text(lat, &meta, g_report, sizeof(g_report), NULL);
  if (err != D1_OK || fputs(g_report, stdout) == EOF)
    {
      ok = false;
    }

  if (err == D1_OK)
    {
      err = d1_lat_report_json(lat, &meta, g_report, sizeof(g_report),
                               NULL);
    }

  if (err != D1_OK || fputs(g_report, stdout) == EOF)
    {
      ok = false;
    }

  if (err != D1_OK)
    {
      printf("d1bench: %s report failed: %s\n", what, d1_strerror(err));
    }

  return ok;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

int main(int argc, char *argv[])
{
  struct sched_param param;
  struct d1_lat_summary sum;
  uint64_t accounted = 0;
  uint64_t t0;
  uint64_t t1;
  uint64_t seen = 0;
  int err;
  int ret = 0;
  bool ok;

  UNUSED(argc);
  UNUSED(argv);
  g_done = false;
  g_boundaries = 0;
  g_spurious = 0;

  err = d1_lat_init(&g_lat_irq, D1_TIME_HZ);
  if (err == D1_OK)
    {
      err = d1_lat_init(&g_lat_wake, D1_TIME_HZ);
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

  printf("d1bench: %u periods of %u us on Timer0, tick %u us\n",
         (unsigned)BENCH_PERIODS, (unsigned)CONFIG_D1LIB_BENCH_PERIOD_US,
         (unsigned)CONFIG_USEC_PER_TICK);

  /* Its failure stays in stdout's error indicator, checked at the end. */

  (void)fflush(stdout);

  up_enable_irq(BENCH_IRQ);
  t0 = d1_time_now();
  g_last_boundary = t0;
  d1_timer_start(&g_bench_timer, D1_TIMER_PERIODIC);
  d1_timer_irq_enable(&g_bench_timer, true);

  while (!g_done)
    {
      ret = bench_wait();
      if (ret < 0)
        {
          break;
        }

      bench_wake(&accounted);
      seen++;
    }

  t1 = d1_time_now();
  up_disable_irq(BENCH_IRQ);
  d1_timer_stop(&g_bench_timer);
  irq_detach(BENCH_IRQ);

  param.sched_priority = SCHED_PRIORITY_DEFAULT;
  sched_setscheduler(0, SCHED_FIFO, &param);
  sem_destroy(&g_bench_sem);

  if (ret < 0)
    {
      printf("d1bench: no Timer0 interrupt for %llu ms (error %d) after "
             "%llu of %u periods: stopped\n",
             (unsigned long long)(BENCH_WAIT_NS / 1000000u), ret,
             (unsigned long long)g_boundaries, (unsigned)BENCH_PERIODS);
      return 1;
    }

  /* Boundaries after the last wake-up's (the run's last ones, when the
   * thread ran late) are wake-ups missed.
   */

  if (g_boundaries > accounted)
    {
      d1_lat_missed(&g_lat_wake, (uint32_t)(g_boundaries - accounted));
    }

  d1_lat_summarize(&g_lat_irq, &sum);

  printf("run: %llu period boundaries = %lu samples + %lu missed, "
         "%llu us of time CSR; wake-ups %llu, spurious %lu\n",
         (unsigned long long)g_boundaries, (unsigned long)sum.samples,
         (unsigned long)sum.missed,
         (unsigned long long)((t1 - t0) / 24u),
         (unsigned long long)seen, (unsigned long)g_spurious);
  ok = bench_report("d1-lib-panel timer-irq", &g_lat_irq);
  ok = bench_report("d1-lib-panel task-wakeup", &g_lat_wake) && ok;
  return ok && fflush(stdout) != EOF && !ferror(stdout) ? 0 : 1;
}
