/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allwinner D1 platform hooks: the watchdog U-Boot may leave running
 * (riscv_wdt at 0x06011000: NuttX upstream disables it at boot, and on the
 * Lichee RV / 86 Panel a running 16 s watchdog reset NuttX after boot,
 * docs/hardware-facts.md "Watchdogs") and the UART0 clock from the CCU.
 *
 * Watchdog policy (build option D1_BENCH_WDT -> BM_WDT_FEED): default
 * "stop" (BM_WDT_FEED 0) stops it and reports what was inherited; "feed"
 * keeps it armed in reset mode (D1_BENCH_WDT_TIMEOUT_MS, 16 s by default)
 * and feeds it from the main loop once a second (never from the measured
 * interrupt). D1_BENCH_WDT_STARVE_AFTER = N > 0 stops feeding after N
 * samples, so that the watchdog resets the machine mid-run
 * (tests/emu/wdt_reset_d1.py), except on the boot right after such a reset, which feeds throughout.
 *
 * Reset cause (resetrec.h): read before anything else at boot, reported
 * with the platform, and a record of every run that has a watchdog armed
 * in reset mode.
 */
#include <stddef.h>

#include "bm.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1/wdt.h"
#include "resetrec.h"

#ifndef BM_WDT_FEED
#define BM_WDT_FEED 0
#endif
/* D1_BENCH_WDT=off: no takeover at all, the inherited watchdog is left as
 * it is (the negative control of the emulator's watchdog test). */
#ifndef BM_WDT_TAKEOVER_OFF
#define BM_WDT_TAKEOVER_OFF 0
#endif
/* D1_BENCH_WDT_TIMEOUT_MS: the feed policy's timeout (16 s, the longest
 * the hardware has, by default). */
#ifndef BM_WDT_TIMEOUT_MS
#define BM_WDT_TIMEOUT_MS 16000u
#endif
/* D1_BENCH_WDT_STARVE_AFTER: stop feeding after this many samples (0: never). */
#ifndef BM_WDT_STARVE_AFTER
#define BM_WDT_STARVE_AFTER 0u
#endif
/* Feed once a second, or at half the achieved timeout when that is shorter
 * (D1_BENCH_WDT_TIMEOUT_MS may be 1..16000 ms: a 1 s feed cannot keep a
 * 500 ms or 1 s watchdog from expiring). Set by bm_platform_early(). */
#define WDT_FEED_MAX (BM_TIMEBASE_HZ * 1ull) /* 1 s of time CSR */
static uint64_t wdt_feed_every = WDT_FEED_MAX;

static struct d1_wdt wdt;
static struct d1_wdt_state inherited;
static d1_err_t wdt_err;
static uint32_t wdt_achieved_ms;
static uint64_t last_feed;
static uint32_t feeds;
static struct bm_resetrec_info reset_info;
static bool starve_skip; /* this boot follows a reset that interrupted a starved run */
static d1_err_t ccu_err = D1_OK;
static uint32_t uart_clk;

void bm_platform_early(void)
{
	bm_resetrec_boot(&reset_info);
	starve_skip = reset_info.cause == BM_RESET_WATCHDOG && reset_info.state == BM_RUN_RUNNING;
	wdt_err = d1_wdt_init(&wdt, D1_WDT_RISCV, D1_RISCV_WDT_BASE);
	if (wdt_err == D1_OK && BM_WDT_TAKEOVER_OFF) {
		wdt_err = d1_wdt_get_state(&wdt, &inherited);
	} else if (wdt_err == D1_OK) {
		wdt_err = d1_wdt_takeover(&wdt,
		                          BM_WDT_FEED ? D1_WDT_TAKEOVER_KEEP : D1_WDT_TAKEOVER_STOP,
		                          BM_WDT_TIMEOUT_MS, &inherited, &wdt_achieved_ms);
	}
	uint64_t half = (uint64_t)wdt_achieved_ms * (BM_TIMEBASE_HZ / 1000u) / 2u;

	if (half != 0u && half < WDT_FEED_MAX) {
		wdt_feed_every = half;
	}
	last_feed = bm_rdtime();
}

uint32_t bm_d1_uart_clock_init(void)
{
	struct d1_ccu ccu;
	ccu_err = d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ);
	if (ccu_err == D1_OK) {
		ccu_err = d1_ccu_uart_enable(&ccu, 0u); /* gate on, reset de-asserted */
	}
	if (ccu_err == D1_OK) {
		ccu_err = d1_ccu_uart_clock_hz(&ccu, 0u, &uart_clk);
	}
	if (ccu_err != D1_OK || uart_clk == 0u) {
		/* U-Boot runs APB1 from the 24 MHz OSC24M (clock_init_uart): the
		 * only sane fallback; reported by bm_platform_report(). */
		uart_clk = D1_OSC24M_HZ;
	}
	return uart_clk;
}

static void report_wdt(const char *what, const struct d1_wdt_state *st)
{
	char buf[D1_WDT_STATE_STR_MAX];
	if (d1_wdt_format_state(st, buf, sizeof buf) != D1_OK) {
		buf[0] = '?';
		buf[1] = '\0';
	}
	bm_printf("watchdog: %s %s\n", what, buf);
}

void bm_platform_report(void)
{
	bm_resetrec_report(&reset_info);
	bm_printf("platform: Allwinner D1, S-mode payload at 0x40200000, UART0 clock %u Hz%s%s\n",
	          uart_clk, ccu_err != D1_OK ? " (CCU refused: " : "",
	          ccu_err != D1_OK ? d1_strerror(ccu_err) : "");
	if (ccu_err != D1_OK) {
		bm_puts(", assumed 24 MHz as U-Boot sets it)\n");
	}
	if (wdt_err != D1_OK) {
		bm_printf("watchdog: riscv_wdt takeover FAILED: %s\n", d1_strerror(wdt_err));
	} else {
		report_wdt("inherited from firmware:", &inherited);
		if (BM_WDT_TAKEOVER_OFF) {
			bm_puts("watchdog: takeover off (D1_BENCH_WDT=off): left as inherited\n");
		} else {
			bm_printf("watchdog: policy %s -> %s\n", BM_WDT_FEED ? "feed" : "stop",
			          BM_WDT_FEED ? "kept armed, fed once a second from the main loop"
			                      : "stopped");
		}
		if (BM_WDT_FEED) {
			bm_printf("watchdog: timeout now %u ms\n", wdt_achieved_ms);
		}
		if (BM_WDT_FEED && BM_WDT_STARVE_AFTER != 0u) {
			bm_printf(
			        "watchdog: starve after %u samples (D1_BENCH_WDT_STARVE_AFTER)%s\n",
			        BM_WDT_STARVE_AFTER,
			        starve_skip ? ": skipped, this boot follows a watchdog reset that "
			                      "interrupted a run: fed throughout"
			                    : "");
		}
	}
	/* The other two instances, for the record (read only). */
	static const struct {
		enum d1_wdt_id id;
		uintptr_t base;
	} others[] = {{D1_WDT_TIMER, D1_TIMER_WDT_BASE}, {D1_WDT_R, D1_R_WDOG_BASE}};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		struct d1_wdt w;
		struct d1_wdt_state st;
		if (d1_wdt_init(&w, others[i].id, others[i].base) == D1_OK &&
		    d1_wdt_get_state(&w, &st) == D1_OK) {
			report_wdt("(not touched)", &st);
		}
	}
}

void bm_platform_run_begin(void)
{
	struct d1_wdt_state st;
	/* A reset during the run is attributable only with a watchdog armed
	 * in reset mode (feed policy, or the inherited one left running). */
	if (wdt_err == D1_OK && d1_wdt_get_state(&wdt, &st) == D1_OK && st.running &&
	    st.action == D1_WDT_ACTION_RESET) {
		bm_resetrec_begin(D1_WDT_RISCV, st.timeout_ms,
		                  BM_WDT_TAKEOVER_OFF ? 0u : last_feed);
	}
}

void bm_platform_run_sample(uint64_t samples, uint64_t missed, uint64_t boundaries)
{
	bm_resetrec_sample(bm_rdtime(), samples, missed, boundaries);
}

void bm_platform_run_end(void)
{
	bm_resetrec_done(bm_rdtime());
}

void bm_platform_idle(uint64_t samples)
{
#if BM_WDT_FEED
#if BM_WDT_STARVE_AFTER != 0
	/* A preprocessor test: with 0 the comparison below is always true for
	 * an unsigned count and -Werror=type-limits refuses it. */
	if (!starve_skip && samples >= BM_WDT_STARVE_AFTER) {
		static bool starving;
		if (!starving) {
			starving = true;
			bm_printf("watchdog: feeding stopped after %llu samples; last feed at time "
			          "CSR %llu (%llu us), reset due %u ms after it\n",
			          (unsigned long long)samples, (unsigned long long)last_feed,
			          (unsigned long long)bm_time_to_us(last_feed), wdt_achieved_ms);
		}
		return;
	}
#else
	(void)samples;
#endif
	uint64_t now = bm_rdtime();
	if (now - last_feed >= wdt_feed_every) {
		bm_irq_disable(); /* the record is also written by the tick ISR */
		now = bm_rdtime();
		if (d1_wdt_feed(&wdt) == D1_OK) {
			feeds++;
			bm_resetrec_feed(now);
		}
		bm_irq_enable();
		last_feed = now;
	}
#else
	(void)samples;
#endif
}

int bm_platform_finish(void)
{
	if (BM_WDT_FEED) {
		bm_printf("watchdog: fed %u times; parking now, it will reset the board\n", feeds);
	}
	/* Park rather than ask the firmware for a shutdown or reset: the report
	 * stays on the terminal. Power-cycle (or reset) to run again. */
	bm_puts("halted.\n");
	bm_irq_disable();
	BM_CSR_WRITE(sie, 0u);
	for (;;) {
		bm_wfi();
	}
	return 0;
}

/* The wake-up: Timer0 one-shot on OSC24M /1, the clock of the `time` CSR
 * (docs/hardware-facts.md "Timer"), so a deadline in time counts is the same number of
 * Timer0 clocks. The interrupt only ends a WFI; the caller looks at the
 * time. wake_when is written only by bm_platform_wake_at(), with Timer0's
 * IRQ masked around the update; the interrupt only reads it. */
static struct d1_timer wake_tmr;
static volatile uint64_t wake_when = UINT64_MAX;
static bool wake_ready;
static bm_irq_attach_t irq_attach;

void bm_platform_set_irq_attach(bm_irq_attach_t attach)
{
	irq_attach = attach;
}

static void wake_arm(void)
{
	uint64_t now = d1_time_now();
	uint64_t left = wake_when > now ? wake_when - now : 0u;

	/* Beyond one arm's reach (2^32 clocks, 179 s): the interrupt re-arms. */
	(void)d1_timer_oneshot_arm(&wake_tmr,
	                           left < D1_TIMER_ONESHOT_MAX ? left : D1_TIMER_ONESHOT_MAX);
}

static void wake_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	(void)d1_timer_isr(&wake_tmr);
	if (wake_when != UINT64_MAX && d1_time_now() < wake_when) {
		wake_arm();
	}
}

void bm_platform_wake_at(uint64_t when)
{
	if (!wake_ready) {
		bm_check(irq_attach != NULL ? D1_OK : D1_ESTATE,
		         "wake: bm_board_plic_init() first");
		bm_check(d1_timer_init(&wake_tmr, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ),
		         "d1_timer_init (wake)");
		bm_check(d1_timer_set_clock(&wake_tmr, D1_TIMER_SRC_OSC24M, 0u),
		         "d1_timer_set_clock (wake)");
		irq_attach(D1_IRQ_TIMER0, wake_irq, NULL, 1u);
		wake_ready = true;
	}
	(void)d1_timer_irq_enable(&wake_tmr, false);
	wake_when = when;
	if (when == UINT64_MAX) {
		bm_check(d1_timer_oneshot_cancel(&wake_tmr), "d1_timer_oneshot_cancel (wake)");
		return;
	}
	wake_arm();
	bm_check(d1_timer_irq_enable(&wake_tmr, true), "d1_timer_irq_enable (wake)");
}
