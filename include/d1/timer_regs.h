/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file timer_regs.h
 * @brief Register map of the D1 Timer block (Timer0/Timer1), base 0x02050000.
 *
 * Sources: D1 User Manual "Timer"; d1_unofficial.svd peripheral TIMER
 * (tmr_irq_en, tmr_irq_sta, tmr%s_ctrl/intv_value/cur_value); Linux
 * drivers/clocksource/timer-sun4i.c. Offsets are relative to the block base.
 */
#ifndef D1_TIMER_REGS_H
#define D1_TIMER_REGS_H

/** @defgroup d1_timer_regs Timer registers
 * @{ */
#define D1_TIMER_IRQ_EN_OFFSET  0x00u /**< bit n: Timer n IRQ enable. */
#define D1_TIMER_IRQ_STA_OFFSET 0x04u /**< bit n: Timer n pending, W1C. */
/** Bit of channel @p n in IRQ_EN / IRQ_STA. */
#define D1_TIMER_IRQ_BIT(n) (1u << (n))

#define D1_TIMER_CTRL_OFFSET(n) (0x10u + 0x10u * (n)) /**< TMRn_CTRL. */
/** TMRn_INTV_VALUE (N+1 rule: docs/hardware-facts.md "Timer"). */
#define D1_TIMER_INTV_OFFSET(n) (0x14u + 0x10u * (n))
#define D1_TIMER_CUR_OFFSET(n)  (0x18u + 0x10u * (n)) /**< TMRn_CUR_VALUE (counts down). */

#define D1_TIMER_CTRL_EN_LSB        0u    /**< Enable. */
#define D1_TIMER_CTRL_EN_BITS       0x1u  /**< Enable mask. */
#define D1_TIMER_CTRL_RELOAD_LSB    1u    /**< Load INTV into CUR (read-back unknown). */
#define D1_TIMER_CTRL_RELOAD_BITS   0x2u  /**< Reload mask. */
#define D1_TIMER_CTRL_CLK_SRC_LSB   2u    /**< Clock source: 0 LOSC, 1 OSC24M. */
#define D1_TIMER_CTRL_CLK_SRC_BITS  0xCu  /**< Clock source mask. */
#define D1_TIMER_CTRL_CLK_PRES_LSB  4u    /**< Prescaler: divide by 2^k. */
#define D1_TIMER_CTRL_CLK_PRES_BITS 0x70u /**< Prescaler mask. */
#define D1_TIMER_CTRL_MODE_LSB      7u    /**< 0 periodic, 1 single-shot. */
#define D1_TIMER_CTRL_MODE_BITS     0x80u /**< Mode mask. */

#define D1_TIMER_CLK_SRC_LOSC   0u /**< CLK_SRC value: 32.768 kHz LOSC. */
#define D1_TIMER_CLK_SRC_OSC24M 1u /**< CLK_SRC value: 24 MHz OSC24M. */
#define D1_TIMER_CHANNELS       2u /**< Timer0 and Timer1. */
/** @} */

#endif /* D1_TIMER_REGS_H */
