/* SPDX-License-Identifier: Apache-2.0 */
#include "ccu_model.h"

#include <stddef.h>
#include <string.h>

#define OSC24M 24000000ull
#define LOSC   32768ull
#define IOSC   16000000ull

#define PLL_EN      (1u << 31)
#define PLL_LOCK_EN (1u << 29)
#define PLL_LOCK    (1u << 28)
#define PLL_GATE    (1u << 27)
#define PLL_FACTORS 0xFF03u /* N [15:8], M [1:0] (PERI0: bit 1) */

#define OFF_PLL_CPU   0x000u
#define OFF_PLL_PERI0 0x020u
#define OFF_PSI       0x510u
#define OFF_APB1      0x524u
#define OFF_RISCV_CLK 0xD00u

bool ccu_model_pll_locked(const struct ccu_model *m, const struct ccu_model_pll *p)
{
	uint32_t v = m->regs[p->off / 4];

	return (v & PLL_EN) != 0 && (v & PLL_LOCK_EN) != 0 && !p->never_lock &&
	       sim_now() >= p->lock_at;
}

static bool pll_running(const struct ccu_model *m, const struct ccu_model_pll *p)
{
	return ccu_model_pll_locked(m, p) && (m->regs[p->off / 4] & PLL_GATE) != 0;
}

uint32_t ccu_model_peek(const struct ccu_model *m, uint32_t off)
{
	uint32_t v = m->regs[off / 4];

	if (off == OFF_PLL_CPU || off == OFF_PLL_PERI0) {
		const struct ccu_model_pll *p = off == OFF_PLL_CPU ? &m->pll_cpu : &m->pll_peri0;
		v &= ~PLL_LOCK;
		if (ccu_model_pll_locked(m, p)) {
			v |= PLL_LOCK;
		}
	}
	return v;
}

/* Model's own decoding of PLL_PERI0(1X), 0 when not running. */
static uint64_t peri0_1x(const struct ccu_model *m)
{
	uint32_t v = m->regs[OFF_PLL_PERI0 / 4];
	uint64_t n = ((v >> 8) & 0xFFu) + 1u;
	uint64_t mm = ((v >> 1) & 1u) + 1u;
	uint64_t p0 = ((v >> 16) & 7u) + 1u;

	if (!pll_running(m, &m->pll_peri0)) {
		return 0;
	}
	return OSC24M * n / mm / p0 / 2u;
}

uint64_t ccu_model_apb1_hz(const struct ccu_model *m)
{
	uint32_t v = m->regs[OFF_APB1 / 4];
	uint64_t in;

	switch ((v >> 24) & 3u) {
	case 0:
		in = OSC24M;
		break;
	case 1:
		in = LOSC;
		break;
	case 2: {
		uint32_t p = m->regs[OFF_PSI / 4];
		uint64_t pin;
		switch ((p >> 24) & 3u) {
		case 0:
			pin = OSC24M;
			break;
		case 1:
			pin = LOSC;
			break;
		case 2:
			pin = IOSC;
			break;
		default:
			pin = peri0_1x(m);
			break;
		}
		in = (pin / ((p & 3u) + 1u)) >> ((p >> 8) & 3u);
		break;
	}
	default:
		in = peri0_1x(m);
		break;
	}
	return (in / ((v & 0x1Fu) + 1u)) >> ((v >> 8) & 3u);
}

static void check_core(struct ccu_model *m)
{
	uint32_t clk = m->regs[OFF_RISCV_CLK / 4];
	bool ok;

	switch ((clk >> 24) & 7u) {
	case 0:
	case 1:
	case 2:
		ok = true; /* oscillators always run */
		break;
	case 3:
	case 4:
		ok = pll_running(m, &m->pll_peri0);
		break;
	case 5:
		ok = pll_running(m, &m->pll_cpu);
		break;
	default:
		ok = false; /* PLL_AUDIO1 (not modelled) or reserved */
		break;
	}
	if (!ok) {
		if (m->core_violations == 0) {
			m->first_violation_riscv_clk = clk;
			m->first_violation_pll_cpu = ccu_model_peek(m, OFF_PLL_CPU);
		}
		m->core_violations++;
	}
}

#define PLL_N_FIELD(v) (((v) >> 8) & 0xFFu)
#define PLL_N_MIN      12u /* N = field + 1 (Linux _SUNXI_CCU_MULT_MIN(8, 8, 12)) */

static void pll_write(struct ccu_model *m, struct ccu_model_pll *p, uint32_t v)
{
	uint32_t old = m->regs[p->off / 4];

	if (PLL_N_FIELD(v) + 1u < PLL_N_MIN) {
		if (m->pll_range_violations == 0) {
			m->first_range_violation = v;
		}
		m->pll_range_violations++;
	}
	bool restart = ((v & PLL_EN) != 0 && (old & PLL_EN) == 0) ||
	               ((v & PLL_LOCK_EN) != 0 && (old & PLL_LOCK_EN) == 0) ||
	               ((v ^ old) & PLL_FACTORS) != 0;

	if (restart) {
		p->lock_at = sim_now() + m->lock_ticks;
	}
	m->regs[p->off / 4] = v & ~PLL_LOCK; /* LOCK is read-only */
}

/* The 39 *_BGR registers with the gate and reset bits the SVD lists
 * (tests/svd/d1_svd_table.csv, from d1_unofficial.svd); in every one gate
 * bit n pairs with reset bit 16 + n. Written from the SVD, independently of
 * the driver's table. */
static const struct bgr_reg {
	uint16_t off;
	uint32_t gates;
	uint32_t rsts;
} bgr_regs[] = {
        {0x60Cu, 0x1u, 0x10000u},     /* de_bgr */
        {0x62Cu, 0x1u, 0x10000u},     /* di_bgr */
        {0x63Cu, 0x1u, 0x10000u},     /* g2d_bgr */
        {0x68Cu, 0x1u, 0x10000u},     /* ce_bgr */
        {0x69Cu, 0x1u, 0x10000u},     /* ve_bgr */
        {0x70Cu, 0x1u, 0x10000u},     /* dma_bgr */
        {0x71Cu, 0x7u, 0x70000u},     /* msgbox_bgr */
        {0x72Cu, 0x1u, 0x10000u},     /* spinlock_bgr */
        {0x73Cu, 0x1u, 0x10000u},     /* hstimer_bgr */
        {0x78Cu, 0x1u, 0x10000u},     /* dbgsys_bgr */
        {0x7ACu, 0x1u, 0x10000u},     /* pwm_bgr */
        {0x7BCu, 0x1u, 0x0u},         /* iommu_bgr */
        {0x80Cu, 0x1u, 0x10000u},     /* dram_bgr */
        {0x84Cu, 0x7u, 0x70000u},     /* smhc_bgr */
        {0x90Cu, 0x3Fu, 0x3F0000u},   /* uart_bgr */
        {0x91Cu, 0xFu, 0xF0000u},     /* twi_bgr */
        {0x96Cu, 0x3u, 0x30000u},     /* spi_bgr */
        {0x97Cu, 0x1u, 0x10000u},     /* emac_bgr */
        {0x9CCu, 0x1u, 0x10000u},     /* irtx_bgr */
        {0x9ECu, 0x1u, 0x10000u},     /* gpadc_bgr */
        {0x9FCu, 0x1u, 0x10000u},     /* ths_bgr */
        {0xA20u, 0x7u, 0x70000u},     /* i2s_bgr */
        {0xA2Cu, 0x1u, 0x10000u},     /* owa_bgr */
        {0xA4Cu, 0x1u, 0x10000u},     /* dmic_bgr */
        {0xA5Cu, 0x1u, 0x10000u},     /* audio_codec_bgr */
        {0xA8Cu, 0x133u, 0x1330000u}, /* usb_bgr */
        {0xA9Cu, 0x1u, 0x10000u},     /* lradc_bgr */
        {0xABCu, 0x1u, 0x10000u},     /* dpss_top_bgr */
        {0xB4Cu, 0x1u, 0x10000u},     /* dsi_bgr */
        {0xB7Cu, 0x1u, 0x10000u},     /* tconlcd_bgr */
        {0xB9Cu, 0x1u, 0x10000u},     /* tcontv_bgr */
        {0xBACu, 0x0u, 0x10000u},     /* lvds_bgr */
        {0xBBCu, 0x3u, 0x30000u},     /* tve_bgr */
        {0xBDCu, 0x3u, 0x30000u},     /* tvd_bgr */
        {0xBFCu, 0x1u, 0x10000u},     /* ledc_bgr */
        {0xC1Cu, 0x1u, 0x10000u},     /* csi_bgr */
        {0xC5Cu, 0x1u, 0x10000u},     /* tpadc_bgr */
        {0xC7Cu, 0x2u, 0x70000u},     /* dsp_bgr */
        {0xD0Cu, 0x1u, 0x10000u},     /* riscv_cfg_bgr */
};

static const struct bgr_reg *find_bgr(uint32_t off)
{
	for (size_t i = 0; i < sizeof(bgr_regs) / sizeof(bgr_regs[0]); i++) {
		if (bgr_regs[i].off == off) {
			return &bgr_regs[i];
		}
	}
	return NULL;
}

unsigned ccu_model_bgr_count(void)
{
	return (unsigned)(sizeof(bgr_regs) / sizeof(bgr_regs[0]));
}

static void log_bgr(struct ccu_model *m, uint32_t off, unsigned n, enum ccu_bgr_what w)
{
	if (m->nlog < CCU_MODEL_LOG) {
		m->log[m->nlog++] = (struct ccu_bgr_event){.at = sim_now(),
		                                           .off = (uint16_t)off,
		                                           .bit = (uint8_t)n,
		                                           .what = (uint8_t)w};
	}
}

/* Gate/reset order rules for each pair (gate n, reset 16 + n) that has
 * both bits: no order inside one write; a reset released while the gate
 * is closed, or a gate closed while the reset is released, is a violation.
 * Rows with only a gate or only a reset have no order to keep. */
static void bgr_write(struct ccu_model *m, const struct bgr_reg *b, uint32_t v)
{
	uint32_t old = m->regs[b->off / 4];

	m->bgr_writes++;
	if (m->bgr_guard && ((v ^ old) & ~(b->off == m->bgr_own_off ? m->bgr_own_mask : 0u)) != 0) {
		m->bgr_foreign_changes++; /* another block's gate or reset */
	}
	if (((v ^ old) & ~(b->gates | b->rsts)) != 0) {
		m->bgr_reserved_changes++; /* bits the SVD does not list */
	}
	for (unsigned n = 0; n < 16; n++) {
		bool hg = (b->gates >> n) & 1u, hr = (b->rsts >> (16 + n)) & 1u;
		bool g0 = (old >> n) & 1u, g1 = (v >> n) & 1u;
		bool r0 = (old >> (16 + n)) & 1u, r1 = (v >> (16 + n)) & 1u;

		if (hg && hr && g0 != g1 && r0 != r1) {
			m->bgr_order_violations++; /* no order inside one write */
		}
		if (hg && g1 && !g0) {
			log_bgr(m, b->off, n, CCU_GATE_ON);
		}
		if (hr && r1 && !r0) {
			log_bgr(m, b->off, n, CCU_RST_DEASSERT);
			if (hg && !g1) {
				m->bgr_order_violations++; /* released without a clock */
			}
		}
		if (hr && r0 && !r1) {
			log_bgr(m, b->off, n, CCU_RST_ASSERT);
		}
		if (hg && g0 && !g1) {
			log_bgr(m, b->off, n, CCU_GATE_OFF);
			if (hr && r1) {
				m->bgr_order_violations++; /* clock cut from a live block */
			}
		}
	}
	m->regs[b->off / 4] = v;
}

static uint32_t rd(void *ctx, uint32_t off)
{
	return ccu_model_peek(ctx, off);
}

static void note_apb1(struct ccu_model *m)
{
	uint64_t hz = ccu_model_apb1_hz(m);

	if (hz > m->apb1_max_hz) {
		m->apb1_max_hz = hz;
	}
}

static void wr(void *ctx, uint32_t off, uint32_t v)
{
	struct ccu_model *m = ctx;

	switch (off) {
	case OFF_PLL_CPU:
		m->pll_cpu_writes++;
		pll_write(m, &m->pll_cpu, v);
		check_core(m);
		break;
	case OFF_PLL_PERI0:
		pll_write(m, &m->pll_peri0, v);
		check_core(m);
		note_apb1(m);
		break;
	case OFF_RISCV_CLK:
		m->riscv_clk_writes++;
		m->regs[off / 4] = v;
		check_core(m);
		break;
	case OFF_APB1:
		m->apb1_writes++;
		m->regs[off / 4] = v;
		note_apb1(m);
		break;
	case OFF_PSI:
		m->regs[off / 4] = v;
		note_apb1(m);
		break;
	default:
		if (find_bgr(off) != NULL) {
			bgr_write(m, find_bgr(off), v);
		} else {
			m->regs[off / 4] = v;
		}
		break;
	}
}

void ccu_model_init(struct ccu_model *m, uintptr_t base)
{
	memset(m, 0, sizeof(*m));
	m->lock_ticks = 50u * (SIM_HZ / 1000000u); /* 50 us: arbitrary, unknown */
	m->pll_cpu.off = OFF_PLL_CPU;
	m->pll_peri0.off = OFF_PLL_PERI0;
	m->region = (struct sim_region){
	        .name = "ccu",
	        .base = base,
	        .size = 0x1000,
	        .read = rd,
	        .write = wr,
	        .ctx = m,
	};
	sim_map(&m->region);
	m->apb1_max_hz = ccu_model_apb1_hz(m);
}

void ccu_model_poke(struct ccu_model *m, uint32_t off, uint32_t v)
{
	m->regs[off / 4] = v;
	if (off == OFF_PLL_CPU || off == OFF_PLL_PERI0) {
		m->regs[off / 4] &= ~PLL_LOCK;
		(off == OFF_PLL_CPU ? &m->pll_cpu : &m->pll_peri0)->lock_at = sim_now();
	}
	m->apb1_max_hz = ccu_model_apb1_hz(m);
}

void ccu_model_preset_uboot(struct ccu_model *m)
{
	/* PLL_CPU 1008 MHz (N = 42): EN | LDO | LOCK_EN | gate. */
	ccu_model_poke(m, OFF_PLL_CPU, 0xE8002900u);
	/* PLL_PERI0 as U-Boot leaves it (docs/hardware-facts.md "CCU"): 4X
	 * 2400 MHz. */
	ccu_model_poke(m, OFF_PLL_PERI0, 0xE8216300u);
	/* PSI and APB0: PERI0(1X) / 3 / 2 = 100 MHz. */
	ccu_model_poke(m, OFF_PSI, 0x03000102u);
	ccu_model_poke(m, 0x520u, 0x03000102u);
	/* APB1 on the 24 MHz OSC24M (U-Boot clock_init_uart). */
	ccu_model_poke(m, OFF_APB1, 0x00000000u);
	/* Core on PLL_CPU /1, AXI /2. */
	ccu_model_poke(m, OFF_RISCV_CLK, 0x05000100u);
	/* UART0 clocked and out of reset. */
	ccu_model_poke(m, 0x90Cu /* uart_bgr */, 0x00010001u);
}
