/* SPDX-License-Identifier: Apache-2.0 */
/*
 * D1 build of the lossless-receive test (tests/qemu/uart_rx.c,
 * unchanged): the same image logic, with one step added after the console
 * comes up at 115200 baud: a BUSY-safe reconfigure while the transmitter is
 * busy, to UART_RX_BAUD (via 1,500,000 baud when UART_RX_BAUD is 115200, so
 * the divisor really changes on both runs). d1_uart_configure() must wait
 * for USR.BUSY = 0 (the DW UART ignores LCR/DLL/DLH writes while BUSY) and
 * verify its writes; the image reports whether BUSY was set when it was
 * called and what the driver counted. Run by tests/emu/uart_rx_d1.py on the
 * emulated D1 (emu/qemu-d1), whose UART checks the programmed baud against
 * the line (dw-apb-uart.line-baud).
 */
#include "bm.h"
#include "bm_board.h"
#include "d1/mmio.h"
#include "d1/uart.h"
#include "d1/uart_regs.h"

#ifndef UART_RX_BAUD
#define UART_RX_BAUD 1500000u
#endif
#ifndef UART_RX_BYTES
#define UART_RX_BYTES 65536u /* 64 KiB */
#endif

static void reconfigure_busy(uint32_t baud, uint8_t rx_trigger)
{
	const struct d1_uart_config cfg = {
	        .baud = baud,
	        .data_bits = 8u,
	        .parity = D1_UART_PARITY_NONE,
	        .stop_bits = 1u,
	        .fifo = true,
	        .rx_trigger = rx_trigger,
	        .tx_trigger = 0u,
	};
	uint32_t achieved = 0;
	struct d1_uart_stats st;

	/* Fill the TX FIFO (64 bytes) so the transmitter is busy now. */
	bm_puts("RECONF filling the TX FIFO: 0123456789abcdef0123456789abcdef"
	        "0123456789abcdef0123456789abcdef0123456789abcdef\n");
	uint32_t busy = d1_mmio_read32(BM_UART_BASE + D1_UART_USR_OFFSET) & D1_UART_USR_BUSY_BITS;
	bm_check(d1_uart_configure(&bm_uart, &cfg, &achieved), "d1_uart_configure (busy)");
	d1_uart_get_stats(&bm_uart, &st);
	bm_printf("RECONF baud=%u achieved=%u busy_at_call=%u busy_detect=%u lcr_retries=%u\n",
	          baud, achieved, busy, st.busy_detect, st.lcr_retries);
}

static void console_init_then_reconfigure(uint8_t rx_trigger)
{
	bm_board_console_init(rx_trigger);
	if (UART_RX_BAUD == 115200u) {
		reconfigure_busy(1500000u, rx_trigger);
	}
	reconfigure_busy(UART_RX_BAUD, rx_trigger);
}

#define bm_board_console_init console_init_then_reconfigure
// The QEMU test itself, on the D1's UART0 with the console init above.
#include "../qemu/uart_rx.c" // NOLINT(bugprone-suspicious-include): one test, two boards
