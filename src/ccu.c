/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 CCU driver: rate decoding, APB1, PLL_CPU change. Bus gates and resets
 * are in ccu_bus.c (their own object).
 * Hardware facts with their sources: docs/clocks-and-watchdog.md "CCU";
 * each place that depends on one says so.
 */
#include "d1/ccu.h"

#include <stddef.h>

#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/port.h"

/* A poll of 0 would never advance the lock wait's count (ccu.h lets a build
 * override both with -D). */
_Static_assert(D1_CCU_PLL_LOCK_POLL_US > 0u &&
                       D1_CCU_PLL_LOCK_POLL_US <= D1_CCU_PLL_LOCK_TIMEOUT_US,
               "D1_CCU_PLL_LOCK_POLL_US must be 1..D1_CCU_PLL_LOCK_TIMEOUT_US");

static uintptr_t reg(const struct d1_ccu *c, uint32_t off)
{
	return c->base + off;
}

static uint32_t rd(const struct d1_ccu *c, uint32_t off)
{
	return d1_mmio_read32(reg(c, off));
}

static uint32_t field(uint32_t v, uint32_t bits, unsigned lsb)
{
	return (v & bits) >> lsb;
}

/* A register base is non-zero and 4-byte aligned (every access is a 32-bit
 * one, mmio.h). */
static bool base_ok(uintptr_t base)
{
	return base != 0u && (base & 3u) == 0u;
}

static bool valid(const struct d1_ccu *c)
{
	return c != NULL && base_ok(c->base) && c->osc24m_hz != 0u;
}

d1_err_t d1_ccu_init(struct d1_ccu *c, uintptr_t base, uint32_t osc24m_hz)
{
	if (c == NULL || !base_ok(base) || osc24m_hz == 0u) {
		return D1_EINVAL;
	}
	*c = (struct d1_ccu){
	        .base = base,
	        .osc24m_hz = osc24m_hz,
	        .losc_hz = D1_LOSC_HZ,
	        .iosc_hz = D1_CCU_IOSC_HZ,
	        .cpu_max_hz = D1_CCU_PLL_CPU_MAX_HZ_DEFAULT,
	};
	return D1_OK;
}

d1_err_t d1_ccu_set_cpu_limit(struct d1_ccu *c, uint64_t max_hz)
{
	if (!valid(c)) {
		return D1_EINVAL;
	}
	if (max_hz < (uint64_t)c->osc24m_hz * D1_CCU_PLL_CPU_N_MIN ||
	    max_hz > (uint64_t)c->osc24m_hz * D1_CCU_PLL_CPU_N_MAX) {
		return D1_ERANGE;
	}
	c->cpu_max_hz = max_hz;
	return D1_OK;
}

/* --- rate decoding --- */

/* The oscillator mux values are the same in PSI_CLK, RISCV_CLK and (for
 * OSC24M, LOSC) APBn_CLK: 0 OSC24M, 1 LOSC, 2 IOSC (SVD psi_clk, riscv_clk,
 * apb%s_clk); enum d1_ccu_clk numbers the three oscillators the same way. */
_Static_assert(D1_CCU_PSI_SRC_OSC24M == 0u && D1_CCU_PSI_SRC_LOSC == 1u &&
                       D1_CCU_PSI_SRC_IOSC == 2u,
               "PSI oscillator mux values");
_Static_assert(D1_CCU_RISCV_SRC_OSC24M == D1_CCU_PSI_SRC_OSC24M &&
                       D1_CCU_RISCV_SRC_LOSC == D1_CCU_PSI_SRC_LOSC &&
                       D1_CCU_RISCV_SRC_IOSC == D1_CCU_PSI_SRC_IOSC,
               "RISCV oscillator mux values");
_Static_assert(D1_CCU_APB_SRC_OSC24M == D1_CCU_PSI_SRC_OSC24M &&
                       D1_CCU_APB_SRC_LOSC == D1_CCU_PSI_SRC_LOSC,
               "APB oscillator mux values");
_Static_assert(D1_CCU_CLK_OSC24M == D1_CCU_PSI_SRC_OSC24M &&
                       D1_CCU_CLK_LOSC == D1_CCU_PSI_SRC_LOSC &&
                       D1_CCU_CLK_IOSC == D1_CCU_PSI_SRC_IOSC,
               "enum d1_ccu_clk oscillator values");

/* Rate of oscillator mux value @sel (<= D1_CCU_PSI_SRC_IOSC, see above). */
static uint64_t osc_rate(const struct d1_ccu *c, uint32_t sel)
{
	switch (sel) {
	case D1_CCU_PSI_SRC_OSC24M:
		return c->osc24m_hz;
	case D1_CCU_PSI_SRC_LOSC:
		return c->losc_hz;
	default:
		return c->iosc_hz;
	}
}

/* PLL_CPU = OSC24M * N / M (docs/clocks-and-watchdog.md "CCU"; SVD pll_n
 * [15:8], pll_m [1:0]).
 * No clock unless EN and the output gate are set. */
static d1_err_t rate_pll_cpu(const struct d1_ccu *c, uint64_t *hz)
{
	uint32_t v = rd(c, D1_CCU_PLL_CPU_CTRL_OFFSET);
	uint64_t n = field(v, D1_CCU_PLL_CPU_CTRL_N_BITS, D1_CCU_PLL_CPU_CTRL_N_LSB) + 1u;
	uint64_t m = field(v, D1_CCU_PLL_CPU_CTRL_M_BITS, D1_CCU_PLL_CPU_CTRL_M_LSB) + 1u;

	if ((v & D1_CCU_PLL_CPU_CTRL_EN_BITS) == 0u ||
	    (v & D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_BITS) == 0u) {
		return D1_ESTATE;
	}
	*hz = (uint64_t)c->osc24m_hz * n / m;
	return D1_OK;
}

/* PLL_PERI0: 4X = OSC24M * N / M, 2X = 4X / P0, 1X = 2X / 2, 800M = 4X / P1
 * (docs/clocks-and-watchdog.md "CCU"; Linux ccu-sun20i-d1.c). @out selects
 * the output. */
static d1_err_t rate_peri0(const struct d1_ccu *c, enum d1_ccu_clk out, uint64_t *hz)
{
	uint32_t v = rd(c, D1_CCU_PLL_PERI_CTRL_OFFSET);
	uint64_t n = field(v, D1_CCU_PLL_PERI_CTRL_N_BITS, D1_CCU_PLL_PERI_CTRL_N_LSB) + 1u;
	uint64_t m = field(v, D1_CCU_PLL_PERI_CTRL_INPUT_DIV2_BITS,
	                   D1_CCU_PLL_PERI_CTRL_INPUT_DIV2_LSB) +
	             1u;
	uint64_t p0 = field(v, D1_CCU_PLL_PERI_CTRL_P0_BITS, D1_CCU_PLL_PERI_CTRL_P0_LSB) + 1u;
	uint64_t p1 = field(v, D1_CCU_PLL_PERI_CTRL_P1_BITS, D1_CCU_PLL_PERI_CTRL_P1_LSB) + 1u;
	uint64_t x4;

	if ((v & D1_CCU_PLL_PERI_CTRL_EN_BITS) == 0u ||
	    (v & D1_CCU_PLL_PERI_CTRL_OUTPUT_GATE_BITS) == 0u) {
		return D1_ESTATE;
	}
	x4 = (uint64_t)c->osc24m_hz * n;
	switch (out) {
	case D1_CCU_CLK_PERI0_4X:
		*hz = x4 / m;
		break;
	case D1_CCU_CLK_PERI0_2X:
		*hz = x4 / (m * p0);
		break;
	case D1_CCU_CLK_PERI0_800M:
		*hz = x4 / (m * p1);
		break;
	default: /* 1X */
		*hz = x4 / (m * p0 * 2u);
		break;
	}
	return D1_OK;
}

/* PSI = src / M / 2^N; mux 0 OSC24M, 1 LOSC, 2 IOSC, 3 PERI0(1X) (SVD psi_clk). */
static d1_err_t rate_psi(const struct d1_ccu *c, uint64_t *hz)
{
	uint32_t v = rd(c, D1_CCU_PSI_CLK_OFFSET);
	uint32_t sel = field(v, D1_CCU_PSI_CLK_CLK_SRC_SEL_BITS, D1_CCU_PSI_CLK_CLK_SRC_SEL_LSB);
	uint64_t in;

	if (sel <= D1_CCU_PSI_SRC_IOSC) {
		in = osc_rate(c, sel);
	} else {
		d1_err_t e = rate_peri0(c, D1_CCU_CLK_PERI0_1X, &in);
		if (e != D1_OK) {
			return e;
		}
	}
	*hz = (in / (field(v, D1_CCU_PSI_CLK_M_BITS, D1_CCU_PSI_CLK_M_LSB) + 1u)) >>
	      field(v, D1_CCU_PSI_CLK_N_BITS, D1_CCU_PSI_CLK_N_LSB);
	return D1_OK;
}

/* Rate an APB mux value selects: 0 OSC24M, 1 LOSC, 2 PSI, 3 PERI0(1X). */
static d1_err_t apb_parent(const struct d1_ccu *c, unsigned src, uint64_t *hz)
{
	switch (src) {
	case D1_CCU_APB_SRC_OSC24M:
	case D1_CCU_APB_SRC_LOSC:
		*hz = osc_rate(c, src);
		return D1_OK;
	case D1_CCU_APB_SRC_PSI:
		return rate_psi(c, hz);
	default:
		return rate_peri0(c, D1_CCU_CLK_PERI0_1X, hz);
	}
}

static uint64_t apb_divide(uint64_t in, unsigned m, unsigned p)
{
	return (in / m) >> p;
}

/* APBn = src / M / 2^N (SVD apb%s_clk). */
static d1_err_t rate_apb(const struct d1_ccu *c, uint32_t off, uint64_t *hz)
{
	uint32_t v = rd(c, off);
	uint64_t in;
	d1_err_t e = apb_parent(
	        c, field(v, D1_CCU_APB_CLK_CLK_SRC_SEL_BITS, D1_CCU_APB_CLK_CLK_SRC_SEL_LSB), &in);

	if (e != D1_OK) {
		return e;
	}
	*hz = apb_divide(in, field(v, D1_CCU_APB_CLK_M_BITS, D1_CCU_APB_CLK_M_LSB) + 1u,
	                 field(v, D1_CCU_APB_CLK_N_BITS, D1_CCU_APB_CLK_N_LSB));
	return D1_OK;
}

/* Core = src / M; AXI = core / N (SVD riscv_clk; Linux riscv / riscv-axi). */
static d1_err_t rate_riscv(const struct d1_ccu *c, bool axi, uint64_t *hz)
{
	uint32_t v = rd(c, D1_CCU_RISCV_CLK_OFFSET);
	uint32_t sel =
	        field(v, D1_CCU_RISCV_CLK_CLK_SRC_SEL_BITS, D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB);
	uint64_t in;
	d1_err_t e = D1_OK;

	switch (sel) {
	case D1_CCU_RISCV_SRC_OSC24M:
	case D1_CCU_RISCV_SRC_LOSC:
	case D1_CCU_RISCV_SRC_IOSC:
		in = osc_rate(c, sel);
		break;
	case D1_CCU_RISCV_SRC_PERI0_800M:
		e = rate_peri0(c, D1_CCU_CLK_PERI0_800M, &in);
		break;
	case D1_CCU_RISCV_SRC_PERI0_1X:
		e = rate_peri0(c, D1_CCU_CLK_PERI0_1X, &in);
		break;
	case D1_CCU_RISCV_SRC_PLL_CPU:
		e = rate_pll_cpu(c, &in);
		break;
	default: /* PLL_AUDIO1(DIV2) or reserved */
		return D1_ENOTSUP;
	}
	if (e != D1_OK) {
		return e;
	}
	in /= field(v, D1_CCU_RISCV_CLK_DIV_CFG_BITS, D1_CCU_RISCV_CLK_DIV_CFG_LSB) + 1u;
	if (axi) {
		in /= field(v, D1_CCU_RISCV_CLK_AXI_DIV_CFG_BITS,
		            D1_CCU_RISCV_CLK_AXI_DIV_CFG_LSB) +
		      1u;
	}
	*hz = in;
	return D1_OK;
}

d1_err_t d1_ccu_get_rate(const struct d1_ccu *c, enum d1_ccu_clk clk, uint64_t *hz)
{
	uint64_t r = 0;
	d1_err_t e;

	if (hz == NULL) {
		return D1_EINVAL;
	}
	*hz = 0;
	if (!valid(c)) {
		return D1_EINVAL;
	}
	switch (clk) {
	case D1_CCU_CLK_OSC24M:
	case D1_CCU_CLK_LOSC:
	case D1_CCU_CLK_IOSC:
		r = osc_rate(c, (uint32_t)clk);
		e = D1_OK;
		break;
	case D1_CCU_CLK_PLL_CPU:
		e = rate_pll_cpu(c, &r);
		break;
	case D1_CCU_CLK_PERI0_4X:
	case D1_CCU_CLK_PERI0_2X:
	case D1_CCU_CLK_PERI0_1X:
	case D1_CCU_CLK_PERI0_800M:
		e = rate_peri0(c, clk, &r);
		break;
	case D1_CCU_CLK_PSI_AHB:
		e = rate_psi(c, &r);
		break;
	case D1_CCU_CLK_APB0:
		e = rate_apb(c, D1_CCU_APB0_CLK_OFFSET, &r);
		break;
	case D1_CCU_CLK_APB1:
		e = rate_apb(c, D1_CCU_APB1_CLK_OFFSET, &r);
		break;
	case D1_CCU_CLK_RISCV:
		e = rate_riscv(c, false, &r);
		break;
	case D1_CCU_CLK_RISCV_AXI:
		e = rate_riscv(c, true, &r);
		break;
	default:
		return D1_EINVAL;
	}
	if (e == D1_OK) {
		*hz = r;
	}
	return e;
}

/* --- UART input clock (the gates are in ccu_bus.c) --- */

d1_err_t d1_ccu_uart_clock_hz(const struct d1_ccu *c, unsigned uart, uint32_t *hz)
{
	uint64_t r;
	d1_err_t e;

	if (hz == NULL) {
		return D1_EINVAL;
	}
	*hz = 0;
	if (!valid(c) || uart >= D1_CCU_UART_COUNT) {
		return D1_EINVAL;
	}
	/* Every UART is clocked from APB1 (docs/hardware-facts.md "CCU": Linux
	 * ccu-sun20i-d1.c parents bus-uartN on apb1). */
	e = d1_ccu_get_rate(c, D1_CCU_CLK_APB1, &r);
	if (e != D1_OK) {
		return e;
	}
	if (r > UINT32_MAX) {
		return D1_ERANGE;
	}
	*hz = (uint32_t)r;
	return D1_OK;
}

/* --- APB1 --- */

d1_err_t d1_ccu_apb1_config(const struct d1_ccu *c, enum d1_ccu_apb_src src, unsigned div_m,
                            unsigned div_p_log2, uint32_t *hz)
{
	const uint32_t divs = D1_CCU_APB_CLK_M_BITS | D1_CCU_APB_CLK_N_BITS;
	uint64_t in;
	uint64_t old_in = 0;
	uint64_t rate;
	uint32_t old;
	uint32_t new_div;
	uint32_t new_src;
	d1_err_t e;

	if (!valid(c) || (unsigned)src > D1_CCU_APB_SRC_PERI0_1X || div_m < 1u || div_m > 32u ||
	    div_p_log2 > 3u) {
		return D1_EINVAL;
	}
	e = apb_parent(c, (unsigned)src, &in);
	if (e != D1_OK) {
		return e;
	}
	rate = apb_divide(in, div_m, div_p_log2);
	if (rate > D1_CCU_APB_MAX_HZ) {
		return D1_ERANGE;
	}
	old = rd(c, D1_CCU_APB1_CLK_OFFSET);
	if (apb_parent(c,
	               field(old, D1_CCU_APB_CLK_CLK_SRC_SEL_BITS, D1_CCU_APB_CLK_CLK_SRC_SEL_LSB),
	               &old_in) != D1_OK) {
		old_in = 0; /* the old source gives no clock: anything is faster */
	}
	new_div = ((uint32_t)(div_m - 1u) << D1_CCU_APB_CLK_M_LSB) |
	          ((uint32_t)div_p_log2 << D1_CCU_APB_CLK_N_LSB);
	new_src = (uint32_t)src << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB;
	/* The intermediate setting is old-source/new-dividers when the new
	 * source is faster (<= new rate), new-source/old-dividers otherwise
	 * (<= old rate): never above both. */
	if (in > old_in) {
		d1_mmio_write32(reg(c, D1_CCU_APB1_CLK_OFFSET), (old & ~divs) | new_div);
	} else {
		d1_mmio_write32(reg(c, D1_CCU_APB1_CLK_OFFSET),
		                (old & ~D1_CCU_APB_CLK_CLK_SRC_SEL_BITS) | new_src);
	}
	d1_mmio_write32(reg(c, D1_CCU_APB1_CLK_OFFSET),
	                (old & ~(divs | D1_CCU_APB_CLK_CLK_SRC_SEL_BITS)) | new_div | new_src);
	if (hz != NULL) {
		*hz = (uint32_t)rate;
	}
	return D1_OK;
}

/* --- PLL_CPU --- */

d1_err_t d1_ccu_set_pll_cpu(const struct d1_ccu *c, uint64_t hz, uint64_t *achieved_hz)
{
	const uint32_t ready = D1_CCU_PLL_CPU_CTRL_EN_BITS | D1_CCU_PLL_CPU_CTRL_LOCK_ENABLE_BITS |
	                       D1_CCU_PLL_CPU_CTRL_LOCK_BITS | D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_BITS;
	uintptr_t pll;
	uintptr_t core;
	uint64_t n;
	uint64_t rate;
	uint32_t v;
	uint32_t clk;
	uint32_t nf;
	uint32_t cfg;
	bool on_pll;

	if (!valid(c)) {
		return D1_EINVAL;
	}
	n = hz / c->osc24m_hz; /* never faster than asked */
	rate = n * c->osc24m_hz;
	if (n < D1_CCU_PLL_CPU_N_MIN || n > D1_CCU_PLL_CPU_N_MAX || rate > c->cpu_max_hz) {
		return D1_ERANGE;
	}
	nf = (uint32_t)(n - 1u) << D1_CCU_PLL_CPU_CTRL_N_LSB;
	pll = reg(c, D1_CCU_PLL_CPU_CTRL_OFFSET);
	core = reg(c, D1_CCU_RISCV_CLK_OFFSET);
	v = d1_mmio_read32(pll);
	if ((v & ready) == ready &&
	    (v & (D1_CCU_PLL_CPU_CTRL_N_BITS | D1_CCU_PLL_CPU_CTRL_M_BITS)) == nf) {
		if (achieved_hz != NULL) {
			*achieved_hz = rate;
		}
		return D1_OK; /* already there, locked and gated */
	}
	clk = d1_mmio_read32(core);
	on_pll = field(clk, D1_CCU_RISCV_CLK_CLK_SRC_SEL_BITS, D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB) ==
	         D1_CCU_RISCV_SRC_PLL_CPU;
	if (on_pll) {
		/* The core must never run from a PLL that is being changed:
		 * park it on the always-running 24 MHz OSC24M (field value 0,
		 * OR'd in to name it). */
		// cppcheck-suppress badBitmaskCheck
		d1_mmio_write32(core, (clk & ~D1_CCU_RISCV_CLK_CLK_SRC_SEL_BITS) |
		                              (D1_CCU_RISCV_SRC_OSC24M
		                               << D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB));
	}
	/* U-Boot order: lock detector and output off, program N with
	 * EN|LDO, lock detector on, poll LOCK, settle, output on. M = 1.
	 * Every write carries a legal N (>= D1_CCU_PLL_CPU_N_MIN): the new N
	 * goes in with the first write, never a cleared field (N = 1), and
	 * the old N (possibly the reset value) is never written back. */
	cfg = (v & ~(D1_CCU_PLL_CPU_CTRL_N_BITS | D1_CCU_PLL_CPU_CTRL_M_BITS |
	             D1_CCU_PLL_CPU_CTRL_LOCK_ENABLE_BITS | D1_CCU_PLL_CPU_CTRL_LOCK_BITS |
	             D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_BITS)) |
	      nf;
	d1_mmio_write32(pll, cfg);
	cfg |= D1_CCU_PLL_CPU_CTRL_EN_BITS | D1_CCU_PLL_CPU_CTRL_LDO_EN_BITS;
	d1_mmio_write32(pll, cfg);
	cfg |= D1_CCU_PLL_CPU_CTRL_LOCK_ENABLE_BITS;
	d1_mmio_write32(pll, cfg);
	/* 64-bit: with the tunables at their limits the count of requested
	 * delays cannot wrap below the budget (tests/test_ccu_tunables.c). */
	for (uint64_t waited = 0;; waited += D1_CCU_PLL_LOCK_POLL_US) {
		if ((d1_mmio_read32(pll) & D1_CCU_PLL_CPU_CTRL_LOCK_BITS) != 0u) {
			break;
		}
		if (waited >= D1_CCU_PLL_LOCK_TIMEOUT_US) {
			return D1_ETIMEDOUT; /* core stays on the OSC24M */
		}
		d1_port_delay_us(D1_CCU_PLL_LOCK_POLL_US);
	}
	d1_port_delay_us(D1_CCU_PLL_SETTLE_US);
	d1_mmio_write32(pll, cfg | D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_BITS);
	if (on_pll) {
		d1_mmio_write32(core, clk); /* back, with the original dividers */
	}
	/* Reported only now: on D1_ETIMEDOUT nothing runs at this rate. */
	if (achieved_hz != NULL) {
		*achieved_hz = rate;
	}
	return D1_OK;
}
