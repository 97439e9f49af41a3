/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /dev/timer0 (ports/nuttx/d1_nuttx_timer.c: Timer0 as NuttX's timer lower
 * half, each period a one-shot deadline on the time CSR) compiled as it
 * is, on the Timer model, with NuttX's side stood in here: the interrupt
 * line (the handler runs `lat` 24 MHz ticks after the model raises
 * Timer0's line, unless interrupts are off), irq_attach(), timer_register()
 * and the upper half's callback.
 *
 * What it checks is what the model measured: each Timer0 boundary (its
 * model time and the input clocks the channel counted for it) against the
 * period in microseconds (x 24 clocks), without drift over 200 periods with
 * a late handler; the callback path (a handler that keeps, changes or ends
 * the period) with the same bounded MMIO count and no busy-wait in every
 * handler run; getstatus against the deadline; settimeout on a running and
 * on a stopped timer; start/stop (a second start refused with -EBUSY and no
 * register touched); bad input leaving the bus untouched; registration and
 * its failures. Every case also checks that the glue never wrote Timer1
 * (the tick's channel) and never broke the Timer's sync rule.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arch/irq.h>
#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <nuttx/timers/timer.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1/timer_regs.h"
#include "d1_nuttx.h"
#include "sim.h"
#include "timer_model.h"

#define IRQ_T0 (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER0)
#define TPU    24u  /* 24 MHz ticks (= Timer0 input clocks, OSC24M / 1) per us */
#define NREC   400u /* records kept per kind */
/* The model loads INTV on the first input clock after the arm's RELOAD:
 * a boundary lands this many ticks after its deadline. */
#define LOAD 1u

static struct timer_model tm;
static struct timer_lowerhalf_s *lower;

static struct {
	/* NuttX's interrupt side */
	xcpt_t isr;
	void *arg;
	int irq;
	int attach_ret; /* what irq_attach() returns */
	bool enabled;   /* up_enable_irq() */
	unsigned attaches, detaches;
	unsigned depth; /* enter_critical_section() nesting (or a held line) */
	uint64_t lat;   /* line high -> handler, ticks */
	bool line_high;
	uint64_t line_since;
	unsigned isr_calls;
	uint64_t isr_reads[NREC], isr_writes[NREC]; /* bus accesses of each handler run */
	uint64_t isr_delay_us;                      /* d1_port_delay_us() inside handlers */
	/* registration */
	bool refuse_register;
	unsigned registered;
	const char *path;
	/* Timer0 boundaries: model time and input clocks counted since the load */
	unsigned nb;
	uint64_t b_at[NREC], b_clk[NREC];
	/* the upper half's callback */
	unsigned ncb;
	uint64_t cb_at[NREC];
	uint32_t cb_next[NREC]; /* *next_interval as the lower half passed it */
	unsigned stop_at;       /* return false at this call (1-based; 0: never) */
	unsigned change_at[2];  /* write change_to[i] at call change_at[i] */
	uint32_t change_to[2];
} nx;

void nx_panic(const char *file, int line)
{
	fail_msg("PANIC() at %s:%d", file, line);
}

irqstate_t enter_critical_section(void)
{
	return (irqstate_t)nx.depth++;
}

void leave_critical_section(irqstate_t flags)
{
	assert_true(nx.depth > 0u);
	nx.depth--;
	assert_int_equal(nx.depth, flags);
}

int irq_attach(int irq, xcpt_t isr, void *arg)
{
	nx.attaches++;
	if (nx.attach_ret != 0) {
		return nx.attach_ret;
	}
	nx.irq = irq;
	nx.isr = isr;
	nx.arg = arg;
	return 0;
}

int irq_detach(int irq)
{
	nx.detaches++;
	if (irq == nx.irq) {
		nx.isr = NULL;
	}
	return 0;
}

void up_enable_irq(int irq)
{
	assert_int_equal(irq, IRQ_T0);
	nx.enabled = true;
}

void up_disable_irq(int irq)
{
	assert_int_equal(irq, IRQ_T0);
	nx.enabled = false;
}

/*
 * The upper half, after NuttX's drivers/timers/timer.c (4ebc8a7291df), in
 * our words: TCIOC_START, TCIOC_STOP, TCIOC_SETTIMEOUT (microseconds) and
 * TCIOC_MAXTIMEOUT go straight to the lower half's method of that name,
 * whose result is the ioctl's; TCIOC_GETSTATUS refuses a NULL pointer
 * itself (the lower half never sees one). The only way the upper half (or
 * kernel code, through timer_setcallback()) hears of an expiry is the
 * callback it hands over with setcallback(): called from the lower half's
 * interrupt with the period in progress in *next_interval; returning true
 * asks for the timer to go on (with *next_interval as the next period if
 * the callback wrote one), false for it to stop. The upper half's own
 * callback (TCIOC_NOTIFICATION) signals the waiting task and returns its
 * `periodic` flag; this one records the call and can stop the timer or
 * change the interval at a chosen call.
 */
void *timer_register(const char *path, struct timer_lowerhalf_s *lo)
{
	if (nx.refuse_register) {
		return NULL;
	}
	nx.registered++;
	nx.path = path;
	lower = lo;
	return &nx;
}

static bool upper_cb(uint32_t *next_interval, void *arg)
{
	unsigned n;

	assert_ptr_equal(arg, &nx);
	assert_true(nx.ncb < NREC);
	nx.cb_at[nx.ncb] = sim_now();
	nx.cb_next[nx.ncb] = *next_interval;
	n = ++nx.ncb;
	for (unsigned i = 0; i < 2u; i++) {
		if (nx.change_at[i] == n) {
			*next_interval = nx.change_to[i];
		}
	}
	return nx.stop_at != n;
}

static void on_boundary(void *arg, unsigned ch, uint64_t input_clock)
{
	(void)arg;
	if (ch == 0u && nx.nb < NREC) {
		nx.b_at[nx.nb] = sim_now();
		nx.b_clk[nx.nb] = input_clock;
		nx.nb++;
	}
}

/* The PLIC and the hart: after a step, the handler runs if Timer0's line is
 * up and enabled, interrupts are on and its latency is over; its bus
 * accesses and busy-waits are counted. */
static void deliver(void)
{
	uint64_t now = sim_now();
	uint64_t r, w, d;

	if (nx.isr == NULL || !nx.enabled || !timer_model_irq(&tm, 0)) {
		nx.line_high = false;
		return;
	}
	if (!nx.line_high) {
		nx.line_high = true;
		nx.line_since = now;
	}
	if (nx.depth != 0u || now - nx.line_since < nx.lat) {
		return;
	}
	nx.line_high = false;
	r = sim_reads();
	w = sim_writes();
	d = sim_delay_us_total();
	nx.depth++; /* handlers run with interrupts off */
	assert_int_equal(nx.isr(nx.irq, NULL, nx.arg), 0);
	nx.depth--;
	if (nx.isr_calls < NREC) {
		nx.isr_reads[nx.isr_calls] = sim_reads() - r;
		nx.isr_writes[nx.isr_calls] = sim_writes() - w;
	}
	nx.isr_delay_us += sim_delay_us_total() - d;
	nx.isr_calls++;
}

/* Model time to @p until (or until @p ncb callbacks happened), in steps
 * that land exactly on each Timer0 boundary and each handler's time. */
static void run_until(uint64_t until, unsigned ncb)
{
	while (sim_now() < until && nx.ncb < ncb) {
		const struct timer_model_ch *c = &tm.ch[0];
		uint64_t now = sim_now();
		uint64_t n = until - now;

		if ((c->ctrl & D1_TIMER_CTRL_EN_BITS) != 0u) {
			uint64_t to =
			        timer_model_ticks_to_boundary(&tm, 0); /* 0: not yet counting */
			uint64_t left = to == 0u ? 1u : to;

			n = left < n ? left : n;
		}
		if (nx.line_high && nx.depth == 0u && nx.line_since + nx.lat > now &&
		    nx.line_since + nx.lat - now < n) {
			n = nx.line_since + nx.lat - now;
		}
		sim_advance(n);
		deliver();
	}
}

static void run_to(uint64_t until)
{
	run_until(until, UINT32_MAX);
}

static struct timer_status_s status(void)
{
	struct timer_status_s st;

	memset(&st, 0xA5, sizeof(st));
	assert_int_equal(lower->ops->getstatus(lower, &st), 0);
	return st;
}

/* The glue's state is static (.bss at boot), so setup registers again and
 * installs the callback; each case sets the timeout it needs. */
static int setup(void **state)
{
	(void)state;
	sim_reset();
	/* Reading the time CSR takes no model time: the glue's reads are the
	 * exact instant of its call, so boundaries are exact to the clock. */
	sim_set_time_step(0);
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.owner = 0; /* any write to Timer1's registers is counted */
	tm.on_boundary = on_boundary;
	memset(&nx, 0, sizeof(nx));
	lower = NULL;
	assert_int_equal(d1_nuttx_timer0_register("/dev/timer0"), 0);
	assert_non_null(lower);
	lower->ops->setcallback(lower, upper_cb, &nx);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (lower != NULL) {
		assert_int_equal(lower->ops->stop(lower), 0);
	}
	assert_int_equal(tm.foreign_writes, 0);
	assert_int_equal(tm.ch[0].sync_violations, 0);
	assert_int_equal(tm.ch[0].intv_zero_writes, 0);
	assert_int_equal(tm.ch[0].reserved_src_writes, 0);
	assert_int_equal(nx.depth, 0);
	assert_int_equal(sim_critical_depth(), 0);
	return 0;
}

/* Start before any timeout was set (must run first: the glue's state is
 * the boot-time one only here): -EPERM, no bus write, nothing counts;
 * getstatus says not active, timeout 0; maxtimeout is UINT32_MAX us. */
static void test_start_without_timeout_refused(void **state)
{
	struct timer_status_s st;
	uint32_t max = 0;

	(void)state;
	SIM_EXPECT_NO_WRITE(lower->ops->start(lower), -EPERM);
	run_to(sim_now() + 240000u);
	assert_int_equal(tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_int_equal(nx.nb, 0);
	assert_int_equal(nx.ncb, 0);
	st = status();
	assert_int_equal(st.flags, TCFLAGS_HANDLER);
	assert_int_equal(st.timeout, 0);
	assert_int_equal(st.timeleft, 0);
	assert_int_equal(lower->ops->maxtimeout(lower, &max), 0);
	assert_int_equal(max, UINT32_MAX);
}

/* Registration (no help from the test): /dev/timer0 with every method the
 * glue has (ioctl and the tick_* ones NULL); Timer0's PLIC source attached
 * with the lower half as argument and enabled; Timer0 stopped, no stale
 * expiry; and Timer0's own enable bit in the Timer block's IRQ_EN set, so
 * that a 100 us timer started for 1 ms calls back 10 times. */
static void test_register_timer0_interrupt(void **state)
{
	uint64_t t0;

	(void)state;
	assert_int_equal(nx.registered, 1);
	assert_string_equal(nx.path, "/dev/timer0");
	assert_non_null(lower->ops->start);
	assert_non_null(lower->ops->stop);
	assert_non_null(lower->ops->getstatus);
	assert_non_null(lower->ops->settimeout);
	assert_non_null(lower->ops->setcallback);
	assert_non_null(lower->ops->maxtimeout);
	assert_null(lower->ops->ioctl);
	assert_null(lower->ops->tick_getstatus);
	assert_null(lower->ops->tick_settimeout);
	assert_null(lower->ops->tick_maxtimeout);
	assert_int_equal(nx.irq, IRQ_T0);
	assert_ptr_equal(nx.arg, lower);
	assert_true(nx.enabled);
	assert_int_equal(tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_int_equal(tm.irq_sta & D1_TIMER_IRQ_BIT(0), 0u);

	assert_int_equal(lower->ops->settimeout(lower, 100u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 1000u * TPU + 100u);
	assert_int_not_equal(tm.irq_en & D1_TIMER_IRQ_BIT(0), 0u);
	assert_int_equal(nx.ncb, 10);
	assert_int_equal(nx.nb, 10);
}

/* Microseconds to clocks: for 1, 7, 1000 and 12,345 us, five periods each.
 * The model counted exactly us x 24 input clocks for the first period (the
 * library's INTV = clocks - 1 for the N+1 rule, not the glue's), and each
 * later one us x 24 less the clock its load took after the previous
 * boundary: boundary k lands at start + k x us x 24 + LOAD exactly (on the
 * deadline, never early, no drift), its callback at once, with the period
 * in progress in *next_interval. */
static void test_timeout_to_clocks(void **state)
{
	static const uint32_t us_list[] = {1u, 7u, 1000u, 12345u};

	(void)state;
	for (unsigned i = 0; i < sizeof(us_list) / sizeof(us_list[0]); i++) {
		uint64_t p = (uint64_t)us_list[i] * TPU;
		uint64_t t0;

		nx.nb = 0;
		nx.ncb = 0;
		assert_int_equal(lower->ops->settimeout(lower, us_list[i]), 0);
		t0 = sim_now();
		assert_int_equal(lower->ops->start(lower), 0);
		run_until(t0 + 6u * p + 100u, 5u);
		assert_int_equal(lower->ops->stop(lower), 0);
		assert_int_equal(nx.ncb, 5);
		assert_int_equal(nx.nb, 5);
		assert_int_equal(nx.b_clk[0], p);
		for (unsigned k = 0; k < 5u; k++) {
			assert_int_equal(nx.b_at[k], t0 + (k + 1u) * p + LOAD);
			assert_int_equal(nx.b_clk[k], k == 0u ? p : p - LOAD);
			assert_int_equal(nx.cb_at[k], nx.b_at[k]);
			assert_int_equal(nx.cb_next[k], us_list[i]);
		}
	}
}

/* 200 periods of 1 ms, each handler 300 ticks (12.5 us) late: boundary k
 * at exactly start + k ms + LOAD for all 200, each re-arm counting 24,000
 * less the handler's 300 ticks and the load's 1 (no drift: the next
 * deadline is the previous one + the period, not the handler's time + the
 * period), 200 callbacks at their boundary + 300 ticks, and every handler
 * run does the same number of bus reads and writes (at most 8 each;
 * 4 and 4 today) and never busy-waits. */
static void test_periodic_no_drift_constant_isr(void **state)
{
	const uint64_t p = 1000u * TPU;
	uint64_t t0;

	(void)state;
	nx.lat = 300u;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_until(t0 + 201u * p, 200u);
	assert_int_equal(lower->ops->stop(lower), 0);
	run_to(sim_now() + 5u * p);
	assert_int_equal(nx.ncb, 200);
	assert_int_equal(nx.nb, 200);
	assert_int_equal(nx.isr_calls, 200);
	for (unsigned k = 0; k < 200u; k++) {
		assert_int_equal(nx.b_at[k], t0 + (k + 1u) * p + LOAD);
		assert_int_equal(nx.b_clk[k], k == 0u ? p : p - 300u - LOAD);
		assert_int_equal(nx.cb_at[k], nx.b_at[k] + 300u);
		assert_int_equal(nx.cb_next[k], 1000u);
		assert_int_equal(nx.isr_reads[k], nx.isr_reads[0]);
		assert_int_equal(nx.isr_writes[k], nx.isr_writes[0]);
	}
	assert_in_range(nx.isr_reads[0], 1u, 8u);
	assert_in_range(nx.isr_writes[0], 1u, 8u);
	assert_int_equal(nx.isr_delay_us, 0);
}

/* The callback changes the interval: to 250 us at its 3rd call, to 2 ms at
 * its 6th. The model's boundaries are 1 ms apart up to the 3rd, then
 * 250 us (6,000 clocks) exactly, then 2 ms; each later call is passed the
 * new period; getstatus reports it; the handlers that changed it did the
 * same bounded bus accesses as the others, with no busy-wait. */
static void test_callback_changes_interval(void **state)
{
	static const uint64_t gap_us[] = {1000u, 1000u, 250u, 250u, 250u, 2000u, 2000u};

	(void)state;
	nx.lat = 100u;
	nx.change_at[0] = 3u;
	nx.change_to[0] = 250u;
	nx.change_at[1] = 6u;
	nx.change_to[1] = 2000u;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	assert_int_equal(lower->ops->start(lower), 0);
	run_until(sim_now() + 20000u * TPU, 8u);
	assert_int_equal(nx.ncb, 8);
	assert_int_equal(nx.nb, 8);
	for (unsigned k = 0; k < 7u; k++) {
		assert_int_equal(nx.b_at[k + 1u] - nx.b_at[k], gap_us[k] * TPU);
		assert_int_equal(nx.cb_next[k + 1u], (uint32_t)gap_us[k]);
		assert_int_equal(nx.isr_reads[k + 1u], nx.isr_reads[0]);
		assert_int_equal(nx.isr_writes[k + 1u], nx.isr_writes[0]);
	}
	assert_int_equal(nx.isr_delay_us, 0);
	assert_int_equal(status().timeout, 2000u);
}

/* Start a 500 us (@p p ticks) timer and run ten periods: it stops after
 * @p nb boundaries, each with its handler call, Timer0 disabled with its
 * line low. */
static void run_expect_stop_after(uint64_t p, unsigned nb)
{
	assert_int_equal(lower->ops->settimeout(lower, 500u), 0);
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(sim_now() + 10u * p);
	assert_int_equal(nx.nb, nb);
	assert_int_equal(nx.isr_calls, nb);
	assert_int_equal(tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_false(timer_model_irq(&tm, 0));
}

/* A new start of the stopped timer calls back once, one period (@p p
 * ticks) after it. */
static void expect_restart_calls_back(uint64_t p)
{
	unsigned ncb = nx.ncb;
	unsigned nb = nx.nb;
	uint64_t t1 = sim_now();

	assert_int_equal(lower->ops->start(lower), 0);
	run_until(t1 + 2u * p, ncb + 1u);
	assert_int_equal(nx.ncb, ncb + 1u);
	assert_int_equal(nx.b_at[nb], t1 + p + LOAD);
}

/* The callback returns false at its 2nd call: no boundary, interrupt or
 * callback after it, Timer0 disabled with its line low; getstatus says not
 * active (handler still set), 0 left; a new start is accepted and calls
 * back one period after it. */
static void test_callback_false_stops(void **state)
{
	const uint64_t p = 500u * TPU;
	struct timer_status_s st;

	(void)state;
	nx.stop_at = 2u;
	run_expect_stop_after(p, 2u);
	assert_int_equal(nx.ncb, 2);
	st = status();
	assert_int_equal(st.flags, TCFLAGS_HANDLER);
	assert_int_equal(st.timeout, 500u);
	assert_int_equal(st.timeleft, 0);
	expect_restart_calls_back(p);
	assert_int_equal(nx.ncb, 3);
}

/* No callback installed (the upper half's TCIOC_NOTIFICATION not yet
 * given): the first boundary interrupts, nothing is called back, and the
 * timer stops there, as NuttX's arch timer lower halves do without a
 * callback: one boundary and one handler call in ten periods, Timer0
 * disabled with its line low, getstatus not active and without HANDLER;
 * the callback installed again, a new start calls back one period later. */
static void test_no_callback_one_period(void **state)
{
	const uint64_t p = 500u * TPU;
	struct timer_status_s st;

	(void)state;
	lower->ops->setcallback(lower, NULL, NULL);
	run_expect_stop_after(p, 1u);
	assert_int_equal(nx.ncb, 0);
	st = status();
	assert_int_equal(st.flags, 0);
	assert_int_equal(st.timeleft, 0);
	lower->ops->setcallback(lower, upper_cb, &nx);
	expect_restart_calls_back(p);
	assert_int_equal(nx.ncb, 1);
}

/* The callback returns true and writes 0 to *next_interval at its 2nd
 * call. True asks for the timer to go on (include/nuttx/timers/timer.h),
 * and 0 is no interval: NuttX's own timer lower half
 * (drivers/timers/timer_wdog.c) and every arch timer lower half keep the
 * period they have then. So: 5 callbacks 1 ms apart, still active,
 * timeout still 1000 us. */
static void test_callback_zero_interval_keeps_period(void **state)
{
	const uint64_t p = 1000u * TPU;
	struct timer_status_s st;

	(void)state;
	nx.change_at[0] = 2u;
	nx.change_to[0] = 0u;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	assert_int_equal(lower->ops->start(lower), 0);
	run_until(sim_now() + 7u * p, 5u);
	assert_int_equal(nx.ncb, 5);
	st = status();
	assert_int_equal(st.flags, TCFLAGS_ACTIVE | TCFLAGS_HANDLER);
	assert_int_equal(st.timeout, 1000u);
	for (unsigned k = 0; k < 4u; k++) {
		assert_int_equal(nx.b_at[k + 1u] - nx.b_at[k], p);
	}
}

/* getstatus of a 1 ms timer: active with a handler, timeout 1000, and
 * timeleft the time from the call to the deadline rounded down to whole
 * us, never more than the model's time to its boundary; 0 (not a wrap)
 * once the deadline passed with the handler held off; after stop, not
 * active and 0 left; without a callback, no HANDLER flag. */
static void test_getstatus(void **state)
{
	static const uint64_t at[] = {0u, 1u, 23u, 24u, 25u, 5000u, 12345u, 23975u, 23999u};
	const uint64_t p = 1000u * TPU;
	struct timer_status_s st;
	uint64_t t0;
	uint64_t d;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	d = t0 + p; /* the deadline: the start's time read + the period */
	assert_int_equal(lower->ops->start(lower), 0);
	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		uint64_t now;
		uint64_t to_boundary;

		run_to(t0 + at[i] > sim_now() ? t0 + at[i] : sim_now());
		now = sim_now();
		/* the model's clocks left (before the load edge: INTV + 1 more) */
		to_boundary = tm.ch[0].reload_req ? (uint64_t)tm.ch[0].intv + 2u
		                                  : (uint64_t)tm.ch[0].cur + 1u;
		st = status();
		assert_int_equal(st.flags, TCFLAGS_ACTIVE | TCFLAGS_HANDLER);
		assert_int_equal(st.timeout, 1000u);
		assert_int_equal(st.timeleft, (uint32_t)((d - now) / TPU));
		assert_true((uint64_t)st.timeleft * TPU <= to_boundary);
	}
	nx.depth++; /* the handler is held off past the deadline */
	run_to(d + 2400u);
	assert_int_equal(nx.nb, 1);
	assert_int_equal(nx.ncb, 0);
	st = status();
	assert_int_equal(st.flags, TCFLAGS_ACTIVE | TCFLAGS_HANDLER);
	assert_int_equal(st.timeleft, 0);
	nx.depth--;
	run_until(d + p, 1u);
	assert_int_equal(nx.ncb, 1);
	assert_int_equal(lower->ops->stop(lower), 0);
	st = status();
	assert_int_equal(st.flags, TCFLAGS_HANDLER);
	assert_int_equal(st.timeout, 1000u);
	assert_int_equal(st.timeleft, 0);
	lower->ops->setcallback(lower, NULL, NULL);
	assert_int_equal(status().flags, 0);
}

/* settimeout(300) 400 us into a running 1 ms period resets the timer
 * (NuttX timer.h): the period in progress is dropped, the next boundary is
 * 300 us (7,200 clocks) after the call and the ones after it 300 us
 * apart, with one bounded re-arm (no RELOAD poll: a constant number of
 * accesses); getstatus reports 300. */
static void test_settimeout_running(void **state)
{
	const uint64_t p = 1000u * TPU;
	uint64_t t0, t1;
	uint64_t a;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 400u * TPU);
	a = sim_reads() + sim_writes();
	t1 = sim_now();
	assert_int_equal(lower->ops->settimeout(lower, 300u), 0);
	assert_in_range(sim_reads() + sim_writes() - a, 1u, 12u);
	run_until(t0 + 3u * p, 3u);
	assert_int_equal(nx.ncb, 3);
	assert_in_range(nx.b_at[0], t1 + 300u * TPU, t1 + 300u * TPU + 24u);
	assert_int_equal(nx.b_at[1] - nx.b_at[0], 300u * TPU);
	assert_int_equal(nx.b_at[2] - nx.b_at[1], 300u * TPU);
	assert_int_equal(status().timeout, 300u);
}

/* NuttX's include/nuttx/timers/timer.h documents the lower half's
 * settimeout as "Set a new timeout value (and reset the timer)" (and
 * TCIOC_SETTIMEOUT as "Reset the timer timeout to this value"). A running
 * 10 ms timer given 1 ms at 2 ms must restart: getstatus then reports at
 * most the new 1,000 us left (never more time left than the timeout it
 * reports, which cyclictest's timediff_us_timer() relies on), and the
 * next callback comes 1 ms after the settimeout, not at start + 10 ms. */
static void test_settimeout_running_resets(void **state)
{
	uint64_t t1;
	struct timer_status_s st;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 10000u), 0);
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(sim_now() + 2000u * TPU);
	t1 = sim_now();
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	st = status();
	assert_int_equal(st.timeout, 1000u);
	assert_true(st.timeleft <= st.timeout);
	run_until(t1 + 20000u * TPU, 1u);
	assert_int_equal(nx.ncb, 1);
	assert_in_range(nx.cb_at[0], t1 + 1000u * TPU, t1 + 1000u * TPU + 24u);
}

/* settimeout(500) on a stopped timer: no bus access, nothing counts; the
 * start that follows ends its first period 500 us (12,000 clocks) later. */
static void test_settimeout_stopped(void **state)
{
	uint64_t t0;
	uint64_t r, w;

	(void)state;
	r = sim_reads();
	w = sim_writes();
	assert_int_equal(lower->ops->settimeout(lower, 500u), 0);
	assert_int_equal(sim_reads(), r);
	assert_int_equal(sim_writes(), w);
	run_to(sim_now() + 24000u);
	assert_int_equal(nx.nb, 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_until(t0 + 24000u, 1u);
	assert_int_equal(nx.ncb, 1);
	assert_int_equal(nx.b_at[0], t0 + 500u * TPU + LOAD);
	assert_int_equal(nx.b_clk[0], 500u * TPU);
}

/* start on a started timer: -EBUSY with no bus write, and the period in
 * progress is not restarted: its boundary stays at start + 1 ms. */
static void test_start_twice_refused(void **state)
{
	const uint64_t p = 1000u * TPU;
	uint64_t t0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + p / 2u);
	SIM_EXPECT_NO_WRITE(lower->ops->start(lower), -EBUSY);
	run_until(t0 + 2u * p, 1u);
	assert_int_equal(nx.ncb, 1);
	assert_int_equal(nx.b_at[0], t0 + p + LOAD);
}

/* stop half-way: Timer0 disabled, no expiry pending, and for five periods
 * no boundary, interrupt or callback. Started again and stopped while its
 * expiry is pending (interrupts off): the expiry is dropped, no handler
 * runs and nothing is called back. stop on a stopped timer is OK. */
static void test_stop(void **state)
{
	const uint64_t p = 1000u * TPU;
	uint64_t t0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + p / 2u);
	assert_int_equal(lower->ops->stop(lower), 0);
	assert_int_equal(tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_int_equal(tm.irq_sta & D1_TIMER_IRQ_BIT(0), 0u);
	run_to(t0 + 5u * p);
	assert_int_equal(nx.nb, 0);
	assert_int_equal(nx.isr_calls, 0);
	assert_int_equal(nx.ncb, 0);

	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	nx.depth++;
	run_to(t0 + p + 1000u);
	assert_int_equal(nx.nb, 1);
	assert_true(timer_model_irq(&tm, 0)); /* pending, held off */
	assert_int_equal(lower->ops->stop(lower), 0);
	nx.depth--;
	run_to(t0 + 5u * p);
	assert_int_equal(nx.nb, 1);
	assert_int_equal(nx.isr_calls, 0);
	assert_int_equal(nx.ncb, 0);
	assert_int_equal(lower->ops->stop(lower), 0);
}

/* settimeout(0), on a running and on a stopped timer: -EINVAL, no bus
 * access, the period unchanged (boundaries still 1 ms apart, getstatus
 * still 1000). */
static void test_bad_input(void **state)
{
	const uint64_t p = 1000u * TPU;
	uint64_t r, w;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	r = sim_reads();
	w = sim_writes();
	assert_int_equal(lower->ops->settimeout(lower, 0u), -EINVAL);
	assert_int_equal(sim_reads(), r);
	assert_int_equal(sim_writes(), w);
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(sim_now() + p / 2u);
	r = sim_reads();
	w = sim_writes();
	assert_int_equal(lower->ops->settimeout(lower, 0u), -EINVAL);
	assert_int_equal(sim_reads(), r);
	assert_int_equal(sim_writes(), w);
	run_until(sim_now() + 4u * p, 3u);
	assert_int_equal(nx.ncb, 3);
	assert_int_equal(nx.b_at[1] - nx.b_at[0], p);
	assert_int_equal(nx.b_at[2] - nx.b_at[1], p);
	assert_int_equal(status().timeout, 1000u);
}

/* A period of 200 s, beyond one Timer0 count (D1_TIMER_ONESHOT_MAX clocks,
 * ~179 s): the first arm counts the whole counter, the glue re-arms from
 * its handler without calling back, getstatus still reports the whole
 * time left, and the one callback comes at start + 200 s. */
static void test_period_beyond_one_arm(void **state)
{
	const uint64_t p = 200000000ull * TPU;
	struct timer_status_s st;
	uint64_t t0;
	uint64_t now;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 200000000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 180u * 24000000ull);
	assert_int_equal(nx.nb, 1);
	assert_int_equal(nx.b_clk[0], D1_TIMER_ONESHOT_MAX);
	assert_int_equal(nx.isr_calls, 1);
	assert_int_equal(nx.ncb, 0);
	now = sim_now();
	st = status();
	assert_int_equal(st.flags, TCFLAGS_ACTIVE | TCFLAGS_HANDLER);
	assert_int_equal(st.timeleft, (uint32_t)((t0 + p - now) / TPU));
	run_until(t0 + p + 1000u, 1u);
	assert_int_equal(nx.ncb, 1);
	assert_int_equal(nx.nb, 2);
	assert_int_equal(nx.b_at[1], t0 + p + LOAD);
	assert_int_equal(nx.cb_at[0], t0 + p + LOAD);
}

/* Registration failures: a refused irq_attach() is returned as it is and
 * nothing is registered; a refused timer_register() gives -EEXIST with
 * the interrupt disabled and detached again and Timer0's IRQ_EN bit clear.
 */
static void test_register_failures(void **state)
{
	(void)state;
	nx.registered = 0;
	nx.attach_ret = -EBUSY;
	assert_int_equal(d1_nuttx_timer0_register("/dev/timer0"), -EBUSY);
	assert_int_equal(nx.registered, 0);

	nx.attach_ret = 0;
	nx.refuse_register = true;
	nx.detaches = 0;
	assert_int_equal(d1_nuttx_timer0_register("/dev/timer0"), -EEXIST);
	assert_false(nx.enabled);
	assert_null(nx.isr);
	assert_int_equal(nx.detaches, 1);
	assert_int_equal(tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_int_equal(tm.irq_en & D1_TIMER_IRQ_BIT(0), 0u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_start_without_timeout_refused, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_register_timer0_interrupt, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_timeout_to_clocks, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_periodic_no_drift_constant_isr, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_callback_changes_interval, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_callback_false_stops, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_no_callback_one_period, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_callback_zero_interval_keeps_period, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_getstatus, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_settimeout_running, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_settimeout_running_resets, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_settimeout_stopped, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_start_twice_refused, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_period_beyond_one_arm, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_register_failures, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
