/* SPDX-License-Identifier: Apache-2.0 */
/*
 * D1 tick source: Timer1 periodic from the 24 MHz OSC24M, PLIC source 76.
 * The sample is d1_timer_isr()'s count since the period boundary that raised
 * the interrupt (exact to one 24 MHz clock); the library's bench accounting
 * (d1/bench.h) finds missed periods on the 64-bit time CSR, which runs from
 * the same 24 MHz crystal.
 */
#include <stddef.h>

#include "bench.h"
#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "d1/bench.h"
#include "d1/memmap.h"
#include "d1/timer.h"

static struct d1_timer tmr;
static struct d1_timer_achieved achieved;

static const struct bench_tick_info info = {
        .name = "timer1",
        .clock_hz = D1_OSC24M_HZ,
        .sample_def = "Timer1 clocks since the period boundary (d1_timer_isr)",
};

const struct bench_tick_info *bench_tick_info(void)
{
	return &info;
}

static void timer1_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	/* d1_timer_isr() (checks and acks IRQ_STA, reads CUR), then `time` */
	bench_irq(d1_bench_isr(bench_core(), &tmr));
}

void bench_tick_start(uint32_t period_counts)
{
	bm_check(d1_timer_init(&tmr, D1_TIMER_BASE, 1u, D1_OSC24M_HZ, D1_LOSC_HZ), "d1_timer_init");
	bm_check(d1_timer_stop(&tmr), "d1_timer_stop"); /* firmware may have left it on */
	bm_check(d1_timer_set_clock(&tmr, D1_TIMER_SRC_OSC24M, 0u), "d1_timer_set_clock");
	bm_check(d1_timer_set_period_clocks(&tmr, period_counts, &achieved),
	         "d1_timer_set_period_clocks");
	bm_board_irq_attach(D1_IRQ_TIMER1, timer1_irq, NULL, 1u);
	/* Boundary 0 is the start; RELOAD's bounded wait (a few us) is far below
	 * period / 2, so it cannot move a boundary to the wrong grid point. The
	 * start clears a stale IRQ_STA bit, so the IRQ is enabled after it. */
	bench_grid_start(bm_rdtime());
	bm_check(d1_timer_start(&tmr, D1_TIMER_PERIODIC), "d1_timer_start");
	bm_check(d1_timer_irq_enable(&tmr, true), "d1_timer_irq_enable");
}

void bench_tick_stop(void)
{
	(void)d1_timer_irq_enable(&tmr, false);
	(void)d1_timer_stop(&tmr);
	d1_timer_irq_ack(&tmr);
}

/* The bench's wake-up is Timer0 (bm_platform_wake_at()), independent of
 * Timer1: the firmware's SBI timer never fires on the D1
 * (docs/hardware-facts.md "CLINT"). It only ends a WFI; the bench loop looks at the time. */
void bench_tick_wake_at(uint64_t when)
{
	bm_platform_wake_at(when);
}

void bench_tick_report(void)
{
	bm_printf("tick: Timer1 OSC24M /%u, %lu clocks per period (interval %lu), PLIC source %u\n",
	          1u << achieved.prescale_log2, (unsigned long)achieved.clocks,
	          (unsigned long)(achieved.clocks - 1u), D1_IRQ_TIMER1);
	struct d1_timer_stats st = {0};

	(void)d1_timer_get_stats(&tmr, &st);
	bm_printf("tick: spurious Timer1 interrupts (no IRQ_STA bit): %lu\n",
	          (unsigned long)st.spurious);
}
