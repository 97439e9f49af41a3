/****************************************************************************
 * ports/nuttx/d1_nuttx_oneshot.c
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

/* Timer1 as a NuttX oneshot lower-half (the clock-count interface,
 * CONFIG_ONESHOT_COUNT) through the library's one-shot deadline API, for
 * the tickless kernel: NuttX's arch_alarm.c (CONFIG_ALARM_ARCH) builds
 * up_alarm_*() and up_timer_gettime() on it.
 *
 * The time base is the RISC-V time CSR: 64 bits at 24 MHz from the same
 * OSC24M as Timer1 (include/d1/memmap.h), read without MMIO and never
 * stopped.  Deadlines are absolute time CSR counts; each arm converts the
 * deadline to a relative one just before programming Timer1, so re-arm
 * cost never accumulates (no drift), and a deadline that is already past
 * or closer than D1_TIMER_ONESHOT_MIN_LEAD fires at once (the library arms
 * the minimum lead and counts it) instead of one counter wrap later.
 * A deadline beyond the counter's reach (D1_TIMER_ONESHOT_MAX clocks) is
 * reached in several arms; only the last one calls back.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdbool.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <nuttx/timers/arch_alarm.h>
#include <nuttx/timers/oneshot.h>
#include <arch/irq.h>

#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_ONESHOT

#ifndef CONFIG_ONESHOT_COUNT
#  error "CONFIG_D1LIB_ONESHOT needs CONFIG_ONESHOT_COUNT (Kconfig selects it)"
#endif

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1_NX_IRQ_TIMER1  (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER1)

/****************************************************************************
 * Private Types
 ****************************************************************************/

struct d1_nx_oneshot_s
{
  struct oneshot_lowerhalf_s lh;        /* NuttX lower half, first */
  struct d1_timer            t;         /* The library's Timer1 handle */
  uint64_t                   deadline;  /* Absolute, time CSR counts */
  bool                       armed;     /* A deadline is pending */
};

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's __wrap_ names */

void __wrap_up_timer_initialize(void);

/* NOLINTEND(bugprone-reserved-identifier) */

/****************************************************************************
 * Private Function Prototypes
 ****************************************************************************/

static clkcnt_t d1_nx_os_current(struct oneshot_lowerhalf_s *lower);
static void d1_nx_os_start(struct oneshot_lowerhalf_s *lower,
                           clkcnt_t delay);
static void d1_nx_os_absolute(struct oneshot_lowerhalf_s *lower,
                              clkcnt_t cnt);
static void d1_nx_os_cancel(struct oneshot_lowerhalf_s *lower);
static clkcnt_t d1_nx_os_max_delay(struct oneshot_lowerhalf_s *lower);

/****************************************************************************
 * Private Data
 ****************************************************************************/

static const struct oneshot_operations_s g_d1_nx_os_ops =
{
  .current        = d1_nx_os_current,
  .start          = d1_nx_os_start,
  .start_absolute = d1_nx_os_absolute,
  .cancel         = d1_nx_os_cancel,
  .max_delay      = d1_nx_os_max_delay,
};

static struct d1_nx_oneshot_s g_d1_nx_oneshot;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* Program Timer1 for the stored deadline.  Interrupts are off. */

static void d1_nx_os_arm(struct d1_nx_oneshot_s *lo)
{
  uint64_t now = d1_time_now();

  d1_timer_oneshot_arm(&lo->t,
                       d1_nx_deadline_delay(now, lo->deadline,
                                            D1_TIMER_ONESHOT_MAX));
  lo->armed = true;
}

static clkcnt_t d1_nx_os_current(struct oneshot_lowerhalf_s *lower)
{
  UNUSED(lower);
  return d1_time_now();
}

static void d1_nx_os_absolute(struct oneshot_lowerhalf_s *lower,
                              clkcnt_t cnt)
{
  struct d1_nx_oneshot_s *lo = (struct d1_nx_oneshot_s *)lower;
  irqstate_t flags = up_irq_save();

  lo->deadline = cnt;
  d1_nx_os_arm(lo);
  up_irq_restore(flags);
}

static void d1_nx_os_start(struct oneshot_lowerhalf_s *lower,
                           clkcnt_t delay)
{
  irqstate_t flags = up_irq_save();

  d1_nx_os_absolute(lower, d1_time_now() + delay);
  up_irq_restore(flags);
}

static void d1_nx_os_cancel(struct oneshot_lowerhalf_s *lower)
{
  struct d1_nx_oneshot_s *lo = (struct d1_nx_oneshot_s *)lower;
  irqstate_t flags = up_irq_save();

  d1_timer_oneshot_cancel(&lo->t);
  lo->armed = false;
  up_irq_restore(flags);
}

static clkcnt_t d1_nx_os_max_delay(struct oneshot_lowerhalf_s *lower)
{
  UNUSED(lower);
  return D1_TIMER_ONESHOT_MAX;
}

static int d1_nx_os_isr(int irq, void *context, void *arg)
{
  struct d1_nx_oneshot_s *lo = arg;

  UNUSED(irq);
  UNUSED(context);
  if (d1_timer_isr(&lo->t) == D1_TIMER_ISR_SPURIOUS)
    {
      return OK;  /* No expiry: counted by the library */
    }

  if (!lo->armed)
    {
      return OK;  /* Cancelled while the interrupt was on its way */
    }

  if (d1_nx_deadline_delay(d1_time_now(), lo->deadline,
                           D1_TIMER_ONESHOT_MAX) > 0)
    {
      d1_nx_os_arm(lo);  /* An intermediate leg of a long deadline */
      return OK;
    }

  lo->armed = false;
  oneshot_process_callback(&lo->lh);
  return OK;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: __wrap_up_timer_initialize
 *
 * Description:
 *   up_timer_initialize() of this board with CONFIG_D1LIB_ONESHOT: Timer1
 *   becomes the oneshot lower-half of arch_alarm.c, which then drives the
 *   tickless scheduler (or, without CONFIG_SCHED_TICKLESS, the tick).
 *
 ****************************************************************************/

void __wrap_up_timer_initialize(void)
{
  struct d1_nx_oneshot_s *lo = &g_d1_nx_oneshot;
  int err;

  err = d1_timer_init(&lo->t, D1_TIMER_BASE, 1u, D1_OSC24M_HZ, D1_LOSC_HZ);
  if (err == D1_OK)
    {
      err = d1_timer_set_clock(&lo->t, D1_TIMER_SRC_OSC24M, 0u);
    }

  if (err == D1_OK)
    {
      err = d1_timer_stop(&lo->t);
    }

  if (err != D1_OK || irq_attach(D1_NX_IRQ_TIMER1, d1_nx_os_isr, lo) < 0)
    {
      PANIC();
    }

  d1_timer_irq_ack(&lo->t);
  lo->lh.ops = &g_d1_nx_os_ops;
  oneshot_count_init(&lo->lh, D1_NX_TIME_HZ);

  up_disable_irq(RISCV_IRQ_STIMER);
  up_enable_irq(D1_NX_IRQ_TIMER1);
  if (d1_timer_irq_enable(&lo->t, true) != D1_OK)
    {
      PANIC();
    }

  up_alarm_set_lowerhalf(&lo->lh);
}

#endif /* CONFIG_D1LIB_ONESHOT */
