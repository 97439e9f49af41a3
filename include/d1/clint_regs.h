/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file clint_regs.h
 * @brief Register map of the C906 CLINT on the D1, base 0x14000000.
 *
 * Sources: openC906 RTL (offsets, 32-bit accesses only), d1_unofficial.svd
 * peripheral CLINT. No MTIME macro on purpose: the access faults on the C906
 * (docs/hardware-facts.md "CLINT").
 */
#ifndef D1_CLINT_REGS_H
#define D1_CLINT_REGS_H

/** @defgroup d1_clint_regs CLINT registers
 * @{ */
#define D1_CLINT_MSIP_OFFSET      0x0000u /**< M-mode software interrupt pending. */
#define D1_CLINT_MTIMECMPL_OFFSET 0x4000u /**< M timer compare, low word (M only). */
#define D1_CLINT_MTIMECMPH_OFFSET 0x4004u /**< M timer compare, high word (M only). */
#define D1_CLINT_SSIP_OFFSET      0xC000u /**< S-mode software interrupt pending. */
#define D1_CLINT_STIMECMPL_OFFSET 0xD000u /**< S timer compare, low word. */
#define D1_CLINT_STIMECMPH_OFFSET 0xD004u /**< S timer compare, high word. */
/** @} */

#endif /* D1_CLINT_REGS_H */
