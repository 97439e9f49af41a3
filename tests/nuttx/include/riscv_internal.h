/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's arch/risc-v/src/common/riscv_internal.h with the
 * CSR macros of <arch/csr.h> and <arch/mode.h> (S-mode): what the PLIC
 * glue (d1_nuttx_plic.c) calls. The interrupt-enable CSR is a variable of
 * the test (nx_csr_ie); riscv_doirq() is the test's NuttX dispatch.
 */
#ifndef D1_TEST_NUTTX_RISCV_INTERNAL_H
#define D1_TEST_NUTTX_RISCV_INTERNAL_H

#include <stdint.h>

typedef uintptr_t uintreg_t;

extern uintptr_t nx_csr_ie;

#define CSR_IE               nx_csr_ie
#define IE_SIE               (1u << 1) /* SIE_SSIE */
#define IE_TIE               (1u << 5) /* SIE_STIE */
#define SET_CSR(reg, bits)   ((reg) |= (uintptr_t)(bits))
#define CLEAR_CSR(reg, bits) ((reg) &= ~(uintptr_t)(bits))

void riscv_exception_attach(void);
uintreg_t *riscv_doirq(int irq, uintreg_t *regs);
void riscv_color_intstack(void);

#endif
