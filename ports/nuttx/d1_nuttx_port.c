/****************************************************************************
 * ports/nuttx/d1_nuttx_port.c
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

/* The NuttX side of the library's OS contract (include/d1/port.h).
 *
 * The drivers need a bounded busy-wait and a nestable interrupt-disable.
 * The D1 has one hart and this board is FLAT, so masking local interrupts
 * (sstatus.SIE in S-mode) excludes every other context that may touch the
 * same registers.  The delay is the library's reference delay on the
 * RISC-V time CSR (include/d1/time.h), which runs from the 24 MHz OSC24M on
 * the D1: exact whatever the CPU clock, no loop calibration
 * (CONFIG_BOARD_LOOPSPERMSEC plays no part), safe with interrupts off and
 * from interrupt handlers.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdint.h>

#include <nuttx/irq.h>

#include "d1/port.h"
#include "d1/time.h"
#include "d1_nuttx.h"

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#ifdef CONFIG_SMP
#  error "d1_port_critical_enter() masks the local hart only"
#endif

/****************************************************************************
 * Public Data
 ****************************************************************************/

volatile uint32_t g_d1_nx_delay_stalls;

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: d1_port_delay_us, d1_port_critical_enter, d1_port_critical_exit
 *
 * Description:
 *   The library's port contract (include/d1/port.h).
 *
 ****************************************************************************/

void d1_port_delay_us(uint32_t us)
{
  /* A stopped time CSR ends the wait early instead of hanging: count it */

  if (d1_time_delay_us(us) != D1_OK)
    {
      g_d1_nx_delay_stalls++;
    }
}

uintptr_t d1_port_critical_enter(void)
{
  return (uintptr_t)up_irq_save();
}

void d1_port_critical_exit(uintptr_t state)
{
  up_irq_restore((irqstate_t)state);
}
