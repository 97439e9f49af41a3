/****************************************************************************
 * ports/nuttx/d1_nuttx_tick.c
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

/* The system tick on Timer1 through the library's d1_timer driver, in
 * place of the chip's allwinner_d1_timerisr.c.
 *
 * The board links with --wrap=up_timer_initialize (scripts/Make.defs), so
 * the scheduler's call lands here and the chip's object, whose only public
 * symbol is up_timer_initialize(), is never pulled out of libarch.a.
 * docs/nuttx.md has the upstream Kconfig option that would replace this.
 *
 * USEC_PER_TICK = 1000 is 24,000 OSC24M clocks, programmed by the driver
 * as INTV = 23,999 (the counter includes zero: include/d1/timer.h).  With
 * a whole number of clocks per tick the interval never changes, so the ISR
 * only acknowledges the channel (one W1C write of its IRQ_STA bit) and
 * runs the scheduler: the same two MMIO on the tick path (with the PLIC
 * claim) as the chip's own handler.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stddef.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/irq.h>
#include <arch/irq.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_nuttx.h"

#if defined(CONFIG_D1LIB_TICK) && !defined(CONFIG_D1LIB_ONESHOT)

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1_NX_IRQ_TIMER1  (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER1)

/* One tick is USEC_PER_TICK us of OSC24M: a whole number of clocks for
 * any USEC_PER_TICK.  Not 24 MHz / TICK_PER_SEC: TICK_PER_SEC truncates
 * when USEC_PER_TICK does not divide a second (60,000 us gives 16, a
 * 62.5 ms tick; 3,000 us gives 333, not a whole number of clocks).
 */

#if (D1_OSC24M_HZ % USEC_PER_SEC) != 0
#  error "OSC24M must be a whole number of MHz"
#endif

#define D1_NX_TICK_CLOCKS \
  ((uint64_t)USEC_PER_TICK * (D1_OSC24M_HZ / USEC_PER_SEC))

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's __wrap_ names */

void __wrap_up_timer_initialize(void);

/* NOLINTEND(bugprone-reserved-identifier) */

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_timer g_d1_tick;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* arg is &g_d1_tick (irq_attach()): it arrives in a register, one
 * instruction cheaper than the address of the static.
 */

static int d1_nx_tick_isr(int irq, void *context, void *arg)
{
  /* The PLIC dispatched Timer1 because its status bit is set: only the
   * acknowledgement is needed (the library's store is followed by its
   * ordering fence, so it reaches the timer before the PLIC completion).
   * The inline, unchecked form: the handle was checked by
   * d1_timer_init() before this ISR was attached.
   */

  d1_timer_irq_ack_fast((const struct d1_timer *)arg);
  UNUSED(irq);
  UNUSED(context);
  nxsched_process_timer();
  return OK;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: __wrap_up_timer_initialize
 *
 * Description:
 *   up_timer_initialize() of this board (see the file comment).  Firmware
 *   may have left Timer1 running: it is stopped first.
 *
 ****************************************************************************/

void __wrap_up_timer_initialize(void)
{
  int err;

  err = d1_timer_init(&g_d1_tick, D1_TIMER_BASE, 1u, D1_OSC24M_HZ,
                      D1_LOSC_HZ);
  if (err == D1_OK)
    {
      err = d1_timer_set_clock(&g_d1_tick, D1_TIMER_SRC_OSC24M, 0u);
    }

  if (err == D1_OK)
    {
      err = d1_timer_set_period_clocks(&g_d1_tick, D1_NX_TICK_CLOCKS,
                                       NULL);
    }

  if (err == D1_OK)
    {
      err = d1_timer_stop(&g_d1_tick);
    }

  if (err != D1_OK)
    {
      PANIC();
    }

  if (irq_attach(D1_NX_IRQ_TIMER1, d1_nx_tick_isr, &g_d1_tick) < 0)
    {
      PANIC();
    }

  /* The tick comes from Timer1, not from the SBI supervisor timer.  The
   * driver's start clears a stale status bit before it enables the
   * channel; the channel's interrupt is enabled after it.
   */

  up_disable_irq(RISCV_IRQ_STIMER);
  up_enable_irq(D1_NX_IRQ_TIMER1);

  if (d1_timer_start(&g_d1_tick, D1_TIMER_PERIODIC) != D1_OK ||
      d1_timer_irq_enable(&g_d1_tick, true) != D1_OK)
    {
      PANIC();
    }
}

#endif /* CONFIG_D1LIB_TICK && !CONFIG_D1LIB_ONESHOT */
