/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host tests of the NuttX glue's port contract and helpers
 * (ports/nuttx/d1_nuttx_port.c, d1_nuttx_util.c), compiled as they are
 * against the stand-in NuttX headers in tests/nuttx/include/, with the
 * library's src/time.c reading the model time CSR of nx_standin.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>

#include "d1/error.h"
#include "d1/port.h"
#include "d1_nuttx.h"
#include <nuttx/timers/timer.h>
#include "nx_standin.h"

#define PS_PER_US    1000000u
#define PS_PER_COUNT (PS_PER_US / 24u) /* 41,666 ps, rounded down */

/* d1_port_delay_us() must never return before us microseconds have passed,
 * whatever the phase of the time CSR at entry: sweep the phase across one
 * 24 MHz period and check the real (model) time of the last CSR read. */
static void delay_never_returns_early(void **state)
{
	static const uint32_t us_list[] = {0u, 1u, 2u, 3u, 10u, 100u, 1000u};
	(void)state;

	for (size_t i = 0; i < sizeof(us_list) / sizeof(us_list[0]); i++) {
		for (uint64_t phase = 0; phase < PS_PER_COUNT + 1u; phase += 2083u) {
			uint64_t entry;
			uint64_t elapsed;

			nx_standin_reset();
			nx_clock.step_ps =
			        997u; /* a read every ~1 ns, not a divisor of the period */
			nx_clock.phase_ps = phase;
			entry = nx_clock.t_ps;
			d1_port_delay_us(us_list[i]);
			elapsed = nx_clock.last_read_ps - entry;
			if (elapsed < (uint64_t)us_list[i] * PS_PER_US) {
				fail_msg("delay_us(%u) at phase %llu ps returned after %llu ps",
				         us_list[i], (unsigned long long)phase,
				         (unsigned long long)elapsed);
			}
			/* And it is a delay, not a hang: at most one count over. */
			assert_true(elapsed <=
			            (uint64_t)us_list[i] * PS_PER_US + 2u * PS_PER_COUNT + 997u);
		}
	}
}

/* A time CSR that stands still: the wait ends after the library's stall
 * bound instead of hanging, and the port counts it. */
static void delay_stopped_clock_counted(void **state)
{
	uint32_t before = g_d1_nx_delay_stalls;
	(void)state;

	nx_standin_reset();
	nx_clock.step_ps = 0u;
	d1_port_delay_us(10u);
	assert_int_equal(g_d1_nx_delay_stalls, before + 1u);
	nx_clock.step_ps = 997u;
	d1_port_delay_us(10u);
	assert_int_equal(g_d1_nx_delay_stalls, before + 1u);
}

/* The counter's wrap does not end the wait early. */
static void delay_across_counter_wrap(void **state)
{
	(void)state;
	for (uint64_t back = 1; back < 60u; back += 7u) {
		uint64_t entry;

		nx_standin_reset();
		nx_clock.csr_base = UINT64_MAX - back;
		nx_clock.step_ps = 997u;
		entry = nx_clock.t_ps;
		d1_port_delay_us(2u);
		assert_true(nx_clock.last_read_ps - entry >= 2u * PS_PER_US);
	}
}

static void critical_section_nests_and_restores(void **state)
{
	uintptr_t a;
	uintptr_t b;
	(void)state;

	nx_standin_reset();
	a = d1_port_critical_enter();
	b = d1_port_critical_enter();
	assert_int_equal(nx_irq_depth, 2);
	d1_port_critical_exit(b);
	assert_int_equal(nx_irq_depth, 1);
	d1_port_critical_exit(a);
	assert_int_equal(nx_irq_depth, 0);
	assert_int_equal(nx_irq_saves, 2);
	assert_true(a != b); /* the outer state is the one that re-enables */
}

static void errno_mapping(void **state)
{
	static const struct {
		int err;
		int expect;
	} map[] = {
	        {D1_OK, 0},
	        {D1_EINVAL, -EINVAL},
	        {D1_ERANGE, -ERANGE},
	        {D1_ETIMEDOUT, -ETIMEDOUT},
	        {D1_ENOTSUP, -ENOTSUP},
	        {D1_EBUSY, -EBUSY},
	        {D1_ESTATE, -EIO},
	        {D1_ENODELEG, -EPERM},
	        {D1_EAGAIN, -EAGAIN},
	        /* Codes the library does not have (yet) are never success. */
	        {-9, -EIO},
	        {-100, -EIO},
	        {1, -EIO},
	        {INT32_MIN, -EIO},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		assert_int_equal(d1_nuttx_errno(map[i].err), map[i].expect);
	}
}

/* Time left is rounded down: it must never be reported longer than it is. */
static void clocks_to_us_rounds_down(void **state)
{
	(void)state;
	assert_int_equal(d1_nx_clocks_to_us(0u, 24000000u), 0u);
	assert_int_equal(d1_nx_clocks_to_us(23u, 24000000u), 0u);
	assert_int_equal(d1_nx_clocks_to_us(24u, 24000000u), 1u);
	assert_int_equal(d1_nx_clocks_to_us(47u, 24000000u), 1u);
	assert_int_equal(d1_nx_clocks_to_us(24000u, 24000000u), 1000u);
	/* 32,768 Hz: one clock is 30.5 us. */
	assert_int_equal(d1_nx_clocks_to_us(1u, 32768u), 30u);
	assert_int_equal(d1_nx_clocks_to_us(32768u, 32768u), 1000000u);
	/* 2^32 clocks at 24 MHz = 178,956,970.6 us. */
	assert_int_equal(d1_nx_clocks_to_us(1ull << 32, 24000000u), 178956970u);
	/* Beyond 32 bits of us, and a zero rate: saturate. */
	assert_int_equal(d1_nx_clocks_to_us(UINT64_MAX, 24000000u), UINT32_MAX);
	assert_int_equal(d1_nx_clocks_to_us(24u, 0u), UINT32_MAX);
	/* Whole seconds x 1e6 beyond 64 bits must saturate, not wrap:
	 * 18,446,744,073,710 s x 1e6 = 2^64 x 15,625 + 448,384 (at 32,768 Hz
	 * a count of 6.0e17), and 2^58 s x 1e6 = 2^64 x 15,625 exactly. */
	assert_int_equal(d1_nx_clocks_to_us(18446744073710ull * 32768u, 32768u), UINT32_MAX);
	assert_int_equal(d1_nx_clocks_to_us(1ull << 58, 1u), UINT32_MAX);
	/* Near the top: one us below UINT32_MAX still exact; 4,295 s over. */
	assert_int_equal(d1_nx_clocks_to_us(4294ull * 24000000u + 967294ull * 24u, 24000000u),
	                 4294967294u);
	assert_int_equal(d1_nx_clocks_to_us(4295ull * 24000000u, 24000000u), UINT32_MAX);
}

static void wdt_timeleft_never_negative(void **state)
{
	(void)state;
	assert_int_equal(d1_nx_wdt_timeleft(16000u, 0u), 16000u);
	assert_int_equal(d1_nx_wdt_timeleft(16000u, 1u), 15999u);
	assert_int_equal(d1_nx_wdt_timeleft(16000u, 16000u), 0u);
	assert_int_equal(d1_nx_wdt_timeleft(16000u, UINT64_MAX), 0u);
	assert_int_equal(d1_nx_wdt_timeleft(500u, 499u), 1u);
}

/* Deadlines on the 64-bit time CSR: the difference, 0 once due or past
 * (also across the counter's wrap), at most max. */
static void deadline_delay_arithmetic(void **state)
{
	(void)state;
	assert_true(d1_nx_deadline_delay(1000u, 1024u, UINT64_MAX) == 24u);
	assert_true(d1_nx_deadline_delay(1000u, 1000u, UINT64_MAX) == 0u); /* due now */
	assert_true(d1_nx_deadline_delay(1000u, 999u, UINT64_MAX) == 0u);  /* one count past */
	assert_true(d1_nx_deadline_delay(1000u, 0u, UINT64_MAX) == 0u);    /* long past */
	/* Across the wrap: now just below 2^64, deadline just above 0. */
	assert_true(d1_nx_deadline_delay(UINT64_MAX - 9u, 14u, UINT64_MAX) == 24u);
	assert_true(d1_nx_deadline_delay(14u, UINT64_MAX - 9u, UINT64_MAX) == 0u);
	/* Longer than the counter's reach: one leg of at most max. */
	assert_true(d1_nx_deadline_delay(0u, 1ull << 40, 0xFFFFFFFFu) == 0xFFFFFFFFu);
	assert_true(d1_nx_deadline_delay(0u, 0xFFFFFFFFu, 0xFFFFFFFFu) == 0xFFFFFFFFu);
}

/* Periods chained as deadline += period never drift, however late each
 * ISR runs, and a deadline that has passed re-arms at once (delay 0, which
 * the library arms as its minimum lead). */
static void chained_deadlines_do_not_drift(void **state)
{
	const uint64_t period = 1000u * 24u; /* 1 ms */
	uint64_t deadline = 5000u + period;
	uint64_t now;
	(void)state;

	for (unsigned n = 1; n <= 1000u; n++) {
		/* The ISR of period n runs late by 0 .. 2.3 periods. */
		now = deadline + (uint64_t)(n * 7919u) % (period * 23u / 10u);
		deadline += period; /* what the ISR does */
		uint64_t d = d1_nx_deadline_delay(now, deadline, 0xFFFFFFFFu);
		if (now >= deadline) {
			assert_true(d == 0u); /* missed: fire at once, not a wrap later */
		} else {
			assert_true(d == deadline - now);
		}
	}
	assert_true(deadline == 5000u + 1001u * period); /* exactly n periods */
}

static void timer_status_fields(void **state)
{
	struct timer_status_s st;
	(void)state;

	d1_nx_timer_status(false, false, 1000u, 0u, 0u, &st);
	assert_int_equal(st.flags, 0);
	assert_int_equal(st.timeout, 1000u);
	assert_int_equal(st.timeleft, 0u);

	d1_nx_timer_status(false, true, 1000u, 0u, 0u, &st);
	assert_int_equal(st.flags, TCFLAGS_HANDLER);

	/* Running: 1000 us and 23 clocks to go reads 1000 us (rounded down). */
	d1_nx_timer_status(true, true, 2000u, 100u + 24000u + 23u, 100u, &st);
	assert_int_equal(st.flags, TCFLAGS_ACTIVE | TCFLAGS_HANDLER);
	assert_int_equal(st.timeleft, 1000u);
	/* 23 clocks to go: less than one us left reads 0, never 1. */
	d1_nx_timer_status(true, false, 2000u, 123u, 100u, &st);
	assert_int_equal(st.timeleft, 0u);
	/* Due or past: 0. */
	d1_nx_timer_status(true, false, 2000u, 100u, 100u, &st);
	assert_int_equal(st.timeleft, 0u);
	d1_nx_timer_status(true, false, 2000u, 50u, 100u, &st);
	assert_int_equal(st.timeleft, 0u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(delay_never_returns_early),
	        cmocka_unit_test(delay_across_counter_wrap),
	        cmocka_unit_test(delay_stopped_clock_counted),
	        cmocka_unit_test(critical_section_nests_and_restores),
	        cmocka_unit_test(errno_mapping),
	        cmocka_unit_test(clocks_to_us_rounds_down),
	        cmocka_unit_test(wdt_timeleft_never_negative),
	        cmocka_unit_test(deadline_delay_arithmetic),
	        cmocka_unit_test(chained_deadlines_do_not_drift),
	        cmocka_unit_test(timer_status_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
