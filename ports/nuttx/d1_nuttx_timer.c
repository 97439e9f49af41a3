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
 * library's d1_timer driver.
 *
 * The channel runs periodic with the source and prescaler the driver
 * chooses (D1_TIMER_SRC_AUTO): every 1 .. UINT32_MAX us is an exact
 * period.  The ISR acknowledges the channel and calls the upper half; a
 * callback that returns false (or none) stops the timer.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <nuttx/timers/timer.h>
#include <arch/irq.h>

#include "d1/memmap.h"
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
  const struct timer_ops_s *ops;  /* Lower-half operations, first */
  struct d1_timer           t;    /* The library's handle */
  tccb_t                    callback;
  void                     *arg;
  uint32_t                  timeout;  /* Period in us */
  bool                      started;
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
  .start      = d1_nx_timer_start,
  .stop       = d1_nx_timer_stop,
  .getstatus  = d1_nx_timer_getstatus,
  .settimeout = d1_nx_timer_settimeout,
  .setcallback = d1_nx_timer_setcallback,
  .ioctl      = NULL,
  .maxtimeout = d1_nx_timer_maxtimeout,
};

static struct d1_nx_timer_s g_d1_nx_timer0;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* Program a period of lo->timeout us and start counting.  The channel's
 * interrupt is off while this runs, so the ISR cannot race it.
 */

static int d1_nx_timer_arm(struct d1_nx_timer_s *lo)
{
  int err;

  err = d1_timer_stop(&lo->t);
  if (err == D1_OK)
    {
      err = d1_timer_set_clock(&lo->t, D1_TIMER_SRC_AUTO, 0u);
    }

  if (err == D1_OK)
    {
      err = d1_timer_set_period_ns(&lo->t, (uint64_t)lo->timeout * 1000u,
                                   NULL);
    }

  if (err == D1_OK)
    {
      err = d1_timer_start(&lo->t, D1_TIMER_PERIODIC);
    }

  if (err == D1_OK)
    {
      d1_timer_irq_ack(&lo->t);
      err = d1_timer_irq_enable(&lo->t, true);
    }

  return d1_nuttx_errno(err);
}

static void d1_nx_timer_halt(struct d1_nx_timer_s *lo)
{
  d1_timer_irq_enable(&lo->t, false);
  d1_timer_stop(&lo->t);
  d1_timer_irq_ack(&lo->t);
}

static int d1_nx_timer_isr(int irq, void *context, void *arg)
{
  struct d1_nx_timer_s *lo = arg;
  uint32_t next = lo->timeout;

  d1_timer_irq_ack(&lo->t);
  if (lo->callback == NULL || !lo->callback(&next, lo->arg))
    {
      /* Only mask the channel here: the stop and its clock-domain sync
       * wait are left to the next start or stop, in thread context.
       */

      d1_timer_irq_enable(&lo->t, false);
      lo->started = false;
    }
  else if (next != lo->timeout && next != 0u)
    {
      lo->timeout = next;
      if (d1_nx_timer_arm(lo) < 0)
        {
          d1_timer_irq_enable(&lo->t, false);
          lo->started = false;
        }
    }

  return OK;
}

static int d1_nx_timer_start(struct timer_lowerhalf_s *lower)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;
  int ret;

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
      ret = d1_nx_timer_arm(lo);
      lo->started = ret == OK;
    }

  leave_critical_section(flags);
  return ret;
}

static int d1_nx_timer_stop(struct timer_lowerhalf_s *lower)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  flags = enter_critical_section();
  d1_nx_timer_halt(lo);
  lo->started = false;
  leave_critical_section(flags);
  return OK;
}

static int d1_nx_timer_getstatus(struct timer_lowerhalf_s *lower,
                                 struct timer_status_s *status)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;

  flags = enter_critical_section();
  status->flags    = lo->started ? TCFLAGS_ACTIVE : 0;
  status->flags   |= lo->callback != NULL ? TCFLAGS_HANDLER : 0;
  status->timeout  = lo->timeout;
  status->timeleft = 0;
  if (lo->started)
    {
      /* d1_timer_remaining() is CUR + 1 clocks (the down-counter includes
       * zero), converted exactly and rounded down.
       */

      status->timeleft =
        (uint32_t)(d1_timer_clocks_to_ns(&lo->t,
                                         d1_timer_remaining(&lo->t)) /
                   1000u);
    }

  leave_critical_section(flags);
  return OK;
}

static int d1_nx_timer_settimeout(struct timer_lowerhalf_s *lower,
                                  uint32_t timeout)
{
  struct d1_nx_timer_s *lo = (struct d1_nx_timer_s *)lower;
  irqstate_t flags;
  int ret = OK;

  if (timeout == 0u)
    {
      return -EINVAL;
    }

  flags = enter_critical_section();
  lo->timeout = timeout;
  if (lo->started)
    {
      ret = d1_nx_timer_arm(lo);
    }

  leave_critical_section(flags);
  return ret;
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
  /* Every 1 .. UINT32_MAX us is an exact period: 24 clocks per us at
   * OSC24M / 1 up to 2^32 clocks (178 s), a prescaler beyond.
   */

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

  d1_nx_timer_halt(lo);
  ret = irq_attach(D1_NX_IRQ_TIMER0, d1_nx_timer_isr, lo);
  if (ret < 0)
    {
      return ret;
    }

  up_enable_irq(D1_NX_IRQ_TIMER0);
  if (timer_register(path, (struct timer_lowerhalf_s *)lo) == NULL)
    {
      up_disable_irq(D1_NX_IRQ_TIMER0);
      irq_detach(D1_NX_IRQ_TIMER0);
      return -EEXIST;
    }

  return OK;
}

#endif /* CONFIG_D1LIB_TIMER0 */
