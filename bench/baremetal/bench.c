/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Periodic-interrupt latency bench, bare metal S-mode.
 *
 * Boot: console through the UART driver, (D1) watchdog inherited from U-Boot
 * detected, reported and taken over, PLIC context 1 with the threshold
 * lowered, then N periods of the platform's tick source with one latency
 * sample per tick recorded by the latency recorder in the interrupt. Nothing
 * is printed during the measurement. Then the recorder's dump line, which
 * bench/tools/d1lat_dump.py (and bench/tools/d1lat_compare.py) turn into the report on
 * the host; with BENCH_DEVICE_REPORT=1 the device also prints the text
 * report and the JSON line itself (latency_report.c is then linked).
 * The run is bounded by the `time` CSR (BENCH_TIMEOUT_US, with a wake-up
 * that does not need the tick): past it the bench prints "FAIL bench:
 * timeout ...", "BENCH TIMEOUT" instead of "BENCH DONE", and exits 4.
 *
 * Tick data path (D1): trap entry (start.S) -> bm_trap -> PLIC claim
 * (d1_plic_isr) -> handler table (bm_board) -> Timer1 acknowledge +
 * capture (d1_bench_isr: d1_timer_isr, then `time`) -> accounting
 * (bench_irq: d1_bench_account, recorder) -> PLIC
 * complete. On QEMU virt only the source differs (SBI set_timer, STI).
 */
#include <stddef.h>

#include "bench.h"
#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "bm_stack.h"
#include "d1/bench.h"
#include "d1/latency.h"
#include "d1/port.h"

#ifndef BENCH_PERIODS
#define BENCH_PERIODS 20000u
#endif
#ifndef BENCH_PERIOD_US
#define BENCH_PERIOD_US 1000u
#endif
/* 1: also print the device-side text report and JSON line */
#ifndef BENCH_DEVICE_REPORT
#define BENCH_DEVICE_REPORT 0
#endif
/* 0 = none (WFI), 1 = busy loop, 2 = memory copy, 3 = the comparison's load
 * (docs/comparison.md): the copy, and UART0 transmitting a steady stream of
 * lines from its TX ring through its interrupt */
#ifndef BENCH_LOAD
#define BENCH_LOAD 0
#endif
/* 1: negative control of the run's bound: the tick is never started */
#ifndef BENCH_FAULT_NO_TICK
#define BENCH_FAULT_NO_TICK 0
#endif

/* The run's bound: the ideal run time plus half of it plus 1 s.
 * Past it the run stops, says "FAIL bench: timeout" and exits non-zero. */
#define BENCH_TIMEOUT_US ((uint64_t)BENCH_PERIODS * BENCH_PERIOD_US * 3u / 2u + 1000000u)

#define PERIOD_COUNTS ((uint32_t)((uint64_t)BENCH_PERIOD_US * BM_TIMEBASE_HZ / 1000000u))
_Static_assert((uint64_t)BENCH_PERIOD_US *BM_TIMEBASE_HZ % 1000000u == 0u,
               "the period must be a whole number of time-base counts");

static const char *const load_names[] = {"idle", "busy-loop", "memcpy-64KiB", "memcpy+uart"};

/* The recorder: 7,968 bytes for any run length (d1/latency.h), and the
 * library's accounting of the run (d1/bench.h: grid, samples, missed). */
static struct d1_lat lat;
static struct d1_bench bench;

static volatile bool done;

/* Console input while the bench runs is drained and counted, not echoed. */
static uint8_t uart_rx_ring[256];

#if BENCH_LOAD >= 2
static uint8_t copy_a[D1_BENCH_LOAD_COPY_BYTES], copy_b[D1_BENCH_LOAD_COPY_BYTES];
#endif
#if BENCH_LOAD == 3
/* The TX ring the UART interrupt empties: 16 lines, about 89 ms of line time. */
static uint8_t uart_tx_ring[1024];
static const char load_line[] = D1_BENCH_LOAD_LINE;
#define TX_RING_BUF  uart_tx_ring
#define TX_RING_SIZE sizeof uart_tx_ring
#else
#define TX_RING_BUF  NULL
#define TX_RING_SIZE 0u
#endif

void bench_grid_start(uint64_t now)
{
	bm_check(d1_bench_start(&bench, now), "d1_bench_start");
}

static uint64_t samples_so_far(void)
{
	struct d1_bench_stats st;

	(void)d1_bench_get_stats(&bench, &st);
	return st.boundaries - lat.missed;
}

struct d1_bench *bench_core(void)
{
	return &bench;
}

void bench_irq(enum d1_bench_irq_result r)
{
	if (r == D1_BENCH_SPURIOUS) {
		return;
	}
	/* No task here: the accounting runs in the interrupt, after the
	 * capture (the sample was taken before it). */
	r = d1_bench_account(&bench);
	if (r == D1_BENCH_SPURIOUS) {
		return;
	}
	bm_platform_run_sample(samples_so_far(), lat.missed, samples_so_far() + lat.missed);
	if (r == D1_BENCH_DONE) {
		bench_tick_stop();
		done = true;
	}
}

static void uart_irq(unsigned source, void *arg)
{
	(void)source;
	d1_uart_isr(arg);
}

static void background(void)
{
#if BENCH_LOAD == 0
	/* Check-then-sleep with SIE off: a tick between them still wakes WFI. */
	bm_irq_disable();
	if (!done) {
		bm_wfi();
	}
	bm_irq_enable();
#elif BENCH_LOAD == 1
	for (volatile uint32_t i = 0; i < 1000u; i = i + 1u) {
	}
#else
	__builtin_memcpy(copy_b, copy_a, sizeof copy_a); /* picolibc memcpy, 64 KiB */
#if BENCH_LOAD == 3
	/* A line whenever the ring has room: the interrupt keeps the FIFO fed,
	 * so the line stays busy at its baud. */
	if (TX_RING_SIZE - d1_uart_tx_pending(&bm_uart) >= sizeof load_line - 1u) {
		(void)d1_uart_write(&bm_uart, (const uint8_t *)load_line, sizeof load_line - 1u);
	}
#endif
#endif
}

/* The load's lines leave before the reports, which are written polled: with
 * interrupts still on, at most the ring's line time (bounded: 200 ms). */
static void load_drain(void)
{
#if BENCH_LOAD == 3
	uint64_t t = bm_rdtime();

	while (d1_uart_tx_pending(&bm_uart) != 0u &&
	       bm_rdtime() - t < (uint64_t)200000u * (BM_TIMEBASE_HZ / 1000000u)) {
	}
	(void)d1_uart_drain(&bm_uart);
#endif
}

#if BENCH_DEVICE_REPORT
static char report[D1_LAT_REPORT_SIZE];
#endif

static void put_console(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	while (n-- > 0u) {
		bm_putc(*s++);
	}
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early(); /* D1: watchdog takeover before anything slow */
	bm_board_console_init(2u);
	const struct bench_tick_info *ti = bench_tick_info();
	bm_printf("\nd1drivers bare-metal bench on %s: %u periods of %u us, tick %s, load %s\n",
	          BM_PLATFORM_NAME, BENCH_PERIODS, BENCH_PERIOD_US, ti->name,
	          load_names[BENCH_LOAD]);
	bm_printf("sbi: spec %u.%u impl %ld version 0x%lx, TIME %s, SRST %s\n",
	          bm_sbi_spec_version() >> 24, bm_sbi_spec_version() & 0xFFFFFFu, bm_sbi_impl_id(),
	          bm_sbi_impl_version(), bm_sbi_has_time() ? "yes" : "no",
	          bm_sbi_has_srst() ? "yes" : "no");
	bm_platform_report();

	bm_board_plic_init(0u); /* OpenSBI leaves the threshold at 7: lower it */
	bm_printf("plic: context %u, %u sources, priorities 1..%u, delegation checked, threshold "
	          "%u (left by firmware) -> 0\n",
	          BM_PLIC_CONTEXT, BM_PLIC_NSOURCES, bm_plic_prio_max(),
	          bm_board_plic_fw_threshold);
	bm_board_irq_attach(BM_UART_IRQ, uart_irq, &bm_uart, 1u);
	bm_check(d1_uart_irq_start(&bm_uart, uart_rx_ring, sizeof uart_rx_ring, TX_RING_BUF,
	                           TX_RING_SIZE),
	         "d1_uart_irq_start");
	bm_check(d1_lat_init(&lat, ti->clock_hz), "d1_lat_init");
	bm_check(d1_bench_init(&bench, &lat, NULL, PERIOD_COUNTS, BENCH_PERIODS), "d1_bench_init");
	bm_puts("measuring (silent until done)...\n");
	/* Let the last console bytes leave before the run: TX must not overlap it. */
	d1_port_delay_us(2000u);

	bm_platform_run_begin(); /* D1: reset record, if a watchdog is armed */
	bm_irq_enable();
#if !BENCH_FAULT_NO_TICK
	bench_tick_start(PERIOD_COUNTS);
#else
	bench_grid_start(bm_rdtime()); /* the grid runs; no tick ever comes */
#endif
	uint64_t t0 = bm_rdtime();
	const uint64_t bound = BENCH_TIMEOUT_US * (BM_TIMEBASE_HZ / 1000000u);
	bool timed_out = false;
	/* A wake-up at the bound that does not need the tick: a tick source
	 * that stopped cannot keep background()'s WFI asleep for ever. */
	bench_tick_wake_at(t0 + bound);
	while (!done) {
		if (bm_rdtime() - t0 >= bound) {
			timed_out = true;
			break;
		}
		background();
		/* D1: feeds the watchdog under the "feed" policy */
		bm_platform_idle(samples_so_far());
	}
	uint64_t t1 = bm_rdtime();
	load_drain();
	bm_irq_disable();
	bench_tick_wake_at(UINT64_MAX);
	if (timed_out) {
		bench_tick_stop();
	}
	/* Boundaries that passed without an interrupt (a stopped tick) are
	 * missed periods too. */
	bm_check(d1_bench_finish(&bench, t1), "d1_bench_finish");
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&bench, &st);
	uint64_t boundaries = st.boundaries;
	if (timed_out) {
		bm_printf("FAIL bench: timeout after %lu us (bound %lu us): %lu of %u period "
		          "boundaries\n",
		          (unsigned long)bm_time_to_us(t1 - t0), (unsigned long)BENCH_TIMEOUT_US,
		          (unsigned long)boundaries, BENCH_PERIODS);
	}
	bm_platform_run_end();

	struct d1_uart_stats us;
	d1_uart_get_stats(&bm_uart, &us);
	static char line[D1_BENCH_RUN_LINE_SIZE];
	if (d1_bench_report_run(&bench, t1 - t0, line, sizeof line, NULL) == D1_OK) {
		bm_printf("\n%s\n", line);
	}
	bench_tick_report();
	bm_printf("grid: boundary estimate vs grid: max |error| %lu counts (d1/bench.h)\n",
	          (unsigned long)st.grid_err_max);
	bm_printf("sample: %s, %u Hz\n", ti->sample_def, ti->clock_hz);
	bm_printf("counters: spurious_ticks=%lu plic_spurious=%u plic_unhandled=%u "
	          "unowned_traps=%lu uart_rx=%lu\n",
	          (unsigned long)st.spurious_irq, bm_plic_stats.spurious, bm_plic_stats.unhandled,
	          (unsigned long)bm_spurious_traps(), (unsigned long)us.rx_bytes);
#if defined(BM_PLATFORM_QEMU_VIRT)
	bm_puts("NOTE: QEMU emulation: absolute latencies mean nothing (TCG, host "
	        "scheduling); only the data path and the accounting are exercised.\n");
#endif
	const struct d1_lat_meta meta = {
	        .os = "baremetal",
	        .board = BM_PLATFORM_NAME,
	        .load = load_names[BENCH_LOAD],
	        .period_ns = (uint64_t)BENCH_PERIOD_US * 1000u,
	        .measurement = "timer-irq",
	        .wake = "none",
	        .bench_instr_min = st.irq_instr_min,
	        .bench_instr_max = st.irq_instr_max,
	};
	d1_err_t e;
#if BENCH_DEVICE_REPORT
	e = d1_lat_report_text(&lat, &meta, report, sizeof report, NULL);
	bm_puts(report);
	if (e != D1_OK) {
		bm_printf("FAIL report_text: %s\n", d1_strerror(e));
	}
	e = d1_lat_report_json(&lat, &meta, report, sizeof report, NULL);
	bm_puts(report);
	if (e != D1_OK) {
		bm_printf("FAIL report_json: %s\n", d1_strerror(e));
	}
#endif
	e = d1_lat_dump(&lat, &meta, put_console, NULL);
	if (e != D1_OK) {
		bm_printf("FAIL dump: %s\n", d1_strerror(e));
	}
	if (bm_delay_stalls != 0u) {
		bm_printf("FAIL time: %u delays ended early on a stopped time CSR\n",
		          (unsigned)bm_delay_stalls);
	}
	bm_puts(timed_out ? "BENCH TIMEOUT\n" : "BENCH DONE\n");
	bm_stack_report();       /* the figure BM_STACK_SIZE is set from */
	d1_port_delay_us(5000u); /* drain the FIFO before reset */
	int rc = bm_platform_finish();
	return timed_out ? 4 : rc;
}
