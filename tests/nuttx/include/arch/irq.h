/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's RISC-V <arch/irq.h> (S-mode): RISCV_IRQ_SEXT is
 * RISCV_IRQ_ASYNC + 9 = 16 + 9, and PLIC source n is RISCV_IRQ_SEXT + n.
 */
#ifndef D1_TEST_NUTTX_ARCH_IRQ_H
#define D1_TEST_NUTTX_ARCH_IRQ_H

#define RISCV_IRQ_SSOFT  17 /* RISCV_IRQ_ASYNC + 1 */
#define RISCV_IRQ_STIMER 21 /* RISCV_IRQ_ASYNC + 5 */
#define RISCV_IRQ_SOFT   RISCV_IRQ_SSOFT
#define RISCV_IRQ_TIMER  RISCV_IRQ_STIMER
#define RISCV_IRQ_SEXT   25
#define RISCV_IRQ_EXT    RISCV_IRQ_SEXT

#endif
