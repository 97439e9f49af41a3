/****************************************************************************
 * ports/nuttx/d1_nuttx_plic.c
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

/* The PLIC through the library's d1_plic driver, in place of the chip's
 * allwinner_d1_irq.c (enable, disable, initialisation) and
 * allwinner_d1_irq_dispatch.c (claim and completion).
 *
 * The board links with --wrap for up_irqinitialize, up_enable_irq,
 * up_disable_irq and riscv_dispatch_irq (scripts/Make.defs), so every
 * call lands here.  An external interrupt is one claim through the
 * library's lean entry, d1_plic_claim_begin() / d1_plic_claim_end(): a
 * claim of 0 is counted as spurious, an id above the handle's sources is
 * completed, masked and counted as foreign (d1_plic_stats), any other goes
 * to NuttX's riscv_doirq() (which may switch context: the register pointer
 * it returns goes back to the trap) and is completed after it, as the
 * chip's dispatch does.  up_disable_irq() of a source in service completes
 * it before masking it (the PLIC drops a completion for a masked source:
 * include/d1/plic.h); an unattached source is NuttX's irq_unexpected_isr().
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <arch/irq.h>

#include "riscv_internal.h"

#include "d1/memmap.h"
#include "d1/plic.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_PLIC

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1_NX_RV_IRQ_MASK  59   /* scause interrupt bit, shifted to bit 4 */

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's __wrap_ names */

void __wrap_up_irqinitialize(void);
void __wrap_up_enable_irq(int irq);
void __wrap_up_disable_irq(int irq);
void *__wrap_riscv_dispatch_irq(uintptr_t vector, uintptr_t *regs);

/* NOLINTEND(bugprone-reserved-identifier) */

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_plic g_d1_nx_plic;
static struct d1_plic_stats g_d1_nx_plic_stats;

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: __wrap_up_irqinitialize
 *
 * Description:
 *   S-mode context of hart 0: every source masked, priority 1 (as the chip
 *   sets them), threshold 0.  Nothing is claimed here: with every source
 *   masked a claim reads 0 (the chip's claim-and-complete after masking,
 *   which this replaces, never completes anything), and a source that
 *   firmware left in service cannot be found by a claim (neither OpenSBI
 *   nor U-Boot uses the S-mode context).
 *
 ****************************************************************************/

void __wrap_up_irqinitialize(void)
{
  unsigned int src;

  up_irq_save();
  riscv_exception_attach();

  if (d1_plic_init(&g_d1_nx_plic, D1_PLIC_BASE, D1_PLIC_CTX_S,
                   D1_PLIC_NSOURCES, 0u) != D1_OK)
    {
      PANIC();
    }

  for (src = 1u; src <= D1_PLIC_NSOURCES; src++)
    {
      d1_plic_set_priority(&g_d1_nx_plic, src, 1u);
    }

#ifndef CONFIG_SUPPRESS_INTERRUPTS
  riscv_color_intstack();
  up_irq_enable();
#endif
}

/****************************************************************************
 * Name: __wrap_up_enable_irq, __wrap_up_disable_irq
 ****************************************************************************/

void __wrap_up_enable_irq(int irq)
{
  if (irq == RISCV_IRQ_SOFT)
    {
      SET_CSR(CSR_IE, IE_SIE);
    }
  else if (irq == RISCV_IRQ_TIMER)
    {
      SET_CSR(CSR_IE, IE_TIE);
    }
  else if (irq > RISCV_IRQ_EXT)
    {
      d1_plic_enable(&g_d1_nx_plic, (unsigned int)(irq - RISCV_IRQ_EXT));
    }
}

void __wrap_up_disable_irq(int irq)
{
  if (irq == RISCV_IRQ_SOFT)
    {
      CLEAR_CSR(CSR_IE, IE_SIE);
    }
  else if (irq == RISCV_IRQ_TIMER)
    {
      CLEAR_CSR(CSR_IE, IE_TIE);
    }
  else if (irq > RISCV_IRQ_EXT)
    {
      d1_plic_disable(&g_d1_nx_plic, (unsigned int)(irq - RISCV_IRQ_EXT));
    }
}

/****************************************************************************
 * Name: __wrap_riscv_dispatch_irq
 ****************************************************************************/

void *__wrap_riscv_dispatch_irq(uintptr_t vector, uintptr_t *regs)
{
  struct d1_plic_frame frame;
  int irq = (int)((vector >> D1_NX_RV_IRQ_MASK) | (vector & 0xf));
  unsigned int src;

  if (irq != RISCV_IRQ_EXT)
    {
      return riscv_doirq(irq, regs);
    }

  /* One claim through the library's lean entry (a claim of 0 and a
   * foreign id are counted there); NuttX's own table dispatches it.  The
   * frame lets up_disable_irq() from the handler complete the source
   * before masking it; all D1 sources NuttX attaches are level-high.
   */

  src = d1_plic_claim_begin(&g_d1_nx_plic, &frame, &g_d1_nx_plic_stats);
  if (src != 0u)
    {
      regs = riscv_doirq(RISCV_IRQ_EXT + (int)src, regs);
      d1_plic_claim_end(&g_d1_nx_plic, &frame, &g_d1_nx_plic_stats);
    }

  return regs;
}

/****************************************************************************
 * Name: d1_nx_plic_get_stats
 ****************************************************************************/

void d1_nx_plic_get_stats(struct d1_plic_stats *out)
{
  irqstate_t flags = up_irq_save();

  *out = g_d1_nx_plic_stats;
  up_irq_restore(flags);
}

#endif /* CONFIG_D1LIB_PLIC */
