/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency bench: one periodic tick source per platform (D1 Timer1 through
 * the PLIC, or SBI set_timer on QEMU virt), everything else shared.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stdint.h>

/** Tick source: implemented by exactly one of tick_timer1.c / tick_sbi.c. */
struct bench_tick_info {
	const char *name;       /* "timer1", "sbi-set-timer" */
	uint32_t clock_hz;      /* rate of the latency sample */
	const char *sample_def; /* what a sample counts */
};

/** Describe the source (constant). */
const struct bench_tick_info *bench_tick_info(void);

/** Start periodic ticks of @p period_counts sample-clock counts. */
void bench_tick_start(uint32_t period_counts);

/** Stop the ticks (from the tick handler itself or from thread context). */
void bench_tick_stop(void);

/** Extra line(s) the source wants in the report (e.g. the achieved interval). */
void bench_tick_report(void);

/**
 * Arm one wake-up interrupt at `time` CSR value @p when that does not need
 * the tick (the run's bound: a tick source that stops cannot keep the idle
 * loop in WFI for ever); UINT64_MAX disarms. The wake-up is not a tick: it
 * is never passed to bench_account().
 */
void bench_tick_wake_at(uint64_t when);

/**
 * The grid's origin (d1_bench_start()): the tick source calls it with the
 * `time` CSR read just before it starts its timer.
 */
void bench_grid_start(uint64_t now);

/**
 * Called by the tick source from its interrupt, once per interrupt: the
 * accounting is the library's (d1/bench.h, the same on every OS).
 * @param sample Counts since the most recent period boundary, or
 *               D1_TIMER_ISR_SPURIOUS when the interrupt found none.
 * @param now    `time` CSR, read after the sample.
 * @param i0     d1_bench_instret() at the interrupt's start, before the
 *               sample: the bench's own cost per sample runs from there to
 *               the end of the accounting (d1_bench_irq_cost()).
 */
void bench_irq(uint32_t sample, uint64_t now, uint64_t i0);

#endif /* BENCH_H */
