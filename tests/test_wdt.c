/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Watchdog driver against three watchdog models (and the Timer model beside
 * the timer-block instance): inherited state, both takeover policies, resets
 * that do or do not happen at the time the model measures, and every error
 * path with "no register written" checked on the bus. Every test ends with
 * the model's global keyless-write and bad-feed counters at zero (checked in
 * the teardown), except for the writes the one dedicated test makes on
 * purpose and declares.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/wdt.h"
#include "sim.h"
#include "timer_model.h"
#include "wdt_model.h"

#define MS(x)  ((uint64_t)(x) * (SIM_HZ / 1000u))
#define SEC(x) ((uint64_t)(x)*SIM_HZ)

static struct timer_model tm;
static struct wdt_model wm[D1_WDT_COUNT];
static const uintptr_t bases[D1_WDT_COUNT] = {D1_TIMER_WDT_BASE, D1_RISCV_WDT_BASE, D1_R_WDOG_BASE};

/* Trace of MODE writes of one instance (to prove "never stopped"). */
struct mode_trace {
	uintptr_t addr;
	unsigned writes;
	unsigned without_en;
};
static struct mode_trace mt;

static void trace_mode(void *arg, bool write, uintptr_t addr, uint32_t value)
{
	struct mode_trace *t = arg;

	if (write && addr == t->addr) {
		t->writes++;
		if ((value & D1_WDT_MODE_EN_BITS) == 0u) {
			t->without_en++;
		}
	}
}

static void trace_mode_of(unsigned id)
{
	mt = (struct mode_trace){.addr = bases[id] + D1_WDT_MODE_OFFSET};
	sim_set_trace(trace_mode, &mt);
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	/* Watchdog windows first: the timer-block one sits right after the
	 * Timer model's 0xA0 window. */
	wdt_model_init(&wm[D1_WDT_TIMER], "timer_wdt", D1_TIMER_WDT_BASE, true);
	wdt_model_init(&wm[D1_WDT_RISCV], "riscv_wdt", D1_RISCV_WDT_BASE, false);
	wdt_model_init(&wm[D1_WDT_R], "r_wdog", D1_R_WDOG_BASE, false);
	timer_model_init(&tm, D1_TIMER_BASE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* The suite-wide invariants: the driver never writes without the key
	 * and never feeds with anything but 0x14AF; nothing hit no model; the
	 * Timer registers next door were never touched. */
	assert_int_equal(wdt_model_keyless_unexpected(), 0);
	assert_int_equal(wdt_model_bad_feed_unexpected(), 0);
	assert_int_equal(sim_unmapped(), 0);
	assert_int_equal(tm.region.writes, 0);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return wdt_model_keyless_unexpected() == 0 && wdt_model_bad_feed_unexpected() == 0 ? 0 : -1;
}

static void init(struct d1_wdt *w, unsigned id)
{
	assert_int_equal(d1_wdt_init(w, (enum d1_wdt_id)id, bases[id]), D1_OK);
}

/* U-Boot with WATCHDOG_AUTOSTART: riscv_wdt running, 16 s, reset mode
 * (CFG=0x16AA0001, MODE=0x16AA00B1 as firmware would have written them). */
static void preset_uboot_16s(struct wdt_model *m)
{
	wdt_model_preset(m, 0x1u, 0xB1u);
}

/* The field failure, reproduced by the model alone: nobody touches the
 * inherited watchdog, and 16 s after firmware armed it the system resets. */
/* Instance @p id resets the system at exactly @p t: not one tick before. */
static void expect_reset_at(unsigned id, uint64_t t)
{
	sim_advance(t - 1u - sim_now());
	assert_int_equal(wm[id].resets, 0);
	sim_advance(1u);
	assert_int_equal(wm[id].resets, 1);
	assert_int_equal(wm[id].last_reset_at, t);
}

static void test_model_inherited_16s_resets_when_unmanaged(void **state)
{
	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	expect_reset_at(D1_WDT_RISCV, SEC(16));
	assert_false(wdt_model_running(&wm[D1_WDT_RISCV]));
}

static void test_inherited_state_is_reported(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state st;
	char line[D1_WDT_STATE_STR_MAX];
	uint64_t writes;

	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	sim_advance(SEC(2)); /* boot time */
	init(&w, D1_WDT_RISCV);
	writes = sim_writes();
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_int_equal(sim_writes(), writes); /* reading is harmless */
	assert_true(st.running);
	assert_int_equal(st.timeout_ms, 16000);
	assert_int_equal(st.action, D1_WDT_ACTION_RESET);
	assert_int_equal(st.interval_index, 0xB);
	assert_false(st.losc);
	assert_false(st.irq_enabled);
	assert_false(st.irq_pending);
	assert_int_equal(d1_wdt_format_state(&st, line, sizeof(line)), D1_OK);
	assert_string_equal(line, "riscv_wdt: running, 16000 ms, reset mode");

	/* The other two are stopped at power-on. */
	init(&w, D1_WDT_R);
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_false(st.running);
	assert_int_equal(d1_wdt_format_state(&st, line, sizeof(line)), D1_OK);
	assert_string_equal(line, "r_wdog: stopped, 500 ms, no-action mode (cfg 0)");
}

static void test_takeover_stop(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state inh;
	struct d1_wdt_state st;
	uint32_t ms = 1234;

	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	sim_advance(SEC(3));
	init(&w, D1_WDT_RISCV);
	assert_int_equal(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_STOP, 0, &inh, &ms), D1_OK);
	assert_true(inh.running);
	assert_int_equal(inh.timeout_ms, 16000);
	assert_int_equal(inh.action, D1_WDT_ACTION_RESET);
	assert_int_equal(ms, 0);
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_false(st.running);
	sim_advance(SEC(60));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 0);
}

static void test_takeover_keep_rearms_without_gap(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state inh;
	uint32_t ms = 0;
	uint64_t t0;

	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	sim_advance(SEC(10)); /* 6 s left on the inherited count */
	init(&w, D1_WDT_RISCV);
	trace_mode_of(D1_WDT_RISCV);
	t0 = sim_now();
	assert_int_equal(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_KEEP, 7500, &inh, &ms), D1_OK);
	assert_true(inh.running);
	assert_int_equal(inh.timeout_ms, 16000);
	assert_int_equal(ms, 8000); /* 7.5 s is not offered: the next longer */
	assert_true(mt.writes > 0);
	assert_int_equal(mt.without_en, 0); /* never stopped, not even briefly */
	assert_true(wdt_model_running(&wm[D1_WDT_RISCV]));
	assert_int_equal(wdt_model_timeout_ticks(&wm[D1_WDT_RISCV]), SEC(8));
	/* The old deadline (t = 16 s, inside this step) passes harmlessly... */
	sim_advance(SEC(8) - 1u);
	assert_true(sim_now() > SEC(16));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 0);
	/* ...and the new one is enforced at exactly t0 + 8 s. */
	sim_advance(1);
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1);
	assert_int_equal(wm[D1_WDT_RISCV].last_reset_at, t0 + SEC(8));
}

static void test_takeover_keep_starts_a_stopped_one_and_fixes_mode(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state inh;
	struct d1_wdt_state st;
	uint32_t ms = 0;

	(void)state;
	/* stopped */
	init(&w, D1_WDT_R);
	assert_int_equal(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_KEEP, 1000, &inh, &ms), D1_OK);
	assert_false(inh.running);
	assert_int_equal(ms, 1000);
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_true(st.running);
	assert_int_equal(st.action, D1_WDT_ACTION_RESET);
	sim_advance(SEC(1));
	assert_int_equal(wm[D1_WDT_R].resets, 1);

	/* running in interrupt-only mode from the LOSC: KEEP makes it a real
	 * reset watchdog on the exact 24 MHz-derived clock */
	wdt_model_preset(&wm[D1_WDT_TIMER], 0x102u, 0x31u); /* LOSC, IRQ, 3 s */
	init(&w, D1_WDT_TIMER);
	assert_int_equal(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_KEEP, 2000, &inh, &ms), D1_OK);
	assert_true(inh.running);
	assert_true(inh.losc);
	assert_int_equal(inh.action, D1_WDT_ACTION_IRQ);
	assert_int_equal(inh.timeout_ms, 2929); /* 96000 / 32768 s, rounded down */
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_false(st.losc);
	assert_int_equal(st.action, D1_WDT_ACTION_RESET);
	assert_int_equal(st.timeout_ms, 2000);
	assert_int_equal(wdt_model_timeout_ticks(&wm[D1_WDT_TIMER]), SEC(2));
}

/* Periodic feeding keeps a 60 s run reset-free on every instance; when the
 * feeding stops, the reset comes exactly one timeout after the last feed. */
static void test_feeding_for_60s_then_reset_on_time(void **state)
{
	(void)state;
	for (unsigned id = 0; id < D1_WDT_COUNT; id++) {
		struct d1_wdt w;
		uint32_t ms = 0;
		uint64_t last_feed;
		uint64_t end;

		init(&w, id);
		assert_int_equal(d1_wdt_start(&w, 2000, D1_WDT_ACTION_RESET, &ms), D1_OK);
		assert_int_equal(ms, 2000);
		end = sim_now() + SEC(60);
		last_feed = sim_now();
		while (sim_now() + MS(1500) <= end) {
			sim_advance(MS(1500)); /* large steps: fast */
			assert_int_equal(d1_wdt_feed(&w), D1_OK);
			last_feed = sim_now();
		}
		assert_int_equal(wm[id].resets, 0);
		assert_int_equal(wm[id].feeds, 40 + 1); /* + the one in start */
		sim_advance(last_feed + SEC(2) - 1u - sim_now());
		assert_int_equal(wm[id].resets, 0);
		sim_advance(1);
		assert_int_equal(wm[id].resets, 1);
		assert_int_equal(wm[id].last_reset_at, last_feed + SEC(2));
	}
}

/* Negative control: feeding a little too slowly does reset, so the test
 * above could fail. */
static void test_feeding_too_slowly_resets(void **state)
{
	struct d1_wdt w;

	(void)state;
	init(&w, D1_WDT_RISCV);
	assert_int_equal(d1_wdt_start(&w, 2000, D1_WDT_ACTION_RESET, NULL), D1_OK);
	sim_advance(MS(2100));
	assert_int_equal(d1_wdt_feed(&w), D1_OK);
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1);
	assert_int_equal(wm[D1_WDT_RISCV].last_reset_at, SEC(2));
}

static void test_timeout_table_rounds_up_and_model_agrees(void **state)
{
	static const struct {
		uint32_t req, got;
		unsigned idx;
	} t[] = {
	        {1, 500, 0},        {500, 500, 0},     {501, 1000, 1},     {1000, 1000, 1},
	        {2500, 3000, 3},    {6000, 6000, 6},   {6001, 8000, 7},    {7000, 8000, 7},
	        {9000, 10000, 8},   {11000, 12000, 9}, {13999, 14000, 10}, {14001, 16000, 11},
	        {16000, 16000, 11},
	};
	uint32_t ms;
	unsigned idx;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(d1_wdt_round_timeout(t[i].req, &ms, &idx), D1_OK);
		assert_int_equal(ms, t[i].got);
		assert_int_equal(idx, t[i].idx);
	}
	assert_int_equal(d1_wdt_round_timeout(16001, &ms, &idx), D1_ERANGE);
	assert_int_equal(d1_wdt_round_timeout(UINT32_MAX, NULL, NULL), D1_ERANGE);
	assert_int_equal(d1_wdt_round_timeout(0, &ms, &idx), D1_EINVAL);

	/* what the model measures is what was reported */
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct d1_wdt w;
		uint64_t t0;

		setup(NULL);
		init(&w, D1_WDT_TIMER);
		t0 = sim_now();
		assert_int_equal(d1_wdt_start(&w, t[i].req, D1_WDT_ACTION_RESET, &ms), D1_OK);
		sim_advance(SEC(17));
		assert_int_equal(wm[D1_WDT_TIMER].resets, 1);
		assert_int_equal(wm[D1_WDT_TIMER].last_reset_at, t0 + MS(ms));
	}
}

static void test_interrupt_mode_raises_irq_not_reset(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state st;

	(void)state;
	init(&w, D1_WDT_TIMER);
	assert_int_equal(d1_wdt_irq_enable(&w, true), D1_OK);
	assert_int_equal(d1_wdt_start(&w, 1000, D1_WDT_ACTION_IRQ, NULL), D1_OK);
	sim_advance(SEC(1) - 1u);
	assert_false(d1_wdt_irq_pending(&w));
	sim_advance(1);
	assert_true(d1_wdt_irq_pending(&w));
	assert_true(wdt_model_irq(&wm[D1_WDT_TIMER]));
	assert_int_equal(wm[D1_WDT_TIMER].last_irq_at, SEC(1));
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_true(st.irq_pending);
	assert_true(st.irq_enabled);
	assert_int_equal(st.action, D1_WDT_ACTION_IRQ);
	d1_wdt_irq_ack(&w);
	assert_false(d1_wdt_irq_pending(&w));
	assert_false(wdt_model_irq(&wm[D1_WDT_TIMER]));
	/* fed in time: no further interrupt */
	for (int i = 0; i < 10; i++) {
		sim_advance(MS(900));
		assert_int_equal(d1_wdt_feed(&w), D1_OK);
	}
	assert_int_equal(wm[D1_WDT_TIMER].irqs, 1);
	assert_int_equal(wm[D1_WDT_TIMER].resets, 0);
	/* the line follows IRQ_EN */
	sim_advance(SEC(1));
	assert_true(wdt_model_irq(&wm[D1_WDT_TIMER]));
	assert_int_equal(d1_wdt_irq_enable(&w, false), D1_OK);
	assert_false(wdt_model_irq(&wm[D1_WDT_TIMER]));
	assert_true(d1_wdt_irq_pending(&w));
}

/* A start begins a new count: an interval reached before it (an earlier
 * run's, or firmware's) is not pending afterwards, so enabling the
 * interrupt does not fire at once for it and d1_wdt_irq_pending() says
 * "reached" only once this run's interval is. */
static void test_start_clears_a_stale_pending_interval(void **state)
{
	struct d1_wdt w;

	(void)state;
	init(&w, D1_WDT_TIMER);
	assert_int_equal(d1_wdt_start(&w, 1000, D1_WDT_ACTION_IRQ, NULL), D1_OK);
	sim_advance(SEC(1));
	assert_true(d1_wdt_irq_pending(&w)); /* reached, never acknowledged */
	assert_int_equal(d1_wdt_stop(&w), D1_OK);
	sim_advance(SEC(5));
	assert_int_equal(d1_wdt_start(&w, 2000, D1_WDT_ACTION_IRQ, NULL), D1_OK);
	assert_false(d1_wdt_irq_pending(&w));
	assert_int_equal(d1_wdt_irq_enable(&w, true), D1_OK);
	assert_false(wdt_model_irq(&wm[D1_WDT_TIMER]));
	sim_advance(SEC(2) - 1u);
	assert_false(d1_wdt_irq_pending(&w));
	sim_advance(1);
	assert_true(d1_wdt_irq_pending(&w));
	assert_true(wdt_model_irq(&wm[D1_WDT_TIMER]));
	assert_int_equal(wm[D1_WDT_TIMER].resets, 0);
}

static void test_start_while_running_never_stops(void **state)
{
	struct d1_wdt w;
	uint64_t t1;

	(void)state;
	init(&w, D1_WDT_RISCV);
	assert_int_equal(d1_wdt_start(&w, 16000, D1_WDT_ACTION_RESET, NULL), D1_OK);
	sim_advance(SEC(15));
	trace_mode_of(D1_WDT_RISCV);
	t1 = sim_now();
	assert_int_equal(d1_wdt_start(&w, 1000, D1_WDT_ACTION_RESET, NULL), D1_OK);
	assert_int_equal(mt.without_en, 0);
	sim_advance(SEC(1));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1);
	assert_int_equal(wm[D1_WDT_RISCV].last_reset_at, t1 + SEC(1));
}

static void test_set_timeout_and_stop(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state st;
	uint32_t ms = 0;
	uint64_t t1;

	(void)state;
	init(&w, D1_WDT_TIMER);
	/* stopped: only the interval changes */
	assert_int_equal(d1_wdt_set_timeout(&w, 5000, &ms), D1_OK);
	assert_int_equal(ms, 5000);
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_false(st.running);
	assert_int_equal(st.timeout_ms, 5000);
	/* running: re-armed, never stopped, action kept */
	assert_int_equal(d1_wdt_start(&w, 10000, D1_WDT_ACTION_RESET, NULL), D1_OK);
	sim_advance(SEC(9));
	trace_mode_of(D1_WDT_TIMER);
	t1 = sim_now();
	assert_int_equal(d1_wdt_set_timeout(&w, 3000, &ms), D1_OK);
	assert_int_equal(mt.without_en, 0);
	assert_int_equal(ms, 3000);
	/* the running count took the new interval (the model's deadline) */
	assert_int_equal(wdt_model_timeout_ticks(&wm[D1_WDT_TIMER]), SEC(3));
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_true(st.running);
	assert_int_equal(st.timeout_ms, 3000);
	sim_advance(SEC(3) - 1u);
	assert_int_equal(wm[D1_WDT_TIMER].resets, 0);
	assert_int_equal(d1_wdt_stop(&w), D1_OK);
	assert_int_equal(d1_wdt_stop(&w), D1_OK); /* idempotent */
	sim_advance(SEC(60));
	assert_int_equal(wm[D1_WDT_TIMER].resets, 0);
	assert_false(wdt_model_running(&wm[D1_WDT_TIMER]));
	(void)t1;
}

static void test_losc_configuration_is_reported_and_replaced(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state st;
	char line[D1_WDT_STATE_STR_MAX];
	uint64_t t0;

	(void)state;
	wdt_model_preset(&wm[D1_WDT_RISCV], 0x101u, 0xB1u); /* LOSC, reset, 16 s */
	init(&w, D1_WDT_RISCV);
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_int_equal(st.timeout_ms, 15625); /* 512000 / 32768 s */
	assert_int_equal(d1_wdt_format_state(&st, line, sizeof(line)), D1_OK);
	assert_string_equal(line, "riscv_wdt: running, 15625 ms (LOSC), reset mode");
	/* the model agrees: from the LOSC it is 15.625 s */
	assert_int_equal(wdt_model_timeout_ticks(&wm[D1_WDT_RISCV]), MS(15625));
	t0 = sim_now();
	assert_int_equal(d1_wdt_start(&w, 16000, D1_WDT_ACTION_RESET, NULL), D1_OK);
	sim_advance(MS(15625));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 0);
	sim_advance(SEC(16) - MS(15625));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1);
	assert_int_equal(wm[D1_WDT_RISCV].last_reset_at, t0 + SEC(16));
}

/* d1_wdt_set_timeout() on a watchdog firmware left running from the LOSC
 * (CFG bit 8): the table is exact only from the 24 MHz-derived 32 kHz
 * clock, so the change selects it (as every CFG write does) and keeps the
 * action: the 16 s reported is the 16 s the model counts, not 15.625 s;
 * the instance stays in reset mode. */
static void test_set_timeout_on_losc_selects_hosc(void **state)
{
	struct d1_wdt w;
	struct d1_wdt_state st;
	uint32_t got = 0;
	uint64_t t0;

	(void)state;
	wdt_model_preset(&wm[D1_WDT_RISCV], 0x101u, 0xB1u); /* LOSC, reset, 16 s */
	init(&w, D1_WDT_RISCV);
	t0 = sim_now();
	assert_int_equal(d1_wdt_set_timeout(&w, 16000, &got), D1_OK);
	assert_int_equal(got, 16000);
	assert_int_equal(wdt_model_timeout_ticks(&wm[D1_WDT_RISCV]), SEC(16));
	assert_int_equal(d1_wdt_get_state(&w, &st), D1_OK);
	assert_true(st.running);
	assert_false(st.losc);
	assert_int_equal(st.action, D1_WDT_ACTION_RESET);
	assert_int_equal(st.timeout_ms, 16000);
	expect_reset_at(D1_WDT_RISCV, t0 + SEC(16));
}

static void test_soft_reset_only_on_timer_block(void **state)
{
	struct d1_wdt w;
	uint64_t writes;

	(void)state;
	for (unsigned id = 0; id < D1_WDT_COUNT; id++) {
		init(&w, id);
		if (id == D1_WDT_TIMER) {
			assert_int_equal(d1_wdt_caps(&w), D1_WDT_CAP_SOFT_RESET);
			assert_int_equal(d1_wdt_soft_reset(&w), D1_OK);
			assert_int_equal(wm[id].soft_resets, 1);
		} else {
			assert_int_equal(d1_wdt_caps(&w), 0);
			writes = sim_writes();
			assert_int_equal(d1_wdt_soft_reset(&w), D1_ENOTSUP);
			assert_int_equal(sim_writes(), writes);
			assert_int_equal(wm[id].soft_resets + wm[id].soft_rst_ignored, 0);
		}
	}
	assert_int_equal(d1_wdt_caps(NULL), 0);
}

/* The dedicated test: the model does catch a keyless write made directly
 * (the pre-D1 sunxi "stop" and "start" values, as other D1 code writes
 * them), the write is ignored, and the inherited watchdog still resets. */
static void test_model_catches_keyless_writes(void **state)
{
	uint64_t before = wdt_model_keyless_total();
	uint64_t bad_before = wdt_model_bad_feed_total();
	uintptr_t b = D1_RISCV_WDT_BASE;

	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	d1_mmio_write32(b + D1_WDT_MODE_OFFSET, 0u);    /* "stop", no key */
	d1_mmio_write32(b + D1_WDT_CFG_OFFSET, 0x2u);   /* "interrupt only", no key */
	d1_mmio_write32(b + D1_WDT_SOFT_RST_OFFSET, 1); /* no key */
	d1_mmio_write32(b + D1_WDT_CTRL_OFFSET, 0x1u);  /* restart bit without its key */
	assert_int_equal(wm[D1_WDT_RISCV].keyless_writes, 3);
	assert_int_equal(wdt_model_keyless_total(), before + 3);
	assert_int_equal(wm[D1_WDT_RISCV].bad_feeds, 1);
	assert_int_equal(wdt_model_bad_feed_total(), bad_before + 1);
	assert_true(wdt_model_running(&wm[D1_WDT_RISCV]));
	sim_advance(SEC(16));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1); /* the "stop" did nothing */
	wdt_model_keyless_expect(3);
	wdt_model_bad_feed_expect(1);
}

/* Every buffer length from 1 to one past the fit: D1_ERANGE with a
 * NUL-terminated prefix of the full line while it does not fit, D1_OK and
 * the exact line from strlen + 1 on; nothing written past len. Widest
 * number: a 10-digit timeout. */
static void test_format_every_length(void **state)
{
	static const char full[] = "riscv_wdt: running, 4294967294 ms (LOSC), interrupt mode, "
	                           "irq pending";
	struct d1_wdt_state st = {
	        .name = "riscv_wdt",
	        .running = true,
	        .timeout_ms = 4294967294u,
	        .losc = true,
	        .action = D1_WDT_ACTION_IRQ,
	        .irq_pending = true,
	};
	char buf[sizeof(full) + 8u];
	size_t len;

	(void)state;
	assert_true(sizeof(full) <= D1_WDT_STATE_STR_MAX);
	for (len = 1u; len <= sizeof(full); len++) {
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(d1_wdt_format_state(&st, buf, len),
		                 len < sizeof(full) ? D1_ERANGE : D1_OK);
		assert_int_equal(strlen(buf), len - 1u);
		assert_memory_equal(buf, full, len - 1u);
		assert_int_equal(buf[len], 'x');
	}
}

static void test_format_edge_cases(void **state)
{
	struct d1_wdt_state st = {
	        .name = "timer_wdt",
	        .running = true,
	        .timeout_ms = D1_WDT_TIMEOUT_UNKNOWN,
	        .interval_index = 15,
	        .losc = true,
	        .action = D1_WDT_ACTION_NONE,
	        .cfg_mode = 3,
	        .irq_pending = true,
	};
	char big[D1_WDT_STATE_STR_MAX];
	char small[8];

	(void)state;
	assert_int_equal(d1_wdt_format_state(&st, big, sizeof(big)), D1_OK);
	assert_string_equal(big, "timer_wdt: running, unknown timeout (index 15) (LOSC), "
	                         "no-action mode (cfg 3), irq pending");
	assert_true(strlen(big) < D1_WDT_STATE_STR_MAX);
	memset(small, 'x', sizeof(small));
	assert_int_equal(d1_wdt_format_state(&st, small, sizeof(small)), D1_ERANGE);
	assert_string_equal(small, "timer_w");
	st.action = D1_WDT_ACTION_IRQ;
	st.irq_pending = false;
	st.losc = false;
	st.running = false;
	st.timeout_ms = 500;
	assert_int_equal(d1_wdt_format_state(&st, big, sizeof(big)), D1_OK);
	assert_string_equal(big, "timer_wdt: stopped, 500 ms, interrupt mode");
	assert_string_equal(d1_wdt_name((enum d1_wdt_id)3), "wdt?");
	assert_string_equal(d1_wdt_name(D1_WDT_TIMER), "timer_wdt");
}

static void test_invalid_arguments_write_nothing(void **state)
{
	struct d1_wdt w;
	struct d1_wdt bad = {.base = D1_RISCV_WDT_BASE, .id = 7};
	struct d1_wdt unaligned;
	struct d1_wdt_state st;
	char buf[4];

	(void)state;
	preset_uboot_16s(&wm[D1_WDT_RISCV]);
	SIM_EXPECT_NO_WRITE(d1_wdt_init(NULL, D1_WDT_RISCV, D1_RISCV_WDT_BASE), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_init(&w, D1_WDT_RISCV, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_init(&w, (enum d1_wdt_id)3, D1_RISCV_WDT_BASE), D1_EINVAL);
	init(&w, D1_WDT_RISCV);
	SIM_EXPECT_NO_WRITE(d1_wdt_get_state(NULL, &st), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_get_state(&w, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_get_state(&bad, &st), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_format_state(NULL, buf, sizeof(buf)), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_format_state(&st, NULL, sizeof(buf)), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_format_state(&st, buf, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(NULL, 1000, D1_WDT_ACTION_RESET, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&bad, 1000, D1_WDT_ACTION_RESET, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&w, 1000, D1_WDT_ACTION_NONE, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&w, 1000, (enum d1_wdt_action)3, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&w, 0, D1_WDT_ACTION_RESET, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&w, 16001, D1_WDT_ACTION_RESET, NULL), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_wdt_start(&w, 60000, D1_WDT_ACTION_IRQ, NULL), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_wdt_set_timeout(NULL, 1000, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_set_timeout(&w, 0, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_set_timeout(&w, 16001, NULL), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_wdt_takeover(NULL, D1_WDT_TAKEOVER_STOP, 0, NULL, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_takeover(&bad, D1_WDT_TAKEOVER_STOP, 0, NULL, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_takeover(&w, (enum d1_wdt_policy)2, 1000, &st, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_KEEP, 0, &st, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_takeover(&w, D1_WDT_TAKEOVER_KEEP, 16001, &st, NULL), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_wdt_feed(NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_feed(&bad), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_stop(NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_irq_enable(NULL, true), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_soft_reset(NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_soft_reset(&bad), D1_EINVAL);
	/* A base that is not 4-byte aligned is refused at
	 * init (it was accepted), and a handle holding one is refused by every
	 * call; the ISR helpers take NULL without an access */
	SIM_EXPECT_NO_WRITE(d1_wdt_init(&w, D1_WDT_RISCV, D1_RISCV_WDT_BASE + 2u), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_init(&w, D1_WDT_RISCV, 1u), D1_EINVAL);
	unaligned = w;
	unaligned.base = D1_RISCV_WDT_BASE + 1u;
	SIM_EXPECT_NO_WRITE(d1_wdt_feed(&unaligned), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_stop(&unaligned), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_get_state(&unaligned, &st), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_wdt_irq_pending(NULL), false);
	d1_wdt_irq_ack(NULL);
	d1_wdt_irq_ack(&unaligned);
	assert_int_equal(sim_unmapped(), 0);
	/* the inherited watchdog was not disturbed by any of it */
	sim_advance(SEC(16));
	assert_int_equal(wm[D1_WDT_RISCV].resets, 1);
	assert_int_equal(wm[D1_WDT_RISCV].feeds, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	        T(test_model_inherited_16s_resets_when_unmanaged),
	        T(test_inherited_state_is_reported),
	        T(test_takeover_stop),
	        T(test_takeover_keep_rearms_without_gap),
	        T(test_takeover_keep_starts_a_stopped_one_and_fixes_mode),
	        T(test_feeding_for_60s_then_reset_on_time),
	        T(test_feeding_too_slowly_resets),
	        T(test_timeout_table_rounds_up_and_model_agrees),
	        T(test_interrupt_mode_raises_irq_not_reset),
	        T(test_start_clears_a_stale_pending_interval),
	        T(test_start_while_running_never_stops),
	        T(test_set_timeout_and_stop),
	        T(test_losc_configuration_is_reported_and_replaced),
	        T(test_set_timeout_on_losc_selects_hosc),
	        T(test_soft_reset_only_on_timer_block),
	        T(test_model_catches_keyless_writes),
	        T(test_format_every_length),
	        T(test_format_edge_cases),
	        T(test_invalid_arguments_write_nothing),
	};
	return cmocka_run_group_tests_name("wdt", tests, NULL, group_teardown);
}
