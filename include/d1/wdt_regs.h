/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file wdt_regs.h
 * @brief Register map of the D1 watchdog, relative to an instance base.
 *
 * The D1 has three instances with this one layout (Linux sun20i-d1 device
 * trees, U-Boot cpu_sunxi_ncat2.h): the timer-block WDT at 0x020500A0, the
 * riscv_wdt at 0x06011000 and R_WDOG at 0x07020400. Offsets below are from
 * the instance base; for the timer-block instance the SVD lists the same
 * registers as TIMER wdog_* at 0xA0 + offset.
 *
 * Sources: d1_unofficial.svd TIMER wdog_irq_en/irq_sta/soft_rst/ctrl/cfg/
 * mode/output_cfg (field positions); Linux and U-Boot sunxi_wdt.c
 * (`sun20i_wdt_reg`: CTRL/CFG/MODE at 0x10/0x14/0x18, key 0x16aa0000,
 * timeout shift 4, reset value 1); docs/hardware-facts.md "Watchdogs".
 *
 * Naming (for the SVD cross-check): register `wdog_<reg>` of the SVD is
 * `D1_WDT_<REG>_OFFSET`; field `<f>` is `D1_WDT_<REG>_<F>_LSB` / `_BITS`
 * with a leading `wdog_` removed from the field name.
 */
#ifndef D1_WDT_REGS_H
#define D1_WDT_REGS_H

/** @defgroup d1_wdt_regs Watchdog registers
 * @{ */
#define D1_WDT_IRQ_EN_OFFSET         0x00u /**< IRQ enable (SVD wdog_irq_en). */
#define D1_WDT_IRQ_EN_IRQ_EN_LSB     0u    /**< Interrupt enable. */
#define D1_WDT_IRQ_EN_IRQ_EN_BITS    0x1u  /**< Interrupt enable mask. */
#define D1_WDT_IRQ_STA_OFFSET        0x04u /**< IRQ status, W1C (SVD wdog_irq_sta). */
#define D1_WDT_IRQ_STA_IRQ_PEND_LSB  0u    /**< Interval reached (interrupt mode). */
#define D1_WDT_IRQ_STA_IRQ_PEND_BITS 0x1u  /**< Pending mask. */

#define D1_WDT_SOFT_RST_OFFSET           0x08u /**< Software reset (SVD wdog_soft_rst; timer-block only). */
#define D1_WDT_SOFT_RST_SOFT_RST_EN_LSB  0u          /**< 1 resets the SoC (with key). */
#define D1_WDT_SOFT_RST_SOFT_RST_EN_BITS 0x1u        /**< Soft reset mask. */
#define D1_WDT_SOFT_RST_KEY_FIELD_LSB    16u         /**< Key field, write-only. */
#define D1_WDT_SOFT_RST_KEY_FIELD_BITS   0xFFFF0000u /**< Key field mask. */

#define D1_WDT_CTRL_OFFSET         0x10u   /**< Restart (feed) register (SVD wdog_ctrl). */
#define D1_WDT_CTRL_RESTART_LSB    0u      /**< Restart the count. */
#define D1_WDT_CTRL_RESTART_BITS   0x1u    /**< Restart mask. */
#define D1_WDT_CTRL_KEY_FIELD_LSB  1u      /**< Restart key field [12:1], write-only. */
#define D1_WDT_CTRL_KEY_FIELD_BITS 0x1FFEu /**< Restart key mask. */

#define D1_WDT_CFG_OFFSET         0x14u /**< Configuration (SVD wdog_cfg). */
#define D1_WDT_CFG_MODE_LSB       0u    /**< Action on expiry: 1 reset system, 2 IRQ only. */
#define D1_WDT_CFG_MODE_BITS      0x3u  /**< Action mask. */
#define D1_WDT_CFG_CLK_SRC_LSB    8u /**< Count clock: 0 OSC24M/750 (32 kHz), 1 LOSC (SVD only). */
#define D1_WDT_CFG_CLK_SRC_BITS   0x100u      /**< Count clock mask. */
#define D1_WDT_CFG_KEY_FIELD_LSB  16u         /**< Key field, write-only. */
#define D1_WDT_CFG_KEY_FIELD_BITS 0xFFFF0000u /**< Key field mask. */

#define D1_WDT_MODE_OFFSET          0x18u       /**< Enable + interval (SVD wdog_mode). */
#define D1_WDT_MODE_EN_LSB          0u          /**< Enable. */
#define D1_WDT_MODE_EN_BITS         0x1u        /**< Enable mask. */
#define D1_WDT_MODE_INTV_VALUE_LSB  4u          /**< Interval index 0..0xB. */
#define D1_WDT_MODE_INTV_VALUE_BITS 0xF0u       /**< Interval index mask. */
#define D1_WDT_MODE_KEY_FIELD_LSB   16u         /**< Key field, write-only. */
#define D1_WDT_MODE_KEY_FIELD_BITS  0xFFFF0000u /**< Key field mask. */

#define D1_WDT_OUTPUT_CFG_OFFSET             0x1Cu /**< Reset pulse width (SVD wdog_output_cfg); unused. */
#define D1_WDT_OUTPUT_CFG_OUTPUT_CONFIG_LSB  0u     /**< Reset signal valid time. */
#define D1_WDT_OUTPUT_CFG_OUTPUT_CONFIG_BITS 0xFFFu /**< Reset signal valid time mask. */

#define D1_WDT_WINDOW 0x20u /**< Size of one instance's register window (dtsi `reg`). */

/** Key that CFG, MODE and SOFT_RST writes carry in [31:16]; without it the
 *  write is silently ignored (Linux D1 support, xboot, U-Boot NCAT2). */
#define D1_WDT_KEY 0x16AAu
/** D1_WDT_KEY in position: OR into every CFG/MODE/SOFT_RST write. */
#define D1_WDT_KEY_FIELD (D1_WDT_KEY << 16)
/** Restart key in CTRL[12:1] (sunxi_wdt.c `0x0a57 << 1`). */
#define D1_WDT_CTRL_KEY 0xA57u
/** The one value written to CTRL to feed: `0xA57 << 1 | 1` = 0x14AF. */
#define D1_WDT_FEED_VALUE                                                                          \
	((D1_WDT_CTRL_KEY << D1_WDT_CTRL_KEY_FIELD_LSB) | D1_WDT_CTRL_RESTART_BITS)

#define D1_WDT_CFG_MODE_RESET      1u     /**< CFG mode value: reset the whole system. */
#define D1_WDT_CFG_MODE_IRQ        2u     /**< CFG mode value: interrupt only. */
#define D1_WDT_CFG_CLK_SRC_HOSC32K 0u     /**< CFG clk_src: 24 MHz / 750 = 32 kHz (SVD HOSC_32K). */
#define D1_WDT_CFG_CLK_SRC_LOSC    1u     /**< CFG clk_src: 32.768 kHz LOSC (SVD LOSC_32K). */
#define D1_WDT_HOSC32K_HZ          32000u /**< Count clock with clk_src 0: 24 MHz / 750. */
/* The count clock with clk_src 1 is the LOSC: D1_LOSC_HZ (memmap.h). */
#define D1_WDT_INTV_MAX 0xBu /**< Largest defined interval index (16 s). */
/** @} */

#endif /* D1_WDT_REGS_H */
