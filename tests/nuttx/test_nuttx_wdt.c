/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/nuttx/d1_nuttx_wdt.c (the riscv_wdt: its state captured at kernel
 * entry, reported and taken over at late init, and NuttX's watchdog lower
 * half for /dev/watchdog0) compiled as it is, on the watchdog model, with
 * NuttX's side stood in here: syslog() (the lines are kept), the system
 * tick (model time, 1 ms per tick), watchdog_register() and the chip's
 * start code behind the entry wrapper.
 *
 * What it checks is what the model measured: when the system is reset.
 * A timeout is rounded up to the hardware table and the reset comes at
 * exactly that time after the start, not before; each keepalive restarts
 * the count (the reset comes one timeout after the last one); settimeout
 * on a running watchdog restarts it with the new timeout; stop means no
 * reset ever; getstatus (flags, timeout, timeleft to one tick); library
 * errors as negated errnos with no bus write; the entry capture reads
 * only, and the takeover report says what firmware left and stops it
 * before its 16 s run out. Every case checks there was no keyless or bad
 * write to any watchdog and no access outside the riscv_wdt.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/irq.h>
#include <nuttx/timers/watchdog.h>
#include <syslog.h>

#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/wdt.h"
#include "d1_nuttx.h"
#include "sim.h"
#include "wdt_model.h"

/* The board's entry wrapper and the chip's start it calls (ld --wrap). */
void __wrap_allwinner_d1_start(int hartid, uintptr_t dtb);
void __real_allwinner_d1_start(int hartid, uintptr_t dtb);

#define MS       24000ull /* model ticks per ms */
#define TICK     ((uint64_t)CONFIG_USEC_PER_TICK * 24u)
#define NLINES   8u
#define WDT_PATH "/dev/watchdog0"

static struct wdt_model wm;
static struct watchdog_lowerhalf_s *lower;

static struct {
	unsigned depth; /* enter_critical_section() nesting */
	/* syslog() */
	unsigned nlines;
	char lines[NLINES][128];
	int prio[NLINES];
	/* watchdog_register() */
	bool refuse_register;
	unsigned registered;
	const char *path;
	/* the chip's start behind the wrapper */
	unsigned real_calls;
	int real_hartid;
	uintptr_t real_dtb;
	uint64_t writes_at_real; /* bus writes when it was entered */
	bool chip_stops_wdt;     /* it stops the riscv_wdt, as upstream's does */
} nx;

void nx_panic(const char *file, int line)
{
	fail_msg("PANIC() at %s:%d", file, line);
}

irqstate_t enter_critical_section(void)
{
	return (irqstate_t)nx.depth++;
}

void leave_critical_section(irqstate_t flags)
{
	assert_true(nx.depth > 0u);
	nx.depth--;
	assert_int_equal(nx.depth, flags);
}

/* NuttX's tick count since boot (model time, CONFIG_USEC_PER_TICK). */
clock_t clock_systime_ticks(void)
{
	return (clock_t)(sim_now() / TICK);
}

void syslog(int priority, const char *fmt, ...)
{
	va_list ap;

	assert_true(nx.nlines < NLINES);
	va_start(ap, fmt);
	vsnprintf(nx.lines[nx.nlines], sizeof(nx.lines[0]), fmt, ap);
	va_end(ap);
	nx.prio[nx.nlines++] = priority;
}

/* The upper half, after NuttX's drivers/timers/watchdog.c (4ebc8a7291df),
 * in our words: WDIOC_START, WDIOC_STOP, WDIOC_KEEPALIVE (and a write()
 * without 'V'), WDIOC_SETTIMEOUT (ms) and WDIOC_GETSTATUS call the lower
 * half's method of that name and return its result; registration keeps
 * the lower half and fails with NULL. The tests call the methods as those
 * ioctls would. */
void *watchdog_register(const char *path, struct watchdog_lowerhalf_s *lo)
{
	if (nx.refuse_register) {
		return NULL;
	}
	nx.registered++;
	nx.path = path;
	lower = lo;
	return &nx;
}

/* The chip's allwinner_d1_start(): upstream stops the riscv_wdt first of
 * all (one keyed MODE write, 0x16AA0000); then it would boot NuttX. */
void __real_allwinner_d1_start(int hartid, uintptr_t dtb)
{
	nx.real_calls++;
	nx.real_hartid = hartid;
	nx.real_dtb = dtb;
	nx.writes_at_real = sim_writes();
	if (nx.chip_stops_wdt) {
		d1_mmio_write32(D1_RISCV_WDT_BASE + D1_WDT_MODE_OFFSET, 0x16AA0000u);
	}
}

static struct watchdog_status_s status(void)
{
	struct watchdog_status_s st;

	memset(&st, 0xA5, sizeof(st));
	assert_int_equal(lower->ops->getstatus(lower, &st), 0);
	return st;
}

/* Model time to @p t (the model places each reset at its exact time). */
static void run_to(uint64_t t)
{
	if (t > sim_now()) {
		sim_advance(t - sim_now());
	}
}

/* The model resets the system at exactly @p t: not one tick before. */
static void expect_reset_at(uint64_t t)
{
	run_to(t - 1u);
	assert_int_equal(wm.resets, 0);
	run_to(t);
	assert_int_equal(wm.resets, 1);
	assert_int_equal(wm.last_reset_at, t);
}

static void fresh_model(void)
{
	sim_reset();
	wdt_model_init(&wm, "riscv_wdt", D1_RISCV_WDT_BASE, false);
	memset(&nx, 0, sizeof(nx));
	lower = NULL;
}

static int setup(void **state)
{
	(void)state;
	fresh_model();
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_non_null(lower);
	nx.nlines = 0;
	return 0;
}

static int setup_model_only(void **state)
{
	(void)state;
	fresh_model();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(wdt_model_keyless_unexpected(), 0);
	assert_int_equal(wdt_model_bad_feed_unexpected(), 0);
	assert_int_equal(wm.reserved_intv_writes, 0);
	assert_int_equal(sim_unmapped(), 0);
	assert_int_equal(nx.depth, 0);
	return 0;
}

/* Late init on a board whose entry wrapper did not run (must come first:
 * the capture lives in .data for the whole binary): no "(at entry)" line,
 * the state now (running, 16 s, reset: what U-Boot leaves) and the
 * takeover are logged at LOG_INFO; the watchdog is stopped and never
 * resets the system; /dev/watchdog0 is registered. */
static void test_init_without_entry_capture(void **state)
{
	(void)state;
	assert_null(d1_nx_wdt_entry());
	wdt_model_preset(&wm, 0x1u, 0xB1u); /* reset mode, 16 s, running */
	run_to(3000u * MS);
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_int_equal(nx.nlines, 2);
	assert_string_equal(nx.lines[0], "riscv_wdt: running, 16000 ms, reset mode (now)\n");
	assert_string_equal(nx.lines[1], "riscv_wdt: taken over (stopped)\n");
	assert_int_equal(nx.prio[0], LOG_INFO);
	assert_int_equal(nx.prio[1], LOG_INFO);
	assert_false(wdt_model_running(&wm));
	run_to(60000u * MS);
	assert_int_equal(wm.resets, 0);
	assert_int_equal(nx.registered, 1);
	assert_string_equal(nx.path, WDT_PATH);
	assert_non_null(lower);
	assert_null(lower->ops->capture);
	assert_null(lower->ops->ioctl);
}

/* The entry wrapper on a watchdog U-Boot left running (16 s, reset): it
 * only reads (no bus write before the chip's start), passes hartid and
 * dtb on, and keeps running / reset / 16000 ms. The chip's start then
 * stops the watchdog; late init 15 s later logs both states, "(at
 * entry)" as captured and "(now)" as the chip left it, and the takeover;
 * the system is never reset. */
static void test_entry_capture_and_report(void **state)
{
	const struct d1_nx_wdt_entry_s *e;

	(void)state;
	wdt_model_preset(&wm, 0x1u, 0xB1u);
	run_to(100u * MS);
	nx.chip_stops_wdt = true;
	__wrap_allwinner_d1_start(3, 0x40200000u);
	assert_int_equal(nx.real_calls, 1);
	assert_int_equal(nx.real_hartid, 3);
	assert_int_equal(nx.real_dtb, 0x40200000u);
	assert_int_equal(nx.writes_at_real, 0);
	e = d1_nx_wdt_entry();
	assert_non_null(e);
	assert_true(e->captured);
	assert_true(e->running);
	assert_true(e->reset);
	assert_int_equal(e->timeout_ms, 16000u);
	assert_false(wdt_model_running(&wm)); /* the chip's start stopped it */

	run_to(15000u * MS);
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_int_equal(nx.nlines, 3);
	assert_string_equal(nx.lines[0], "riscv_wdt: running, 16000 ms, reset mode (at entry)\n");
	assert_string_equal(nx.lines[1], "riscv_wdt: stopped, 500 ms, reset mode (now)\n");
	assert_string_equal(nx.lines[2], "riscv_wdt: taken over (stopped)\n");
	run_to(60000u * MS);
	assert_int_equal(wm.resets, 0);
}

/* A chip start that leaves the watchdog running (the upstream option
 * docs/nuttx.md proposes, off): late init 15.99 s after U-Boot armed it
 * reports it running at entry and now, and stops it 10 ms before it
 * would reset the system: no reset. */
static void test_takeover_stops_running_watchdog(void **state)
{
	const struct d1_nx_wdt_entry_s *e;

	(void)state;
	wdt_model_preset(&wm, 0x1u, 0xB1u);
	__wrap_allwinner_d1_start(0, 0u);
	e = d1_nx_wdt_entry();
	assert_non_null(e);
	assert_true(e->running);
	assert_true(wdt_model_running(&wm));
	run_to(15990u * MS);
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_int_equal(nx.nlines, 3);
	assert_string_equal(nx.lines[0], "riscv_wdt: running, 16000 ms, reset mode (at entry)\n");
	assert_string_equal(nx.lines[1], "riscv_wdt: running, 16000 ms, reset mode (now)\n");
	assert_string_equal(nx.lines[2], "riscv_wdt: taken over (stopped)\n");
	assert_false(wdt_model_running(&wm));
	run_to(60000u * MS);
	assert_int_equal(wm.resets, 0);
}

/* settimeout rounding, each on a freshly initialised watchdog: the request
 * is rounded up to the hardware table (0.5, 1..6, 8, 10, 12, 14, 16 s);
 * getstatus reports the rounded value; started, the model's reset comes
 * exactly that long after the start, not a tick before. */
static void test_settimeout_rounding(void **state)
{
	static const uint32_t map[][2] = {
	        {1u, 500u},       {499u, 500u},     {500u, 500u},     {501u, 1000u},
	        {1000u, 1000u},   {1001u, 2000u},   {2500u, 3000u},   {5999u, 6000u},
	        {6001u, 8000u},   {9000u, 10000u},  {11000u, 12000u}, {13000u, 14000u},
	        {15999u, 16000u}, {16000u, 16000u},
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		uint64_t t0;

		fresh_model();
		assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
		assert_int_equal(lower->ops->settimeout(lower, map[i][0]), 0);
		assert_int_equal(status().timeout, map[i][1]);
		assert_false(wdt_model_running(&wm));
		t0 = sim_now();
		assert_int_equal(lower->ops->start(lower), 0);
		assert_int_equal(status().timeout, map[i][1]);
		assert_int_equal(wdt_model_timeout_ticks(&wm), map[i][1] * MS);
		expect_reset_at(t0 + map[i][1] * MS);
	}
}

/* A 1 s watchdog kept alive every 900 ms for 18 s (past the longest
 * timeout, 16 s): no reset; left alone after the last keepalive, the
 * system resets exactly 1 s after it, not before. */
static void test_keepalive_restarts_count(void **state)
{
	uint64_t t0;
	uint64_t last = 0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 1000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	for (unsigned k = 1; k <= 20u; k++) {
		run_to(t0 + k * 900u * MS);
		last = sim_now();
		assert_int_equal(lower->ops->keepalive(lower), 0);
	}
	assert_int_equal(wm.resets, 0);
	assert_true(wm.feeds >= 20u);
	expect_reset_at(last + 1000u * MS);
}

/* getstatus of a running 4 s watchdog: ACTIVE | RESET, timeout 4000, and
 * timeleft the timeout less the ticks since the start, to one tick of
 * the model's own time left; a keepalive brings it back to 4000; stopped,
 * neither ACTIVE nor time left. */
static void test_getstatus(void **state)
{
	static const uint64_t at_ms[] = {0u, 1u, 999u, 1500u, 3999u};
	struct watchdog_status_s st;
	uint64_t t0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 4000u), 0);
	run_to((sim_now() / TICK + 1u) * TICK); /* start on a tick */
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	for (unsigned i = 0; i < sizeof(at_ms) / sizeof(at_ms[0]); i++) {
		uint64_t left;

		run_to(t0 + at_ms[i] * MS + 7u);
		left = wm.armed_at + wdt_model_timeout_ticks(&wm) - sim_now(); /* model ticks */
		st = status();
		assert_int_equal(st.flags, WDFLAGS_ACTIVE | WDFLAGS_RESET);
		assert_int_equal(st.timeout, 4000u);
		assert_int_equal(st.timeleft, 4000u - at_ms[i]);
		assert_in_range((uint64_t)st.timeleft * MS, left, left + TICK);
	}
	run_to(t0 + 2500u * MS);
	assert_int_equal(lower->ops->keepalive(lower), 0);
	assert_int_equal(status().timeleft, 4000u);
	assert_int_equal(lower->ops->stop(lower), 0);
	st = status();
	assert_int_equal(st.flags & WDFLAGS_ACTIVE, 0u);
	assert_int_equal(st.timeleft, 0);
	assert_int_equal(wm.resets, 0);
}

/* stop 1 s into a 2 s watchdog: no reset in the next minute; a keepalive
 * on it does not start it; the next start counts from itself (reset at
 * that start + 2 s); a start on the running watchdog restarts the count
 * (reset 2 s after it). */
static void test_start_stop(void **state)
{
	uint64_t t0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 2000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	assert_true(wdt_model_running(&wm));
	run_to(t0 + 1000u * MS);
	assert_int_equal(lower->ops->stop(lower), 0);
	assert_false(wdt_model_running(&wm));
	assert_int_equal(lower->ops->keepalive(lower), 0);
	assert_false(wdt_model_running(&wm));
	run_to(t0 + 60000u * MS);
	assert_int_equal(wm.resets, 0);
	assert_int_equal(status().flags & WDFLAGS_ACTIVE, 0u);

	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 1500u * MS);
	assert_int_equal(wm.resets, 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	expect_reset_at(t0 + 2000u * MS);
}

/* settimeout(2000) 5 s into a running 8 s watchdog: the count restarts
 * with the new timeout (reset exactly 2 s after the call, not at once
 * although start + 2 s has passed); getstatus says 2000 with 2000 left. */
static void test_settimeout_running(void **state)
{
	struct watchdog_status_s st;
	uint64_t t0;
	uint64_t t1;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 8000u), 0);
	run_to((sim_now() / TICK + 1u) * TICK);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 5000u * MS);
	t1 = sim_now();
	assert_int_equal(lower->ops->settimeout(lower, 2000u), 0);
	st = status();
	assert_int_equal(st.flags, WDFLAGS_ACTIVE | WDFLAGS_RESET);
	assert_int_equal(st.timeout, 2000u);
	assert_int_equal(st.timeleft, 2000u);
	expect_reset_at(t1 + 2000u * MS);
}

/* Library errors as negated errnos: settimeout(0) -EINVAL, above 16 s
 * -ERANGE (16001 and UINT32_MAX), each with no bus write; the running
 * 3 s watchdog is unchanged (getstatus 3000, reset at start + 3 s). */
static void test_bad_timeouts(void **state)
{
	uint64_t t0;

	(void)state;
	assert_int_equal(lower->ops->settimeout(lower, 3000u), 0);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 1000u * MS);
	SIM_EXPECT_NO_WRITE(lower->ops->settimeout(lower, 0u), -EINVAL);
	SIM_EXPECT_NO_WRITE(lower->ops->settimeout(lower, 16001u), -ERANGE);
	SIM_EXPECT_NO_WRITE(lower->ops->settimeout(lower, UINT32_MAX), -ERANGE);
	assert_int_equal(status().timeout, 3000u);
	expect_reset_at(t0 + 3000u * MS);
}

/* A stopped watchdog's getstatus reports the timeout setting, the one the
 * next start arms (NuttX: struct watchdog_status_s.timeout is "the
 * current timeout setting"): 16000 after init (start then resets the
 * system 16 s later), and 3000 after settimeout(3000), start and stop. */
static void test_stopped_status_reports_setting(void **state)
{
	uint64_t t0;

	(void)state;
	assert_int_equal(status().flags & WDFLAGS_ACTIVE, 0u);
	assert_int_equal(status().timeout, 16000u);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	run_to(t0 + 16000u * MS);
	assert_int_equal(wm.resets, 1);
	assert_int_equal(wm.last_reset_at, t0 + 16000u * MS);

	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_int_equal(lower->ops->settimeout(lower, 3000u), 0);
	assert_int_equal(lower->ops->start(lower), 0);
	assert_int_equal(lower->ops->stop(lower), 0);
	assert_int_equal(status().timeout, 3000u);
}

/* Firmware left the watchdog stopped in interrupt mode (CFG mode 2): a
 * stopped watchdog has no action in effect, and the one start arms is
 * reset (this lower half arms nothing else), so getstatus says RESET
 * before the start as after it, as it says the timeout start arms; the
 * start then resets the system on time. */
static void test_stopped_status_reports_reset_action(void **state)
{
	uint64_t t0;

	(void)state;
	wdt_model_preset(&wm, 0x2u, 0xB0u); /* interrupt mode, 16 s, not enabled */
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), 0);
	assert_non_null(lower);
	assert_int_equal(status().flags, WDFLAGS_RESET);
	assert_int_equal(status().timeout, 16000u);
	assert_int_equal(lower->ops->settimeout(lower, 2000u), 0);
	assert_int_equal(status().flags, WDFLAGS_RESET);
	t0 = sim_now();
	assert_int_equal(lower->ops->start(lower), 0);
	assert_int_equal(status().flags, WDFLAGS_ACTIVE | WDFLAGS_RESET);
	expect_reset_at(t0 + 2000u * MS);
}

/* A refused registration gives -EEXIST, the watchdog stopped all the
 * same; a NULL path registers nothing and succeeds. */
static void test_register_refused_and_no_path(void **state)
{
	(void)state;
	wdt_model_preset(&wm, 0x1u, 0xB1u);
	nx.refuse_register = true;
	assert_int_equal(d1_nuttx_wdt_initialize(WDT_PATH), -EEXIST);
	assert_int_equal(nx.registered, 0);
	assert_false(wdt_model_running(&wm));

	wdt_model_preset(&wm, 0x1u, 0xB1u);
	nx.refuse_register = false;
	assert_int_equal(d1_nuttx_wdt_initialize(NULL), 0);
	assert_int_equal(nx.registered, 0);
	assert_false(wdt_model_running(&wm));
	run_to(60000u * MS);
	assert_int_equal(wm.resets, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_init_without_entry_capture, setup_model_only,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_entry_capture_and_report, setup_model_only,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_takeover_stops_running_watchdog,
	                                        setup_model_only, teardown),
	        cmocka_unit_test_setup_teardown(test_settimeout_rounding, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_keepalive_restarts_count, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_getstatus, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_start_stop, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_settimeout_running, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_bad_timeouts, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_stopped_status_reports_setting, setup,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_stopped_status_reports_reset_action,
	                                        setup_model_only, teardown),
	        cmocka_unit_test_setup_teardown(test_register_refused_and_no_path, setup_model_only,
	                                        teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
