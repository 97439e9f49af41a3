/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU virt tick source: SBI set_timer on an absolute deadline grid.
 * Deadline k is t0 + k * period exactly (never re-armed relative to "now",
 * so ISR latency cannot accumulate as drift). The sample is time CSR now
 * minus the most recent deadline, in 10 MHz counts; the library's bench
 * accounting (d1/bench.h) counts the missed periods. The bench's wake-up
 * (bench_tick_wake_at()) shares the timer: the earlier of the two is
 * programmed, and a wake-up is never accounted as a tick.
 */
#include <stddef.h>

#include "bench.h"
#include "bm.h"
#include "bm_csr.h"
#include "bm_sbi.h"
#include "d1/bench.h"
#include "d1/port.h"
#include "d1/timer.h"

static uint64_t period;
static uint64_t next_deadline;
static volatile bool running;
/* The bench's wake-up (bench_tick_wake_at()) shares the one SBI timer. */
static uint64_t wake_deadline = UINT64_MAX;

static const struct bench_tick_info info = {
        .name = "sbi-set-timer",
        .clock_hz = BM_TIMEBASE_HZ,
        .sample_def = "time CSR at handler entry - absolute deadline",
};

const struct bench_tick_info *bench_tick_info(void)
{
	return &info;
}

/* Program the earlier of the next tick and the wake-up (clears STIP, SBI
 * spec 6.1). */
static void program(void)
{
	bm_sbi_set_timer(running && next_deadline < wake_deadline ? next_deadline : wake_deadline);
}

static void tick(void)
{
	uint64_t now = bm_rdtime();
	bool woken = now >= wake_deadline;

	if (woken) {
		wake_deadline = UINT64_MAX; /* the bench's bound: its loop looks at the time */
	}
	if (!running || now < next_deadline) {
		program();
		if (!woken) {
			/* Not ours or early (cannot happen with set_timer
			 * semantics): the last deadline again, which the
			 * accounting counts spurious. */
			bench_irq(d1_bench_isr_at(bench_core(), next_deadline - period, now));
		}
		return;
	}
	uint64_t late = now - next_deadline;
	uint64_t skipped = late / period; /* deadlines after this one that also passed */
	uint64_t deadline = next_deadline + skipped * period; /* the latest passed */
	next_deadline = deadline + period;
	program();
	bench_irq(d1_bench_isr_at(bench_core(), deadline, now));
}

void bench_tick_start(uint32_t period_counts)
{
	if (!bm_sbi_has_time()) {
		bm_puts("NOTE: SBI TIME extension not probed; using legacy set_timer\n");
	}
	period = period_counts;
	bm_set_timer_hook(tick);
	uint64_t t0 = bm_rdtime();
	bench_grid_start(t0);
	next_deadline = t0 + period;
	running = true;
	program();
	BM_CSR_SET(sie, BM_SIE_STIE);
}

void bench_tick_wake_at(uint64_t when)
{
	uintptr_t s = d1_port_critical_enter(); /* tick() reprograms the same timer */

	wake_deadline = when;
	bm_set_timer_hook(tick);
	program();
	if (when != UINT64_MAX) {
		BM_CSR_SET(sie, BM_SIE_STIE);
	}
	d1_port_critical_exit(s);
}

void bench_tick_stop(void)
{
	running = false;
	BM_CSR_CLEAR(sie, BM_SIE_STIE);
	bm_sbi_set_timer(UINT64_MAX);
}

void bench_tick_report(void)
{
	bm_printf("tick: SBI set_timer, absolute deadlines every %lu counts of %u Hz\n",
	          (unsigned long)period, BM_TIMEBASE_HZ);
}
