/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test uart_err: UART0 receive errors on the emulated D1, counted by the
 * library (struct d1_uart_stats), nothing lost beyond what is counted
 * (tests/emu/d1test_uart_err.py). The errors come from the machine's DW UART
 * (emu/qemu-d1/hw/char/dw-apb-uart.c): framing and parity errors injected
 * on every Nth character (-global dw-apb-uart.inject-fe-every / -pe-every),
 * breaks from the chardev (the mux's C-a b), overrun from a burst sent
 * while the image does not drain the FIFO.
 *
 * Phases, each started by a "UERR ready <phase>" line and ended by 300 ms
 * without a byte (tests/emu/d1test_uart_err.py sends and asserts):
 *   errors:  8E1, interrupt-driven RX through the PLIC; the host sends its
 *            stream with breaks in it; the image reports the delivered
 *            bytes' count and FNV-1a hash and the library's counters.
 *   overrun: interrupts off at the hart for 100 ms while a burst arrives;
 *            then drained; the delivered bytes are printed in hex.
 */
#include <stdbool.h>
#include <stddef.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/uart.h"

/* 1: the line with auto RTS/CTS (d1_uart_config::rtscts, DW MCR.AFCE):
 * the burst of the overrun phase must then arrive whole, with no overrun. */
#ifndef UERR_RTSCTS
#define UERR_RTSCTS 0
#endif

#define TICKS_PER_MS (D1_OSC24M_HZ / 1000u)
#define IDLE_END     ((uint64_t)300u * TICKS_PER_MS)
#define FIRST_WAIT   ((uint64_t)20000u * TICKS_PER_MS)

static uint8_t rx_ring[4096];
static uint8_t seen[4096];

static void uart_irq(unsigned source, void *arg)
{
	(void)source;
	(void)d1_uart_isr(arg);
}

static void stats_line(const char *phase)
{
	struct d1_uart_stats st;
	(void)d1_uart_get_stats(&bm_uart, &st);
	bm_printf("UERR stats_%s rx_bytes=%llu overrun=%u framing=%u parity=%u brk=%u "
	          "rx_dropped=%llu plic_spurious=%u plic_unhandled=%u\n",
	          phase, (unsigned long long)st.rx_bytes, st.overrun, st.framing, st.parity, st.brk,
	          (unsigned long long)st.rx_dropped, bm_plic_stats.spurious,
	          bm_plic_stats.unhandled);
}

/* Drain the ring until IDLE_END without a byte; hash, count, keep some. */
static void receive(const char *phase, bool keep)
{
	uint64_t fnv = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
	uint64_t count = 0;
	uint64_t last = d1_time_now();
	uint64_t limit = FIRST_WAIT;
	uint8_t buf[128];

	for (;;) {
		uint32_t n = d1_uart_read(&bm_uart, buf, sizeof buf);
		if (n != 0u) {
			for (uint32_t i = 0; i < n; i++) {
				fnv = (fnv ^ buf[i]) * 0x100000001b3ull; /* FNV prime */
				if (keep && count + i < sizeof seen) {
					seen[count + i] = buf[i];
				}
			}
			count += n;
			last = d1_time_now();
			limit = IDLE_END;
			continue;
		}
		if (d1_time_now() - last > limit) {
			break;
		}
	}
	bm_printf("UERR rx_%s count=%llu fnv=0x%016llx\n", phase, (unsigned long long)count,
	          (unsigned long long)fnv);
	if (keep) {
		bm_printf("UERR hex_%s data=", phase);
		for (uint64_t i = 0; i < count && i < sizeof seen; i++) {
			bm_printf("%02x", seen[i]);
		}
		bm_puts("\n");
	}
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(0u);
	const struct d1_uart_config cfg = {
	        .baud = 115200u,
	        .data_bits = 8u,
	        .parity = D1_UART_PARITY_EVEN,
	        .stop_bits = 1u,
	        .fifo = true,
	        .rx_trigger = 2u, /* half full: 32 of the 64-byte FIFO */
	        .tx_trigger = 0u,
	        .rtscts = UERR_RTSCTS != 0, /* auto-RTS: the burst waits, no overrun */
	};
	bm_check(d1_uart_configure(&bm_uart, &cfg, NULL), "d1_uart_configure 8E1");
	bm_board_plic_init(0u);
	bm_board_irq_attach(BM_UART_IRQ, uart_irq, &bm_uart, 1u);
	bm_check(d1_uart_irq_start(&bm_uart, rx_ring, sizeof rx_ring, NULL, 0u),
	         "d1_uart_irq_start");
	bm_irq_enable();

	bm_puts("UERR ready errors\n");
	receive("errors", true);
	stats_line("errors");

	/* Overrun: no draining while the burst arrives (the hart's interrupts
	 * off: the UART's line stays pending at the PLIC). */
	bm_irq_disable();
	bm_puts("UERR ready overrun\n");
	(void)d1_uart_drain(&bm_uart); /* the line above is out before the burst */
	uint64_t t0 = d1_time_now();
	while (d1_time_now() - t0 < (uint64_t)100u * TICKS_PER_MS) {
	}
	bm_irq_enable();
	receive("overrun", true);
	stats_line("overrun");

	bm_irq_disable();
	(void)d1_uart_irq_stop(&bm_uart);
	bm_printf("UERR end traps_spurious=%llu\n", (unsigned long long)bm_spurious_traps());
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
