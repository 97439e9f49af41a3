/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Reference delay on the RISC-V `time` CSR (d1/time.h). Its own object, so
 * a port that does not use it does not link it.
 */
#include "d1/time.h"

_Static_assert((unsigned long long)(D1_TIME_HZ) >= 1000000ull &&
                       (unsigned long long)(D1_TIME_HZ) <= 0xFFFFFFFFull,
               "D1_TIME_HZ: 1 MHz .. 4.29 GHz (the delay's arithmetic needs < 2^32)");

d1_err_t d1_time_delay_us(uint32_t us)
{
	/* us < 2^32 and D1_TIME_HZ < 2^32: the product and the rounding term
	 * fit in 64 bits. */
	uint64_t ticks = ((uint64_t)us * (uint64_t)(D1_TIME_HZ) + 999999u) / 1000000u + 1u;
	uint64_t t0 = d1_time_now();
	uint64_t prev = t0;
	uint32_t same = 0;

	for (;;) {
		uint64_t now = d1_time_now();

		/* Unsigned difference: correct across the 2^64 wrap of `time`. */
		if (now - t0 >= ticks) {
			return D1_OK;
		}
		/* A stopped counter would hold every bounded wait of the library
		 * for ever: give up after D1_TIME_STALL_READS equal readings. */
		if (now != prev) {
			prev = now;
			same = 0;
		} else if (++same >= D1_TIME_STALL_READS) {
			return D1_ETIMEDOUT;
		}
	}
}
