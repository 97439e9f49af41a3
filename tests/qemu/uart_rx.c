/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lossless interrupt-driven receive on QEMU virt: the host (tests/qemu/
 * uart_rx.py) feeds UART_RX_BYTES pseudo-random bytes into the ns16550a; the
 * unmodified UART driver drains them from the PLIC dispatch (d1_uart_isr)
 * into its RX ring, the main loop takes them with d1_uart_read() and
 * checksums them (FNV-1a 64). The image prints count, checksum and the
 * driver's counters; PASS needs all bytes and zero overrun/drop/error.
 *
 * It also measures the RX interrupt path in retired instructions (instret);
 * run under `-icount shift=0` for those to be instruction counts. Before
 * that, the D1's DW APB RX path (32-bit registers, RFL-sized reads) is
 * executed against a register file stand-in in RAM (IIR = RDA, RFL = 62
 * as at the full-2 trigger, LSR clean): an instruction count of the code
 * the D1 runs, not a measurement of the D1.
 */
#include <stddef.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/mmio.h"
#include "d1/uart_regs.h"

#ifndef UART_RX_BYTES
#define UART_RX_BYTES 131072u /* 128 KiB */
#endif
#ifndef UART_RX_TRIGGER
#define UART_RX_TRIGGER 3u /* FCR RT = 3: full - 2, 14 bytes of the 16-byte FIFO */
#endif
#define IDLE_END_US   3000000u /* end of input: 3 s without a byte */
#define FIRST_BYTE_US 30000000u

static uint8_t rx_ring[4096];

/* Instruction counts of the RX interrupt path (instret). */
static struct {
	uint64_t isr_calls;
	uint64_t isr_instret;      /* inside d1_uart_isr() */
	uint64_t dispatch_instret; /* d1_plic_isr(): claim, handler, complete, last claim */
	uint64_t ext_irqs;
	uint64_t bytes;
	/* Over the calls that moved bytes only: calls, bytes, instret. */
	uint64_t n, sx, sy;
} meas;

static void uart_irq(unsigned source, void *arg)
{
	(void)source;
	struct d1_uart *u = arg;
	uint64_t b0 = u->stats.rx_bytes;
	uint64_t i0 = bm_rdinstret();
	d1_uart_isr(u);
	uint64_t i1 = bm_rdinstret();
	uint64_t x = u->stats.rx_bytes - b0;
	uint64_t y = i1 - i0;
	meas.isr_instret += y;
	meas.bytes += x;
	meas.isr_calls++;
	if (x != 0u) {
		meas.n++;
		meas.sx += x;
		meas.sy += y;
	}
}

/* Fixed-point x100 ratio, for printing without floating point. */
static void print_ratio(const char *what, uint64_t num, uint64_t den)
{
	uint64_t x100 = den != 0u ? (num * 100u + den / 2u) / den : 0u;
	bm_printf("%s %lu.%02lu\n", what, (unsigned long)(x100 / 100u),
	          (unsigned long)(x100 % 100u));
}

/* The DW path against a RAM stand-in (see the top of the file). */
#define DW_PROBE_CALLS 200u
#define DW_PROBE_LEVEL 62u /* full - 2 of the D1's 64-byte FIFO */
static uint32_t dw_regs[64] __attribute__((aligned(4)));
static struct d1_uart dw_probe;
static uint8_t dw_ring[4096];

static void dw_path_probe(void)
{
	uint64_t busy = 0;
	uint64_t idle = 0;
	uint64_t bytes;
	uint8_t sink[256];

	bm_check(d1_uart_init(&dw_probe, (uintptr_t)dw_regs, 2u, 24000000u, 64u), "probe init");
	bm_check(d1_uart_irq_start(&dw_probe, dw_ring, sizeof dw_ring, NULL, 0u), "probe start");
	for (unsigned k = 0; k < DW_PROBE_CALLS; k++) {
		dw_regs[D1_UART_IIR] = 0xC0u | D1_UART_IID_RDA;
		dw_regs[D1_UART_RFL] = DW_PROBE_LEVEL;
		dw_regs[D1_UART_LSR] =
		        D1_UART_LSR_DR_BITS | D1_UART_LSR_THRE_BITS | D1_UART_LSR_TEMT_BITS;
		uint64_t i0 = bm_rdinstret();
		uint32_t ev = d1_uart_isr(&dw_probe);
		busy += bm_rdinstret() - i0;
		if (ev != D1_UART_EV_RX) {
			bm_puts("FAIL dw probe event mask\n");
		}
		while (d1_uart_read(&dw_probe, sink, sizeof sink) != 0u) {
		}
		dw_regs[D1_UART_IIR] = 0xC0u | D1_UART_IID_NONE;
		i0 = bm_rdinstret();
		(void)d1_uart_isr(&dw_probe);
		idle += bm_rdinstret() - i0;
	}
	bytes = dw_probe.stats.rx_bytes;
	bm_printf("MEAS dw_probe calls=%u bytes=%lu isr_instret=%lu idle_instret=%lu\n",
	          DW_PROBE_CALLS, (unsigned long)bytes, (unsigned long)busy, (unsigned long)idle);
	print_ratio("MEAS dw_probe_isr_instret_per_byte", busy, bytes);
	print_ratio("MEAS dw_probe_idle_instret_per_call", idle, DW_PROBE_CALLS);
}

/* The board's external-interrupt hook, with the whole dispatch measured. */
static void ext_irq_measured(void)
{
	uint64_t i0 = bm_rdinstret();
	bm_board_dispatch();
	meas.dispatch_instret += bm_rdinstret() - i0;
	meas.ext_irqs++;
}

/* WFI never sleeps longer than 50 ms (bm_platform_wake_at(): Timer0 on the
 * D1, where the SBI timer never fires; SBI set_timer on QEMU virt), so the
 * end-of-input timeout is checked even if no UART interrupt comes.
 * Counted: the WFIs that ended with no byte received. */
static uint64_t wakeups;

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early(); /* D1: stops the 16 s watchdog the machine left running */
	bm_board_console_init(UART_RX_TRIGGER);
	dw_path_probe();
	bm_board_plic_init(0u);
	bm_board_irq_attach(BM_UART_IRQ, uart_irq, &bm_uart, 1u);
	bm_set_ext_hook(ext_irq_measured);
	bm_check(d1_uart_irq_start(&bm_uart, rx_ring, sizeof rx_ring, NULL, 0u),
	         "d1_uart_irq_start");

	/* Polled output is still allowed in interrupt mode (d1_uart_putc). */
	bm_printf("READY %u\n", UART_RX_BYTES);
	bm_irq_enable();

	uint64_t count = 0;
	uint64_t fnv = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
	uint64_t last = bm_rdtime();
	uint64_t idle_limit = (uint64_t)FIRST_BYTE_US * (BM_TIMEBASE_HZ / 1000000u);
	uint8_t buf[256];
	for (;;) {
		uint32_t n = d1_uart_read(&bm_uart, buf, sizeof buf);
		if (n != 0u) {
			for (uint32_t i = 0; i < n; i++) {
				fnv = (fnv ^ buf[i]) * 0x100000001b3ull; /* FNV prime */
			}
			count += n;
			last = bm_rdtime();
			idle_limit = (uint64_t)IDLE_END_US * (BM_TIMEBASE_HZ / 1000000u);
			if (count >= UART_RX_BYTES) {
				break;
			}
			continue;
		}
		if (bm_rdtime() - last > idle_limit) {
			break;
		}
		/* Sleep until the next interrupt; SIE off around the check-then-wait
		 * so an interrupt between them still wakes the WFI. */
		bm_irq_disable();
		bool slept = d1_uart_rx_available(&bm_uart) == 0u;
		if (slept) {
			bm_platform_wake_at(bm_rdtime() + BM_TIMEBASE_HZ / 20u);
			bm_wfi();
		}
		bm_irq_enable(); /* the interrupt that ended the WFI is taken here */
		if (slept && d1_uart_rx_available(&bm_uart) == 0u) {
			wakeups++;
		}
	}
	bm_irq_disable();
	bm_platform_wake_at(UINT64_MAX);
	bm_printf("END lsr=%x iir=%x plic_pending=%x sip=%lx\n", d1_mmio_read8(BM_UART_BASE + 5u),
	          d1_mmio_read8(BM_UART_BASE + 2u), d1_mmio_read32(BM_PLIC_BASE + 0x1000u),
	          (unsigned long)BM_CSR_READ(sip));
	d1_uart_irq_stop(&bm_uart);

	struct d1_uart_stats st;
	d1_uart_get_stats(&bm_uart, &st);
	bm_printf("RESULT count=%lu fnv=%016lx\n", (unsigned long)count, (unsigned long)fnv);
	bm_printf("STATS rx_bytes=%lu overrun=%u framing=%u parity=%u brk=%u rx_dropped=%llu "
	          "busy_detect=%u rx_timeout_empty=%u isr_idle=%u\n",
	          (unsigned long)st.rx_bytes, st.overrun, st.framing, st.parity, st.brk,
	          (unsigned long long)st.rx_dropped, st.busy_detect, st.rx_timeout_empty,
	          st.isr_idle);
	bm_printf("PLIC dispatched=%u spurious=%u unhandled=%u traps_spurious=%lu\n",
	          bm_plic_stats.dispatched, bm_plic_stats.spurious, bm_plic_stats.unhandled,
	          (unsigned long)bm_spurious_traps());
	bm_printf("WAKEUPS %lu (WFIs that ended with no byte: the 50 ms wake-up, or an interrupt "
	          "without data)\n",
	          (unsigned long)wakeups);
	bm_printf("MEAS isr_calls=%lu bytes=%lu isr_instret=%lu\n", (unsigned long)meas.isr_calls,
	          (unsigned long)meas.bytes, (unsigned long)meas.isr_instret);
	print_ratio("MEAS bytes_per_irq", meas.bytes, meas.isr_calls);
	bm_printf("MEAS ext_irqs=%lu dispatch_instret=%lu\n", (unsigned long)meas.ext_irqs,
	          (unsigned long)meas.dispatch_instret);
	print_ratio("MEAS isr_instret_per_byte", meas.isr_instret, meas.bytes);
	print_ratio("MEAS dispatch_instret_per_byte", meas.dispatch_instret, meas.bytes);
	print_ratio("MEAS isr_instret_per_call", meas.isr_instret, meas.isr_calls);
	print_ratio("MEAS isr_instret_per_call_with_bytes", meas.sy, meas.n);
	print_ratio("MEAS bytes_per_call_with_bytes", meas.sx, meas.n);

	bool ok = count == UART_RX_BYTES && st.rx_bytes == count && st.overrun == 0u &&
	          st.framing == 0u && st.parity == 0u && st.brk == 0u && st.rx_dropped == 0u &&
	          bm_plic_stats.unhandled == 0u;
	bm_puts(ok ? "PASS uart_rx\n" : "FAIL uart_rx\n");
	return ok ? 0 : 1;
}
