/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The latency bench's accounting (d1/bench.h): the definitions every OS's
 * bench shares, so that their tables compare the OS, not the bench code.
 * Arithmetic on the captured `time` readings and samples, no MMIO: the
 * Timer's capture (d1_bench_isr()) is in bench_timer.c, so that a bench on
 * software deadlines links no Timer driver.
 */
#include "d1/bench.h"

#include "bench_capture.h"
#include "d1/port.h"

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
	b->limit = D1_BENCH_SLOTS;
	b->started = true;
	b->capturing = true;
	return D1_OK;
}

_Static_assert((D1_BENCH_SLOTS & (D1_BENCH_SLOTS - 1u)) == 0u, "D1_BENCH_SLOTS: a power of two");

enum d1_bench_irq_result d1_bench_isr_at(struct d1_bench *b, uint64_t boundary, uint64_t now)
{
	if (b == NULL || !b->capturing) {
		return D1_BENCH_IDLE;
	}
	uint64_t late = (int64_t)(now - boundary) > 0 ? now - boundary : 0u;
	/* No cost measured: `instret` may not be readable where software
	 * deadlines run (a Linux user process). */
	return d1_bench_capture(b, sat32(late), boundary + late, 0u, false);
}

/* One capture into the grid and the recorders. */
static bool account_one(struct d1_bench *b, const struct d1_bench_slot *c)
{
	uint64_t boundary = c->now - c->sample;
	int64_t since = (int64_t)(boundary - b->grid);
	if (b->seen >= b->periods) {
		return false; /* after the run's last boundary: not part of it */
	}
	if (since < (int64_t)(b->period / 2u)) {
		b->spurious_acc++; /* no new boundary: the same one seen again */
		return false;
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
	d1_lat_record(b->irq, c->sample);
	if (c->instr != 0u) {
		if (c->instr < b->instr_min) {
			b->instr_min = c->instr;
		}
		if (c->instr > b->instr_max) {
			b->instr_max = c->instr;
		}
	}
	b->grid = on_grid;
	b->boundary = boundary;
	b->seen += n;
	return true;
}

enum d1_bench_irq_result d1_bench_account(struct d1_bench *b)
{
	bool sampled = false;

	if (b == NULL || !b->started) {
		return D1_BENCH_IDLE;
	}
	for (;;) {
		struct d1_bench_slot c;
		uintptr_t s = d1_port_critical_enter();
		uint32_t tail = b->tail;
		bool empty = tail == b->head;
		if (!empty) {
			c = b->slot[tail & (D1_BENCH_SLOTS - 1u)];
			b->tail = tail + 1u;
			b->limit = tail + 1u + D1_BENCH_SLOTS;
		}
		d1_port_critical_exit(s);
		if (empty) {
			break;
		}
		sampled |= account_one(b, &c);
	}
	if (b->seen >= b->periods) {
		b->capturing = false; /* later interrupts capture nothing */
		return D1_BENCH_DONE;
	}
	return sampled ? D1_BENCH_SAMPLE : D1_BENCH_SPURIOUS;
}

bool d1_bench_wake(struct d1_bench *b, uint64_t now)
{
	if (b == NULL || b->wake == NULL || !b->started || b->finished) {
		return false;
	}
	(void)d1_bench_account(b);
	uint64_t seen = b->seen;
	if (seen == b->woken) {
		b->spurious_wake++;
		return seen >= b->periods;
	}
	d1_lat_record(b->wake, sat32(now - b->boundary));
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
	(void)d1_bench_account(b);
	uintptr_t s = d1_port_critical_enter();
	b->finished = true;
	b->capturing = false; /* a late interrupt captures nothing more */
	d1_port_critical_exit(s);
	(void)d1_bench_account(b); /* one that came in between */
	uint64_t seen = b->seen;
	/* Boundaries of the grid that passed since the last accounted one. */
	uint64_t passed = (int64_t)(now - b->grid) > 0 ? (now - b->grid) / b->period : 0u;
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

d1_err_t d1_bench_get_stats(const struct d1_bench *b, struct d1_bench_stats *out)
{
	if (b == NULL || out == NULL) {
		return D1_EINVAL;
	}
	*out = (struct d1_bench_stats){
	        .boundaries = b->seen,
	        .woken = b->woken,
	        .spurious_irq = b->spurious_irq + b->spurious_acc,
	        .spurious_wake = b->spurious_wake,
	        .late_wake = b->late_wake,
	        .dropped = b->dropped,
	        .grid_err_max = b->grid_err_max,
	        .irq_instr_min = b->instr_max == 0u ? 0u : b->instr_min,
	        .irq_instr_max = b->instr_max,
	};
	return D1_OK;
}
