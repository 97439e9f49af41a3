/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the `time` CSR clock and the reference delay
 * (d1/time.h) on model time, with the counter placed anywhere (across its
 * 2^64 wrap) and any step per reading, or stopped. Invariants:
 *  - running counter (step >= 1): d1_time_delay_us(us) returns D1_OK after
 *    at least ceil(us * D1_TIME_HZ / 10^6) + 1 ticks and stops at the first
 *    reading past that (reads = ceil(ticks / step) + 1: never an unbounded
 *    wait); d1_time_now() moves by exactly the step per reading;
 *  - stopped counter (an input's step word 0, then one byte k): stopped
 *    for R = k + 1 readings from the delay's first, then running at 2^30
 *    ticks per reading (sim_set_time_rescue()). R <= D1_TIME_STALL_READS:
 *    D1_OK at the first reading past the delay, R + ceil(ticks / 2^30)
 *    readings; R > D1_TIME_STALL_READS (stopped for good, as far as the
 *    delay can tell): D1_ETIMEDOUT after exactly 1 + D1_TIME_STALL_READS
 *    readings;
 *  - no bus access.
 * The fuzz build sets D1_TIME_STALL_READS to 64 (tests/fuzz/CMakeLists.txt)
 * so that both sides of the give-up count are a few readings away; the
 * default 2^20 is tested exactly in tests/test_bounded_waits.c.
 */
#include "d1/error.h"
#include "d1/time.h"
#include "fuzz_common.h"
#include "sim.h"

#define RESCUE_TICKS (1ull << 30) /* what a rescued reading lets pass (sim.h) */

_Static_assert(D1_TIME_STALL_READS >= 1u && D1_TIME_STALL_READS < 255u,
               "a stall of 1..256 readings must reach both sides of the give-up count");

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Readings and result of d1_time_delay_us() on a counter stopped for
 * @p stall readings from the call's first (then running at RESCUE_TICKS per
 * reading; stall > D1_TIME_STALL_READS: stopped for good). */
static uint64_t stalled_reads(uint64_t stall, uint64_t ticks, d1_err_t *want)
{
	/* stall - 1 equal readings after the first: the give-up count is
	 * reached at reading 1 + D1_TIME_STALL_READS if the stall lasts that
	 * long */
	if (stall > D1_TIME_STALL_READS) {
		*want = D1_ETIMEDOUT;
		return 1u + D1_TIME_STALL_READS;
	}
	*want = D1_OK;
	return stall + (ticks + RESCUE_TICKS - 1u) / RESCUE_TICKS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t offsets[] = {0u, UINT64_MAX, UINT64_MAX - 23u, UINT64_MAX - 1000000u,
	                                   1ull << 63};
	static const uint32_t uss[] = {0u, 1u, 2u, 19999u, 1000000u, UINT32_MAX};
	struct fz_in in;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	while (fz_more(&in)) {
		uint64_t off = fz_pick64(&in, offsets, sizeof(offsets) / sizeof(offsets[0]));
		uint32_t us = fz_pick32(&in, uss, sizeof(uss) / sizeof(uss[0]));
		uint64_t step = fz_u32(&in);
		uint64_t ticks = ((uint64_t)us * D1_TIME_HZ + 999999u) / 1000000u + 1u;
		uint64_t stall = 0; /* 0: running */
		uint64_t want_reads;
		d1_err_t want = D1_OK;
		d1_err_t err;
		uint64_t a, b;

		if (step == 0u) {
			/* a wait that does not give up ends when the stall does,
			 * so the checks below report it */
			stall = (uint64_t)fz_u8(&in) + 1u;
		} else if (step < ticks / 4096u) {
			/* at most ~4096 readings per delay, to stay fast */
			step = ticks / 4096u + 1u;
		}
		sim_set_time_offset(off - sim_now());
		sim_set_time_step(step);
		fz_begin("d1_time_now");
		a = d1_time_now();
		b = d1_time_now();
		fz_end();
		fz_check_no_access();
		FZ_CHECK(b - a == step, "two readings %llu apart, step %llu",
		         (unsigned long long)(b - a), (unsigned long long)step);
		if (stall != 0u) {
			sim_set_time_rescue(stall);
		}
		fz_begin("d1_time_delay_us");
		err = d1_time_delay_us(us);
		fz_end();
		fz_check_no_access();
		if (stall != 0u) {
			sim_set_time_rescue(0);
			want_reads = stalled_reads(stall, ticks, &want);
		} else {
			want_reads = (ticks + step - 1u) / step + 1u;
			FZ_CHECK((fz_call_time_reads() - 1u) * step >= ticks,
			         "delay_us(%u) returned after %llu ticks, needs %llu", us,
			         (unsigned long long)((fz_call_time_reads() - 1u) * step),
			         (unsigned long long)ticks);
		}
		FZ_CHECK(err == want,
		         "delay_us(%u), step %llu, stall %llu: returned %s, expected %s", us,
		         (unsigned long long)step, (unsigned long long)stall, d1_strerror(err),
		         d1_strerror(want));
		FZ_CHECK(fz_call_time_reads() == want_reads,
		         "delay_us(%u), step %llu, stall %llu: %llu readings, expected %llu (ticks "
		         "%llu)",
		         us, (unsigned long long)step, (unsigned long long)stall,
		         (unsigned long long)fz_call_time_reads(), (unsigned long long)want_reads,
		         (unsigned long long)ticks);
		if (sim_now() > (1ull << 62)) {
			fz_sim_reset();
		}
	}
	return 0;
}
