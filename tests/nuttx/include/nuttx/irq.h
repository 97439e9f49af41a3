/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/irq.h>: interrupt masking as the host tests model it
 * (nx_standin.c counts the nesting depth).
 */
#ifndef D1_TEST_NUTTX_IRQ_H
#define D1_TEST_NUTTX_IRQ_H

#include <stdint.h>

typedef uintptr_t irqstate_t;

irqstate_t up_irq_save(void);
void up_irq_restore(irqstate_t flags);
irqstate_t enter_critical_section(void);
void leave_critical_section(irqstate_t flags);

#endif
