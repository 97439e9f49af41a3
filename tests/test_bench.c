/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bench accounting (d1/bench.h) on the Timer model, against the
 * boundaries the model itself reports: every boundary of a run must be a
 * sample or a missed period of each recorder, and every sample must be the
 * latency the schedule injected (the model's clock since its latest
 * boundary), under adversarial schedules: late handlers, handlers more
 * than a period late, a boundary during the handler, a stopped clock, late
 * and spurious wake-ups. The expected histogram is kept here from the
 * model's boundary log, independently of the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/bench.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "sim.h"
#include "timer_model.h"

#define P 1000u /* clocks per period: every sample below 1024 is an exact bin */

static struct timer_model tm;
static uint64_t nb;       /* boundaries the model reported on channel 1 */
static uint64_t last_in;  /* the model's input-clock index of the latest one */
static uint64_t last_clk; /* its time on the `time` CSR, set by irq() */
static struct d1_lat r_irq, r_wake;
static uint32_t want_irq[D1_LAT_EXACT], want_wake[D1_LAT_EXACT];
static uint64_t want_irq_n, want_wake_n;

static void on_boundary(void *arg, unsigned ch, uint64_t clk)
{
	(void)arg;
	if (ch == 1u) {
		nb++;
		last_in = clk;
	}
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	sim_set_time_step(0); /* `time` reads model time exactly */
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	nb = 0;
	last_in = 0;
	last_clk = 0;
	memset(want_irq, 0, sizeof want_irq);
	memset(want_wake, 0, sizeof want_wake);
	want_irq_n = want_wake_n = 0;
	assert_int_equal(d1_lat_init(&r_irq, D1_TIME_HZ), D1_OK);
	assert_int_equal(d1_lat_init(&r_wake, D1_TIME_HZ), D1_OK);
	return 0;
}

static void start(struct d1_timer *t, struct d1_bench *b, uint64_t periods, bool with_wake)
{
	assert_int_equal(d1_timer_init(t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ), D1_OK);
	assert_int_equal(d1_timer_set_clock(t, D1_TIMER_SRC_OSC24M, 0u), D1_OK);
	assert_int_equal(d1_timer_set_period_clocks(t, P, NULL), D1_OK);
	assert_int_equal(d1_bench_init(b, &r_irq, with_wake ? &r_wake : NULL, P, periods), D1_OK);
	/* The grid's origin just before the start, as every shell does. */
	assert_int_equal(d1_bench_start(b, d1_time_now()), D1_OK);
	assert_int_equal(d1_timer_start(t, D1_TIMER_PERIODIC), D1_OK);
}

static uint64_t samples(const struct d1_lat *r)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i <= D1_LAT_NBINS; i++) {
		n += r->bins[i];
	}
	return n;
}

/* Every boundary a sample or a missed period; the samples exactly those
 * expected. */
static void check_x(const struct d1_bench *b, uint64_t periods, bool with_wake, bool exact)
{
	struct d1_bench_stats st;
	assert_int_equal(d1_bench_get_stats(b, &st), D1_OK);
	assert_int_equal(samples(&r_irq) + r_irq.missed, periods);
	assert_int_equal(samples(&r_irq), want_irq_n);
	if (exact) {
		assert_memory_equal(r_irq.bins, want_irq, sizeof want_irq);
	}
	if (with_wake) {
		assert_int_equal(samples(&r_wake) + r_wake.missed, periods);
		assert_int_equal(samples(&r_wake), want_wake_n);
		assert_memory_equal(r_wake.bins, want_wake, sizeof want_wake);
	}
}

static void check(const struct d1_bench *b, uint64_t periods, bool with_wake)
{
	check_x(b, periods, with_wake, true);
}

/* The handler: what every shell's interrupt does (the capture), then the
 * accounting, on the same side here (a bench without a task does so; the
 * wake-up's own accounting then finds nothing new). With @p exact (no bus
 * access cost: time stands still during the handler) the sample must be
 * the model's clocks since its latest boundary, and the expected histogram
 * gets that; otherwise only the totals are checked. */
static enum d1_bench_irq_result irq_x(struct d1_timer *t, struct d1_bench *b, bool exact)
{
	uint64_t truth = tm.ch[1].in_clocks - last_in; /* OSC24M /1: input clock = `time` */
	enum d1_bench_irq_result r = d1_bench_isr(b, t);
	uint64_t now = d1_time_now();
	if (r == D1_BENCH_SAMPLE) {
		r = d1_bench_account(b);
	}
	if (r != D1_BENCH_SPURIOUS) {
		if (exact) {
			want_irq[truth]++;
			last_clk = now - truth;
		}
		want_irq_n++;
	}
	if (r == D1_BENCH_DONE) {
		assert_int_equal(d1_timer_stop(t), D1_OK);
	}
	return r;
}

static enum d1_bench_irq_result irq(struct d1_timer *t, struct d1_bench *b)
{
	return irq_x(t, b, true);
}

/* A software boundary captured, then accounted: what d1_bench_isr() and
 * d1_bench_account() do with sample @p sample read at @p now. */
static enum d1_bench_irq_result isr_at(struct d1_bench *b, uint32_t sample, uint64_t now)
{
	enum d1_bench_irq_result r = d1_bench_isr_at(b, now - sample, now);
	return r == D1_BENCH_SAMPLE ? d1_bench_account(b) : r;
}

static void wake(struct d1_bench *b, uint64_t boundary_of_sample, bool expect_sample)
{
	uint64_t now = d1_time_now();
	struct d1_bench_stats before, after;
	(void)d1_bench_get_stats(b, &before);
	(void)d1_bench_wake(b, now);
	(void)d1_bench_get_stats(b, &after);
	if (expect_sample) {
		assert_int_equal(after.spurious_wake, before.spurious_wake);
		want_wake[now - boundary_of_sample]++;
		want_wake_n++;
	} else {
		assert_int_equal(after.spurious_wake, before.spurious_wake + 1u);
	}
}

static void wait_irq_sta(void)
{
	while ((tm.irq_sta & 2u) == 0) {
		sim_advance(1);
	}
}

/* On time: a handler 0 .. P/2 after each boundary, a wake-up after it. */
static void test_on_time_every_boundary_sampled(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	uint64_t rng = 7;
	(void)state;
	start(&t, &b, 2000, true);
	enum d1_bench_irq_result r;
	do {
		wait_irq_sta();
		sim_advance(sim_rand(&rng) % (P / 2u));
		r = irq(&t, &b);
		assert_int_not_equal(r, D1_BENCH_SPURIOUS);
		uint64_t bnd = last_clk;
		sim_advance(1 + sim_rand(&rng) % 100u);
		wake(&b, bnd, true);
	} while (r != D1_BENCH_DONE);
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	check(&b, 2000, true);
	assert_int_equal(r_irq.missed, 0);
	assert_int_equal(r_wake.missed, 0);
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&b, &st);
	/* N+1 programmed right: the boundaries stay on the grid, one clock
	 * after it (the start's RELOAD loads CUR at the first input clock). */
	assert_int_equal(st.grid_err_max, 1);
}

/* Handlers up to 3.5 periods late (IRQ_STA stays one bit: the boundaries
 * in between have no interrupt of their own), wake-ups sometimes after a
 * later boundary: samples exact, the rest counted missed, late wake-ups
 * counted. */
static void test_late_handlers_and_late_wakeups(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	uint64_t rng = 11;
	uint64_t late_wakes = 0, woken_nb = 0;
	(void)state;
	start(&t, &b, 3000, true);
	enum d1_bench_irq_result r = D1_BENCH_SAMPLE;
	while (r != D1_BENCH_DONE) {
		wait_irq_sta();
		uint64_t late = sim_rand(&rng) % 8u == 0u ? sim_rand(&rng) % (P * 7u / 2u)
		                                          : sim_rand(&rng) % 50u;
		sim_advance(late);
		r = irq(&t, &b);
		assert_int_not_equal(r, D1_BENCH_SPURIOUS);
		if (sim_rand(&rng) % 10u == 0u && r != D1_BENCH_DONE) {
			/* the task runs only after the next handler */
			wait_irq_sta();
			sim_advance(3);
			r = irq(&t, &b);
		}
		/* Late by the model: more than one boundary since the last
		 * wake-up's (a late handler's merged ones included). */
		uint64_t upto = nb < 3000u ? nb : 3000u;
		late_wakes += upto - woken_nb > 1u;
		woken_nb = upto;
		sim_advance(5);
		wake(&b, last_clk, true);
	}
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	check(&b, 3000, true);
	assert_true(r_irq.missed > 100); /* the schedule did miss periods */
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.late_wake, late_wakes);
	assert_true(late_wakes > 10);
}

/* A boundary during the handler (each bus access costs one clock): the
 * handler's sample may be from the new boundary, the interrupt that boundary
 * raised again finds nothing new. Consistent either way. */
static void test_boundary_during_handler(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	uint64_t spurious = 0;
	(void)state;
	start(&t, &b, 400, false);
	enum d1_bench_irq_result r = D1_BENCH_SAMPLE;
	for (uint64_t i = 0; r != D1_BENCH_DONE; i++) {
		wait_irq_sta();
		sim_advance(P - 4u + i % 6u); /* the next boundary falls inside it */
		sim_set_access_cost(1);
		r = irq_x(&t, &b, false);
		while (r != D1_BENCH_DONE && (tm.irq_sta & 2u) != 0) {
			enum d1_bench_irq_result again = irq_x(&t, &b, false);
			spurious += again == D1_BENCH_SPURIOUS;
			r = again == D1_BENCH_SPURIOUS ? r : again;
		}
		sim_set_access_cost(0);
	}
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	check_x(&b, 400, false, false);
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.spurious_irq, spurious);
	assert_true(spurious > 0);
	assert_true(st.grid_err_max <= 8u); /* the handler's own clocks */
}

/* The Timer's clock stops (channel disabled behind the bench's back) after
 * 500 of 1,000 boundaries: no interrupt comes; the shell's bounded wait
 * ends, d1_bench_finish() counts the other 500 as missed for both. */
static void test_stopped_clock_counts_the_rest_missed(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	(void)state;
	start(&t, &b, 1000, true);
	for (int i = 0; i < 500; i++) {
		wait_irq_sta();
		sim_advance(10);
		assert_int_equal(irq(&t, &b), D1_BENCH_SAMPLE);
		uint64_t bnd = last_clk;
		sim_advance(20);
		wake(&b, bnd, true);
	}
	assert_int_equal(d1_timer_stop(&t), D1_OK);
	sim_advance((uint64_t)P * 2000u); /* the shell's bound, well past the run */
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	check(&b, 1000, true);
	assert_int_equal(r_irq.missed, 500);
	assert_int_equal(r_wake.missed, 500);
	/* A late interrupt after the end captures nothing. */
	assert_int_equal(d1_bench_isr_at(&b, d1_time_now() - 5u, d1_time_now()), D1_BENCH_IDLE);
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_ESTATE);
	check(&b, 1000, true);
}

/* A run cut short: finish at boundary 250 + 0.9 periods counts only the
 * boundaries that have passed, not the whole run. */
static void test_finish_counts_only_passed_boundaries(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	(void)state;
	start(&t, &b, 1000, false);
	for (int i = 0; i < 250; i++) {
		wait_irq_sta();
		assert_int_equal(irq(&t, &b), D1_BENCH_SAMPLE);
	}
	sim_advance(P * 9u / 10u);
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	assert_int_equal(samples(&r_irq), 250);
	assert_int_equal(r_irq.missed, 0);
}

/* Interrupts with no IRQ_STA bit, and a wake-up with no new boundary:
 * counted, no sample. */
static void test_spurious_interrupt_and_wakeup(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	(void)state;
	start(&t, &b, 10, true);
	sim_advance(100); /* before the first boundary */
	assert_int_equal(irq(&t, &b), D1_BENCH_SPURIOUS);
	wake(&b, 0, false);
	wait_irq_sta();
	assert_int_equal(irq(&t, &b), D1_BENCH_SAMPLE);
	uint64_t bnd = last_clk;
	sim_advance(7);
	wake(&b, bnd, true);
	wake(&b, bnd, false); /* a second post for the same boundary */
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.spurious_irq, 1);
	assert_int_equal(st.spurious_wake, 2);
	assert_int_equal(samples(&r_irq), 1);
	assert_int_equal(samples(&r_wake), 1);
}

/* A boundary estimate a few clocks before the last accounted boundary (the
 * same boundary seen again) is no new one: no wrap to 2^64 / period. */
static void test_estimate_before_grid_is_spurious(void **state)
{
	struct d1_bench b;
	(void)state;
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, P, 10), D1_OK);
	assert_int_equal(d1_bench_start(&b, 5000), D1_OK);
	assert_int_equal(isr_at(&b, 10, 6010), D1_BENCH_SAMPLE);   /* boundary 6000 */
	assert_int_equal(isr_at(&b, 13, 6010), D1_BENCH_SPURIOUS); /* 5997 */
	assert_int_equal(isr_at(&b, 0, 6499), D1_BENCH_SPURIOUS);  /* under P/2 on */
	assert_int_equal(isr_at(&b, 0, 6500), D1_BENCH_SAMPLE);    /* rounds to 7000 */
	assert_int_equal(samples(&r_irq), 2);
	struct d1_bench_stats st;
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.grid_err_max, 500);
	assert_int_equal(st.spurious_irq, 2);
}

/* A new boundary whose estimate is a few clocks before its grid point is
 * one boundary (rounded, not floored), and the grid, not the last
 * estimate, is what the next boundary is counted from: estimates off the
 * grid never add up to a period more or less. */
static void test_grid_is_the_reference(void **state)
{
	struct d1_bench b;
	struct d1_bench_stats st;
	(void)state;
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, P, 100), D1_OK);
	assert_int_equal(d1_bench_start(&b, 5000), D1_OK);
	assert_int_equal(isr_at(&b, 10, 6010), D1_BENCH_SAMPLE); /* 6000 */
	assert_int_equal(isr_at(&b, 10, 7007), D1_BENCH_SAMPLE); /* 6997: 7000 */
	assert_int_equal(isr_at(&b, 10, 8010), D1_BENCH_SAMPLE); /* 8000 */
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.boundaries, 3);
	assert_int_equal(st.grid_err_max, 3);
	/* Estimates 300 late, then 200 late, then 400 early of their points:
	 * 9300 -> 9000, 10200 -> 10000, 11600 -> 12000 (11000 missed). */
	assert_int_equal(isr_at(&b, 0, 9300), D1_BENCH_SAMPLE);
	assert_int_equal(isr_at(&b, 0, 10200), D1_BENCH_SAMPLE);
	assert_int_equal(isr_at(&b, 0, 11600), D1_BENCH_SAMPLE);
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.boundaries, 7);
	assert_int_equal(r_irq.missed, 1);
	assert_int_equal(st.grid_err_max, 400);
}

/* The run ends at its last boundary even when the last interrupt finds
 * several: n is cut to the run, and later calls record nothing. */
static void test_run_ends_at_its_last_boundary(void **state)
{
	struct d1_bench b;
	(void)state;
	assert_int_equal(d1_bench_init(&b, &r_irq, &r_wake, P, 3), D1_OK);
	assert_int_equal(d1_bench_start(&b, 0), D1_OK);
	assert_int_equal(isr_at(&b, 1, 5001), D1_BENCH_DONE);
	assert_int_equal(r_irq.missed, 2);
	assert_int_equal(samples(&r_irq), 1);
	assert_true(d1_bench_wake(&b, 5010));
	assert_int_equal(samples(&r_wake), 1);
	assert_int_equal(r_wake.missed, 2);
	assert_int_equal(isr_at(&b, 1, 6001), D1_BENCH_IDLE); /* the run is over */
	assert_int_equal(samples(&r_irq), 1);
}

/* The bench's own cost: d1_bench_isr() reads `instret` on entry and before
 * its last store (here the models' stand-in, which each read advances by
 * the step set); the accounting keeps the fewest and most per sample. A
 * spurious interrupt adds nothing; a run with no cost measured (every read
 * the same) reports 0 and 0. */
static void test_irq_cost_per_sample(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	struct d1_bench_stats st;
	static const uint64_t cost[] = {140, 131, 155, 131, 138};
	(void)state;
	start(&t, &b, 10, false);
	wait_irq_sta();
	assert_int_equal(irq(&t, &b), D1_BENCH_SAMPLE); /* step 0: not measured */
	assert_int_equal(d1_bench_get_stats(&b, &st), D1_OK);
	assert_int_equal(st.irq_instr_min, 0);
	assert_int_equal(st.irq_instr_max, 0);
	for (size_t i = 0; i < sizeof cost / sizeof cost[0]; i++) {
		wait_irq_sta();
		sim_set_instret_step(cost[i]);
		assert_int_equal(irq(&t, &b), D1_BENCH_SAMPLE);
	}
	sim_set_instret_step(3);
	assert_int_equal(irq(&t, &b), D1_BENCH_SPURIOUS); /* no IRQ_STA bit */
	assert_int_equal(d1_bench_get_stats(&b, &st), D1_OK);
	assert_int_equal(st.irq_instr_min, 131);
	assert_int_equal(st.irq_instr_max, 155);
}

/* The capture reads the Timer's counter, then `time`: with every bus access
 * taking 3 clocks, the boundary estimate (time - sample) lies at or after
 * the model's true boundary, by the clocks between the two reads. Read in
 * the other order (`time` first: what d1_bench_irq(b, d1_timer_isr(&t),
 * d1_time_now()) left to the compiler) it lies before it, by the
 * acknowledge and the counter read. */
static void test_counter_read_before_time(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	(void)state;
	start(&t, &b, 10, false);
	for (int i = 0; i < 5; i++) {
		wait_irq_sta();
		sim_advance(10u + (uint64_t)i * 7u);
		uint64_t true_boundary = sim_now() - (tm.ch[1].in_clocks - last_in);
		sim_set_access_cost(3);
		assert_int_equal(d1_bench_isr(&b, &t), D1_BENCH_SAMPLE);
		sim_set_access_cost(0);
		assert_int_equal(d1_bench_account(&b), D1_BENCH_SAMPLE);
		assert_true(b.boundary >= true_boundary);
		assert_true(b.boundary <= true_boundary + 3u);
	}
}

/* The task runs only after several boundaries (fewer than the slots): each
 * interrupt's capture waits in its slot, and the wake-up accounts them all:
 * every timer-IRQ sample exact, the wake-up late by the boundaries between.
 * Later than every slot: each capture past the slots replaces the newest
 * one, which is dropped and counted, its boundary a missed period (IRQ);
 * the wake-up is still measured from the latest boundary, and every
 * boundary is a sample or a missed period of each recorder. */
static void test_task_later_than_the_slots(void **state)
{
	struct d1_timer t;
	struct d1_bench b;
	struct d1_bench_stats st;
	const uint64_t runs[] = {5, D1_BENCH_SLOTS, D1_BENCH_SLOTS + 4u};
	uint64_t want_dropped = 0, periods = 0, last_truth = 0;
	(void)state;
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		periods += runs[k];
	}
	start(&t, &b, periods, true);
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		uint64_t bnd = 0;
		for (uint64_t i = 0; i < runs[k]; i++) {
			wait_irq_sta();
			sim_advance(4u + i);
			uint64_t truth = tm.ch[1].in_clocks - last_in;
			assert_int_equal(d1_bench_isr(&b, &t), D1_BENCH_SAMPLE);
			bnd = d1_time_now() - truth;
			if (i >= D1_BENCH_SLOTS) { /* replaces the newest capture */
				want_irq[last_truth]--;
				want_irq_n--;
				want_dropped++;
			}
			want_irq[truth]++;
			want_irq_n++;
			last_truth = truth;
		}
		sim_advance(9);
		wake(&b, bnd, true);
	}
	assert_int_equal(d1_timer_stop(&t), D1_OK);
	assert_int_equal(d1_bench_finish(&b, d1_time_now()), D1_OK);
	(void)d1_bench_get_stats(&b, &st);
	assert_int_equal(st.dropped, want_dropped);
	assert_int_equal(want_dropped, 4);
	assert_int_equal(r_irq.missed, want_dropped);
	assert_int_equal(st.late_wake, 3);
	assert_int_equal(r_wake.missed, periods - 3u);
	check(&b, periods, true);
}

/* The run line, the one every OS's bench prints: exact text for a run with
 * a late wake-up and a missed period, "wake none" without a wake recorder,
 * the widest counts within D1_BENCH_RUN_LINE_SIZE, and a buffer too small
 * refused with a clean prefix. */
static void test_run_line(void **state)
{
	struct d1_bench b;
	char line[D1_BENCH_RUN_LINE_SIZE];
	size_t n = 0;
	(void)state;
	assert_int_equal(d1_bench_init(&b, &r_irq, &r_wake, P, 4), D1_OK);
	assert_int_equal(d1_bench_report_run(&b, 0, line, sizeof line, &n), D1_ESTATE);
	assert_int_equal(d1_bench_start(&b, 0), D1_OK);
	assert_int_equal(isr_at(&b, 3, 1003), D1_BENCH_SAMPLE);
	assert_false(d1_bench_wake(&b, 1010));
	assert_int_equal(isr_at(&b, 5, 3005), D1_BENCH_SAMPLE); /* 2000 missed */
	assert_false(d1_bench_wake(&b, 3020));                  /* late */
	assert_int_equal(d1_bench_finish(&b, 4100), D1_OK);
	assert_int_equal(d1_bench_report_run(&b, 4100, line, sizeof line, &n), D1_OK);
	assert_string_equal(line,
	                    "run: 4 boundaries, irq 2 samples + 2 missed, wake 2 samples + 2 "
	                    "missed (1 late, 0 spurious), spurious interrupts 0, dropped 0, 170 "
	                    "us of time CSR (ideal 166 us)");
	assert_int_equal(n, strlen(line));
	char small[20];
	assert_int_equal(d1_bench_report_run(&b, 4100, small, sizeof small, &n), D1_ERANGE);
	assert_int_equal(strlen(small), sizeof small - 1u);
	assert_memory_equal(small, line, sizeof small - 1u);

	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, UINT32_MAX, UINT64_MAX), D1_OK);
	assert_int_equal(d1_bench_start(&b, 0), D1_OK);
	r_irq.missed = UINT64_MAX;
	b.seen = UINT64_MAX;
	b.spurious_irq = UINT32_MAX;
	b.dropped = UINT32_MAX;
	assert_int_equal(d1_bench_report_run(&b, UINT64_MAX, line, sizeof line, &n), D1_OK);
	assert_non_null(strstr(line, ", wake none, "));
	assert_true(n < sizeof line);
	assert_int_equal(d1_bench_report_run(NULL, 0, line, sizeof line, NULL), D1_EINVAL);
	assert_int_equal(d1_bench_report_run(&b, 0, NULL, 8, NULL), D1_EINVAL);
	assert_int_equal(d1_bench_report_run(&b, 0, line, 0, NULL), D1_EINVAL);
}

static void test_bad_input(void **state)
{
	struct d1_bench b, keep;
	struct d1_bench_stats st;
	(void)state;
	memset(&b, 0x5a, sizeof b);
	keep = b;
	assert_int_equal(d1_bench_init(NULL, &r_irq, NULL, P, 1), D1_EINVAL);
	assert_int_equal(d1_bench_init(&b, NULL, NULL, P, 1), D1_EINVAL);
	assert_int_equal(d1_bench_init(&b, &r_irq, &r_irq, P, 1), D1_EINVAL);
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, D1_BENCH_PERIOD_MIN - 1u, 1), D1_ERANGE);
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, (uint64_t)UINT32_MAX + 1u, 1), D1_ERANGE);
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, P, 0), D1_ERANGE);
	assert_memory_equal(&b, &keep, sizeof b); /* untouched on error */
	assert_int_equal(d1_bench_start(NULL, 0), D1_EINVAL);
	assert_int_equal(d1_bench_finish(NULL, 0), D1_EINVAL);
	assert_int_equal(d1_bench_get_stats(NULL, &st), D1_EINVAL);
	assert_int_equal(d1_bench_isr(NULL, NULL), D1_BENCH_IDLE);
	assert_int_equal(d1_bench_isr_at(NULL, 1, 1), D1_BENCH_IDLE);
	assert_int_equal(d1_bench_account(NULL), D1_BENCH_IDLE);
	assert_false(d1_bench_wake(NULL, 1));
	assert_int_equal(d1_bench_init(&b, &r_irq, NULL, P, 5), D1_OK);
	assert_int_equal(d1_bench_get_stats(&b, NULL), D1_EINVAL);
	assert_int_equal(isr_at(&b, 1, 2000), D1_BENCH_IDLE); /* not started */
	assert_int_equal(d1_bench_account(&b), D1_BENCH_IDLE);
	assert_int_equal(d1_bench_finish(&b, 0), D1_ESTATE);
	assert_false(d1_bench_wake(&b, 1)); /* no wake recorder */
	assert_int_equal(d1_bench_start(&b, 0), D1_OK);
	assert_int_equal(d1_bench_start(&b, 0), D1_ESTATE);
	assert_int_equal(samples(&r_irq) + r_irq.missed, 0);
}

/* The background-cost arithmetic (d1_bench_cost()) on marks worked out
 * here: an idle window of 10,000 instructions in which the spinner ran
 * 2,000 iterations (8,000 instructions) leaves 2,000 for the tick; a work
 * window of 50,000 with 5,000 iterations leaves 30,000, of which the tick's
 * share at that length is 10,000: 20,000 for 100 units, 200.00 each. */
static void test_background_cost(void **state)
{
	(void)state;
	struct d1_bench_mark idle[2] = {{1000, 10}, {11000, 2010}};
	struct d1_bench_mark win[2] = {{20000, 3000}, {70000, 8000}};
	struct d1_bench_cost c;
	assert_int_equal(d1_bench_cost(idle, win, 100, &c), D1_OK);
	assert_int_equal(c.idle_window, 10000);
	assert_int_equal(c.idle_other, 2000);
	assert_int_equal(c.window, 50000);
	assert_int_equal(c.other, 30000);
	assert_int_equal(c.hundredths, 20000);
	/* a window the spinner filled: nothing outside it, never negative */
	win[1].spins = 3000u + 50000u / D1_BENCH_SPIN_INSNS;
	assert_int_equal(d1_bench_cost(idle, win, 100, &c), D1_OK);
	assert_int_equal(c.other, 0);
	assert_int_equal(c.hundredths, 0);
	/* the spinner counts from 1 and stops at the first iteration that
	 * finds the flag set */
	struct d1_bench_spinner sp = {.spins = 7u, .stop = 1u};
	d1_bench_spin(&sp);
	assert_int_equal(sp.spins, 1);
	struct d1_bench_mark m;
	d1_bench_mark(&sp, &m);
	assert_int_equal(m.spins, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_on_time_every_boundary_sampled, setup),
	        cmocka_unit_test_setup(test_late_handlers_and_late_wakeups, setup),
	        cmocka_unit_test_setup(test_boundary_during_handler, setup),
	        cmocka_unit_test_setup(test_stopped_clock_counts_the_rest_missed, setup),
	        cmocka_unit_test_setup(test_finish_counts_only_passed_boundaries, setup),
	        cmocka_unit_test_setup(test_spurious_interrupt_and_wakeup, setup),
	        cmocka_unit_test_setup(test_estimate_before_grid_is_spurious, setup),
	        cmocka_unit_test_setup(test_grid_is_the_reference, setup),
	        cmocka_unit_test_setup(test_run_ends_at_its_last_boundary, setup),
	        cmocka_unit_test_setup(test_irq_cost_per_sample, setup),
	        cmocka_unit_test_setup(test_counter_read_before_time, setup),
	        cmocka_unit_test_setup(test_task_later_than_the_slots, setup),
	        cmocka_unit_test_setup(test_run_line, setup),
	        cmocka_unit_test_setup(test_bad_input, setup),
	        cmocka_unit_test(test_background_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
