/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark (prints figures, asserts nothing about speed): MMIO accesses of
 * the tick path, counted by the simulated bus, for an exact and a
 * fractional period.
 */
#include <stdio.h>
#include <stdlib.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "sim.h"
#include "timer_model.h"

static int measure(const char *what, enum d1_timer_src src, uint32_t hz)
{
	static struct timer_model tm;
	struct d1_timer t;
	uint64_t r0, w0, r1, w1;
	const unsigned n = 1000;

	sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	if (d1_timer_init(&t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ) != D1_OK ||
	    d1_timer_set_clock(&t, src, 0) != D1_OK ||
	    d1_timer_set_period_hz(&t, hz, NULL) != D1_OK ||
	    d1_timer_start(&t, D1_TIMER_PERIODIC) != D1_OK) {
		return 1;
	}
	uint64_t boundaries = tm.ch[1].boundaries;
	r0 = sim_reads();
	w0 = sim_writes();
	for (unsigned i = 0; i < n; i++) {
		while (tm.ch[1].boundaries == boundaries) {
			sim_advance(SIM_HZ / hz / 4u);
		}
		boundaries = tm.ch[1].boundaries;
		(void)d1_timer_isr(&t);
	}
	r1 = sim_reads() - r0;
	w1 = sim_writes() - w0;
	printf("tick path (%s): %.2f MMIO reads + %.2f writes per tick (%u ticks)\n", what,
	       (double)r1 / n, (double)w1 / n, n);
	return 0;
}

int main(void)
{
	int rc = measure("1 kHz from 24 MHz, exact", D1_TIMER_SRC_OSC24M, 1000);
	rc |= measure("1 kHz from 32.768 kHz, fractional", D1_TIMER_SRC_LOSC, 1000);
	return rc;
}
