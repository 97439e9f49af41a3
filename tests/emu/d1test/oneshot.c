/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test oneshot: the Timer one-shot API (d1_timer_oneshot_arm / _cancel /
 * _remaining, D1_TIMER_ONESHOT_MIN_LEAD) on the emulated D1, measured
 * against the `time` CSR. Timer0, OSC24M: the time CSR and the timer
 * count the same 24 MHz oscillator (docs/hardware-facts.md "Timer"), so a
 * deadline of N input clocks at prescaler 2^k is N * 2^k time ticks.
 *
 * Polled parts run with interrupts off and poll IRQ_STA
 * (d1_timer_irq_pending()) and the time CSR in a tight loop; IRQ parts go
 * through the PLIC S context to d1_timer_isr(). Every figure is printed as
 * "ONESHOT <name> key=value ..." for tests/emu/d1test_oneshot.py, which
 * holds the assertions.
 */
#include <stdbool.h>
#include <stddef.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/time.h"
#include "d1/timer.h"

#define POLL_LIMIT (24000000ull) /* 1 s of time CSR: a deadline never seen */
#define NONE       UINT64_MAX

static struct d1_timer tmr;

/* Time CSR when IRQ_STA shows the expiry, or NONE within POLL_LIMIT. */
static uint64_t poll_expiry(void)
{
	uint64_t start = d1_time_now();
	for (;;) {
		if (d1_timer_irq_pending(&tmr)) {
			return d1_time_now();
		}
		if (d1_time_now() - start > POLL_LIMIT) {
			return NONE;
		}
	}
}

static uint64_t clamped(void)
{
	struct d1_timer_stats st;
	(void)d1_timer_get_stats(&tmr, &st);
	return st.oneshot_clamped;
}

/*
 * Exact deadlines at prescaler 2^7: one input clock = 128 time ticks, so
 * an interval off by one shows as 128 ticks. The prescaler divides a
 * free-running count, so the first decrement comes 1..128 ticks after the
 * load; t0 (before the call) and t0b (after it) bound the store. While
 * polling, remaining() is checked against IRQ_STA: never 0 before the
 * expiry, always 0 after it, and the last value before it is 1.
 */
static void exact_prescaled(uint64_t n)
{
	uint64_t t0, t0b, t1 = NONE, rem = 0, last = 0;
	uint32_t bad = 0;
	d1_err_t e;

	/* Start early in a prescaler window so the call lands inside it. */
	while ((d1_time_now() & 127u) > 16u) {
	}
	t0 = d1_time_now();
	e = d1_timer_oneshot_arm(&tmr, n);
	t0b = d1_time_now();
	for (;;) {
		bool pend = d1_timer_irq_pending(&tmr);
		uint64_t now = d1_time_now();
		if (d1_timer_oneshot_remaining(&tmr, &rem) != D1_OK) {
			bad++;
			break;
		}
		if (pend) {
			t1 = now;
			bad += rem != 0u;
			break;
		}
		/* Not pending at the read before: 0 only if it expired since. */
		if (rem == 0u && !d1_timer_irq_pending(&tmr)) {
			bad++;
		}
		if (rem != 0u) {
			last = rem;
		}
		if (now - t0 > POLL_LIMIT) {
			t1 = NONE;
			break;
		}
	}
	(void)d1_timer_oneshot_remaining(&tmr, &rem);
	bm_printf("ONESHOT exact128_%llu err=%d n=%llu t0=%llu t0b=%llu t1=%llu last_nonzero=%llu "
	          "after=%llu bad=%u\n",
	          (unsigned long long)n, (int)e, (unsigned long long)n, (unsigned long long)t0,
	          (unsigned long long)t0b, (unsigned long long)t1, (unsigned long long)last,
	          (unsigned long long)rem, bad);
	(void)d1_timer_irq_ack(&tmr);
}

/* Deadlines at /1: t1 - t0 >= N and t1 - t0b <= N + poll slack. */
static void direct(const char *name, uint64_t n)
{
	uint64_t c0 = clamped();
	uint64_t t0 = d1_time_now();
	d1_err_t e = d1_timer_oneshot_arm(&tmr, n);
	uint64_t t0b = d1_time_now();
	uint64_t t1 = poll_expiry();
	bm_printf("ONESHOT %s err=%d n=%llu t0=%llu t0b=%llu t1=%llu clamped=%llu\n", name, (int)e,
	          (unsigned long long)n, (unsigned long long)t0, (unsigned long long)t0b,
	          (unsigned long long)t1, (unsigned long long)(clamped() - c0));
	(void)d1_timer_irq_ack(&tmr);
}

/* Re-arm while counting, to a deadline closer than the disable's sync
 * wait: it must fire at once, not at the old deadline, not a wrap later. */
static void rearm_close(void)
{
	uint64_t c0 = clamped();
	d1_err_t e1 = d1_timer_oneshot_arm(&tmr, 2400000u); /* 100 ms */
	uint64_t t0 = d1_time_now();
	d1_err_t e2 = d1_timer_oneshot_arm(&tmr, 3u);
	uint64_t t0b = d1_time_now();
	uint64_t t1 = poll_expiry();
	bm_printf("ONESHOT rearm_close err=%d err2=%d n=3 t0=%llu t0b=%llu t1=%llu clamped=%llu\n",
	          (int)e1, (int)e2, (unsigned long long)t0, (unsigned long long)t0b,
	          (unsigned long long)t1, (unsigned long long)(clamped() - c0));
	(void)d1_timer_irq_ack(&tmr);
}

/* ---- IRQ parts ---- */
static volatile uint32_t fired;
static volatile uint64_t fired_at;
static uint32_t spurious_isr;

/* Absolute-deadline chain (what a tickless kernel does) or relative. */
static volatile bool chain_on;
static bool chain_relative;
static uint64_t chain_t0, chain_period;
static uint32_t chain_k, chain_n;
static int64_t late_min, late_max, late_first, late_last;
static uint64_t late_sum_first, late_sum_last;

static void chain_step(uint64_t now)
{
	uint64_t due = chain_t0 + (uint64_t)chain_k * chain_period;
	int64_t late = (int64_t)(now - due);
	if (chain_k == 1u) {
		late_min = late_max = late_first = late;
	}
	late_min = late < late_min ? late : late_min;
	late_max = late > late_max ? late : late_max;
	late_last = late;
	if (chain_k <= 100u) {
		late_sum_first += (uint64_t)late;
	}
	if (chain_k > chain_n - 100u) {
		late_sum_last += (uint64_t)late;
	}
	if (chain_k == chain_n) {
		chain_on = false;
		return;
	}
	chain_k++;
	if (chain_relative) {
		(void)d1_timer_oneshot_arm(&tmr, chain_period);
	} else {
		uint64_t next = chain_t0 + (uint64_t)chain_k * chain_period;
		uint64_t t = d1_time_now();
		(void)d1_timer_oneshot_arm(&tmr, next > t ? next - t : 0u);
	}
}

static void timer0_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	uint64_t now = d1_time_now();
	if (d1_timer_isr(&tmr) == D1_TIMER_ISR_SPURIOUS) {
		spurious_isr++;
		return;
	}
	fired++;
	fired_at = now;
	if (chain_on) {
		chain_step(now);
	}
}

/* Busy waits, not wfi: under -icount sleep=off a hart idle in wfi with no
 * device timer armed stops virtual time (QEMU: "no active timers"). */
static void wait_ticks(uint64_t ticks)
{
	uint64_t t0 = d1_time_now();
	while (d1_time_now() - t0 < ticks) {
	}
}

static uint64_t timer_spurious(void)
{
	struct d1_timer_stats st;
	(void)d1_timer_get_stats(&tmr, &st);
	return st.spurious;
}

static void irq_fires(void)
{
	fired = 0;
	uint64_t t0 = d1_time_now();
	d1_err_t e = d1_timer_oneshot_arm(&tmr, 24000u);
	wait_ticks((uint64_t)24000u * 5u);
	bm_printf("ONESHOT irq_fires err=%d n=24000 fired=%u clocks=%llu\n", (int)e, fired,
	          (unsigned long long)(fired ? fired_at - t0 : 0u));
}

static void irq_cancel(void)
{
	uint64_t rem = 0;
	uint64_t sp0 = timer_spurious();
	fired = 0;
	d1_err_t e = d1_timer_oneshot_arm(&tmr, 24000u);
	d1_err_t c = d1_timer_oneshot_cancel(&tmr);
	d1_err_t r = d1_timer_oneshot_remaining(&tmr, &rem);
	wait_ticks((uint64_t)24000u * 5u);
	bm_printf("ONESHOT irq_cancel err=%d cancel=%d remaining_err=%d fired=%u spurious=%llu\n",
	          (int)e, (int)c, (int)r, fired, (unsigned long long)(timer_spurious() - sp0));
}

/* Cancel after the expiry was latched but before the IRQ was taken. */
static void irq_cancel_late(void)
{
	uint64_t sp0 = timer_spurious();
	fired = 0;
	uintptr_t s = d1_port_critical_enter();
	d1_err_t e = d1_timer_oneshot_arm(&tmr, 24u);
	uint64_t t1 = poll_expiry();
	d1_err_t c = d1_timer_oneshot_cancel(&tmr);
	bool pend = d1_timer_irq_pending(&tmr);
	d1_port_critical_exit(s);
	wait_ticks((uint64_t)24000u * 2u);
	bm_printf("ONESHOT irq_cancel_late err=%d cancel=%d latched=%u pending_after=%u fired=%u "
	          "spurious=%llu\n",
	          (int)e, (int)c, t1 != NONE, pend, fired,
	          (unsigned long long)(timer_spurious() - sp0));
}

static void chain(const char *name, bool relative, uint32_t n, uint64_t period)
{
	chain_relative = relative;
	chain_n = n;
	chain_period = period;
	chain_k = 1u;
	late_sum_first = late_sum_last = 0u;
	fired = 0;
	chain_on = true;
	chain_t0 = d1_time_now();
	d1_err_t e = d1_timer_oneshot_arm(&tmr, period);
	uint64_t t0 = d1_time_now();
	while (chain_on && d1_time_now() - t0 < period * (n + 10u) * 2u) {
	}
	bm_printf("ONESHOT %s err=%d n=%u period=%llu fired=%u done=%u late_min=%lld late_max=%lld "
	          "late_first=%lld late_last=%lld mean_first100=%llu mean_last100=%llu\n",
	          name, (int)e, n, (unsigned long long)period, fired, !chain_on,
	          (long long)late_min, (long long)late_max, (long long)late_first,
	          (long long)late_last, (unsigned long long)(late_sum_first / 100u),
	          (unsigned long long)(late_sum_last / 100u));
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(1u);
	bm_printf("ONESHOT start min_lead=%u\n", (unsigned)D1_TIMER_ONESHOT_MIN_LEAD);
	bm_check(d1_timer_init(&tmr, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ), "d1_timer_init");
	bm_check(d1_timer_stop(&tmr), "d1_timer_stop");
	bm_check(d1_timer_irq_enable(&tmr, true), "d1_timer_irq_enable");

	/* Polled, interrupts off at the hart (SIE never set yet). */
	bm_check(d1_timer_set_clock(&tmr, D1_TIMER_SRC_OSC24M, 7u), "d1_timer_set_clock /128");
	static const uint64_t exact_n[] = {2u, 3u, 5u, 64u, 1000u};
	for (size_t i = 0; i < sizeof exact_n / sizeof exact_n[0]; i++) {
		exact_prescaled(exact_n[i]);
	}
	/* The handle stays in one-shot use after an expiry: cancel to change
	 * its clock (set_clock refuses a running handle). */
	bm_check(d1_timer_oneshot_cancel(&tmr), "d1_timer_oneshot_cancel");
	bm_check(d1_timer_set_clock(&tmr, D1_TIMER_SRC_OSC24M, 0u), "d1_timer_set_clock /1");
	direct("direct_24", 24u);
	direct("direct_2400", 2400u);
	direct("direct_24000", 24000u);
	direct("direct_2400000", 2400000u);
	direct("past_0", 0u);
	direct("close_1", 1u);
	direct("lead_min", D1_TIMER_ONESHOT_MIN_LEAD);
	rearm_close();

	/* Through the PLIC. */
	bm_board_plic_init(0u);
	bm_board_irq_attach(D1_IRQ_TIMER0, timer0_irq, NULL, 1u);
	bm_irq_enable();
	irq_fires();
	irq_cancel();
	irq_cancel_late();
	chain("chain_absolute", false, 500u, 2400u);
	chain("chain_relative", true, 500u, 2400u);
	bm_printf("ONESHOT end spurious_isr=%u plic_spurious=%u\n", spurious_isr,
	          bm_plic_stats.spurious);
	(void)d1_uart_drain(&bm_uart); /* before SBI shutdown ends QEMU */
	return 0;
}
