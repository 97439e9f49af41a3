/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/nuttx/d1_nuttx_perf.c (up_perf_*(), D1LIB_PERF) against the stand-in
 * NuttX headers, on the models' time (sim.h): the counter is the time CSR,
 * its rate 24 MHz, and a count converts exactly (41.667 ns, floored to the
 * nanosecond), not at a whole 41 ns per count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>

#include "d1/time.h"
#include "sim.h"

static void convert(int64_t counts, time_t sec, long nsec)
{
	struct timespec ts = {-1, -1};

	up_perf_convert((clock_t)counts, &ts);
	assert_int_equal(ts.tv_sec, sec);
	assert_int_equal(ts.tv_nsec, nsec);
}

static void test_counter_is_the_time_csr(void **state)
{
	(void)state;
	sim_reset();
	sim_set_time_step(0);
	sim_set_time_offset(0x123456789ull);
	up_perf_init(NULL);
	assert_int_equal(up_perf_getfreq(), 24000000ul);
	clock_t t0 = up_perf_gettime();
	assert_int_equal((uint64_t)t0, d1_time_now());
	sim_advance(25);
	assert_int_equal(up_perf_gettime() - t0, 25);
}

/* 25 counts are 1,041.667 ns: 1,041, where 41 ns per count gives 1,025. */
static void test_exact_conversion(void **state)
{
	(void)state;
	convert(0, 0, 0);
	convert(1, 0, 41);
	convert(3, 0, 125);
	convert(25, 0, 1041);
	convert(24000000, 1, 0);
	convert(24000001, 1, 41);
	convert(24000000LL * 3600 + 12, 3600, 500);
	convert(-5, 0, 0); /* no negative elapsed time */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_counter_is_the_time_csr),
	        cmocka_unit_test(test_exact_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
