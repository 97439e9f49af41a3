/****************************************************************************
 * bench/nuttx/apps/d1bench/d1bench_svc.c
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

/* "d1bench svc [load]": the comparison's OS-service measurements under
 * NuttX (include/d1/bench_svc.h defines them once for every OS; the core
 * checks and records each sample): clock_gettime(CLOCK_MONOTONIC) per
 * call, the hand-off of a pthread mutex and of a semaphore to a blocked
 * higher-priority thread, pthread_create to the new thread's first
 * statement and to pthread_join's return.
 *
 * The bench thread runs at SVC_PRIO_LOW, the waiter and each created
 * thread at SVC_PRIO_HIGH, both SCHED_FIFO above the load's threads.
 * Every wait is bounded (SVC_WAIT_NS); a wait that expires is a failed
 * sample (d1_svc_fail()) and ends that measurement's run.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "d1/bench_svc.h"
#include "d1/error.h"
#include "d1/latency.h"
#include "d1/time.h"
#include "d1bench.h"

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define SVC_PRIO_LOW   200
#define SVC_PRIO_HIGH  210

/* The longest wait for the other thread: 1 s beyond the core's limit. */

#define SVC_WAIT_NS    2000000000ull

/* Clock steps observed to find the clock's resolution, and the longest
 * the search may take (`time` counts: 2 s).
 */

#define SVC_STEPS      8
#define SVC_STEP_LIMIT (2ull * D1_TIME_HZ)

/****************************************************************************
 * Private Data
 ****************************************************************************/

/* One recorder and run per measurement: the reports are printed at the
 * end, once the load (which writes to the console) has stopped.
 */

static struct d1_lat g_svc_lat[D1_SVC_COUNT];
static struct d1_svc_run g_svc_run[D1_SVC_COUNT];
static const char *g_svc_api[D1_SVC_COUNT];
static struct d1_svc_run *g_run;
static pthread_mutex_t g_mutex;
static sem_t g_go;
static sem_t g_done;
static volatile uint64_t g_t0;
static volatile uint64_t g_t1;
static volatile bool g_more;
static const char *g_svc_load;
static char g_clock_api[96];
static char g_clock_res[128];

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* An absolute deadline SVC_WAIT_NS from now on clock @id. */

static void svc_deadline(clockid_t id, struct timespec *ts)
{
  uint64_t ns;

  clock_gettime(id, ts);
  ns = (uint64_t)ts->tv_nsec + SVC_WAIT_NS;
  ts->tv_sec += (time_t)(ns / 1000000000u);
  ts->tv_nsec = (long)(ns % 1000000000u);
}

/* sem_clockwait() bounded by SVC_WAIT_NS; 0 or an errno value. */

static int svc_wait(sem_t *sem)
{
  struct timespec deadline;
  int ret;

  svc_deadline(CLOCK_MONOTONIC, &deadline);
  do
    {
      ret = sem_clockwait(sem, CLOCK_MONOTONIC, &deadline) < 0 ? errno : 0;
    }
  while (ret == EINTR);

  return ret;
}

/* Sets the calling thread's SCHED_FIFO priority. */

static void svc_prio(int prio)
{
  struct sched_param param;

  param.sched_priority = prio;
  sched_setscheduler(0, SCHED_FIFO, &param);
}

/* Attributes of a thread at SVC_PRIO_HIGH, SCHED_FIFO, default stack. */

static void svc_attr(pthread_attr_t *attr)
{
  struct sched_param param;

  pthread_attr_init(attr);
  pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
  pthread_attr_setschedpolicy(attr, SCHED_FIFO);
  param.sched_priority = SVC_PRIO_HIGH;
  pthread_attr_setschedparam(attr, &param);
}

/* A run's reports (d1bench_print()), after a line with its counts. */

static bool svc_report(const struct d1_svc_run *run, const char *api)
{
  struct d1_lat_meta meta =
  {
    .os          = "nuttx",
    .board       = "allwinner-d1",
    .load        = g_svc_load,
    .period_ns   = 0,
    .measurement = d1_svc_name(run->what),
    .wake        = api,
  };

  printf("d1svc: %s %lu samples, %lu failed\n", meta.measurement,
         (unsigned long)run->taken, (unsigned long)run->failed);
  return d1bench_print(run->lat, &meta);
}

/* clock-read: batches of D1_SVC_CLOCK_BATCH clock_gettime() calls; then
 * the clock's resolution, from clock_getres() and from the smallest step
 * seen between two consecutive reads that differ.
 */

static bool svc_clock(void)
{
  struct timespec ts;
  struct timespec prev;
  uint64_t step = UINT64_MAX;
  uint64_t t0;
  uint64_t t1;
  uint64_t ns;
  int steps;
  int i;

  g_run = &g_svc_run[D1_SVC_CLOCK_READ];
  do
    {
      t0 = d1_time_now();
      for (i = 0; i < (int)D1_SVC_CLOCK_BATCH; i++)
        {
          clock_gettime(CLOCK_MONOTONIC, &ts);
        }

      t1 = d1_time_now();
    }
  while (d1_svc_sample(g_run, t0, t1));

  t0 = d1_time_now();
  clock_gettime(CLOCK_MONOTONIC, &prev);
  steps = 0;
  while (steps < SVC_STEPS && d1_time_now() - t0 < SVC_STEP_LIMIT)
    {
      int64_t diff;

      clock_gettime(CLOCK_MONOTONIC, &ts);
      diff = (int64_t)(ts.tv_sec - prev.tv_sec) * 1000000000 +
             (ts.tv_nsec - prev.tv_nsec);
      if (diff > 0)
        {
          step = (uint64_t)diff < step ? (uint64_t)diff : step;
          steps++;
          prev = ts;
        }
    }

  clock_getres(CLOCK_MONOTONIC, &ts);
  ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  (void)snprintf(g_clock_res, sizeof(g_clock_res),
           "d1svc: clock-read resolution: getres %llu ns, observed step "
           "%llu ns (%d steps)", (unsigned long long)ns,
           (unsigned long long)(steps > 0 ? step : 0), steps);
  (void)snprintf(g_clock_api, sizeof(g_clock_api),
           "clock_gettime(CLOCK_MONOTONIC), step %llu ns",
           (unsigned long long)(steps > 0 ? step : 0));
  g_svc_api[D1_SVC_CLOCK_READ] = g_clock_api;
  return steps > 0;
}

/* mutex-handoff.  The waiter, above the bench thread, blocks on the
 * mutex the bench thread holds; the bench thread's unlock wakes it.
 */

static void *svc_mutex_waiter(void *arg)
{
  (void)arg;
  while (svc_wait(&g_go) == 0 && g_more)
    {
      struct timespec deadline;
      uint64_t t1;
      int ret;

      svc_deadline(CLOCK_REALTIME, &deadline);
      ret = pthread_mutex_timedlock(&g_mutex, &deadline);
      t1 = d1_time_now();
      if (ret == 0)
        {
          g_more = d1_svc_sample(g_run, g_t0, t1);
          pthread_mutex_unlock(&g_mutex);
        }
      else
        {
          g_more = d1_svc_fail(g_run);
        }

      sem_post(&g_done);
    }

  return NULL;
}

/* semaphore-handoff: the waiter blocks on g_go; the post wakes it. */

static void *svc_sem_waiter(void *arg)
{
  (void)arg;
  while (g_more)
    {
      uint64_t t1;

      /* No post for SVC_WAIT_NS: the bench thread counts it */

      if (svc_wait(&g_go) != 0)
        {
          break;
        }

      t1 = d1_time_now();
      if (g_more)
        {
          g_more = d1_svc_sample(g_run, g_t0, t1);
        }

      sem_post(&g_done);
    }

  return NULL;
}

/* Runs one hand-off measurement; false if a wait expired. */

static bool svc_handoff(enum d1_svc what)
{
  pthread_attr_t attr;
  pthread_t waiter;
  bool ok = true;
  int ret;

  g_run = &g_svc_run[what];
  g_more = true;
  sem_init(&g_go, 0, 0);
  sem_init(&g_done, 0, 0);
  pthread_mutex_init(&g_mutex, NULL);
  svc_attr(&attr);
  ret = pthread_create(&waiter, &attr, what == D1_SVC_MUTEX_HANDOFF ?
                       svc_mutex_waiter : svc_sem_waiter, NULL);
  pthread_attr_destroy(&attr);
  if (ret != 0)
    {
      d1_svc_fail(g_run);
      pthread_mutex_destroy(&g_mutex);
      sem_destroy(&g_go);
      sem_destroy(&g_done);
      return false;
    }

  while (g_more && ok)
    {
      if (what == D1_SVC_MUTEX_HANDOFF)
        {
          /* The waiter runs at once, and blocks on the held mutex */

          pthread_mutex_lock(&g_mutex);
          sem_post(&g_go);
          g_t0 = d1_time_now();
          pthread_mutex_unlock(&g_mutex);
        }
      else
        {
          g_t0 = d1_time_now();
          sem_post(&g_go);
        }

      ok = svc_wait(&g_done) == 0;
    }

  if (!ok)
    {
      d1_svc_fail(g_run);
    }

  /* The waiter leaves its loop once it sees g_more false */

  g_more = false;
  sem_post(&g_go);
  pthread_join(waiter, NULL);
  pthread_mutex_destroy(&g_mutex);
  sem_destroy(&g_go);
  sem_destroy(&g_done);
  return ok;
}

/* thread-create: the new thread's first statement. */

static void *svc_thread(void *arg)
{
  g_t1 = d1_time_now();
  return arg;
}

/* thread-create and thread-create-join, one thread per sample of both. */

static bool svc_create(void)
{
  struct d1_svc_run *create = &g_svc_run[D1_SVC_THREAD_CREATE];
  struct d1_svc_run *join = &g_svc_run[D1_SVC_THREAD_JOIN];
  pthread_attr_t attr;
  bool more = true;
  int ret = 0;

  svc_attr(&attr);
  while (more)
    {
      pthread_t t;
      uint64_t t0;
      uint64_t t2;

      g_t1 = 0;
      t0 = d1_time_now();
      ret = pthread_create(&t, &attr, svc_thread, NULL);
      if (ret != 0)
        {
          d1_svc_fail(create);
          d1_svc_fail(join);
          break;
        }

      pthread_join(t, NULL);
      t2 = d1_time_now();

      /* A thread that had not run before its creator: g_t1 is 0, before
       * t0: a failed sample.
       */

      more = d1_svc_sample(create, t0, g_t1);
      more = d1_svc_sample(join, t0, t2) && more;
    }

  pthread_attr_destroy(&attr);
  if (ret != 0)
    {
      printf("d1svc: pthread_create failed: %d\n", ret);
    }

  return ret == 0;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

int d1bench_svc(bool load)
{
  static const char *const waits[] =
  {
    "mutex", "semaphore", "created thread"
  };

  bool ran[4];
  bool ok = true;
  int i;

  for (i = 0; i < (int)D1_SVC_COUNT; i++)
    {
      d1_svc_init(&g_svc_run[i], (enum d1_svc)i, &g_svc_lat[i]);
    }

  g_svc_api[D1_SVC_CLOCK_READ] = "clock_gettime(CLOCK_MONOTONIC)";
  g_svc_api[D1_SVC_MUTEX_HANDOFF] = "pthread_mutex";
  g_svc_api[D1_SVC_SEM_HANDOFF] = "sem_post/sem_wait";
  g_svc_api[D1_SVC_THREAD_CREATE] = "pthread_create";
  g_svc_api[D1_SVC_THREAD_JOIN] = "pthread_create+pthread_join";
  g_svc_load = load ? "memcpy+uart" : "idle";
  printf("d1svc: clock-read, mutex-handoff, semaphore-handoff, "
         "thread-create(-join), load %s\n", g_svc_load);
  (void)fflush(stdout);
  if (load && d1bench_load_start() != 0)
    {
      printf("d1svc: the load threads did not start\n");
      return 1;
    }

  svc_prio(SVC_PRIO_LOW);
  ran[0] = svc_clock();
  ran[1] = svc_handoff(D1_SVC_MUTEX_HANDOFF);
  ran[2] = svc_handoff(D1_SVC_SEM_HANDOFF);
  ran[3] = svc_create();
  svc_prio(SCHED_PRIORITY_DEFAULT);
  if (load)
    {
      d1bench_load_stop();
      printf("\n");
    }

  printf("%s\n", g_clock_res);
  if (!ran[0])
    {
      printf("d1svc: clock-read: the clock never stepped in %llu ms\n",
             SVC_STEP_LIMIT / (D1_TIME_HZ / 1000u));
      ok = false;
    }

  for (i = 1; i < 4; i++)
    {
      if (!ran[i])
        {
          printf("d1svc: the %s measurement stopped: no hand-off for "
                 "%llu ms, or a create failed\n", waits[i - 1],
                 SVC_WAIT_NS / 1000000u);
          ok = false;
        }
    }

  for (i = 0; i < (int)D1_SVC_COUNT; i++)
    {
      ok = svc_report(&g_svc_run[i], g_svc_api[i]) && ok;
    }

  return ok && fflush(stdout) != EOF && !ferror(stdout) ? 0 : 1;
}
