/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-platform hooks of the bench (platform_qemu.c / platform_d1.c): the
 * parts that exist only on one machine (the D1's watchdog and CCU).
 */
#ifndef BM_PLATFORM_H
#define BM_PLATFORM_H

#include <stdint.h>

#include "d1/plic.h"

/** First thing after SBI probing, before the console: D1 watchdog takeover. */
void bm_platform_early(void);
/** Print what bm_platform_early() found (after the console is up). */
void bm_platform_report(void);
/** A measured run starts (D1: the reset record, if a watchdog is armed). */
void bm_platform_run_begin(void);
/** A sample was recorded, from the tick ISR (D1: the reset record). */
void bm_platform_run_sample(uint64_t samples, uint64_t missed, uint64_t boundaries);
/** The run finished (D1: the reset record says so). */
void bm_platform_run_end(void);
/** Called from the bench's main loop, interrupts on, between loads, with the
 *  samples so far (D1: watchdog feed policy and its starvation option). */
void bm_platform_idle(uint64_t samples);
/** End of the bench: the status for bm_exit() (QEMU) or park (board). */
int bm_platform_finish(void);
/**
 * End a WFI once the `time` CSR has reached @p when (a few clocks after
 * it: the expiry's own latency), independent of any tick (UINT64_MAX
 * cancels). Needs bm_board_plic_init() on the D1 (D1_ESTATE otherwise).
 * D1: Timer0 one-shot through the library (PLIC source 75), which the
 * image then owns; re-armed from its interrupt while the deadline is
 * beyond one arm's reach. Not the SBI timer: on the board it never fires
 * (docs/hardware-facts.md "CLINT"). QEMU virt: SBI set_timer (sie.STIE).
 */
void bm_platform_wake_at(uint64_t when);

/** How the platform attaches an interrupt of its own (the D1's wake-up on
 *  Timer0): bm_board_plic_init() hands over bm_board_irq_attach(), so the
 *  platform never calls the board (the board calls the platform). */
typedef void (*bm_irq_attach_t)(unsigned source, d1_plic_handler_t fn, void *arg, unsigned prio);
void bm_platform_set_irq_attach(bm_irq_attach_t attach);

#if defined(BM_PLATFORM_D1)
/** D1: UART0 bus gate + reset through the CCU driver; returns its clock (APB1), Hz. */
uint32_t bm_d1_uart_clock_init(void);
#endif

#endif /* BM_PLATFORM_H */
