/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service measurements' accounting (d1/bench_svc.h): which readings are
 * samples, which fail, when a run is complete, and the per-call unit of
 * clock-read, each checked against figures worked out here from the
 * definitions, not from the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/bench_svc.h"
#include "d1/time.h"

static struct d1_lat lat;

static void test_names_and_counts(void **state)
{
	(void)state;
	static const char *const want[] = {"clock-read", "mutex-handoff", "semaphore-handoff",
	                                   "thread-create", "thread-create-join"};
	for (unsigned i = 0; i < D1_SVC_COUNT; i++) {
		assert_string_equal(d1_svc_name((enum d1_svc)i), want[i]);
	}
	assert_null(d1_svc_name(D1_SVC_COUNT));
	assert_int_equal(d1_svc_samples(D1_SVC_CLOCK_READ), 20000);
	assert_int_equal(d1_svc_samples(D1_SVC_MUTEX_HANDOFF), 20000);
	assert_int_equal(d1_svc_samples(D1_SVC_SEM_HANDOFF), 20000);
	assert_int_equal(d1_svc_samples(D1_SVC_THREAD_CREATE), 2000);
	assert_int_equal(d1_svc_samples(D1_SVC_THREAD_JOIN), 2000);
	assert_int_equal(d1_svc_samples(D1_SVC_COUNT), 0);
}

static void test_bad_input_untouched(void **state)
{
	(void)state;
	struct d1_svc_run s;
	memset(&s, 0xA5, sizeof(s));
	memset(&lat, 0x5A, sizeof(lat));
	assert_int_equal(d1_svc_init(NULL, D1_SVC_SEM_HANDOFF, &lat), D1_EINVAL);
	assert_int_equal(d1_svc_init(&s, D1_SVC_SEM_HANDOFF, NULL), D1_EINVAL);
	assert_int_equal(d1_svc_init(&s, D1_SVC_COUNT, &lat), D1_EINVAL);
	assert_int_equal(d1_svc_init(&s, (enum d1_svc) - 1, &lat), D1_EINVAL);
	for (size_t i = 0; i < sizeof(s); i++) {
		assert_int_equal(((unsigned char *)&s)[i], 0xA5);
	}
	for (size_t i = 0; i < sizeof(lat); i++) {
		assert_int_equal(((unsigned char *)&lat)[i], 0x5A);
	}
	assert_false(d1_svc_sample(NULL, 0, 1));
	assert_false(d1_svc_fail(NULL));
}

/* A hand-off of 25 counts (1.042 us) recorded as 25 counts; a waiter that
 * returned before the post, and one later than a second, fail. */
static void test_samples_and_failures(void **state)
{
	(void)state;
	struct d1_svc_run s;
	struct d1_lat_summary sum;
	assert_int_equal(d1_svc_init(&s, D1_SVC_MUTEX_HANDOFF, &lat), D1_OK);
	assert_int_equal(lat.clock_hz, 24000000);
	assert_true(d1_svc_sample(&s, 1000, 1025));
	assert_true(d1_svc_sample(&s, UINT64_MAX - 10u, 14u)); /* wrapped: 25 counts */
	assert_true(d1_svc_sample(&s, 1000, 999));             /* stop before start */
	assert_true(d1_svc_sample(&s, 0, 24000001u));          /* longer than 1 s */
	assert_true(d1_svc_sample(&s, 0, 24000000u));          /* exactly 1 s: valid */
	assert_true(d1_svc_fail(&s));
	assert_int_equal(s.taken, 6);
	assert_int_equal(s.failed, 3);
	assert_int_equal(d1_lat_summarize(&lat, &sum), D1_OK);
	assert_int_equal(sum.samples, 3);
	assert_int_equal(sum.missed, 3);
	assert_int_equal(lat.max, 24000000);
	assert_int_equal(lat.bins[25], 2);
}

/* A run ends at its count: the last sample answers false and later ones
 * are not counted. */
static void test_run_length(void **state)
{
	(void)state;
	struct d1_svc_run s;
	struct d1_lat_summary sum;
	assert_int_equal(d1_svc_init(&s, D1_SVC_THREAD_CREATE, &lat), D1_OK);
	unsigned n = 0;
	while (d1_svc_sample(&s, 0, 100)) {
		n++;
	}
	assert_int_equal(n + 1u, 2000);
	assert_false(d1_svc_sample(&s, 0, 100));
	assert_false(d1_svc_fail(&s));
	assert_int_equal(d1_lat_summarize(&lat, &sum), D1_OK);
	assert_int_equal(sum.samples, 2000);
	assert_int_equal(sum.missed, 0);
}

/* clock-read: a batch of 128 reads of 52.083 ns each (160 counts at
 * 24 MHz) is 160 counts of the 24 MHz x 128 clock: 52.083 ns per call. */
static void test_clock_read_per_call(void **state)
{
	(void)state;
	struct d1_svc_run s;
	struct d1_lat_summary sum;
	assert_int_equal(d1_svc_init(&s, D1_SVC_CLOCK_READ, &lat), D1_OK);
	assert_int_equal(lat.clock_hz, 24000000u * 128u);
	for (int i = 0; i < 100; i++) {
		assert_true(d1_svc_sample(&s, 5000, 5000 + 160));
	}
	assert_int_equal(d1_lat_summarize(&lat, &sum), D1_OK);
	/* 160 / (24e6 * 128) s = 52.083 ns */
	assert_int_equal(d1_lat_counts_to_ps(&lat, 160u), 52083u);
	assert_int_equal(sum.samples, 100);
	assert_int_equal(lat.max, 160);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_names_and_counts),
	        cmocka_unit_test(test_bad_input_untouched),
	        cmocka_unit_test(test_samples_and_failures),
	        cmocka_unit_test(test_run_length),
	        cmocka_unit_test(test_clock_read_per_call),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
