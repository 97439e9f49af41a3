/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The bench's capture (d1/bench.h), private to src/bench.c and
 * src/bench_timer.c: inlined into each interrupt-side entry, so that the
 * interrupt pays for no call.
 */
#ifndef D1_BENCH_CAPTURE_H
#define D1_BENCH_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/bench.h"

/* The interrupt side: the capture, nothing more (the bench's own cost lies
 * inside every task wake-up sample). Whether it is a new boundary is the
 * accounting's question. When every slot waits, this capture replaces the
 * newest, whose boundary the accounting then counts missed: the latest
 * boundary, the one a wake-up is measured from, is always there. The
 * accounting takes slots with interrupts off, so none is half read. */
static inline __attribute__((always_inline)) enum d1_bench_irq_result
d1_bench_capture(struct d1_bench *b, uint32_t sample, uint64_t now, uint64_t i0, bool cost)
{
	uint32_t head = b->head;

	if (head == b->limit) {
		b->dropped++;
		head--;
	}
	struct d1_bench_slot *c = &b->slot[head & (D1_BENCH_SLOTS - 1u)];
	c->now = now;
	c->sample = sample;
	/* Truncated: an interrupt of 2^32 instructions is no bench. */
	c->instr = cost ? (uint32_t)(d1_bench_instret() - i0) : 0u;
	b->head = head + 1u; /* volatile: after the slot's stores */
	return D1_BENCH_SAMPLE;
}

#endif /* D1_BENCH_CAPTURE_H */
