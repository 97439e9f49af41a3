/****************************************************************************
 * ports/nuttx/d1_nuttx_perf.c
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

/* NuttX's high-resolution performance counter (up_perf_*(), the interface
 * perf_gettime() calls, so that osperf, critmon and the scheduler notes
 * time in counts instead of system ticks) on the RISC-V time CSR: 24 MHz
 * from OSC24M on the D1 (include/d1/time.h, docs/hardware-facts.md), one
 * count 41.667 ns, 64 bits wide, readable in S-mode.  The conversion is
 * exact (whole seconds, then the remainder in nanoseconds), not rounded to
 * a whole number of nanoseconds per count.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdint.h>
#include <time.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>

#include "d1/time.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_PERF

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: up_perf_init
 *
 * Description:
 *   The counter runs from reset; its rate is fixed (D1_TIME_HZ): nothing
 *   to set up, and the argument is not a rate this board could take.
 *
 ****************************************************************************/

void up_perf_init(void *arg)
{
  UNUSED(arg);
}

/****************************************************************************
 * Name: up_perf_gettime
 ****************************************************************************/

clock_t up_perf_gettime(void)
{
  return (clock_t)d1_time_now();
}

/****************************************************************************
 * Name: up_perf_getfreq
 ****************************************************************************/

unsigned long up_perf_getfreq(void)
{
  return D1_TIME_HZ;
}

/****************************************************************************
 * Name: up_perf_convert
 ****************************************************************************/

void up_perf_convert(clock_t elapsed, struct timespec *ts)
{
  uint64_t counts = elapsed > 0 ? (uint64_t)elapsed : 0;
  uint64_t rem = counts % D1_TIME_HZ;

  ts->tv_sec = (time_t)(counts / D1_TIME_HZ);
  ts->tv_nsec = (long)(rem * NSEC_PER_SEC / D1_TIME_HZ);
}

#endif /* CONFIG_D1LIB_PERF */
