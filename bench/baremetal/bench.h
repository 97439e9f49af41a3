/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency bench: one periodic tick source per platform (D1 Timer1 through
 * the PLIC, or SBI set_timer on QEMU virt), everything else shared.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/bench.h"

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

/** The run's accounting (d1/bench.h), for the tick source's capture:
 *  d1_bench_isr() for a Timer, d1_bench_isr_at() for a deadline. */
struct d1_bench *bench_core(void);

/**
 * Called by the tick source from its interrupt, right after its capture:
 * the accounting (the library's, the same on every OS), and the run's end.
 * @param r The capture's answer.
 */
void bench_irq(enum d1_bench_irq_result r);

#endif /* BENCH_H */
