/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/d1_rt_port.c, the port contract: d1_port_delay_us() never
 * returns before us * 24 clocks of the 24 MHz time base have passed (the
 * `time` CSR on the D1; here a host clock that the test moves on every
 * read, by a chosen stride), and the critical section nests through
 * rt_hw_interrupt_disable()/enable().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "d1/port.h"
#include "d1/time.h"
#include "d1_rt.h"
#include "rtt_host.h"

static uint64_t now;
static uint64_t stride;
static uint64_t reads;

/* The `time` CSR as the library's d1_time_now() reads it in hooked builds. */
uint64_t d1_time_hook_now(void)
{
	reads++;
	now += stride;
	return now;
}

static void check_delay(uint32_t us, uint64_t step)
{
	uint64_t t0;

	now = 1000u;
	stride = step;
	reads = 0;
	t0 = now;
	d1_port_delay_us(us);
	/* the clock read before the first sample is t0 + stride: the wait is
	 * measured from there; it must cover us * 24 clocks */
	assert_true(now - (t0 + step) >= (uint64_t)us * 24u);
	/* and not much more than one stride beyond */
	assert_true(now - (t0 + step) <= (uint64_t)us * 24u + 1u + step);
}

static void test_delay_never_early(void **state)
{
	(void)state;
	check_delay(0, 1);
	check_delay(1, 1);
	check_delay(1, 7);
	check_delay(100, 1);
	check_delay(100, 13);
	check_delay(20000, 1000); /* the library's longest budget (port.h: < 20 ms) */
	check_delay(UINT32_MAX / 1000u, 1000000u);
}

/* A `time` that stands still: the delay ends after the stall bound instead
 * of hanging (this test hung before the bound existed), and is counted. */
static void test_delay_stopped_clock_bounded(void **state)
{
	uint32_t before = d1_rt_delay_stalls;

	(void)state;
	now = 1000u;
	stride = 0;
	reads = 0;
	d1_port_delay_us(10u);
	assert_int_equal(d1_rt_delay_stalls, before + 1u);
	assert_true(reads <= (uint64_t)D1_TIME_STALL_READS + 2u);
	/* a running clock is not counted */
	check_delay(10u, 1u);
	assert_int_equal(d1_rt_delay_stalls, before + 1u);
}

static void test_critical_nests(void **state)
{
	uintptr_t a, b;

	(void)state;
	rtt_host_reset();
	a = d1_port_critical_enter();
	b = d1_port_critical_enter();
	assert_int_not_equal(a, b);
	d1_port_critical_exit(b);
	assert_int_equal(d1_port_critical_enter(), b); /* back at the outer level */
	d1_port_critical_exit(b);
	d1_port_critical_exit(a);
	assert_int_equal(d1_port_critical_enter(), a);
	d1_port_critical_exit(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_delay_never_early),
	        cmocka_unit_test(test_delay_stopped_clock_bounded),
	        cmocka_unit_test(test_critical_nests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
