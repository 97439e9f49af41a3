/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference delay on the RISC-V `time` CSR (d1/time.h). Its own object, so
 * a port that does not use it does not link it.
 */
#include "d1/time.h"

_Static_assert((unsigned long long)(D1_TIME_HZ) >= 1000000ull &&
                       (unsigned long long)(D1_TIME_HZ) <= 0xFFFFFFFFull,
               "D1_TIME_HZ: 1 MHz .. 4.29 GHz (the delay's arithmetic needs < 2^32)");

void d1_time_delay_us(uint32_t us)
{
	/* us < 2^32 and D1_TIME_HZ < 2^32: the product and the rounding term
	 * fit in 64 bits. */
	uint64_t ticks = ((uint64_t)us * (uint64_t)(D1_TIME_HZ) + 999999u) / 1000000u + 1u;
	uint64_t t0 = d1_time_now();

	/* Unsigned difference: correct across the 2^64 wrap of `time`. */
	while (d1_time_now() - t0 < ticks) {
	}
}
