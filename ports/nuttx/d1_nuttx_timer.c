/****************************************************************************
 * ports/nuttx/d1_nuttx_timer.c
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

/* A NuttX timer lower-half (/dev/timerN) on Timer0 (PLIC 75) through the
 * library's one-shot deadline API.
 *
 * Each period is a one-shot deadline, absolute in time CSR counts (24 MHz
 * from the same OSC24M as Timer0): the next deadline is the previous one
 * plus the period, so the ISR's latency never accumulates (no drift), and a
 * deadline already past when it is armed fires at once.  The ISR
 * acknowledges the channel (d1_timer_isr()), calls the upper half and
 * re-arms: a bounded, constant number of MMIO, no polling.  A period longer
 * than the counter's reach (D1_TIMER_ONESHOT_MAX clocks) is reached in
 * several arms; only the last one calls back.  settimeout() on a running
 * timer resets it, as NuttX's timer.h asks: a new period starts at the
 * call, armed the same way.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <nuttx/timers/timer.h>
#include <arch/irq.h>

#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_TIMER0

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1_NX_IRQ_TIMER0  (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER0)

/****************************************************************************
 * Private Types
 ****************************************************************************/

struct d1_nx_timer_s
{
  const struct timer_ops_s *ops;       /* Lower-half operations, first */
  struct d1_timer           t;         /* The library's handle */
  tccb_t                    callback;  /* Upper half's callback */
  void                     *arg;       /* Its argument */
  uint32_t                  timeout;   /* Period, us */
  uint64_t                  deadline;  /* End of this period, time CSR */
  bool                      started;   /* Between start and stop */
};

/****************************************************************************
 * Private Function Prototypes
 ****************************************************************************/

static int d1_nx_timer_start(struct timer_lowerhalf_s *lower);
static int d1_nx_timer_stop(struct timer_lowerhalf_s *lower);
static int d1_nx_timer_getstatus(struct timer_lowerhalf_s *lower,
                                 struct timer_status_s *status);
static int d1_nx_timer_settimeout(struct timer_lowerhalf_s *lower,
                                  uint32_t timeout);
static void d1_nx_timer_setcallback(struct timer_lowerhalf_s *lower,
                                    tccb_t callback, void *arg);
static int d1_nx_timer_maxtimeout(struct timer_lowerhalf_s *lower,
                                  uint32_t *maxtimeout);

/****************************************************************************
 * Private Data
 ****************************************************************************/

static const struct timer_ops_s g_d1_nx_timer_ops =
{
  .start       = d1_nx_timer_start,
  .stop        = d1_nx_timer_stop,
  .getstatus   = d1_nx_timer_getstatus,
  .settimeout  = d1_nx_timer_settimeout,
  .setcallback = d1_nx_timer_setcallback,
  .ioctl       = NULL,
  .maxtimeout  = d1_nx_timer_maxtimeout,
};

static struct d1_nx_timer_s g_d1_nx_timer0;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* Program Timer0 for lo->deadline (one MMIO sequence of the library's
 * one-shot arm).  Interrupts are off, or this is the ISR.
 */

static void d1_nx_timer_arm(struct d1_nx_timer_s *lo)
{
  d1_timer_oneshot_arm(&lo->t,
                       d1_nx_deadline_delay(d1_time_now(),
                                            lo->deadline,
                                            D1_TIMER_ONESHOT_MAX));
}

static int d1_nx_timer_isr(int irq, void *context, void *arg)
{
  struct d1_nx_timer_s *lo = arg;
  uint32_t next;

  UNUSED(irq);
  UNUSED(context);
  if (d1_timer_isr(&lo->t) == D1_TIMER_ISR_SPURIOUS)
    {
      return OK;  /* No expiry: counted by the library */
    }

  if (!lo->started)
    {
      return OK;  /* Stopped while the interrupt was on its way */
    }

  if (d1_nx_deadline_delay(d1_time_now(), lo->deadline,
                           D1_TIMER_ONESHOT_MAX) > 0)
    {
      d1_nx_timer_arm(lo);  /* An intermediate leg of a long period */
      return OK;
    }

  next = lo->timeout;
  if (lo->callback == NULL || !lo->callback(&next, lo->arg))
    {
      /* The one-shot has expired: the channel is idle already. */

      lo->started = false;
      return OK;
    }

  /* true asks for another period; a next interval of 0 is no new
   * interval: the period stays (as drivers/timers/timer_wdog.c has it).
   */

  if (next != 0u)
    {
      lo->timeout = next;
    }

  lo->deadline += (uint64_t)lo->timeout * D1_NX_TIME_PER_USEC;
  d1_nx_timer_arm(lo);
  return OK;
}

static int d1_nx_timer_start(struct timer_lowerhalf_s *lower)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;
  int ret = OK;

  flags = enter_critical_section();
  if (lo->started)
    {
      ret = -EBUSY;
    }
  else if (lo->timeout == 0u)
    {
      ret = -EPERM;
    }
  else
    {
      lo->deadline = d1_time_now() +
                     (uint64_t)lo->timeout * D1_NX_TIME_PER_USEC;
      lo->started  = true;
      d1_nx_timer_arm(lo);
    }

  leave_critical_section(flags);
  return ret;
}

static int d1_nx_timer_stop(struct timer_lowerhalf_s *lower)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  flags = enter_critical_section();
  lo->started = false;
  d1_timer_oneshot_cancel(&lo->t);
  leave_critical_section(flags);
  return OK;
}

static int d1_nx_timer_getstatus(struct timer_lowerhalf_s *lower,
                                 struct timer_status_s *status)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  flags = enter_critical_section();
  d1_nx_timer_status(lo->started, lo->callback != NULL, lo->timeout,
                     lo->deadline, d1_time_now(), status);
  leave_critical_section(flags);
  return OK;
}

static int d1_nx_timer_settimeout(struct timer_lowerhalf_s *lower,
                                  uint32_t timeout)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  if (timeout == 0u)
    {
      return -EINVAL;
    }

  /* NuttX's timer.h: set the timeout "and reset the timer".  A running
   * timer starts a new period now, re-armed like the ISR does it, but on
   * a channel still counting: the library disables it first and waits
   * its sync time (3 clocks of 24 MHz, 1 us), no polling.  A stopped
   * timer only keeps the value.
   */

  flags = enter_critical_section();
  lo->timeout = timeout;
  if (lo->started)
    {
      lo->deadline = d1_time_now() + (uint64_t)timeout * D1_NX_TIME_PER_USEC;
      d1_nx_timer_arm(lo);
    }

  leave_critical_section(flags);
  return OK;
}

static void d1_nx_timer_setcallback(struct timer_lowerhalf_s *lower,
                                    tccb_t callback, void *arg)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  flags = enter_critical_section();
  lo->callback = callback;
  lo->arg      = arg;
  leave_critical_section(flags);
}

static int d1_nx_timer_maxtimeout(struct timer_lowerhalf_s *lower,
                                  uint32_t *maxtimeout)
{
  /* Any 32-bit number of microseconds: longer periods take several arms. */

  UNUSED(lower);
  *maxtimeout = UINT32_MAX;
  return OK;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: d1_nuttx_timer0_register
 *
 * Description:
 *   Register Timer0 as a timer lower-half at path (e.g. "/dev/timer0").
 *   Call once, from board_late_initialize().
 *
 * Returned Value:
 *   OK, or a negated errno.
 *
 ****************************************************************************/

int d1_nuttx_timer0_register(const char *path)
{
  struct d1_nx_timer_s *lo = &g_d1_nx_timer0;
  int ret;

  lo->ops = &g_d1_nx_timer_ops;
  ret = d1_nuttx_errno(d1_timer_init(&lo->t, D1_TIMER_BASE, 0u,
                                     D1_OSC24M_HZ, D1_LOSC_HZ));
  if (ret < 0)
    {
      return ret;
    }

  ret = d1_nuttx_errno(d1_timer_set_clock(&lo->t, D1_TIMER_SRC_OSC24M, 0u));
  if (ret < 0)
    {
      return ret;
    }

  d1_timer_oneshot_cancel(&lo->t);
  ret = irq_attach(D1_NX_IRQ_TIMER0, d1_nx_timer_isr, lo);
  if (ret < 0)
    {
      return ret;
    }

  /* Timer0's bit in the Timer block's IRQ_EN (0 at reset): without it no
   * expiry reaches the PLIC.  No expiry is pending (cancelled above).
   */

  ret = d1_nuttx_errno(d1_timer_irq_enable(&lo->t, true));
  if (ret < 0)
    {
      irq_detach(D1_NX_IRQ_TIMER0);
      return ret;
    }

  up_enable_irq(D1_NX_IRQ_TIMER0);
  if (timer_register(path, (struct timer_lowerhalf_s *)lo) == NULL)
    {
      up_disable_irq(D1_NX_IRQ_TIMER0);
      d1_timer_irq_enable(&lo->t, false);
      irq_detach(D1_NX_IRQ_TIMER0);
      return -EEXIST;
    }

  return OK;
}

#endif /* CONFIG_D1LIB_TIMER0 */
