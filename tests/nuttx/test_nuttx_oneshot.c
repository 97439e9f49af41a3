/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tickless glue (ports/nuttx/d1_nuttx_oneshot.c: Timer1 as NuttX's
 * oneshot lower-half, clock-count interface) compiled as it is, on the
 * Timer model, with NuttX's side stood in here: the interrupt line (the
 * handler runs `lat` 24 MHz ticks after the model raises Timer1's line,
 * unless interrupts are off), irq_attach(), up_alarm_set_lowerhalf() and
 * the client's callback (what arch_alarm.c would do: record the time and,
 * for a periodic client, start the next absolute deadline from inside
 * the callback).
 *
 * What it checks is when the model's Timer1 made each callback happen, on
 * the time CSR the glue uses as its clock (both 24 MHz OSC24M): at the
 * deadline plus the interrupt latency, never before it; absolute
 * deadlines re-armed from the callback do not drift over 1,000 periods;
 * a deadline already past or closer than the re-arm cost fires at once,
 * not a counter wrap later; a deadline beyond one Timer1 count takes
 * several arms and calls back once; a cancel, also with the expiry
 * already pending, calls nothing back; a stale expiry pending when a new
 * deadline is armed does not call back early.
 */
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
#include <nuttx/timers/arch_alarm.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1/timer_regs.h"
#include "sim.h"
#include "nx_line_host.h"
#include "timer_model.h"

void __wrap_up_timer_initialize(void);

#define IRQ_T1 (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER1)
#define NCB    1100u

static struct timer_model tm;

static struct {
	struct oneshot_lowerhalf_s *lower;
	/* the client */
	unsigned ncb;
	uint64_t cb_at[NCB];    /* model time of each callback */
	uint64_t period;        /* 0: one-shot client; else re-arm from the callback */
	uint64_t next_deadline; /* the periodic client's next absolute deadline */
	unsigned periods_left;
} nx;

void up_alarm_set_lowerhalf(struct oneshot_lowerhalf_s *lower)
{
	nx.lower = lower;
}

/* arch_alarm.c's side: note the time; a periodic client arms its next
 * absolute deadline from here, as the tickless scheduler does. */
static void client_cb(struct oneshot_lowerhalf_s *lower, void *arg)
{
	(void)arg;
	assert_true(nx.ncb < NCB);
	nx.cb_at[nx.ncb++] = sim_now();
	if (nx.period != 0u && nx.periods_left > 0u) {
		nx.periods_left--;
		nx.next_deadline += nx.period;
		lower->ops->start_absolute(lower, nx.next_deadline);
	}
}

/* Runs model time to @p until: one tick at a time within 64 ticks of
 * @p near (the next deadline the test knows of) and after it, in steps of
 * up to 2^20 ticks before it. */
static void run_to(uint64_t until, uint64_t near)
{
	while (sim_now() < until) {
		uint64_t now = sim_now();
		uint64_t n = 1u;

		if (near > now + 64u) {
			n = near - now - 32u;
			if (n > (1u << 20)) {
				n = 1u << 20;
			}
		}
		if (n > until - now) {
			n = until - now;
		}
		nx_line_step(n);
	}
}

static uint64_t now_csr(void)
{
	return nx.lower->ops->current(nx.lower);
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	memset(&nx, 0, sizeof(nx));
	nx_line_reset(&tm, 1u, IRQ_T1);
	__wrap_up_timer_initialize();
	assert_non_null(nx.lower);
	nx.lower->callback = client_cb;
	return 0;
}

/* Initialisation: Timer1 attached and its line enabled, the SBI timer
 * interrupt off, the lower half handed to arch_alarm.c at 24 MHz, Timer1
 * not running, nothing called back. */
static void test_init(void **state)
{
	(void)state;
	assert_non_null(nx_line.isr);
	assert_true(nx_line.enabled);
	assert_true(nx_line.stimer_disabled);
	assert_int_equal(nx.lower->frequency, 24000000u);
	assert_int_equal(nx.lower->ops->max_delay(nx.lower), D1_TIMER_ONESHOT_MAX);
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	run_to(sim_now() + 48000u, 0u);
	assert_int_equal(nx.ncb, 0);
	assert_int_equal(nx_line.depth, 0);
}

/* A relative 1 ms: one callback, at the deadline (time CSR at the call +
 * 24,000) or up to 4 ticks after it, never before. */
static void test_start_relative(void **state)
{
	uint64_t t0;

	(void)state;
	t0 = now_csr();
	nx.lower->ops->start(nx.lower, 24000u);
	run_to(t0 + 48000u, t0 + 24000u);
	assert_int_equal(nx.ncb, 1);
	assert_in_range(nx.cb_at[0], t0 + 24000u, t0 + 24004u);
	assert_int_equal(nx_line.depth, 0);
}

/* A periodic client re-arming absolute deadlines from its callback, the
 * interrupt 50 ticks late each time: callback k at d0 + k x 24,000 + 50
 * (+ up to 4) for all 1,000, so the last is no later than the first: no
 * drift. */
static void test_absolute_rearm_no_drift(void **state)
{
	uint64_t d0;
	unsigned k;

	(void)state;
	nx_line.lat = 50u;
	nx.period = 24000u;
	nx.periods_left = 999u;
	d0 = now_csr() + 24000u;
	nx.next_deadline = d0;
	nx.lower->ops->start_absolute(nx.lower, d0);
	for (k = 0; k < 1000u; k++) {
		run_to(d0 + (uint64_t)k * 24000u + 200u, d0 + (uint64_t)k * 24000u);
		assert_int_equal(nx.ncb, k + 1u);
		assert_in_range(nx.cb_at[k], d0 + (uint64_t)k * 24000u + 50u,
		                d0 + (uint64_t)k * 24000u + 54u);
	}
	run_to(sim_now() + 48000u, 0u);
	assert_int_equal(nx.ncb, 1000);
}

/* Deadlines already past, now, and one tick ahead (closer than any
 * re-arm): each calls back within a few ticks, not 2^32 clocks later. */
static void test_past_and_close_deadlines_fire_at_once(void **state)
{
	const int64_t rel[] = {-1000, -1, 0, 1, 2};
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		uint64_t t0 = now_csr();

		nx.lower->ops->start_absolute(nx.lower, (uint64_t)((int64_t)t0 + rel[k]));
		run_to(t0 + 64u, t0);
		assert_int_equal(nx.ncb, k + 1u);
		assert_in_range(nx.cb_at[k], t0, t0 + 8u);
	}
}

/* A deadline of D1_TIMER_ONESHOT_MAX + 3 x 24,000 clocks (about 179 s):
 * Timer1 cannot count it in one arm; the glue re-arms and calls back once,
 * at the deadline. */
static void test_deadline_beyond_one_arm(void **state)
{
	uint64_t t0;
	uint64_t d;

	(void)state;
	t0 = now_csr();
	d = t0 + D1_TIMER_ONESHOT_MAX + 72000u;
	nx.lower->ops->start_absolute(nx.lower, d);
	run_to(d - 100u, d);
	assert_int_equal(nx.ncb, 0);
	assert_true(nx_line.isr_calls >= 1u); /* an intermediate arm expired */
	run_to(d + 200u, d);
	assert_int_equal(nx.ncb, 1);
	assert_in_range(nx.cb_at[0], d, d + 4u);
}

/* Cancelled half-way: no callback, no interrupt at all, Timer1 left
 * stopped. */
static void test_cancel(void **state)
{
	uint64_t t0;

	(void)state;
	t0 = now_csr();
	nx.lower->ops->start(nx.lower, 24000u);
	run_to(t0 + 12000u, 0u);
	nx.lower->ops->cancel(nx.lower);
	run_to(t0 + 96000u, t0 + 24000u);
	assert_int_equal(nx.ncb, 0);
	assert_int_equal(nx_line.isr_calls, 0);
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
}

/* The expiry is pending (interrupts off) when the client cancels: the
 * handler that runs once interrupts are back calls nothing back. */
static void test_cancel_with_expiry_pending(void **state)
{
	uint64_t t0;
	irqstate_t f;

	(void)state;
	t0 = now_csr();
	nx.lower->ops->start(nx.lower, 100u);
	f = up_irq_save();
	run_to(t0 + 300u, t0 + 100u);
	nx.lower->ops->cancel(nx.lower);
	up_irq_restore(f);
	run_to(t0 + 48000u, 0u);
	assert_int_equal(nx.ncb, 0);
}

/* An expiry is pending (interrupts off) when the client arms a new
 * deadline 1 ms ahead: the stale expiry must not call back; the new
 * deadline does, on time. */
static void test_stale_expiry_does_not_fire_new_deadline(void **state)
{
	uint64_t t0;
	uint64_t d;
	irqstate_t f;

	(void)state;
	t0 = now_csr();
	nx.lower->ops->start(nx.lower, 100u);
	f = up_irq_save();
	run_to(t0 + 300u, t0 + 100u);
	d = now_csr() + 24000u;
	nx.lower->ops->start_absolute(nx.lower, d);
	up_irq_restore(f);
	run_to(d - 10u, d);
	assert_int_equal(nx.ncb, 0);
	run_to(d + 200u, d);
	assert_int_equal(nx.ncb, 1);
	assert_in_range(nx.cb_at[0], d, d + 4u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_init, setup),
	        cmocka_unit_test_setup(test_start_relative, setup),
	        cmocka_unit_test_setup(test_absolute_rearm_no_drift, setup),
	        cmocka_unit_test_setup(test_past_and_close_deadlines_fire_at_once, setup),
	        cmocka_unit_test_setup(test_deadline_beyond_one_arm, setup),
	        cmocka_unit_test_setup(test_cancel, setup),
	        cmocka_unit_test_setup(test_cancel_with_expiry_pending, setup),
	        cmocka_unit_test_setup(test_stale_expiry_does_not_fire_new_deadline, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
