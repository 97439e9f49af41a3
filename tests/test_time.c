/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1_time_delay_us() against the model clock (the `time` CSR hook of
 * tests/model/sim.c): it never returns early, for small and large values,
 * with a coarse clock, and across the 2^64 wrap of the counter; d1_time_now()
 * follows model time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "d1/time.h"
#include "sim.h"

#define TICKS_PER_US (SIM_HZ / 1000000u)

_Static_assert(D1_TIME_HZ == SIM_HZ, "the host library's timebase is the model's");

static int setup(void **state)
{
	(void)state;
	sim_reset();
	return 0;
}

/* Model time one delay took, in SIM_HZ ticks. */
static uint64_t timed_delay(uint32_t us)
{
	uint64_t t0 = sim_now();

	d1_time_delay_us(us);
	return sim_now() - t0;
}

static void test_now_follows_model_time(void **state)
{
	uint64_t a;
	uint64_t b;

	(void)state;
	sim_set_time_step(0);
	sim_advance(12345);
	assert_int_equal(d1_time_now(), 12345);
	sim_set_time_offset(1000);
	assert_int_equal(d1_time_now(), 13345);
	sim_set_time_step(3);
	a = d1_time_now();
	b = d1_time_now();
	assert_int_equal(b - a, 3);
	assert_int_equal(sim_time_reads(), 4);
}

static void test_never_early_small_values(void **state)
{
	static const uint32_t us[] = {0, 1, 2, 7, 10, 20, 100, 999, 1000, 1001, 20000};

	(void)state;
	for (size_t i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		uint64_t want = (uint64_t)us[i] * TICKS_PER_US;
		uint64_t got = timed_delay(us[i]);

		assert_true(got >= want);
		/* and not absurdly long: the +1 phase tick and the last read */
		assert_true(got <= want + 3u);
	}
}

/* A clock that moves in big steps between readings (a slow emulated CSR,
 * an interrupt taken inside the loop): still never early. */
static void test_never_early_coarse_clock(void **state)
{
	static const uint64_t steps[] = {2, 7, 24, 1000, 24000};

	(void)state;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		sim_set_time_step(steps[i]);
		for (uint32_t us = 0; us < 50; us += 7) {
			assert_true(timed_delay(us) >= (uint64_t)us * TICKS_PER_US);
		}
		assert_true(timed_delay(20000) >= 20000u * TICKS_PER_US);
	}
}

/* Large values: us * D1_TIME_HZ needs 64 bits; a 32-bit product would wrap
 * (4,294,967,295 us is 1.03e11 ticks). */
static void test_never_early_large_values(void **state)
{
	static const uint32_t us[] = {178956971u, 0x7FFFFFFFu, UINT32_MAX};

	(void)state;
	sim_set_time_step(1000000u); /* keep the loop short */
	for (size_t i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		uint64_t want = (uint64_t)us[i] * TICKS_PER_US;
		uint64_t got = timed_delay(us[i]);

		assert_true(got >= want);
		assert_true(got <= want + 2u * 1000000u + 1u);
	}
}

/* What a deadline comparison does near the wrap (for the test below to be
 * able to fail): t0 + ticks wraps to a small value and it returns at once. */
static void naive_delay_us(uint32_t us)
{
	uint64_t end = d1_time_now() + (uint64_t)us * TICKS_PER_US;

	while (d1_time_now() < end) {
	}
}

static void test_wrap_safe(void **state)
{
	static const uint64_t before_wrap[] = {1, 100, 23999, 24000, 1000000};

	(void)state;
	for (size_t i = 0; i < sizeof(before_wrap) / sizeof(before_wrap[0]); i++) {
		uint64_t t0;

		sim_set_time_offset(0u - before_wrap[i] - sim_now());
		assert_int_equal(d1_time_now() + before_wrap[i], 0u);
		assert_true(timed_delay(1000) >= 1000u * TICKS_PER_US);
		/* the counter really wrapped during the delay (when it started
		 * less than the delay before the wrap) */
		if (before_wrap[i] <= 1000u * TICKS_PER_US) {
			assert_true(d1_time_now() < 1000u * TICKS_PER_US + 10u);
		}
		/* the naive loop at the same place returns early (when its first
		 * check still reads before the wrap) */
		sim_set_time_offset(0u - before_wrap[i] - sim_now());
		t0 = sim_now();
		naive_delay_us(1000);
		if (before_wrap[i] > 2u && before_wrap[i] < 1000u * TICKS_PER_US) {
			assert_true(sim_now() - t0 < 1000u * TICKS_PER_US);
		}
	}
}

/* The stall bound counts equal readings in a row: one tick of progress
 * (an interrupt moving `time` once, half-way through the bound) starts the
 * count again, so a counter that stops after it ends the delay with
 * D1_ETIMEDOUT after a full D1_TIME_STALL_READS more equal readings. */
static void tick_once(void *arg)
{
	(void)arg;
	sim_advance(1);
}

static void test_stall_count_restarts_on_progress(void **state)
{
	const uint64_t half = D1_TIME_STALL_READS / 2u;
	uint64_t r0;

	(void)state;
	sim_set_time_step(0);
	sim_set_time_rescue(4u * D1_TIME_STALL_READS); /* (a spin for ever ends here) */
	r0 = sim_time_reads();
	sim_irq_arm(2u * half, tick_once, NULL); /* before reading number half */
	assert_int_equal(d1_time_delay_us(1000), D1_ETIMEDOUT);
	assert_int_equal(sim_irq_taken(), 1);
	assert_int_equal(sim_time_reads() - r0, half + D1_TIME_STALL_READS + 1u);
	sim_irq_disarm();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_now_follows_model_time, setup),
	        cmocka_unit_test_setup(test_never_early_small_values, setup),
	        cmocka_unit_test_setup(test_never_early_coarse_clock, setup),
	        cmocka_unit_test_setup(test_never_early_large_values, setup),
	        cmocka_unit_test_setup(test_wrap_safe, setup),
	        cmocka_unit_test_setup(test_stall_count_restarts_on_progress, setup),
	};
	return cmocka_run_group_tests_name("time", tests, NULL, NULL);
}
