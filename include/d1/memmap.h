/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file memmap.h
 * @brief D1 physical base addresses and PLIC source numbers.
 *
 * Sources: Linux arch/riscv/boot/dts/allwinner/sunxi-d1s-t113.dtsi and
 * sun20i-d1s.dtsi (bases, `SOC_PERIPHERAL_IRQ(n)` = PLIC source n + 16),
 * U-Boot cpu_sunxi_ncat2.h (R_WDOG), openC906 RTL (CLINT), OpenSBI
 * platform/generic/allwinner/sun20i-d1.c (RISCV_CFG). Cross-checked against
 * d1_unofficial.svd by tests/test_regs_svd.c. Drivers never use these
 * directly: a port passes a base (physical or ioremapped) in each handle.
 */
#ifndef D1_MEMMAP_H
#define D1_MEMMAP_H

/** @defgroup d1_memmap D1 memory map
 * @{ */
#define D1_CCU_BASE       0x02001000u /**< Clock control unit. */
#define D1_TIMER_BASE     0x02050000u /**< Timer0/1 + timer-block watchdog. */
#define D1_TIMER_WDT_BASE 0x020500A0u /**< Timer-block watchdog (has SOFT_RST). */
#define D1_UART0_BASE     0x02500000u /**< UART0; UARTn = base + 0x400*n. */
#define D1_UART_STRIDE    0x400u      /**< Distance between UART instances. */
#define D1_UART_COUNT     6u          /**< UART0..UART5. */
#define D1_RISCV_CFG_BASE 0x06010000u /**< RISCV_CFG. */
#define D1_RISCV_WDT_BASE 0x06011000u /**< riscv_wdt (U-Boot may leave it on). */
#define D1_R_WDOG_BASE    0x07020400u /**< R_WDOG in the RTC/CPUS domain. */
#define D1_PLIC_BASE      0x10000000u /**< T-Head C900 PLIC. */
#define D1_PLIC_SIZE      0x04000000u /**< PLIC window size. */
#define D1_CLINT_BASE     0x14000000u /**< C906 CLINT (no MTIME register). */
#define D1_DRAM_BASE      0x40000000u /**< DRAM. */

#define D1_IRQ_UART(n)   (18u + (n)) /**< PLIC source of UARTn (n = 0..5). */
#define D1_IRQ_TIMER0    75u         /**< PLIC source of Timer0. */
#define D1_IRQ_TIMER1    76u         /**< PLIC source of Timer1. */
#define D1_IRQ_TIMER_WDT 79u         /**< PLIC source of the timer-block WDT. */
#define D1_IRQ_RISCV_WDT 147u        /**< PLIC source of riscv_wdt. */
#define D1_PLIC_NSOURCES 175u        /**< `riscv,ndev` of the D1 PLIC. */

#define D1_OSC24M_HZ 24000000u /**< OSC24M: 24 MHz (feeds Timer, time CSR). */
#define D1_LOSC_HZ   32768u    /**< Low-speed 32.768 kHz oscillator. */
/** @} */

#endif /* D1_MEMMAP_H */
