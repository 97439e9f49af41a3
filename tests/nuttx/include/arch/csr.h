/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <arch/csr.h> (arch/risc-v/include/csr.h): READ_CSR()
 * of the time CSR reads the host test's model clock (nx_standin.c).
 */
#ifndef D1_TEST_ARCH_CSR_H
#define D1_TEST_ARCH_CSR_H

#include <stdint.h>

#define CSR_TIME 0xc01

uint64_t nx_standin_read_csr(unsigned csr);

#define READ_CSR(reg) nx_standin_read_csr(reg)

#endif
