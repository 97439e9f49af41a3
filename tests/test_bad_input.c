/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bad input as one table: every public function of
 * include/d1/ headers against every bad-input class that applies to it, from
 * tests/bad_input_table.h. Each RUN row is one cmocka test on a fresh
 * fixture (every block's model mapped, every handle initialised): an
 * optional preparation puts the hardware or the handle in the state the row
 * needs, then the call is made and checked for
 *   - its documented result (a d1_err_t, or the documented neutral value of
 *     a function that returns no error code),
 *   - zero MMIO writes and zero accesses outside every model (a bad handle
 *     must not reach a stray address), and a balanced critical section,
 *   - zero MMIO reads, except for the rows of read_ok[] below: error paths
 *     whose header documents that they read (the error is a state read from
 *     the hardware) and promises only "nothing written".
 *     Several headers promise "no access" (plic.h, wdt.h, "touches no
 *     register"); error.h only "no register written". A row in read_ok[]
 *     must read (a stale entry fails), and every entry must name a RUN row.
 * LIST rows name functions (or classes) the test does not call, with the
 * reason: implemented by the port or the simulator, or no argument to get
 * wrong. tests/check_bad_input_table.py fails the build when a public
 * function has no row, and when a RUN row expects an error code that the
 * function's Doxygen does not document.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/bench.h"
#include "d1/bench_svc.h"
#include "d1/ccu.h"
#include "d1/error.h"
#include "d1/latency.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/port.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1/uart.h"
#include "d1/wdt.h"
#include "plic_model.h"
#include "sim.h"
#include "timer_model.h"
#include "uart_model.h"
#include "wdt_model.h"

/* ---- input classes ---- */

enum bad_class {
	NULL_HANDLE,    /* NULL handle / recorder */
	UNINIT,         /* a zeroed, never-initialised handle */
	BAD_HANDLE,     /* a handle that fails init's checks (unaligned base, zero rate) */
	NULL_OUT,       /* NULL out-pointer */
	NULL_ARG,       /* NULL in-pointer or buffer */
	ZERO_BASE,      /* register base 0 */
	UNALIGNED_BASE, /* register base not 4-byte aligned */
	CHANNEL,        /* out-of-range channel, instance, id, context or bus */
	SOURCE,         /* out-of-range clock source, clock id, mux value or IRQ source */
	RATE,           /* out-of-range clock rate */
	PERIOD,         /* out-of-range period, deadline or timeout */
	BAUD,           /* out-of-range baud */
	RANGE,          /* another out-of-range value (size, divider, priority, ...) */
	BAD_ENUM,       /* an undefined mode, policy, action or flavour */
	STATE,          /* a call in the wrong state */
	NO_BAD_INPUT,   /* nothing the caller can get wrong */
	PORT,           /* implemented by the port or the simulator, not the library */
	BAD_CLASS_COUNT
};

static const char *const class_names[BAD_CLASS_COUNT] = {
        [NULL_HANDLE] = "null-handle",
        [UNINIT] = "never-initialised",
        [BAD_HANDLE] = "bad-handle",
        [NULL_OUT] = "null-out",
        [NULL_ARG] = "null-arg",
        [ZERO_BASE] = "zero-base",
        [UNALIGNED_BASE] = "unaligned-base",
        [CHANNEL] = "channel",
        [SOURCE] = "source",
        [RATE] = "rate",
        [PERIOD] = "period",
        [BAUD] = "baud",
        [RANGE] = "range",
        [BAD_ENUM] = "bad-enum",
        [STATE] = "wrong-state",
        [NO_BAD_INPUT] = "no-bad-input",
        [PORT] = "port",
};

struct row {
	const char *fn; /* the public function */
	enum bad_class cls;
	const char *id;   /* unique row name */
	const char *what; /* the call, as written in the table (RUN), or the reason (LIST) */
	void (*prep)(void);
	int64_t (*call)(void); /* NULL: a LIST row */
	int64_t expect;
};

/* ---- fixture ---- */

#define TBASE D1_TIMER_BASE
#define OSC   D1_OSC24M_HZ
#define LOSC  D1_LOSC_HZ
#define CBASE D1_CCU_BASE
#define UBASE D1_UART0_BASE
#define UCLK  24000000u
#define QBASE 0x0A000000u /* a plain 16550 (QEMU virt flavour), anywhere free */
#define QCLK  3686400u
#define PBASE D1_PLIC_BASE
#define NSRC  D1_PLIC_NSOURCES

static struct timer_model tm;
static struct wdt_model wm_t, wm_r;
static struct ccu_model cm;
static struct uart_model um, qm;
static struct plic_model pm;
static bool models_up;

/* Handles: initialised ones, a zeroed one per driver, scratch ones for the
 * init rows, and corrupted ones that fail init's checks. */
static struct d1_timer tmr, tz, tx;
static struct d1_ccu ccu, cz, cx, c_unal, c_norate, c_fast;
static struct d1_uart ua, uq, uz, ux;
static struct d1_plic plic, pz, px;
static struct d1_wdt wt, wr, wz, wx, w_unal, w_badid, wt_unal;
static struct d1_lat lat, lat_other, lat_z, lat_copy;

/* Out-parameters and buffers. */
static struct d1_timer_stats tstats;
static uint64_t u64v;
static uint32_t u32v;
static bool boolv;
static uint8_t byte;
static uint8_t ring[16];
static char text[D1_LAT_REPORT_SIZE];
static struct d1_uart_baud baudv;
static struct d1_uart_stats ustats;
static struct d1_plic_stats pstats;
static struct d1_plic_entry ptable[4];
static struct d1_wdt_state wst;
static struct d1_lat_summary lsum;
static struct d1_bench bench;
static struct d1_bench_stats bstats;
static struct d1_svc_run svc;
static struct d1_bench_mark marks[2];
static struct d1_bench_cost bcost;
static const struct d1_lat_meta meta = {.os = "test", .board = "host", .load = "none"};

static void put_sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	(void)s;
	(void)n;
}

static const struct d1_uart_config cfg_8n1 = {
        .baud = 115200,
        .data_bits = 8,
        .parity = D1_UART_PARITY_NONE,
        .stop_bits = 1,
        .fifo = true,
        .rx_trigger = 2,
        .tx_trigger = 0,
};

/* cfg_8n1 with one field wrong (the configure rows). */
enum cfg_field {
	CF_DATA4,
	CF_DATA9,
	CF_PARITY,
	CF_STOP0,
	CF_STOP3,
	CF_RXT,
	CF_TXT,
	CF_BAUD0,
	CF_BAUD_HIGH,
	CF_RTSCTS_NOFIFO,
	CF_RTSCTS
};

static const struct d1_uart_config *cfg_bad(enum cfg_field f)
{
	static struct d1_uart_config c;

	c = cfg_8n1;
	switch (f) {
	case CF_DATA4:
		c.data_bits = 4;
		break;
	case CF_DATA9:
		c.data_bits = 9;
		break;
	case CF_PARITY:
		c.parity = (enum d1_uart_parity)3;
		break;
	case CF_STOP0:
		c.stop_bits = 0;
		break;
	case CF_STOP3:
		c.stop_bits = 3;
		break;
	case CF_RXT:
		c.rx_trigger = 4;
		break;
	case CF_TXT:
		c.tx_trigger = 4;
		break;
	case CF_BAUD0:
		c.baud = 0;
		break;
	case CF_BAUD_HIGH:
		c.baud = 3000000; /* 24 MHz / 16 = 1.5 Mbaud at most */
		break;
	case CF_RTSCTS_NOFIFO:
		c.rtscts = true;
		c.fifo = false;
		break;
	case CF_RTSCTS:
		c.rtscts = true;
		break;
	}
	return &c;
}

static void fixture(void)
{
	if (models_up) {
		uart_model_free(&um);
		uart_model_free(&qm);
	}
	sim_reset();
	timer_model_init(&tm, TBASE);
	wdt_model_init(&wm_t, "timer_wdt", D1_TIMER_WDT_BASE, true);
	wdt_model_init(&wm_r, "riscv_wdt", D1_RISCV_WDT_BASE, false);
	ccu_model_init(&cm, CBASE);
	ccu_model_preset_uboot(&cm);
	uart_model_init(&um, UBASE, 2, true, UCLK, D1_UART_FIFO_DEPTH);
	uart_model_init(&qm, QBASE, 0, false, QCLK, 16);
	plic_model_init(&pm, PBASE, NSRC, 5, true);
	models_up = true;

	tz = (struct d1_timer){0};
	assert_int_equal(d1_timer_init(&tmr, TBASE, 1, OSC, LOSC), D1_OK);
	assert_int_equal(d1_timer_set_period_hz(&tmr, 1000, NULL), D1_OK);

	cz = (struct d1_ccu){0};
	assert_int_equal(d1_ccu_init(&ccu, CBASE, OSC), D1_OK);
	c_unal = ccu;
	c_unal.base = CBASE + 2u;
	c_norate = ccu;
	c_norate.osc24m_hz = 0;
	assert_int_equal(d1_ccu_init(&c_fast, CBASE, 100000000u), D1_OK);

	uz = (struct d1_uart){0};
	assert_int_equal(d1_uart_init(&ua, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	assert_int_equal(d1_uart_configure(&ua, &cfg_8n1, NULL), D1_OK);
	assert_int_equal(d1_uart_init(&uq, QBASE, 0, QCLK, 16), D1_OK);
	assert_int_equal(d1_uart_configure(&uq, &cfg_8n1, NULL), D1_OK);

	pz = (struct d1_plic){0};
	assert_int_equal(d1_plic_init(&plic, PBASE, D1_PLIC_CTX_S, NSRC, 0), D1_OK);

	wz = (struct d1_wdt){0};
	assert_int_equal(d1_wdt_init(&wt, D1_WDT_TIMER, D1_TIMER_WDT_BASE), D1_OK);
	assert_int_equal(d1_wdt_init(&wr, D1_WDT_RISCV, D1_RISCV_WDT_BASE), D1_OK);
	w_unal = wr;
	w_unal.base = D1_RISCV_WDT_BASE + 2u;
	w_badid = wr;
	w_badid.id = D1_WDT_COUNT;
	wt_unal = wt; /* an instance with a capability, base broken */
	wt_unal.base = D1_TIMER_WDT_BASE + 2u;
	assert_int_equal(d1_wdt_get_state(&wr, &wst), D1_OK);

	assert_int_equal(d1_lat_init(&lat, OSC), D1_OK);
	d1_lat_record(&lat, 100);
	d1_lat_record(&lat, 5000);
	assert_int_equal(d1_lat_init(&lat_other, 10000000u), D1_OK);
	lat_z = (struct d1_lat){0};

	u64v = 0;
	u32v = 0;
	boolv = false;
	pstats = (struct d1_plic_stats){0};
}

/* ---- preparations (their register writes happen before the count) ---- */

static void p_timer_running(void)
{
	assert_int_equal(d1_timer_start(&tmr, D1_TIMER_PERIODIC), D1_OK);
}

static void p_timer_no_period(void)
{
	assert_int_equal(d1_timer_init(&tmr, TBASE, 1, OSC, LOSC), D1_OK);
}

static void p_timer_fraction(void)
{
	/* 24 MHz / 7 Hz: no source or prescaler divides it exactly */
	assert_int_equal(d1_timer_set_period_hz(&tmr, 7, NULL), D1_OK);
}

static void p_ccu_pll_cpu_off(void)
{
	ccu_model_poke(&cm, D1_CCU_PLL_CPU_CTRL_OFFSET, 0u);
}

static void p_ccu_peri0_off(void)
{
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET, 0u);
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET,
	               D1_CCU_APB_SRC_PERI0_1X << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB);
}

static void p_ccu_core_audio1(void)
{
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET,
	               D1_CCU_RISCV_SRC_AUDIO1_DIV2 << D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB);
}

/* APB1 on PLL_PERI0(1X) at N = 256, P0 = 1, with a 100 MHz oscillator:
 * 12.8 GHz, which no uint32_t holds. */
static void p_ccu_apb1_beyond_u32(void)
{
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET,
	               D1_CCU_PLL_PERI_CTRL_EN_BITS | D1_CCU_PLL_PERI_CTRL_LDO_EN_BITS |
	                       D1_CCU_PLL_PERI_CTRL_LOCK_ENABLE_BITS |
	                       D1_CCU_PLL_PERI_CTRL_OUTPUT_GATE_BITS | D1_CCU_PLL_PERI_CTRL_N_BITS);
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET,
	               D1_CCU_APB_SRC_PERI0_1X << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB);
}

static void p_uart_irq(void)
{
	assert_int_equal(d1_uart_irq_start(&ua, ring, sizeof ring, NULL, 0), D1_OK);
}

/* A configure whose restore failed: DLAB may be left set (the handle then
 * refuses I/O with D1_ESTATE, uart.h). */
static void p_uart_line_lost(void)
{
	um.busy_after_dlab = true;
	assert_int_equal(d1_uart_configure(&ua, &cfg_8n1, NULL), D1_ETIMEDOUT);
	assert_true(ua.line_lost);
}

static void p_plic_smode_no_sper(void)
{
	pm.s_mode = true;
	pm.ctrl = 0; /* S_PER off (e.g. lost in a CPU power-down) */
}

static void p_plic_no_probe(void)
{
	sim_set_probe_supported(false);
}

static void p_plic_prio_max7(void)
{
	assert_int_equal(d1_plic_set_max_priority(&plic, 7), D1_OK);
}

/* ---- helpers for rows that check more than one value ---- */

/* d1_lat_init() leaves the recorder untouched on error. */
/* A bench prepared (no wake recorder), and one started. */
static void p_bench_ready(void)
{
	assert_int_equal(d1_bench_init(&bench, &lat, NULL, 24000, 10), D1_OK);
}

static void p_bench_started(void)
{
	p_bench_ready();
	assert_int_equal(d1_bench_start(&bench, 0), D1_OK);
}

static int64_t lat_init_keeps(uint32_t clock_hz)
{
	d1_err_t e;

	lat_copy = lat;
	e = d1_lat_init(&lat, clock_hz);
	return e == D1_ERANGE && memcmp(&lat_copy, &lat, sizeof lat) == 0 ? 1 : 0;
}

/* d1_lat_merge() leaves dst untouched on error. */
static int64_t lat_merge_keeps(void)
{
	d1_err_t e;

	lat_copy = lat;
	e = d1_lat_merge(&lat, &lat_other);
	return e == D1_EINVAL && memcmp(&lat_copy, &lat, sizeof lat) == 0 ? 1 : 0;
}

/* d1_lat_bucket_bounds() beyond the overflow bin. */
static int64_t lat_bounds_beyond(void)
{
	uint32_t lo = 0;
	uint32_t hi = 0;

	d1_lat_bucket_bounds(D1_LAT_OVERFLOW + 7u, &lo, &hi);
	return lo == D1_LAT_TOP + 1u && hi == UINT32_MAX ? 1 : 0;
}

/* d1_ccu_get_rate() / d1_ccu_uart_clock_hz(): "0 on error". */
static int64_t ccu_rate_zeroed(const struct d1_ccu *c, enum d1_ccu_clk clk)
{
	d1_err_t e;

	u64v = 12345u;
	e = d1_ccu_get_rate(c, clk, &u64v);
	return u64v == 0u ? (int64_t)e : 1;
}

static int64_t ccu_uart_hz_zeroed(const struct d1_ccu *c, unsigned uart)
{
	d1_err_t e;

	u32v = 12345u;
	e = d1_ccu_uart_clock_hz(c, uart, &u32v);
	return u32v == 0u ? (int64_t)e : 1;
}

/* d1_ccu_set_pll_cpu(): achieved_hz "left untouched on every error". */
static int64_t ccu_pll_keeps(const struct d1_ccu *c, uint64_t hz)
{
	d1_err_t e;

	u64v = 777u;
	e = d1_ccu_set_pll_cpu(c, hz, &u64v);
	return u64v == 777u ? (int64_t)e : 1;
}

/* d1_plic_check_delegation() without a fault-safe probe: "nothing accessed". */
static int64_t plic_noprobe_no_access(void)
{
	uint64_t r0 = sim_reads();
	d1_err_t e = d1_plic_check_delegation(&plic);

	return sim_reads() == r0 ? (int64_t)e : 1;
}

/* d1_wdt_format_state() into a buffer too small: truncated, NUL-terminated. */
static int64_t wdt_format_short(void)
{
	d1_err_t e;

	memset(text, 'x', 16);
	e = d1_wdt_format_state(&wst, text, 8);
	return text[7] == '\0' ? (int64_t)e : 1;
}

/* ---- rows allowed to read ----
 *
 * Each of these errors is a state the driver can only learn from the
 * hardware, and the header says so while promising only that nothing is
 * written. Every other RUN row must make no access at all. */
static const struct {
	const char *id;
	const char *why; /* the header's wording */
} read_ok[] = {
        {"ccu_get_rate_pll_off", "ccu.h d1_ccu_get_rate: decoded from the live registers "
                                 "(reads only); D1_ESTATE a PLL on the path is disabled"},
        {"ccu_get_rate_core_audio1", "ccu.h d1_ccu_get_rate: reads only; D1_ENOTSUP the path "
                                     "uses a source this driver does not decode"},
        {"ccu_uart_hz_peri0_off", "ccu.h d1_ccu_uart_clock_hz: As d1_ccu_get_rate() (reads only)"},
        {"ccu_uart_hz_beyond_u32", "ccu.h d1_ccu_uart_clock_hz: D1_ERANGE when APB1 runs above "
                                   "UINT32_MAX Hz (a rate read from the registers)"},
        {"ccu_apb1_peri0_off", "ccu.h d1_ccu_apb1_config: D1_ESTATE the source is not running "
                               "(PLL off) ... On error nothing is written"},
        {"ccu_apb1_too_fast", "ccu.h d1_ccu_apb1_config: D1_ERANGE above D1_CCU_APB_MAX_HZ "
                              "(from the source's live rate); nothing is written"},
        {"plic_init_not_delegated", "plic.h d1_plic_init_ex: D1_ENODELEG the probe faulted or "
                                    "did not take; nothing else written"},
        {"plic_init_ex_not_delegated", "plic.h d1_plic_init_ex: as plic_init_not_delegated"},
        {"plic_check_delegation_lost", "plic.h d1_plic_check_delegation: reads, changes, reads "
                                       "back and restores through d1_port_probe32()"},
};

#define NREAD_OK (sizeof read_ok / sizeof read_ok[0])

static bool reads_allowed(const char *id)
{
	for (size_t i = 0; i < NREAD_OK; i++) {
		if (strcmp(read_ok[i].id, id) == 0) {
			return true;
		}
	}
	return false;
}

/* ---- the table ---- */

/* One thunk per RUN row, then the rows. */
#define RUN(id, fn, cls, prep, expect, ...)                                                        \
	static int64_t id(void)                                                                    \
	{                                                                                          \
		return (int64_t)(__VA_ARGS__);                                                     \
	}
#define LIST(fn, cls, reason)
#include "bad_input_table.h"
#undef RUN
#undef LIST

#define RUN(id, fn, cls, prep, expect, ...)                                                        \
	{#fn, cls, #id, #__VA_ARGS__, prep, id, (int64_t)(expect)},
#define LIST(fn, cls, reason) {#fn, cls, NULL, reason, NULL, NULL, 0},
static const struct row rows[] = {
#include "bad_input_table.h"
};
#undef RUN
#undef LIST

#define NROWS (sizeof rows / sizeof rows[0])

static void run_row(void **state)
{
	const struct row *r = *state;
	uint64_t w0;
	uint64_t u0;
	uint64_t r0;
	uint64_t reads;
	int64_t got;

	fixture();
	if (r->prep != NULL) {
		r->prep();
	}
	w0 = sim_writes();
	u0 = sim_unmapped();
	r0 = sim_reads();
	got = r->call();
	reads = sim_reads() - r0;
	if (got != r->expect) {
		print_error("%s [%s] %s: returned %lld (%s), documented %lld (%s)\n", r->fn,
		            class_names[r->cls], r->what, (long long)got, d1_strerror((int)got),
		            (long long)r->expect, d1_strerror((int)r->expect));
	}
	assert_true(got == r->expect);
	if (sim_writes() != w0) {
		print_error("%s [%s] %s: %llu register write(s)\n", r->fn, class_names[r->cls],
		            r->what, (unsigned long long)(sim_writes() - w0));
	}
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(sim_unmapped(), u0);
	if (reads_allowed(r->id)) {
		if (reads == 0u) {
			print_error("%s [%s] %s: in read_ok[] but made no read (stale entry)\n",
			            r->fn, class_names[r->cls], r->id);
		}
		assert_true(reads > 0u);
	} else {
		if (reads != 0u) {
			print_error("%s [%s] %s: %llu register read(s) on an error path that "
			            "promises no access\n",
			            r->fn, class_names[r->cls], r->what, (unsigned long long)reads);
		}
		assert_int_equal(reads, 0u);
	}
	assert_int_equal(sim_critical_depth(), 0);
}

static int teardown_group(void **state)
{
	(void)state;
	if (models_up) {
		uart_model_free(&um);
		uart_model_free(&qm);
		models_up = false;
	}
	return 0;
}

int main(void)
{
	static struct CMUnitTest tests[NROWS];
	static char names[NROWS][160];
	static const char *fns[NROWS];
	unsigned ntests = 0;
	unsigned nfns = 0;
	unsigned nlisted = 0;
	int failed;

	for (size_t k = 0; k < NREAD_OK; k++) {
		bool found = false;

		for (size_t i = 0; i < NROWS; i++) {
			found = found ||
			        (rows[i].id != NULL && strcmp(rows[i].id, read_ok[k].id) == 0);
		}
		if (!found) {
			printf("read_ok[] names %s, which is no RUN row\n", read_ok[k].id);
			return 1;
		}
	}
	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		bool seen = false;

		for (unsigned k = 0; k < nfns; k++) {
			seen = seen || strcmp(fns[k], r->fn) == 0;
		}
		if (!seen) {
			fns[nfns++] = r->fn;
		}
		if (r->call == NULL) {
			nlisted++;
			printf("[ LISTED   ] %s [%s]: %s\n", r->fn, class_names[r->cls], r->what);
			continue;
		}
		snprintf(names[ntests], sizeof names[ntests], "%s [%s] %s", r->fn,
		         class_names[r->cls], r->id);
		tests[ntests] = (struct CMUnitTest){
		        .name = names[ntests],
		        .test_func = run_row,
		        .initial_state = (void *)(uintptr_t)r,
		};
		ntests++;
	}
	failed = _cmocka_run_group_tests("bad_input", tests, ntests, NULL, teardown_group);
	/* The summary line scripts/gates/badinput.sh reads. */
	printf("bad input: %u functions, %u cases, %d failures (%u listed without a call)\n", nfns,
	       ntests, failed, nlisted);
	return failed;
}
