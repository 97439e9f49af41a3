/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test plic_storm: the library's PLIC dispatch under interrupt storms on
 * the emulated D1 (tests/emu/d1test_plic_storm.py): everything counted,
 * no hang, the main loop keeps running.
 *
 *  spurious: Timer0 at a 10 us period; on every other interrupt the
 *            request is withdrawn (its IRQ_STA acknowledged, as another
 *            party sharing the device would) after the trap was taken and
 *            before d1_plic_isr() claims. Each withdrawn one must be
 *            counted once. The PLIC keeps a request pending once its
 *            gateway forwarded it (RISC-V PLIC spec; the machine does the
 *            same), so it is still claimed and shows as a handler call with
 *            no IRQ_STA bit (d1_timer_stats.spurious), not as a claim of 0.
 *  claim0:   Timer0 at 50 us; on every other trap the source is disabled
 *            in the S context after the trap was taken and before
 *            d1_plic_isr() claims, then enabled again: that claim returns
 *            0 (a spurious claim, d1_plic_stats.spurious) while the request
 *            stays pending, so the next trap delivers it. Every spurious
 *            claim must be counted once, and every timer expiry delivered
 *            once (against the time CSR: nothing lost).
 *  foreign:  Timer1 (source 76) left running and enabled in the S context
 *            while the dispatching handle covers sources 1..75 only: one
 *            claim of 76, completed, masked, counted (foreign), no
 *            re-entry.
 *  unhandled: the same with a handle that covers 76 but has no handler.
 *
 * "PSTORM <phase> key=value ..." lines for tests/emu/d1test_plic_storm.py.
 */
#include <stdbool.h>
#include <stddef.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/plic_regs.h"
#include "d1/time.h"
#include "d1/timer.h"

#define TICKS_PER_MS (D1_OSC24M_HZ / 1000u)
#define STORM_EVENTS 20000u

static struct d1_timer tmr0, tmr1;
static volatile uint32_t events, withdrawn, fired;
static struct d1_plic small; /* sources 1..75 only */
static struct d1_plic_stats small_stats;
static struct d1_plic_entry small_table[76];
static volatile uint32_t hook_calls;
static volatile uint32_t masked; /* claim0: dispatches made with the source disabled */

static void timer0_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	if (d1_timer_isr(&tmr0) != D1_TIMER_ISR_SPURIOUS) {
		fired++;
	}
}

static void storm_hook(void)
{
	events++;
	if ((events & 1u) != 0u) {
		(void)d1_timer_irq_ack(&tmr0); /* withdrawn before the claim */
		withdrawn++;
	}
	bm_board_dispatch();
}

static void claim0_hook(void)
{
	events++;
	if ((events & 1u) != 0u) {
		(void)d1_plic_disable(&bm_plic, D1_IRQ_TIMER0); /* masked before the claim */
		masked++;
		bm_board_dispatch();
		(void)d1_plic_enable(&bm_plic, D1_IRQ_TIMER0); /* still pending: trap again */
		return;
	}
	bm_board_dispatch();
}

static void small_hook(void)
{
	hook_calls++;
	(void)d1_plic_isr(&small, small_table, 76u, &small_stats);
}

static void board_hook(void)
{
	hook_calls++;
	bm_board_dispatch();
}

/* The S context's enable bit of source 76, read at the machine (an
 * observation for the test; no library call reports it). */
static unsigned enabled76(void)
{
	uint32_t w = d1_mmio_read32(D1_PLIC_BASE +
	                            D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, D1_IRQ_TIMER1 / 32u));
	return (w >> (D1_IRQ_TIMER1 % 32u)) & 1u;
}

static uint64_t timer_spurious(const struct d1_timer *t)
{
	struct d1_timer_stats st;
	(void)d1_timer_get_stats(t, &st);
	return st.spurious;
}

static void start_periodic(struct d1_timer *t, uint64_t clocks)
{
	bm_check(d1_timer_stop(t), "d1_timer_stop");
	bm_check(d1_timer_set_clock(t, D1_TIMER_SRC_OSC24M, 0u), "d1_timer_set_clock");
	bm_check(d1_timer_set_period_clocks(t, clocks, NULL), "d1_timer_set_period_clocks");
	bm_check(d1_timer_start(t, D1_TIMER_PERIODIC), "d1_timer_start");
	bm_check(d1_timer_irq_enable(t, true), "d1_timer_irq_enable");
}

/* Main loop for @p ms with interrupts on: iterations it got. */
static uint64_t run_main(uint32_t ms, const volatile uint32_t *until, uint32_t target)
{
	uint64_t iters = 0;
	uint64_t t0 = d1_time_now();
	while (d1_time_now() - t0 < (uint64_t)ms * TICKS_PER_MS) {
		iters++;
		if (until != NULL && *until >= target) {
			break;
		}
	}
	return iters;
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(0u);
	bm_board_plic_init(0u);
	bm_check(d1_timer_init(&tmr0, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ), "timer0");
	bm_check(d1_timer_init(&tmr1, D1_TIMER_BASE, 1u, D1_OSC24M_HZ, D1_LOSC_HZ), "timer1");
	bm_puts("PSTORM start\n");

	/* ---- spurious claims ---- */
	bm_board_irq_attach(D1_IRQ_TIMER0, timer0_irq, NULL, 1u);
	bm_set_ext_hook(storm_hook);
	struct d1_plic_stats p0 = bm_plic_stats;
	uint64_t ts0 = timer_spurious(&tmr0);
	start_periodic(&tmr0, 240u); /* 10 us */
	bm_irq_enable();
	uint64_t iters = run_main(2000u, &events, STORM_EVENTS);
	bm_irq_disable();
	(void)d1_timer_irq_enable(&tmr0, false);
	(void)d1_timer_stop(&tmr0);
	(void)d1_timer_irq_ack(&tmr0);
	bm_printf("PSTORM spurious events=%u withdrawn=%u fired=%u plic_spurious=%u "
	          "timer_spurious=%llu dispatched=%u unhandled=%u main_iters=%llu\n",
	          events, withdrawn, fired, bm_plic_stats.spurious - p0.spurious,
	          (unsigned long long)(timer_spurious(&tmr0) - ts0),
	          bm_plic_stats.dispatched - p0.dispatched, bm_plic_stats.unhandled - p0.unhandled,
	          (unsigned long long)iters);

	/* ---- claim0: spurious claims, the request delivered after them ---- */
	events = 0;
	fired = 0;
	bm_set_ext_hook(claim0_hook);
	struct d1_plic_stats p2 = bm_plic_stats;
	ts0 = timer_spurious(&tmr0);
	start_periodic(&tmr0, 1200u); /* 50 us: far longer than a masked + a real trap */
	uint64_t c0 = d1_time_now();
	bm_irq_enable();
	iters = run_main(2000u, &events, STORM_EVENTS);
	bm_irq_disable();
	uint64_t c1 = d1_time_now();
	(void)d1_timer_irq_enable(&tmr0, false);
	(void)d1_timer_stop(&tmr0);
	(void)d1_timer_irq_ack(&tmr0);
	/* Expiries of the run, from the time CSR (same 24 MHz crystal). */
	bm_printf("PSTORM claim0 events=%u masked=%u fired=%u plic_spurious=%u timer_spurious=%llu "
	          "dispatched=%u unhandled=%u expiries_by_time=%llu main_iters=%llu\n",
	          events, masked, fired, bm_plic_stats.spurious - p2.spurious,
	          (unsigned long long)(timer_spurious(&tmr0) - ts0),
	          bm_plic_stats.dispatched - p2.dispatched, bm_plic_stats.unhandled - p2.unhandled,
	          (unsigned long long)((c1 - c0) / 1200u), (unsigned long long)iters);

	/* ---- foreign: a source above the handle's range ---- */
	bm_check(d1_plic_init_ex(&small, D1_PLIC_BASE, D1_PLIC_CTX_S, 75u, 0u, D1_PLIC_PRIO_MAX),
	         "d1_plic_init_ex 1..75");
	bm_check(d1_plic_set_priority(&bm_plic, D1_IRQ_TIMER1, 1u), "prio 76");
	bm_check(d1_plic_enable(&bm_plic, D1_IRQ_TIMER1), "enable 76");
	hook_calls = 0;
	bm_set_ext_hook(small_hook);
	start_periodic(&tmr1, 240u);
	bm_irq_enable();
	iters = run_main(20u, NULL, 0u);
	bm_irq_disable();
	bm_printf("PSTORM foreign hook_calls=%u foreign=%u last_foreign=%u spurious=%u "
	          "enabled_after=%u main_iters=%llu\n",
	          hook_calls, small_stats.foreign, small_stats.last_foreign, small_stats.spurious,
	          enabled76(), (unsigned long long)iters);

	/* ---- unhandled: in range, no handler ---- */
	struct d1_plic_stats p1 = bm_plic_stats;
	bm_check(d1_plic_enable(&bm_plic, D1_IRQ_TIMER1), "enable 76 again");
	hook_calls = 0;
	bm_set_ext_hook(board_hook);
	bm_irq_enable();
	iters = run_main(20u, NULL, 0u);
	bm_irq_disable();
	(void)d1_timer_irq_enable(&tmr1, false);
	(void)d1_timer_stop(&tmr1);
	bm_printf("PSTORM unhandled hook_calls=%u unhandled=%u spurious=%u enabled_after=%u "
	          "main_iters=%llu\n",
	          hook_calls, bm_plic_stats.unhandled - p1.unhandled,
	          bm_plic_stats.spurious - p1.spurious, enabled76(), (unsigned long long)iters);
	bm_printf("PSTORM end traps_spurious=%llu\n", (unsigned long long)bm_spurious_traps());
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
