/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/irq.h>: interrupt masking as the host tests model it
 * (nx_standin.c and nx_line_host.c count the nesting depth; nx_uart_host.c
 * maps it onto the simulator's interrupt model) and irq_attach()/
 * irq_detach() (nx_uart_host.c, nx_line_host.c; the PLIC, timer and
 * watchdog tests their own).
 */
#ifndef D1_TEST_NUTTX_IRQ_H
#define D1_TEST_NUTTX_IRQ_H

#include <stdint.h>

typedef uintptr_t irqstate_t;

typedef int (*xcpt_t)(int irq, void *context, void *arg);

irqstate_t up_irq_save(void);
irqstate_t up_irq_enable(void);
void up_irq_restore(irqstate_t flags);
irqstate_t enter_critical_section(void);
void leave_critical_section(irqstate_t flags);
int irq_attach(int irq, xcpt_t isr, void *arg);
int irq_detach(int irq);

#endif
