/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The latency bench's accounting (d1/bench.h): the definitions every OS's
 * bench shares, so that their tables compare the OS, not the bench code.
 * Pure arithmetic on the caller's `time` readings and samples: no MMIO.
 */
#include "d1/bench.h"

#include "d1/port.h"
#include "d1/timer.h"

static uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

d1_err_t d1_bench_init(struct d1_bench *b, struct d1_lat *irq, struct d1_lat *wake, uint64_t period,
                       uint64_t periods)
{
	if (b == NULL || irq == NULL || wake == irq) {
		return D1_EINVAL;
	}
	if (period < D1_BENCH_PERIOD_MIN || period > UINT32_MAX || periods == 0u) {
		return D1_ERANGE;
	}
	*b = (struct d1_bench){.irq = irq,
	                       .wake = wake,
	                       .period = period,
	                       .periods = periods,
	                       .instr_min = UINT32_MAX};
	return D1_OK;
}

d1_err_t d1_bench_start(struct d1_bench *b, uint64_t now)
{
	if (b == NULL) {
		return D1_EINVAL;
	}
	if (b->started) {
		return D1_ESTATE;
	}
	b->grid = now;
	b->boundary = now;
	b->started = true;
	return D1_OK;
}

enum d1_bench_irq_result d1_bench_irq(struct d1_bench *b, uint32_t sample, uint64_t now)
{
	if (b == NULL) {
		return D1_BENCH_SPURIOUS;
	}
	b->sampled = false;
	if (!b->started || b->finished || b->seen >= b->periods) {
		return D1_BENCH_SPURIOUS;
	}
	if (sample == D1_TIMER_ISR_SPURIOUS) {
		b->spurious_irq++;
		return D1_BENCH_SPURIOUS;
	}
	uint64_t boundary = now - sample;
	/* Signed: an estimate just before the last accounted boundary (the
	 * same boundary seen again, a few clocks off) is no new one. */
	int64_t since = (int64_t)(boundary - b->grid);
	if (since < (int64_t)(b->period / 2u)) {
		b->spurious_irq++;
		return D1_BENCH_SPURIOUS;
	}
	uint64_t n = ((uint64_t)since + b->period / 2u) / b->period;
	uint64_t on_grid = b->grid + n * b->period;
	uint64_t err = boundary > on_grid ? boundary - on_grid : on_grid - boundary;
	if (err > b->grid_err_max) {
		b->grid_err_max = sat32(err);
	}
	if (n > b->periods - b->seen) {
		n = b->periods - b->seen; /* the run ends at its last boundary */
	}
	if (n > 1u) {
		d1_lat_missed(b->irq, sat32(n - 1u));
	}
	d1_lat_record(b->irq, sample);
	b->sampled = true;
	b->grid = on_grid;
	b->boundary = boundary;
	b->seen += n;
	return b->seen >= b->periods ? D1_BENCH_DONE : D1_BENCH_SAMPLE;
}

bool d1_bench_wake(struct d1_bench *b, uint64_t now)
{
	if (b == NULL || b->wake == NULL || !b->started || b->finished) {
		return false;
	}
	uintptr_t s = d1_port_critical_enter();
	uint64_t seen = b->seen;
	uint64_t boundary = b->boundary;
	d1_port_critical_exit(s);
	if (seen == b->woken) {
		b->spurious_wake++;
		return seen >= b->periods;
	}
	d1_lat_record(b->wake, sat32(now - boundary));
	if (seen - b->woken > 1u) {
		b->late_wake++;
		d1_lat_missed(b->wake, sat32(seen - b->woken - 1u));
	}
	b->woken = seen;
	return seen >= b->periods;
}

d1_err_t d1_bench_finish(struct d1_bench *b, uint64_t now)
{
	if (b == NULL) {
		return D1_EINVAL;
	}
	if (!b->started || b->finished) {
		return D1_ESTATE;
	}
	uintptr_t s = d1_port_critical_enter();
	uint64_t seen = b->seen;
	uint64_t grid = b->grid;
	b->finished = true; /* a late interrupt accounts nothing more */
	d1_port_critical_exit(s);
	/* Boundaries of the grid that passed since the last accounted one. */
	uint64_t passed = (int64_t)(now - grid) > 0 ? (now - grid) / b->period : 0u;
	uint64_t total = seen + passed;
	if (total > b->periods) {
		total = b->periods;
	}
	d1_lat_missed(b->irq, sat32(total - seen));
	if (b->wake != NULL) {
		d1_lat_missed(b->wake, sat32(total - b->woken));
		b->woken = total;
	}
	b->seen = total;
	return D1_OK;
}

d1_err_t d1_bench_irq_cost(struct d1_bench *b, uint64_t instructions)
{
	if (b == NULL) {
		return D1_EINVAL;
	}
	if (!b->sampled) {
		return D1_ESTATE;
	}
	b->sampled = false; /* one cost per sample */
	uint32_t n = sat32(instructions);
	if (n < b->instr_min) {
		b->instr_min = n;
	}
	if (n > b->instr_max) {
		b->instr_max = n;
	}
	return D1_OK;
}

d1_err_t d1_bench_get_stats(const struct d1_bench *b, struct d1_bench_stats *out)
{
	if (b == NULL || out == NULL) {
		return D1_EINVAL;
	}
	*out = (struct d1_bench_stats){
	        .boundaries = b->seen,
	        .woken = b->woken,
	        .spurious_irq = b->spurious_irq,
	        .spurious_wake = b->spurious_wake,
	        .late_wake = b->late_wake,
	        .grid_err_max = b->grid_err_max,
	        .irq_instr_min = b->instr_max == 0u ? 0u : b->instr_min,
	        .irq_instr_max = b->instr_max,
	};
	return D1_OK;
}
