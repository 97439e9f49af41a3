/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every wait bounded, every bound tested: one test per
 * wait on the hardware in src/, each with a model that misbehaves for ever
 * (RELOAD never clears, PLL never locks, BUSY stuck, TX never drains, a
 * verified write that never takes, LSR.DR stuck, a busy-detect interrupt
 * that never clears, the PLIC claiming the same source for ever, a `time`
 * CSR that stands still). Each checks the documented result and that the
 * call returned within its documented bound, measured on the simulated bus:
 * microseconds waited through d1_port_delay_us(), model time (every bus
 * access costs one 24 MHz tick here), and bus accesses. The table of waits,
 * bounds, errors and these test names: docs/reliability.md "Bounded waits".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1/uart.h"
#include "plic_model.h"
#include "sim.h"
#include "timer_model.h"
#include "uart_model.h"

#define TICKS_PER_US (SIM_HZ / 1000000u)
#define ACCESS_COST  1u /* model ticks per bus access */

#define UBASE D1_UART0_BASE
#define UCLK  24000000u
#define QBASE 0x0A000000u /* a plain 16550 (QEMU virt flavour), anywhere free */
#define QCLK  3686400u
#define PBASE D1_PLIC_BASE
#define NSRC  D1_PLIC_NSOURCES

static struct timer_model tm;
static struct ccu_model cm;
static struct uart_model um, qm;
static struct plic_model pm;
static bool uart_up, q_up;

static unsigned waits_checked;

/* ---- measuring a call ---- */

struct meas {
	uint64_t t0; /* model time */
	uint64_t d0; /* us waited through d1_port_delay_us() */
	uint64_t a0; /* bus accesses */
	uint64_t r0; /* `time` readings */
};

static struct meas begin(void)
{
	return (struct meas){
	        .t0 = sim_now(),
	        .d0 = sim_delay_us_total(),
	        .a0 = sim_reads() + sim_writes() + sim_unmapped(),
	        .r0 = sim_time_reads(),
	};
}

/*
 * The call made since @p m returned @p got (want @p want) after waiting
 * between @p min_us and @p max_us (through the port delay) and at most
 * @p max_accesses bus accesses; its model time is at most the delay bound
 * plus the accesses' cost plus one tick per `time` reading.
 */
static void check(const struct meas *m, const char *test, long got, long want, uint64_t min_us,
                  uint64_t max_us, uint64_t max_accesses)
{
	uint64_t us = sim_delay_us_total() - m->d0;
	uint64_t acc = sim_reads() + sim_writes() + sim_unmapped() - m->a0;
	uint64_t reads = sim_time_reads() - m->r0;
	uint64_t ticks = sim_now() - m->t0;

	printf("WAIT %-40s result %4ld, waited %6llu us (bound %6llu), model time %8llu ticks, "
	       "%5llu accesses (bound %5llu)\n",
	       test, got, (unsigned long long)us, (unsigned long long)max_us,
	       (unsigned long long)ticks, (unsigned long long)acc,
	       (unsigned long long)max_accesses);
	assert_int_equal(got, want);
	assert_true(us >= min_us);
	assert_true(us <= max_us);
	assert_true(acc <= max_accesses);
	assert_true(ticks <= max_us * TICKS_PER_US + acc * ACCESS_COST + reads);
	assert_int_equal(sim_critical_depth(), 0);
	assert_int_equal(sim_unhandled_faults(), 0);
	waits_checked++;
}

static uint64_t div_ceil(uint64_t a, uint64_t b)
{
	return (a + b - 1u) / b;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	sim_set_access_cost(ACCESS_COST);
	timer_model_init(&tm, D1_TIMER_BASE);
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	uart_model_init(&um, UBASE, 2, true, UCLK, D1_UART_FIFO_DEPTH);
	uart_up = true;
	plic_model_init(&pm, PBASE, NSRC, 5, true);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (uart_up) {
		uart_model_free(&um);
		uart_up = false;
	}
	if (q_up) {
		uart_model_free(&qm);
		q_up = false;
	}
	return 0;
}

/* ---- Timer: RELOAD (d1_timer_start) and the sync time after a disable ---- */

/* d1_timer_start()'s longest call as include/d1/timer.h documents it: the
 * sync time of the clock a channel was left running on, the RELOAD budget,
 * the sync time after the timeout's disable. */
#define START_WORST_US(budget, sync) ((sync) + (budget) + (sync))

/* us of n input clocks of @p hz / 2^k, rounded up (timer.c's budget). */
static uint64_t clocks_us(uint64_t n, unsigned k, uint64_t hz)
{
	return div_ceil((n << k) * 1000000u, hz);
}

static void reload_never_clears(const char *name, enum d1_timer_src src, unsigned k)
{
	struct d1_timer t;
	uint64_t hz = src == D1_TIMER_SRC_LOSC ? D1_LOSC_HZ : D1_OSC24M_HZ;
	uint64_t budget = clocks_us(D1_TIMER_RELOAD_BUDGET_CLOCKS, k, hz);
	uint64_t sync = clocks_us(D1_TIMER_SYNC_CLOCKS, k, hz);
	struct meas m;
	d1_err_t e;

	if (budget < D1_TIMER_RELOAD_MIN_US) {
		budget = D1_TIMER_RELOAD_MIN_US;
	}
	assert_int_equal(d1_timer_init(&t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ), D1_OK);
	assert_int_equal(d1_timer_set_clock(&t, src, k), D1_OK);
	assert_int_equal(d1_timer_set_period_clocks(&t, 1000, NULL), D1_OK);
	tm.reload_stuck = true; /* RELOAD never loads CUR, never clears */
	m = begin();
	e = d1_timer_start(&t, D1_TIMER_PERIODIC);
	/* polls of 1 us (CTRL, CUR, IRQ_STA each) for the budget, then the
	 * disable and its sync time; a handful of set-up accesses */
	check(&m, name, e, D1_ETIMEDOUT, budget + sync, budget + sync, 3u * (budget + 1u) + 9u);
	assert_true(budget <= 20000u && sync <= 20000u); /* every single wait < 20 ms */
	assert_false(d1_timer_hw_enabled(&t));           /* documented: disabled again */
	tm.reload_stuck = false;
	assert_int_equal(d1_timer_start(&t, D1_TIMER_PERIODIC), D1_OK);
	assert_int_equal(tm.ch[1].sync_violations, 0);
}

static void test_timer_reload_never_clears_osc24m(void **state)
{
	(void)state;
	reload_never_clears("timer_reload_never_clears_osc24m", D1_TIMER_SRC_OSC24M, 0);
}

static void test_timer_reload_never_clears_losc128(void **state)
{
	(void)state;
	/* the slowest input clock: 32768 Hz / 128 */
	reload_never_clears("timer_reload_never_clears_losc128", D1_TIMER_SRC_LOSC,
	                    D1_TIMER_PRESCALE_MAX);
}

static void test_timer_sync_after_disable_losc128(void **state)
{
	struct d1_timer t;
	uint64_t sync = clocks_us(D1_TIMER_SYNC_CLOCKS, D1_TIMER_PRESCALE_MAX, D1_LOSC_HZ);
	struct meas m;
	d1_err_t e;

	(void)state;
	/* firmware left Timer1 counting on LOSC / 128 */
	d1_mmio_write32(D1_TIMER_BASE + D1_TIMER_INTV_OFFSET(1), 1000);
	d1_mmio_write32(D1_TIMER_BASE + D1_TIMER_CTRL_OFFSET(1),
	                (D1_TIMER_PRESCALE_MAX << D1_TIMER_CTRL_CLK_PRES_LSB) |
	                        D1_TIMER_CTRL_EN_BITS | D1_TIMER_CTRL_RELOAD_BITS);
	sim_advance(10u * TICKS_PER_US);
	assert_int_equal(d1_timer_init(&t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ), D1_OK);
	m = begin();
	e = d1_timer_stop(&t);
	check(&m, "timer_sync_after_disable_losc128", e, D1_OK, sync, sync, 2);
	assert_true(sync <= 20000u);
	/* the sync time was enough for the model: no violation on reprogramming */
	assert_int_equal(d1_timer_set_period_hz(&t, 1000, NULL), D1_OK);
	assert_int_equal(d1_timer_start(&t, D1_TIMER_PERIODIC), D1_OK);
	assert_int_equal(tm.ch[1].sync_violations, 0);
}

/* The longest d1_timer_start(): firmware left the channel counting on
 * LOSC / 128, so start's d1_timer_stop() waits its sync time first; the
 * handle is on LOSC / 128 too and RELOAD never completes, so the whole
 * budget is polled and the sync time is waited again after the disable.
 * Its CUR stays above the new interval (a long firmware period), so the
 * stale count is not taken for a completed load. */
static void test_timer_start_enabled_losc128(void **state)
{
	struct d1_timer t;
	uint64_t budget =
	        clocks_us(D1_TIMER_RELOAD_BUDGET_CLOCKS, D1_TIMER_PRESCALE_MAX, D1_LOSC_HZ);
	uint64_t sync = clocks_us(D1_TIMER_SYNC_CLOCKS, D1_TIMER_PRESCALE_MAX, D1_LOSC_HZ);
	uint64_t bound = START_WORST_US(budget, sync);
	struct meas m;
	d1_err_t e;

	(void)state;
	d1_mmio_write32(D1_TIMER_BASE + D1_TIMER_INTV_OFFSET(1), 0x80000000u);
	d1_mmio_write32(D1_TIMER_BASE + D1_TIMER_CTRL_OFFSET(1),
	                (D1_TIMER_PRESCALE_MAX << D1_TIMER_CTRL_CLK_PRES_LSB) |
	                        D1_TIMER_CTRL_EN_BITS | D1_TIMER_CTRL_RELOAD_BITS);
	sim_advance(8000u * TICKS_PER_US); /* two input clocks: loaded, counting */
	assert_true(tm.ch[1].loaded);
	assert_int_equal(d1_timer_init(&t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ), D1_OK);
	assert_int_equal(d1_timer_set_clock(&t, D1_TIMER_SRC_LOSC, D1_TIMER_PRESCALE_MAX), D1_OK);
	assert_int_equal(d1_timer_set_period_clocks(&t, 1000, NULL), D1_OK);
	tm.reload_stuck = true; /* RELOAD never loads CUR, never clears */
	m = begin();
	e = d1_timer_start(&t, D1_TIMER_PERIODIC);
	/* timer.h: sync + budget + sync = 11,719 + 15,625 + 11,719 us; polls
	 * of CTRL, CUR and IRQ_STA */
	check(&m, "timer_start_enabled_losc128", e, D1_ETIMEDOUT, bound, bound,
	      3u * (budget + 1u) + 11u);
	assert_false(d1_timer_hw_enabled(&t));
	assert_int_equal(tm.ch[1].sync_violations, 0);
	tm.reload_stuck = false;
	assert_int_equal(d1_timer_start(&t, D1_TIMER_PERIODIC), D1_OK);
	assert_int_equal(tm.ch[1].sync_violations, 0);
}

/* ---- CCU: PLL_CPU LOCK (d1_ccu_set_pll_cpu) ---- */

static void test_ccu_pll_never_locks(void **state)
{
	struct d1_ccu c;
	uint64_t got = 7;
	uint64_t polls = D1_CCU_PLL_LOCK_TIMEOUT_US / D1_CCU_PLL_LOCK_POLL_US + 1u;
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_ccu_init(&c, D1_CCU_BASE, D1_OSC24M_HZ), D1_OK);
	assert_int_equal(d1_ccu_set_cpu_limit(&c, 1200000000u), D1_OK);
	cm.pll_cpu.never_lock = true;
	m = begin();
	e = d1_ccu_set_pll_cpu(&c, 1200000000u, &got);
	check(&m, "ccu_pll_never_locks", e, D1_ETIMEDOUT, D1_CCU_PLL_LOCK_TIMEOUT_US,
	      D1_CCU_PLL_LOCK_TIMEOUT_US + D1_CCU_PLL_LOCK_POLL_US, polls + 8u);
	assert_int_equal(got, 7); /* documented: untouched on D1_ETIMEDOUT */
	assert_int_equal(cm.core_violations, 0);
}

/* ---- UART: idle wait, verified writes, TX space, TEMT, bounded loops ---- */

static const struct d1_uart_config cfg_8n1 = {
        .baud = 115200,
        .data_bits = 8,
        .parity = D1_UART_PARITY_NONE,
        .stop_bits = 1,
        .fifo = true,
        .rx_trigger = 2,
        .tx_trigger = 0,
};

/* us of D1_UART_WAIT_CHARS(depth) 10-bit characters at divisor @p div of
 * @p clk (uart.c's budget for 8N1). */
static uint64_t wait_us(uint32_t clk, uint32_t div, unsigned depth)
{
	return div_ceil((uint64_t)D1_UART_WAIT_CHARS(depth) * 10u * 16u * div * 1000000u, clk);
}

/* The documented configure bound: 2 x D1_UART_LCR_ATTEMPTS idle waits, in
 * us and in bus accesses (at most 4 per 1-us poll, 32 per attempt besides). */
static uint64_t configure_bound(uint64_t one_wait)
{
	return 2u * D1_UART_LCR_ATTEMPTS * (one_wait + 1u);
}

static uint64_t configure_accesses(uint64_t one_wait)
{
	return 4u * configure_bound(one_wait) + 2u * D1_UART_LCR_ATTEMPTS * 32u;
}

static void test_uart_busy_never_clears_configure(void **state)
{
	struct d1_uart u;
	struct d1_uart_config c = cfg_8n1;
	/* the firmware setting the model starts in: 8N1, divisor 13 */
	uint64_t one = wait_us(UCLK, 13, D1_UART_FIFO_DEPTH);
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	um.busy_stuck = true;
	c.baud = 9600;
	m = begin();
	e = d1_uart_configure(&u, &c, NULL);
	check(&m, "uart_busy_never_clears_configure", e, D1_ETIMEDOUT, one, configure_bound(one),
	      configure_accesses(one));
	/* one idle wait: nothing changed, so nothing to restore */
	assert_true(sim_delay_us_total() - m.d0 <= one + 1u);
	assert_int_equal(um.lcr_writes, 0);
}

static void test_uart_tx_never_drains_configure(void **state)
{
	struct d1_uart u;
	uint64_t one = wait_us(UCLK, 13, D1_UART_FIFO_DEPTH);
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	um.tx_stuck = true; /* the next character never leaves the shifter: TEMT never */
	assert_int_equal(d1_uart_putc(&u, 'x'), D1_OK);
	m = begin();
	e = d1_uart_configure(&u, &cfg_8n1, NULL);
	check(&m, "uart_tx_never_drains_configure", e, D1_ETIMEDOUT, one, configure_bound(one),
	      configure_accesses(one));
	assert_int_equal(um.lcr_writes, 0);
}

static void test_uart_lcr_never_takes_configure(void **state)
{
	struct d1_uart u;
	uint64_t one = wait_us(UCLK, 13, D1_UART_FIFO_DEPTH);
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	/* every idle USR read is followed by a new start bit: LCR never takes */
	um.race_after_usr = 100000;
	m = begin();
	e = d1_uart_configure(&u, &cfg_8n1, NULL);
	check(&m, "uart_lcr_never_takes_configure", e, D1_ETIMEDOUT, 0, configure_bound(one),
	      configure_accesses(one));
	assert_int_equal(u.stats.lcr_retries, D1_UART_LCR_ATTEMPTS - 1u);
	assert_int_equal(um.lcr, 0x03); /* unchanged, not corrupted */
}

static void test_uart_putc_no_tx_space(void **state)
{
	struct d1_uart u;
	uint64_t one = wait_us(UCLK, 13, D1_UART_FIFO_DEPTH);
	uint64_t w0;
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	assert_int_equal(d1_uart_configure(&u, &cfg_8n1, NULL), D1_OK);
	um.tx_stuck = true;
	for (unsigned i = 0; i <= D1_UART_FIFO_DEPTH; i++) {
		assert_int_equal(d1_uart_putc(&u, 'a'), D1_OK); /* shifter + a full FIFO */
	}
	w0 = sim_writes();
	m = begin();
	e = d1_uart_putc(&u, 'b');
	check(&m, "uart_putc_no_tx_space", e, D1_ETIMEDOUT, one, one + 1u, 2u * (one + 2u));
	assert_int_equal(sim_writes(), w0); /* documented: nothing written */
	assert_int_equal(um.tx_overflow, 0);
}

static void test_uart_drain_never_empty(void **state)
{
	struct d1_uart u;
	uint64_t one = wait_us(UCLK, 13, D1_UART_FIFO_DEPTH);
	uint64_t w0;
	struct meas m;
	d1_err_t e;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	assert_int_equal(d1_uart_configure(&u, &cfg_8n1, NULL), D1_OK);
	um.tx_stuck = true;
	assert_int_equal(d1_uart_putc(&u, 'a'), D1_OK);
	w0 = sim_writes();
	m = begin();
	e = d1_uart_drain(&u);
	check(&m, "uart_drain_never_empty", e, D1_ETIMEDOUT, one, one + 1u, 2u * (one + 2u));
	assert_int_equal(sim_writes(), w0); /* documented: writes nothing */
}

/* A plain 16550 whose LSR.DR never clears: the RX read-out before an FCR
 * write that changes FIFOE stops after FIFO depth + 1 characters. */
static void test_uart16550_dr_stuck_before_fcr(void **state)
{
	struct d1_uart u;
	struct meas m;
	d1_err_t e;

	(void)state;
	uart_model_init(&qm, QBASE, 0, false, QCLK, 16); /* FIFO off, as firmware left it */
	q_up = true;
	assert_int_equal(d1_uart_init(&u, QBASE, 0, QCLK, 16), D1_OK);
	qm.dr_stuck = true;
	m = begin();
	e = d1_uart_configure(&u, &cfg_8n1, NULL); /* turns the FIFO on */
	check(&m, "uart16550_dr_stuck_before_fcr", e, D1_OK, 0, 0, 200);
	assert_int_equal(u.stats.rx_discarded, 16u + 1u); /* counted, bounded */
}

/* The ISR with LSR.DR stuck: one RX drain of at most FIFO depth + 1 reads. */
static void test_uart_isr_dr_stuck(void **state)
{
	static uint8_t ring[256];
	struct d1_uart u;
	struct meas m;
	uint32_t ev;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	assert_int_equal(d1_uart_configure(&u, &cfg_8n1, NULL), D1_OK);
	assert_int_equal(d1_uart_irq_start(&u, ring, sizeof ring, NULL, 0), D1_OK);
	um.dr_stuck = true;
	uart_model_force_timeout_empty(&um); /* an RX identity with an empty FIFO */
	m = begin();
	ev = d1_uart_isr(&u);
	check(&m, "uart_isr_dr_stuck", (long)(ev & D1_UART_EV_RX), D1_UART_EV_RX, 0, 0,
	      2u * (D1_UART_FIFO_DEPTH + 1u) + 4u);
	assert_int_equal(um.rbr_empty_reads, D1_UART_FIFO_DEPTH + 1u);
}

/* The ISR with a busy-detect interrupt that never clears. */
static void test_uart_isr_busy_detect_never_clears(void **state)
{
	static uint8_t ring[64];
	struct d1_uart u;
	struct meas m;
	uint32_t ev;

	(void)state;
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	assert_int_equal(d1_uart_configure(&u, &cfg_8n1, NULL), D1_OK);
	assert_int_equal(d1_uart_irq_start(&u, ring, sizeof ring, NULL, 0), D1_OK);
	um.busy_detect = true;
	um.busy_detect_stuck = true;
	m = begin();
	ev = d1_uart_isr(&u);
	check(&m, "uart_isr_busy_detect_never_clears", (long)ev, D1_UART_EV_BUSY, 0, 0,
	      2u * D1_UART_ISR_ROUNDS + 1u);
	assert_int_equal(u.stats.busy_detect, D1_UART_ISR_ROUNDS);
}

/* ---- PLIC: the claim loop of d1_plic_isr() ---- */

static unsigned handler_calls;

static void handler(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	handler_calls++;
}

static struct d1_plic_entry table[NSRC + 1];

static void plic_stuck(const char *name, uint32_t id, bool handled)
{
	struct d1_plic p;
	struct d1_plic_stats st = {0};
	struct meas m;
	unsigned n;

	for (unsigned s = 0; s <= NSRC; s++) {
		table[s] = (struct d1_plic_entry){.fn = handled ? handler : NULL};
	}
	assert_int_equal(d1_plic_init(&p, PBASE, D1_PLIC_CTX_S, NSRC, 0), D1_OK);
	handler_calls = 0;
	pm.stuck_claim = id; /* every claim returns this id, whatever is done */
	m = begin();
	n = d1_plic_isr(&p, table, NSRC + 1u, &st);
	if (handled) {
		/* documented: a return of nsources + 1 means the bound stopped it */
		check(&m, name, (long)n, (long)NSRC + 1, 0, 0, 2u * (NSRC + 1u) + 2u);
		assert_int_equal(handler_calls, NSRC + 1u);
		assert_int_equal(st.dispatched, NSRC + 1u);
		assert_int_equal(pm.claims[1], NSRC + 1u);
	} else {
		/* no handler call; every claim completed, masked and counted */
		check(&m, name, (long)n, 0, 0, 0, 4u * (D1_PLIC_MAX_SOURCES + 1u) + 2u);
		assert_int_equal(pm.claims[1], D1_PLIC_MAX_SOURCES + 1u);
		assert_int_equal(st.unhandled + st.foreign, D1_PLIC_MAX_SOURCES + 1u);
	}
}

static void test_plic_same_source_forever_handled(void **state)
{
	(void)state;
	plic_stuck("plic_same_source_forever_handled", 40, true);
}

static void test_plic_same_source_forever_unhandled(void **state)
{
	(void)state;
	plic_stuck("plic_same_source_forever_unhandled", 40, false);
}

static void test_plic_foreign_source_forever(void **state)
{
	(void)state;
	plic_stuck("plic_foreign_source_forever", 500, false); /* > nsources */
}

/* ---- time.h: the reference delay on a `time` CSR that stands still ---- */

static void test_time_delay_counter_stopped(void **state)
{
	struct meas m;
	uint64_t reads;
	d1_err_t e;

	(void)state;
	sim_set_time_step(0);                          /* `time` stands still */
	sim_set_time_rescue(4u * D1_TIME_STALL_READS); /* (a spin for ever ends here) */
	m = begin();
	e = d1_time_delay_us(1000);
	reads = sim_time_reads() - m.r0;
	printf("WAIT %-40s result %4d, %llu readings of a stopped `time` (bound %llu)\n",
	       "time_delay_counter_stopped", (int)e, (unsigned long long)reads,
	       (unsigned long long)D1_TIME_STALL_READS + 1u);
	assert_int_equal(e, D1_ETIMEDOUT);
	assert_int_equal(reads, D1_TIME_STALL_READS + 1u);
	assert_int_equal(sim_reads() + sim_writes(), 0);
	waits_checked++;
}

/* The stall bound does not end a delay on a running counter early: with
 * `time` moving one tick per reading the delay takes exactly its ticks. */
static void test_time_delay_running_counter(void **state)
{
	uint64_t t0;
	uint64_t ticks = 1000u * (D1_TIME_HZ / 1000000u) + 1u;
	d1_err_t e;

	(void)state;
	t0 = d1_time_now();
	e = d1_time_delay_us(1000);
	assert_int_equal(e, D1_OK);
	assert_true(d1_time_now() - t0 >= ticks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_timer_reload_never_clears_osc24m, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_timer_reload_never_clears_losc128, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_timer_start_enabled_losc128, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_timer_sync_after_disable_losc128, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_ccu_pll_never_locks, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_uart_busy_never_clears_configure, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_uart_tx_never_drains_configure, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_uart_lcr_never_takes_configure, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_uart_putc_no_tx_space, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_uart_drain_never_empty, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_uart16550_dr_stuck_before_fcr, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_uart_isr_dr_stuck, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_uart_isr_busy_detect_never_clears, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_plic_same_source_forever_handled, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_plic_same_source_forever_unhandled, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_plic_foreign_source_forever, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_time_delay_counter_stopped, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_time_delay_running_counter, setup, teardown),
	};
	int failed = cmocka_run_group_tests_name("bounded_waits", tests, NULL, NULL);

	/* The summary line scripts/gates/badinput.sh reads. */
	printf("bounded waits: %u waits tested, %d failures\n", waits_checked, failed);
	return failed;
}
