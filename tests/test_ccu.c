/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CCU driver against the CCU model: rates decoded from register values, the
 * PLL_CPU change that never leaves the core on an unlocked PLL (the model
 * checks every RISCV_CLK / PLL write), the lock timeout, UART gate/reset
 * order as the model recorded it, APB1 changes without a glitch above the
 * old and new rates, and every error path with "no register written".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "sim.h"

#define MHZ(x) ((uint64_t)(x)*1000000u)
#define US(x)  ((uint64_t)(x) * (SIM_HZ / 1000000u))

static struct ccu_model cm;
static struct d1_ccu ccu;

/* Trace of CCU writes: offset, value, time. */
struct wlog {
	unsigned n;
	uint32_t off[64];
	uint32_t val[64];
	uint64_t at[64];
};
static struct wlog wl;

static void trace(void *arg, bool write, uintptr_t addr, uint32_t value)
{
	struct wlog *l = arg;

	if (write && addr >= D1_CCU_BASE && addr < D1_CCU_BASE + D1_CCU_WINDOW && l->n < 64) {
		l->off[l->n] = (uint32_t)(addr - D1_CCU_BASE);
		l->val[l->n] = value;
		l->at[l->n] = sim_now();
		l->n++;
	}
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	assert_int_equal(d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ), D1_OK);
	wl = (struct wlog){0};
	sim_set_trace(trace, &wl);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(sim_unmapped(), 0);
	assert_int_equal(sim_critical_depth(), 0);
	return 0;
}

static uint64_t rate(enum d1_ccu_clk clk)
{
	uint64_t hz = 1;

	assert_int_equal(d1_ccu_get_rate(&ccu, clk, &hz), D1_OK);
	return hz;
}

static void expect_rate_err(enum d1_ccu_clk clk, d1_err_t err)
{
	uint64_t hz = 1;

	assert_int_equal(d1_ccu_get_rate(&ccu, clk, &hz), err);
	assert_int_equal(hz, 0);
}

static void test_decode_uboot_defaults(void **state)
{
	uint32_t uhz;
	uint64_t w;

	(void)state;
	ccu_model_preset_uboot(&cm);
	w = sim_writes();
	/* PERI0 0xE8216300 -> N = 100, dividers P0+1 = 2, P1+1 = 3
	 * (docs/hardware-facts.md "CCU") */
	assert_int_equal(rate(D1_CCU_CLK_PERI0_4X), MHZ(2400));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_2X), MHZ(1200));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_1X), MHZ(600));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_800M), MHZ(800));
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(1008));
	assert_int_equal(rate(D1_CCU_CLK_PSI_AHB), MHZ(100));
	assert_int_equal(rate(D1_CCU_CLK_APB0), MHZ(100));
	assert_int_equal(rate(D1_CCU_CLK_APB1), MHZ(24));
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(1008));
	assert_int_equal(rate(D1_CCU_CLK_RISCV_AXI), MHZ(504));
	assert_int_equal(rate(D1_CCU_CLK_OSC24M), MHZ(24)); /* the Timer's clock */
	assert_int_equal(rate(D1_CCU_CLK_LOSC), 32768);
	assert_int_equal(rate(D1_CCU_CLK_IOSC), MHZ(16));
	for (unsigned u = 0; u < D1_CCU_UART_COUNT; u++) {
		assert_int_equal(d1_ccu_uart_clock_hz(&ccu, u, &uhz), D1_OK);
		assert_int_equal(uhz, 24000000u);
	}
	assert_int_equal(sim_writes(), w); /* queries only read */
}

static void test_decode_variants(void **state)
{
	(void)state;
	ccu_model_preset_uboot(&cm);
	/* PLL_CPU M = 2 */
	ccu_model_poke(&cm, D1_CCU_PLL_CPU_CTRL_OFFSET, 0xE8002901u);
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(504));
	/* PERI0 input /2, P0 = 1, P1 = 1 */
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET, 0xE8006302u);
	assert_int_equal(rate(D1_CCU_CLK_PERI0_4X), MHZ(1200));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_2X), MHZ(1200));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_1X), MHZ(600));
	assert_int_equal(rate(D1_CCU_CLK_PERI0_800M), MHZ(1200));
	/* core from PERI0(800M) / 3, AXI / 4 */
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET, 0xE8216300u);
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x03000302u);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), 266666666u);
	assert_int_equal(rate(D1_CCU_CLK_RISCV_AXI), 66666666u);
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x04000000u); /* PERI0(1X) */
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(600));
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x01000000u); /* LOSC */
	assert_int_equal(rate(D1_CCU_CLK_RISCV), 32768);
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x02000001u); /* IOSC / 2 */
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(8));
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x06000000u); /* audio */
	expect_rate_err(D1_CCU_CLK_RISCV, D1_ENOTSUP);
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x07000000u); /* reserved */
	expect_rate_err(D1_CCU_CLK_RISCV_AXI, D1_ENOTSUP);
	/* PSI from IOSC / 4 / 2; APB1 from PSI / 1 / 1 and from LOSC / 2 / 8 */
	ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, 0x02000103u);
	assert_int_equal(rate(D1_CCU_CLK_PSI_AHB), MHZ(2));
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET, 0x02000000u);
	assert_int_equal(rate(D1_CCU_CLK_APB1), MHZ(2));
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET, 0x01000301u);
	assert_int_equal(rate(D1_CCU_CLK_APB1), 32768 / 2 / 8);
	ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, 0x00000000u);
	assert_int_equal(rate(D1_CCU_CLK_PSI_AHB), MHZ(24));
	ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, 0x01000000u);
	assert_int_equal(rate(D1_CCU_CLK_PSI_AHB), 32768);
	/* a PLL that is off, or gated, gives no clock to anything behind it */
	ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, 0x03000102u);
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET, 0x68216300u); /* EN clear */
	expect_rate_err(D1_CCU_CLK_PERI0_1X, D1_ESTATE);
	expect_rate_err(D1_CCU_CLK_PSI_AHB, D1_ESTATE);
	expect_rate_err(D1_CCU_CLK_APB0, D1_ESTATE);
	ccu_model_poke(&cm, D1_CCU_PLL_CPU_CTRL_OFFSET, 0xE0002900u); /* gate closed */
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x05000100u);
	expect_rate_err(D1_CCU_CLK_PLL_CPU, D1_ESTATE);
	expect_rate_err(D1_CCU_CLK_RISCV, D1_ESTATE);
	/* power-on: everything on the OSC24M */
	setup(NULL);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(24));
	assert_int_equal(rate(D1_CCU_CLK_APB1), MHZ(24));
	expect_rate_err(D1_CCU_CLK_PLL_CPU, D1_ESTATE);
}

/* Every mux value of PSI, APB0/APB1 and RISCV_CLK (dividers 1) decodes to
 * its source: 0 OSC24M, 1 LOSC, 2 IOSC (PSI, core) or PSI (APB), then the PLL
 * outputs (SVD psi_clk, apb%s_clk, riscv_clk). */
static void test_every_source_mux_value(void **state)
{
	static const uint64_t psi[4] = {MHZ(24), 32768u, MHZ(16), MHZ(600)};
	static const uint64_t core[6] = {MHZ(24), 32768u, MHZ(16), MHZ(800), MHZ(600), MHZ(1008)};
	uint32_t sel;

	(void)state;
	ccu_model_preset_uboot(&cm);
	for (sel = 0; sel < 4u; sel++) {
		ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, sel << D1_CCU_PSI_CLK_CLK_SRC_SEL_LSB);
		assert_int_equal(rate(D1_CCU_CLK_PSI_AHB), psi[sel]);
	}
	ccu_model_poke(&cm, D1_CCU_PSI_CLK_OFFSET, 0x02000001u); /* IOSC / 2 = 8 MHz */
	for (sel = 0; sel < 4u; sel++) {
		uint64_t want = sel == D1_CCU_APB_SRC_PSI ? MHZ(8) : psi[sel];

		ccu_model_poke(&cm, D1_CCU_APB0_CLK_OFFSET, sel << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB);
		ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET, sel << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB);
		assert_int_equal(rate(D1_CCU_CLK_APB0), want);
		assert_int_equal(rate(D1_CCU_CLK_APB1), want);
	}
	for (sel = 0; sel < 8u; sel++) {
		ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET,
		               sel << D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB);
		if (sel < 6u) {
			assert_int_equal(rate(D1_CCU_CLK_RISCV), core[sel]);
			assert_int_equal(rate(D1_CCU_CLK_RISCV_AXI), core[sel]);
		} else {
			expect_rate_err(D1_CCU_CLK_RISCV, D1_ENOTSUP);
		}
	}
}

static void test_pll_cpu_1008_to_1200(void **state)
{
	uint64_t got = 0;
	uint64_t w;
	unsigned first_pll = 0;
	unsigned last_pll = 0;

	(void)state;
	ccu_model_preset_uboot(&cm);
	/* above the default ceiling (Linux's top OPP, 1008 MHz): refused */
	w = sim_writes();
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1200), &got), D1_ERANGE);
	assert_int_equal(sim_writes(), w);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(1200)), D1_OK);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1200), &got), D1_OK);
	assert_int_equal(got, MHZ(1200));
	/* the behaviour: the core ends at 1200 MHz, with its dividers, and
	 * never ran from an unlocked / ungated PLL on the way */
	assert_int_equal(cm.core_violations, 0);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(1200));
	assert_int_equal(rate(D1_CCU_CLK_RISCV_AXI), MHZ(600));
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_RISCV_CLK_OFFSET), 0x05000100u);
	assert_true(ccu_model_pll_locked(&cm, &cm.pll_cpu));
	/* the order: core parked on OSC24M first, restored last, after the lock
	 * and the settle time */
	assert_true(wl.n >= 5);
	assert_int_equal(wl.off[0], D1_CCU_RISCV_CLK_OFFSET);
	assert_int_equal(wl.val[0] & D1_CCU_RISCV_CLK_CLK_SRC_SEL_BITS, 0);
	assert_int_equal(wl.off[wl.n - 1], D1_CCU_RISCV_CLK_OFFSET);
	assert_int_equal(wl.val[wl.n - 1], 0x05000100u);
	for (unsigned i = 0; i < wl.n; i++) {
		if (wl.off[i] == D1_CCU_PLL_CPU_CTRL_OFFSET) {
			first_pll = first_pll == 0 ? i : first_pll;
			last_pll = i;
		}
	}
	assert_true(first_pll > 0 && last_pll < wl.n - 1);
	assert_true(wl.at[wl.n - 1] >= cm.pll_cpu.lock_at + US(D1_CCU_PLL_SETTLE_US));
	assert_int_equal(cm.riscv_clk_writes, 2);
	/* asking again is free */
	w = sim_writes();
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1200), &got), D1_OK);
	assert_int_equal(sim_writes(), w);
	/* and back down */
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1008), &got), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(1008));
	assert_int_equal(cm.core_violations, 0);
}

/* From U-Boot's PLL_CPU (0xF8002900 as read) the old
 * sequence wrote 0xC0000000 (EN | LDO with N = 1) before the new N. No write
 * may carry an N below 12, from U-Boot's state or from power-on (N = 1,
 * PLL off), up and down. */
static void test_pll_cpu_never_writes_illegal_n(void **state)
{
	static const uint64_t targets[] = {MHZ(1200), MHZ(288), MHZ(1008), MHZ(6144)};
	uint64_t got = 0;

	(void)state;
	ccu_model_preset_uboot(&cm);
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_PLL_CPU_CTRL_OFFSET), 0xF8002900u);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(24) * 256u), D1_OK);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(d1_ccu_set_pll_cpu(&ccu, targets[i], &got), D1_OK);
		assert_int_equal(got, targets[i]);
		assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), targets[i]);
	}
	assert_true(cm.pll_cpu_writes >= 16);
	assert_int_equal(cm.pll_range_violations, 0);
	assert_int_equal(cm.core_violations, 0);

	/* power-on state: PLL_CPU all zero (N field 0 = N 1), core on OSC24M */
	sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1008), &got), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(1008));
	assert_int_equal(cm.pll_range_violations, 0);
	assert_int_equal(cm.core_violations, 0);
}

/* The model's range check can fail. */
static void test_model_catches_illegal_pll_n(void **state)
{
	(void)state;
	ccu_model_preset_uboot(&cm);
	d1_mmio_write32(D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET, 0xE8002900u); /* N 42: ok */
	assert_int_equal(cm.pll_range_violations, 0);
	d1_mmio_write32(D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET, 0x00000A00u);  /* N 11, EN off */
	d1_mmio_write32(D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET, 0xC0000000u);  /* N 1 */
	d1_mmio_write32(D1_CCU_BASE + D1_CCU_PLL_PERI_CTRL_OFFSET, 0xE8210000u); /* PERI0 N 1 */
	assert_int_equal(cm.pll_range_violations, 3);
	assert_int_equal(cm.first_range_violation, 0x00000A00u);
}

static void test_pll_cpu_rounds_down_and_reports(void **state)
{
	uint64_t got = 0;
	uint64_t w;

	(void)state;
	ccu_model_preset_uboot(&cm);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(1200)), D1_OK);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1100), &got), D1_OK);
	assert_int_equal(got, MHZ(1080)); /* 45 * 24 MHz: never faster than asked */
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(1080));
	/* 1010 MHz is 1008 MHz: already there after this */
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1010), &got), D1_OK);
	assert_int_equal(got, MHZ(1008));
	w = sim_writes();
	got = 0;
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1008) + 1u, &got), D1_OK);
	assert_int_equal(sim_writes(), w);
	assert_int_equal(got, MHZ(1008)); /* reported on that path too */
	/* the minimum, N = 12 */
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(288), &got), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(288));
	assert_int_equal(cm.core_violations, 0);
	/* a PLL_CPU M left by firmware is cleared: the rate is OSC24M * N */
	ccu_model_poke(&cm, D1_CCU_PLL_CPU_CTRL_OFFSET, 0xE8002903u);
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(252));
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1008), &got), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(1008));
}

/* Negative control: the model does flag an unsafe sequence. */
static void test_model_catches_core_on_unlocked_pll(void **state)
{
	uintptr_t pll = D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET;
	uintptr_t core = D1_CCU_BASE + D1_CCU_RISCV_CLK_OFFSET;

	(void)state;
	ccu_model_preset_uboot(&cm);
	/* reprogram N while the core runs from it */
	d1_mmio_write32(pll, 0xE8003100u);
	assert_int_equal(cm.core_violations, 1);
	/* switch the core onto a PLL that has not locked yet */
	setup(NULL);
	d1_mmio_write32(pll, 0xE8002900u); /* enable: locks 50 us later */
	assert_int_equal(cm.core_violations, 0);
	d1_mmio_write32(core, 0x05000000u);
	assert_int_equal(cm.core_violations, 1);
	sim_advance(US(50));
	d1_mmio_write32(core, 0x05000000u);
	assert_int_equal(cm.core_violations, 1); /* locked now: fine */
	/* onto a disabled PERI0 */
	d1_mmio_write32(core, 0x04000000u);
	assert_int_equal(cm.core_violations, 2);
}

static void test_pll_lock_timeout_leaves_core_on_osc24m(void **state)
{
	uint64_t got = 0;
	uint64_t d0;

	(void)state;
	ccu_model_preset_uboot(&cm);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(1200)), D1_OK);
	cm.pll_cpu.never_lock = true;
	d0 = sim_delay_us_total();
	got = 12345u;
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1200), &got), D1_ETIMEDOUT);
	assert_int_equal(got, 12345u); /* no rate was achieved: left untouched */
	/* bounded */
	assert_true(sim_delay_us_total() - d0 >= D1_CCU_PLL_LOCK_TIMEOUT_US);
	assert_true(sim_delay_us_total() - d0 <=
	            D1_CCU_PLL_LOCK_TIMEOUT_US + D1_CCU_PLL_LOCK_POLL_US);
	/* the core is on the OSC24M, with its dividers, and was never on the
	 * unlocked PLL */
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_RISCV_CLK_OFFSET), 0x00000100u);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(24));
	assert_int_equal(cm.core_violations, 0);
	expect_rate_err(D1_CCU_CLK_PLL_CPU, D1_ESTATE); /* output gate left closed */
	/* fault gone: the next attempt succeeds from that state; the core is
	 * no longer on PLL_CPU, so RISCV_CLK is left alone */
	cm.pll_cpu.never_lock = false;
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1200), &got), D1_OK);
	assert_int_equal(got, MHZ(1200)); /* written on success */
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(1200));
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(24));
	assert_int_equal(cm.core_violations, 0);
}

static void test_pll_slow_lock_within_and_beyond_budget(void **state)
{
	uint64_t got = 0;

	(void)state;
	ccu_model_preset_uboot(&cm);
	cm.lock_ticks = US(D1_CCU_PLL_LOCK_TIMEOUT_US - 100u);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(480), &got), D1_OK);
	assert_int_equal(got, MHZ(480));
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(480));
	cm.lock_ticks = US(D1_CCU_PLL_LOCK_TIMEOUT_US + 100u);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(960), &got), D1_ETIMEDOUT);
	assert_int_equal(got, MHZ(480)); /* still the previous call's rate */
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(24));
	assert_int_equal(cm.core_violations, 0);
}

static void test_pll_change_when_core_is_elsewhere(void **state)
{
	uint64_t got = 0;

	(void)state;
	/* power-on: PLL off, core on OSC24M: the PLL is started, the core
	 * stays where it is */
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(1008), &got), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_PLL_CPU), MHZ(1008));
	assert_int_equal(cm.riscv_clk_writes, 0);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(24));
	/* core on PERI0(800M): not touched either */
	ccu_model_preset_uboot(&cm);
	ccu_model_poke(&cm, D1_CCU_RISCV_CLK_OFFSET, 0x03000000u);
	assert_int_equal(d1_ccu_set_pll_cpu(&ccu, MHZ(720), &got), D1_OK);
	assert_int_equal(cm.riscv_clk_writes, 0);
	assert_int_equal(rate(D1_CCU_CLK_RISCV), MHZ(800));
	assert_int_equal(cm.core_violations, 0);
}

static void test_uart_gate_then_reset_and_reverse(void **state)
{
	bool on = false;

	(void)state;
	ccu_model_preset_uboot(&cm); /* UART0 on */
	for (unsigned u = 1; u < D1_CCU_UART_COUNT; u++) {
		uint64_t crit = sim_critical_entries();
		unsigned n0 = cm.nlog;

		assert_int_equal(d1_ccu_uart_is_enabled(&ccu, u, &on), D1_OK);
		assert_false(on);
		assert_int_equal(d1_ccu_uart_enable(&ccu, u), D1_OK);
		assert_int_equal(cm.nlog, n0 + 2);
		assert_int_equal(cm.log[n0].bit, u);
		assert_int_equal(cm.log[n0].what, CCU_GATE_ON);
		assert_int_equal(cm.log[n0 + 1].bit, u);
		assert_int_equal(cm.log[n0 + 1].what, CCU_RST_DEASSERT);
		assert_int_equal(d1_ccu_uart_is_enabled(&ccu, u, &on), D1_OK);
		assert_true(on);
		assert_int_equal(sim_critical_entries(), crit + 1);
	}
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_UART_BGR_OFFSET), 0x003F003Fu);
	for (unsigned u = 1; u < D1_CCU_UART_COUNT; u++) {
		unsigned n0 = cm.nlog;

		assert_int_equal(d1_ccu_uart_disable(&ccu, u), D1_OK);
		assert_int_equal(cm.nlog, n0 + 2);
		assert_int_equal(cm.log[n0].what, CCU_RST_ASSERT);
		assert_int_equal(cm.log[n0 + 1].what, CCU_GATE_OFF);
		assert_int_equal(cm.log[n0 + 1].bit, u);
	}
	/* UART0 (the console) was never disturbed */
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_UART_BGR_OFFSET), 0x00010001u);
	assert_int_equal(cm.bgr_order_violations, 0);
	/* enabling an enabled UART changes nothing */
	assert_int_equal(d1_ccu_uart_enable(&ccu, 0), D1_OK);
	assert_int_equal(cm.bgr_order_violations, 0);
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_UART_BGR_OFFSET), 0x00010001u);
}

/* Negative control: the model flags the wrong orders. */
static void test_model_catches_bad_bgr_order(void **state)
{
	uintptr_t bgr = D1_CCU_BASE + D1_CCU_UART_BGR_OFFSET;

	(void)state;
	d1_mmio_write32(bgr, 0x00040004u); /* UART2 gate + reset in one write */
	assert_int_equal(cm.bgr_order_violations, 1);
	d1_mmio_write32(bgr, 0x00040000u); /* gate closed under a live block */
	assert_int_equal(cm.bgr_order_violations, 2);
	d1_mmio_write32(bgr, 0x00000000u);
	d1_mmio_write32(bgr, 0x00080000u); /* reset released without a clock */
	assert_int_equal(cm.bgr_order_violations, 3);
}

/* Every gate/reset pair of the 39 *_BGR registers through
 * one function family. Per row, from all-off: enable opens the gate, then
 * releases the reset (the model logs the order; no violation), touches only
 * that pair, and is_enabled says so; from all-on: disable asserts the reset,
 * then closes the gate, again only that pair. The rows cover every *_BGR
 * register the model knows (from the SVD) and no pair twice. */
static void test_bus_every_row_in_order(void **state)
{
	static uint32_t seen_off[D1_CCU_BUS_COUNT];
	static uint8_t seen_bit[D1_CCU_BUS_COUNT];
	unsigned distinct_regs = 0;

	(void)state;
	for (unsigned b = 0; b < D1_CCU_BUS_COUNT; b++) {
		const enum d1_ccu_bus bus = (enum d1_ccu_bus)b;
		unsigned n0;
		uint32_t off;
		uint32_t before;
		uint32_t changed;
		bool on = true;
		bool gate = false;
		bool rst = false;

		sim_reset();
		ccu_model_init(&cm, D1_CCU_BASE);
		assert_int_equal(d1_ccu_bus_is_enabled(&ccu, bus, &on), D1_OK);
		assert_false(on);
		assert_int_equal(d1_ccu_bus_enable(&ccu, bus), D1_OK);
		assert_int_equal(d1_ccu_bus_is_enabled(&ccu, bus, &on), D1_OK);
		assert_true(on);
		assert_true(cm.nlog >= 1 && cm.nlog <= 2);
		off = cm.log[0].off;
		seen_off[b] = off;
		seen_bit[b] = cm.log[0].bit;
		for (unsigned i = 0; i < cm.nlog; i++) {
			assert_int_equal(cm.log[i].off, off);
			assert_int_equal(cm.log[i].bit, cm.log[0].bit);
			gate |= cm.log[i].what == CCU_GATE_ON;
			rst |= cm.log[i].what == CCU_RST_DEASSERT;
		}
		if (gate && rst) { /* gate first, and in two writes */
			assert_int_equal(cm.log[0].what, CCU_GATE_ON);
			assert_int_equal(cm.log[1].what, CCU_RST_DEASSERT);
			assert_true(cm.bgr_writes == 2);
		}
		changed = ccu_model_peek(&cm, off);
		assert_int_equal(changed & ~((1u << seen_bit[b]) | (1u << (16u + seen_bit[b]))), 0);

		/* from all-on: only this pair goes off, reset first */
		ccu_model_poke(&cm, off, 0xFFFFFFFFu);
		before = ccu_model_peek(&cm, off);
		n0 = cm.nlog;
		if (bus == D1_CCU_BUS_DRAM || bus == D1_CCU_BUS_RISCV_CFG) {
			SIM_EXPECT_NO_WRITE(d1_ccu_bus_disable(&ccu, bus), D1_EBUSY);
			continue;
		}
		assert_int_equal(d1_ccu_bus_disable(&ccu, bus), D1_OK);
		assert_int_equal(d1_ccu_bus_is_enabled(&ccu, bus, &on), D1_OK);
		assert_false(on);
		assert_int_equal(before ^ ccu_model_peek(&cm, off), changed);
		if (gate && rst) {
			assert_int_equal(cm.nlog - n0, 2);
			assert_int_equal(cm.log[n0].what, CCU_RST_ASSERT);
			assert_int_equal(cm.log[n0 + 1].what, CCU_GATE_OFF);
		}
		assert_int_equal(cm.bgr_order_violations, 0);
		assert_int_equal(cm.bgr_reserved_changes, 0);
	}
	for (unsigned b = 0; b < D1_CCU_BUS_COUNT; b++) {
		bool first = true;
		for (unsigned a = 0; a < b; a++) {
			/* no two rows drive the same pair */
			assert_false(seen_off[a] == seen_off[b] && seen_bit[a] == seen_bit[b]);
			first &= seen_off[a] != seen_off[b];
		}
		distinct_regs += first;
	}
	assert_int_equal(distinct_regs, ccu_model_bgr_count());
	assert_int_equal(distinct_regs, 39);
	/* the UART wrappers are rows UART0..5 of the same table */
	assert_int_equal(seen_off[D1_CCU_BUS_UART3], D1_CCU_UART_BGR_OFFSET);
	assert_int_equal(seen_bit[D1_CCU_BUS_UART3], 3);
}

/* The generic order check of the model can fail, on a register other than
 * UART_BGR. */
static void test_model_catches_bad_bgr_order_any_register(void **state)
{
	const uintptr_t smhc = D1_CCU_BASE + 0x84Cu; /* SVD smhc_bgr */

	(void)state;
	d1_mmio_write32(smhc, 1u << 17); /* SMHC1 reset released, gate closed */
	assert_int_equal(cm.bgr_order_violations, 1);
	d1_mmio_write32(smhc, (1u << 17) | (1u << 1) | (1u << 2) | (1u << 18)); /* SMHC2 at once */
	assert_int_equal(cm.bgr_order_violations, 2);
	d1_mmio_write32(smhc, (1u << 17) | (1u << 18) | (1u << 2)); /* SMHC1 gate cut while live */
	assert_int_equal(cm.bgr_order_violations, 3);
	d1_mmio_write32(smhc, 1u << 30); /* a bit the SVD does not list */
	assert_int_equal(cm.bgr_reserved_changes, 1);
}

static void test_apb1_config_no_glitch(void **state)
{
	uint32_t hz = 0;
	uint32_t uhz = 0;

	(void)state;
	ccu_model_preset_uboot(&cm);
	/* 24 MHz -> PERI0(1X) / 6 = 100 MHz: the faster source comes last */
	assert_int_equal(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PERI0_1X, 6, 0, &hz), D1_OK);
	assert_int_equal(hz, 100000000u);
	assert_int_equal(ccu_model_apb1_hz(&cm), MHZ(100));
	assert_int_equal(d1_ccu_uart_clock_hz(&ccu, 3, &uhz), D1_OK);
	assert_int_equal(uhz, 100000000u);
	assert_true(cm.apb1_max_hz <= MHZ(100));
	/* 100 MHz -> 24 MHz: the source changes first */
	assert_int_equal(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_OSC24M, 1, 0, &hz), D1_OK);
	assert_int_equal(hz, 24000000u);
	assert_int_equal(ccu_model_apb1_hz(&cm), MHZ(24));
	assert_true(cm.apb1_max_hz <= MHZ(100));
	/* PSI / 1 / 2 = 50 MHz; LOSC / 1 / 1 */
	assert_int_equal(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PSI, 1, 1, &hz), D1_OK);
	assert_int_equal(hz, 50000000u);
	assert_int_equal(ccu_model_apb1_hz(&cm), MHZ(50));
	assert_int_equal(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_LOSC, 1, 0, NULL), D1_OK);
	assert_int_equal(rate(D1_CCU_CLK_APB1), 32768);
	assert_true(cm.apb1_max_hz <= MHZ(100));
	/* the other bits of the register are kept */
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET, 0x00800000u | 0x01000000u);
	assert_int_equal(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_OSC24M, 2, 0, &hz), D1_OK);
	assert_int_equal(ccu_model_peek(&cm, D1_CCU_APB1_CLK_OFFSET), 0x00800001u);
	assert_int_equal(hz, 12000000u);
}

/* Negative control: the glitch check can fail. */
static void test_model_catches_apb1_glitch(void **state)
{
	uintptr_t apb1 = D1_CCU_BASE + D1_CCU_APB1_CLK_OFFSET;

	(void)state;
	ccu_model_preset_uboot(&cm);
	d1_mmio_write32(apb1, 0x03000005u); /* PERI0(1X) / 6 */
	d1_mmio_write32(apb1, 0x03000000u); /* dividers first: 600 MHz */
	d1_mmio_write32(apb1, 0x00000000u);
	assert_int_equal(cm.apb1_max_hz, MHZ(600));
}

static void test_invalid_inputs_write_nothing(void **state)
{
	struct d1_ccu c;
	struct d1_ccu bad = {.base = 0, .osc24m_hz = D1_OSC24M_HZ};
	uint64_t hz;
	uint32_t uhz;
	bool on;

	(void)state;
	ccu_model_preset_uboot(&cm);
	SIM_EXPECT_NO_WRITE(d1_ccu_init(NULL, D1_CCU_BASE, D1_OSC24M_HZ), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_init(&c, 0, D1_OSC24M_HZ), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_init(&c, D1_CCU_BASE, 0), D1_EINVAL);
	/* An unaligned base was accepted */
	SIM_EXPECT_NO_WRITE(d1_ccu_init(&c, D1_CCU_BASE + 2u, D1_OSC24M_HZ), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_init(&c, 3u, D1_OSC24M_HZ), D1_EINVAL);
	c = ccu;
	c.base = D1_CCU_BASE + 1u; /* a handle filled by hand */
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_enable(&c, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(&c, D1_CCU_CLK_APB1, &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&c, MHZ(1008), NULL), D1_EINVAL);
	assert_int_equal(sim_unmapped(), 0);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(&ccu, (enum d1_ccu_clk)D1_CCU_CLK_COUNT, &hz),
	                    D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(&ccu, (enum d1_ccu_clk) - 1, &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(&ccu, D1_CCU_CLK_APB1, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(NULL, D1_CCU_CLK_APB1, &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_get_rate(&bad, D1_CCU_CLK_APB1, &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_clock_hz(&ccu, 6, &uhz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_clock_hz(&ccu, 0, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_clock_hz(NULL, 0, &uhz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_enable(&ccu, 6), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_enable(NULL, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_disable(&ccu, 6), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_disable(&bad, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_is_enabled(&ccu, 6, &on), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_uart_is_enabled(&ccu, 0, NULL), D1_EINVAL);
	/* bus gates */
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_enable(NULL, D1_CCU_BUS_DE), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_enable(&bad, D1_CCU_BUS_DE), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_enable(&ccu, (enum d1_ccu_bus)D1_CCU_BUS_COUNT), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_enable(&ccu, (enum d1_ccu_bus) - 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_disable(NULL, D1_CCU_BUS_DE), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_disable(&ccu, (enum d1_ccu_bus)D1_CCU_BUS_COUNT), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_disable(&ccu, D1_CCU_BUS_DRAM), D1_EBUSY);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_disable(&ccu, D1_CCU_BUS_RISCV_CFG), D1_EBUSY);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_is_enabled(&ccu, D1_CCU_BUS_DE, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_bus_is_enabled(NULL, D1_CCU_BUS_DE, &on), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(
	        d1_ccu_bus_is_enabled(&ccu, (enum d1_ccu_bus)(D1_CCU_BUS_COUNT + 7u), &on),
	        D1_EINVAL);
	/* APB1 */
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(NULL, D1_CCU_APB_SRC_OSC24M, 1, 0, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, (enum d1_ccu_apb_src)4, 1, 0, NULL),
	                    D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_OSC24M, 0, 0, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_OSC24M, 33, 0, NULL),
	                    D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_OSC24M, 1, 4, NULL), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PERI0_1X, 1, 0, NULL),
	                    D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PERI0_1X, 5, 0, NULL),
	                    D1_ERANGE);
	ccu_model_poke(&cm, D1_CCU_PLL_PERI_CTRL_OFFSET, 0x00216300u); /* PERI0 off */
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PERI0_1X, 6, 0, NULL),
	                    D1_ESTATE);
	SIM_EXPECT_NO_WRITE(d1_ccu_apb1_config(&ccu, D1_CCU_APB_SRC_PSI, 1, 0, NULL), D1_ESTATE);
	ccu_model_preset_uboot(&cm);
	/* PLL_CPU; achieved_hz is left untouched on every error */
	hz = 7u;
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(NULL, MHZ(1008), &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&bad, MHZ(1008), &hz), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&ccu, 0, &hz), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&ccu, MHZ(288) - 1u, &hz), D1_ERANGE); /* N = 11 */
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&ccu, MHZ(1032), &hz), D1_ERANGE); /* > ceiling */
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&ccu, UINT64_MAX, &hz), D1_ERANGE);
	assert_int_equal(hz, 7u);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_cpu_limit(NULL, MHZ(1200)), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_ccu_set_cpu_limit(&ccu, MHZ(287)), D1_ERANGE);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(288)), D1_OK); /* N = 12, the lowest */
	SIM_EXPECT_NO_WRITE(d1_ccu_set_cpu_limit(&ccu, MHZ(24) * 256u + 1u), D1_ERANGE);
	assert_int_equal(d1_ccu_set_cpu_limit(&ccu, MHZ(24) * 256u), D1_OK);
	/* beyond what the PLL can produce (N > 256) even with no ceiling */
	SIM_EXPECT_NO_WRITE(d1_ccu_set_pll_cpu(&ccu, MHZ(24) * 257u, &hz), D1_ERANGE);
	assert_int_equal(cm.core_violations, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	        T(test_decode_uboot_defaults),
	        T(test_decode_variants),
	        T(test_every_source_mux_value),
	        T(test_pll_cpu_1008_to_1200),
	        T(test_pll_cpu_never_writes_illegal_n),
	        T(test_model_catches_illegal_pll_n),
	        T(test_pll_cpu_rounds_down_and_reports),
	        T(test_model_catches_core_on_unlocked_pll),
	        T(test_pll_lock_timeout_leaves_core_on_osc24m),
	        T(test_pll_slow_lock_within_and_beyond_budget),
	        T(test_pll_change_when_core_is_elsewhere),
	        T(test_uart_gate_then_reset_and_reverse),
	        T(test_model_catches_bad_bgr_order),
	        T(test_bus_every_row_in_order),
	        T(test_model_catches_bad_bgr_order_any_register),
	        T(test_apb1_config_no_glitch),
	        T(test_model_catches_apb1_glitch),
	        T(test_invalid_inputs_write_nothing),
	};
	return cmocka_run_group_tests_name("ccu", tests, NULL, NULL);
}
