/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test idle: the hart waits in WFI with no timer of any kind armed (the
 * watchdog stopped by the takeover, Timer0/1 never started, the firmware's
 * machine-timer compare at its "never" value ~0), until a UART0 byte
 * arrives through the PLIC. Under -icount ...,sleep=off nothing may then
 * advance the `time` CSR: on the D1 a compare of ~0 never fires, so the
 * emulator must not warp its clock to it (docs/emulator.md "Timing").
 *
 * Prints "IDLE ready t0=<time>", then after the byte
 * "IDLE woke t0=.. t1=.. byte=.. wakes=.. rx=.. watchdog=..", which
 * tests/emu/d1test_idle.py asserts.
 */
#include <stddef.h>
#include <stdint.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/time.h"
#include "d1/uart.h"

static uint8_t rx_ring[64];

static void uart_irq(unsigned source, void *arg)
{
	(void)source;
	(void)d1_uart_isr(arg);
}

int bm_main(uint64_t a0, uint64_t a1)
{
	uint64_t wakes = 0;
	uint8_t byte = 0;
	uint32_t n = 0;

	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early(); /* stops the watchdog the machine left running */
	bm_board_console_init(0u);
	bm_board_plic_init(0u);
	bm_board_irq_attach(BM_UART_IRQ, uart_irq, &bm_uart, 1u);
	bm_check(d1_uart_irq_start(&bm_uart, rx_ring, sizeof rx_ring, NULL, 0u),
	         "d1_uart_irq_start");
	bm_platform_report();

	uint64_t t0 = d1_time_now();
	bm_printf("IDLE ready t0=%llu\n", (unsigned long long)t0);
	(void)d1_uart_drain(&bm_uart); /* the line is out: no TX timer left */
	bm_irq_enable();
	while (n == 0u) {
		bm_wfi();
		wakes++;
		n = d1_uart_read(&bm_uart, &byte, 1u);
	}
	uint64_t t1 = d1_time_now();
	bm_irq_disable();
	(void)d1_uart_irq_stop(&bm_uart);
	bm_printf("IDLE woke t0=%llu t1=%llu byte=%u wakes=%llu spurious_traps=%llu\n",
	          (unsigned long long)t0, (unsigned long long)t1, (unsigned)byte,
	          (unsigned long long)wakes, (unsigned long long)bm_spurious_traps());
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
