/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The bench's Timer capture (d1/bench.h): the one entry that reads the
 * Timer, in its own file so that a bench on software deadlines
 * (d1_bench_isr_at(), src/bench.c) links no Timer driver.
 */
#include "bench_capture.h"
#include "d1/bench.h"
#include "d1/time.h"
#include "d1/timer.h"

enum d1_bench_irq_result d1_bench_isr(struct d1_bench *b, struct d1_timer *t)
{
	if (b == NULL) {
		return D1_BENCH_IDLE; /* bad input: the Timer untouched */
	}
	uint64_t i0 = d1_bench_instret();
	/* Two statements, in this order: the counter, then `time`, so that
	 * now - sample is never before the true boundary. */
	uint32_t sample = d1_timer_isr(t);
	uint64_t now = d1_time_now();

	if (!b->capturing) {
		return D1_BENCH_IDLE;
	}
	if (sample == D1_TIMER_ISR_SPURIOUS) {
		b->spurious_irq++;
		return D1_BENCH_SPURIOUS;
	}
	return d1_bench_capture(b, sample, now, i0, true);
}
