/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the `time` CSR clock and the reference delay
 * (d1/time.h) on model time, with the counter placed anywhere (across its
 * 2^64 wrap) and any step per reading. Invariants: d1_time_delay_us(us)
 * waits at least ceil(us * D1_TIMER_HZ / 10^6) + 1 ticks and stops at the
 * first reading past that (reads = ceil(ticks / step) + 1: never an
 * unbounded wait); d1_time_now() moves by exactly the step per reading; no
 * bus access.
 */
#include "d1/time.h"
#include "fuzz_common.h"
#include "sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		uint64_t step = fz_u32(&in) | 1u;
		uint64_t ticks = ((uint64_t)us * D1_TIME_HZ + 999999u) / 1000000u + 1u;
		uint64_t want_reads;
		uint64_t a, b;

		/* at most ~4096 readings per delay, to stay fast */
		if (step < ticks / 4096u) {
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
		fz_begin("d1_time_delay_us");
		d1_time_delay_us(us);
		fz_end();
		fz_check_no_access();
		want_reads = (ticks + step - 1u) / step + 1u;
		FZ_CHECK(fz_call_time_reads() == want_reads,
		         "delay_us(%u), step %llu: %llu readings, expected %llu (ticks %llu)", us,
		         (unsigned long long)step, (unsigned long long)fz_call_time_reads(),
		         (unsigned long long)want_reads, (unsigned long long)ticks);
		FZ_CHECK((fz_call_time_reads() - 1u) * step >= ticks,
		         "delay_us(%u) returned after %llu ticks, needs %llu", us,
		         (unsigned long long)((fz_call_time_reads() - 1u) * step),
		         (unsigned long long)ticks);
		if (sim_now() > (1ull << 62)) {
			fz_sim_reset();
		}
	}
	return 0;
}
