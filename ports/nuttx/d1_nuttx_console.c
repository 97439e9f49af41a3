/****************************************************************************
 * ports/nuttx/d1_nuttx_console.c
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

/* up_putc() on UART0 through the library's polled d1_uart_putc(), for
 * configurations without NuttX's 16550 driver (which otherwise provides
 * it): the chip's start code and syslog need a low-level console even with
 * CONFIG_SERIAL off.  The line settings are the ones the firmware left
 * (115200 8N1 from U-Boot/OpenSBI); the chip's start code has enabled the
 * UART0 gate and pins.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdbool.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>

#include "d1/memmap.h"
#include "d1/uart.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_LOWCONSOLE

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

/* UART0's input clock: APB1 at 24 MHz as firmware leaves it (the upstream
 * board configures its 16550 console with the same 24 MHz).
 */

#define D1_NX_CONSOLE_CLK_HZ  D1_OSC24M_HZ
#define D1_NX_CONSOLE_FIFO    64u

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_uart g_d1_nx_console;
static bool g_d1_nx_console_ready;

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: up_putc
 *
 * Description:
 *   Polled output of one character to UART0 (a bounded wait for THRE in
 *   the library).  Safe from any context.
 *
 ****************************************************************************/

void up_putc(int ch)
{
  irqstate_t flags = up_irq_save();

  if (!g_d1_nx_console_ready)
    {
      g_d1_nx_console_ready =
        d1_uart_init(&g_d1_nx_console, D1_UART0_BASE, 2u,
                     D1_NX_CONSOLE_CLK_HZ, D1_NX_CONSOLE_FIFO) == D1_OK;
    }

  if (g_d1_nx_console_ready)
    {
      d1_uart_putc(&g_d1_nx_console, (uint8_t)ch);
    }

  up_irq_restore(flags);
}

#endif /* CONFIG_D1LIB_LOWCONSOLE */
