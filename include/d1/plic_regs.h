/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file plic_regs.h
 * @brief Register map of the T-Head C900 PLIC of the D1, base 0x10000000.
 *
 * Sources: d1_unofficial.svd peripheral PLIC (prio[n] 0x4*n with a 5-bit
 * priority field, ip[] 0x1000, mie[] 0x2000, sie[] 0x2080, ctrl 0x1FFFFC
 * bit 0, mth/mclaim 0x200000/0x200004, sth/sclaim 0x201000/0x201004); the
 * RISC-V PLIC specification (context strides 0x80 for enables and 0x1000
 * for threshold/claim); openC906 RTL and OpenSBI (PLIC_CTRL S_PER, M-mode
 * write only, reset 0). Offsets are relative to the PLIC base. The QEMU
 * `virt` PLIC (0x0C000000) has the same layout without PLIC_CTRL and with a
 * 3-bit priority.
 */
#ifndef D1_PLIC_REGS_H
#define D1_PLIC_REGS_H

/** @defgroup d1_plic_regs PLIC registers
 * @{ */
#define D1_PLIC_PRIO_OFFSET(src)     (4u * (src)) /**< Priority of source @p src (1..). */
#define D1_PLIC_PENDING_OFFSET(word) (0x1000u + 4u * (word)) /**< Pending bits 32*word.. (RO). */
/** Enable word @p word (sources 32*word..) of context @p ctx. */
#define D1_PLIC_ENABLE_OFFSET(ctx, word) (0x2000u + 0x80u * (ctx) + 4u * (word))
#define D1_PLIC_CTRL_OFFSET              0x1FFFFCu                     /**< T-Head PLIC_CTRL. */
#define D1_PLIC_THRESHOLD_OFFSET(ctx)    (0x200000u + 0x1000u * (ctx)) /**< Threshold of @p ctx. */
#define D1_PLIC_CLAIM_OFFSET(ctx)        (0x200004u + 0x1000u * (ctx)) /**< Claim/complete. */

#define D1_PLIC_PRIO_PRIORITY_LSB  0u     /**< Priority field (5 bits on the D1). */
#define D1_PLIC_PRIO_PRIORITY_BITS 0x1Fu  /**< Priority mask. */
#define D1_PLIC_CLAIM_ID_LSB       0u     /**< Claimed source id. */
#define D1_PLIC_CLAIM_ID_BITS      0x3FFu /**< Claim id mask (10 bits). */
#define D1_PLIC_CTRL_S_PER_LSB     0u     /**< 1: S-mode may access all PLIC registers but CTRL. */
#define D1_PLIC_CTRL_S_PER_BITS    0x1u   /**< S_PER mask. */

#define D1_PLIC_CTX_M              0u    /**< Context 0: hart 0 M-mode (MEIP). */
#define D1_PLIC_CTX_S              1u    /**< Context 1: hart 0 S-mode (SEIP). */
#define D1_PLIC_CONTEXTS           2u    /**< Contexts of the one C906 hart. */
#define D1_PLIC_PRIO_MAX           31u   /**< Highest priority on the D1 (5 bits). */
#define D1_PLIC_QEMU_VIRT_PRIO_MAX 7u    /**< Highest priority on QEMU virt (3 bits, QEMU 7.2). */
#define D1_PLIC_MAX_SOURCES        1023u /**< Highest source id the PLIC layout allows. */
/** @} */

#endif /* D1_PLIC_REGS_H */
