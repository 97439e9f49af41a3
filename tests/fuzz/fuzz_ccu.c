/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the CCU driver (d1/ccu.h: rates, APB1, PLL_CPU, every
 * bus gate/reset pair) on the CCU model. Random sequences of every public
 * call with arbitrary arguments, firmware-left clock trees (consistent ones:
 * the core runs from a running clock), PLL lock time and a PLL that never
 * locks. Invariants after every call: fuzz_common.h; the core never on a
 * clock that is not running (model core_violations), no PLL N below 12, no
 * gate/reset order violation, no change of a *_BGR bit outside the pair the
 * call is for (none for calls that are not bus calls), APB1 never above the
 * higher of its old and new rate, the documented end state of
 * d1_ccu_set_pll_cpu() (D1_OK and D1_ETIMEDOUT), and the decoded APB1 rate
 * equal to the model's.
 */
#include <string.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "fuzz_common.h"
#include "sim.h"

#define UNMAPPED_BASE 0x0A000000u
#define OFF_PLL_CPU   0x000u
#define OFF_PLL_PERI0 0x020u
#define OFF_PSI       0x510u
#define OFF_APB1      0x524u
#define OFF_RISCV_CLK 0xD00u
/* d1_ccu_set_pll_cpu(): LOCK budget + one poll + settle (ccu.h). */
#define PLL_CALL_MAX_TICKS                                                                         \
	((uint64_t)(D1_CCU_PLL_LOCK_TIMEOUT_US + D1_CCU_PLL_LOCK_POLL_US + D1_CCU_PLL_SETTLE_US) * \
	 FZ_TICKS_PER_US)

static struct ccu_model cm;
static struct d1_ccu ch;
static struct d1_ccu zero_handle;
static bool ch_model_clock; /* the handle's OSC24M rate is the model's (24 MHz) */
static bool ch_mapped;

/* The public gate/reset table (ccu_regs.h, checked against the SVD by
 * test_regs_svd): register and the bits of each pair. */
struct bus_bits {
	uint32_t off;
	uint32_t mask;
};
#define BIT_(n)                                 ((n) == D1_CCU_BUS_NO_BIT ? 0u : 1u << ((n)&31u))
#define ROW_(name, svd, off, gf, gate, rf, rst) {(off), BIT_(gate) | BIT_(rst)},
static const struct bus_bits bus_bits[] = {D1_CCU_BUS_LIST(ROW_)};
#undef ROW_
#undef BIT_

static void check_models(void)
{
	FZ_CHECK(
	        cm.core_violations == 0u,
	        "the core ran from a clock that was not running (RISCV_CLK 0x%08x, PLL_CPU 0x%08x)",
	        cm.first_violation_riscv_clk, cm.first_violation_pll_cpu);
	FZ_CHECK(cm.pll_range_violations == 0u, "PLL written with N < 12 (0x%08x)",
	         cm.first_range_violation);
	FZ_CHECK(cm.bgr_order_violations == 0u, "gate/reset order violated");
	FZ_CHECK(cm.bgr_reserved_changes == 0u, "a *_BGR bit the SVD does not list changed");
	FZ_CHECK(cm.bgr_foreign_changes == 0u, "a *_BGR bit of another block changed");
}

static void guard(uint32_t off, uint32_t mask)
{
	cm.bgr_guard = true;
	cm.bgr_own_off = off;
	cm.bgr_own_mask = mask;
}

static struct d1_ccu *pick(struct fz_in *in, bool *valid)
{
	uint8_t k = fz_u8(in) % 8u;

	*valid = k < 6u;
	return k == 6u ? NULL : k == 7u ? &zero_handle : &ch;
}

static void begin(const char *op)
{
	fz_begin(op);
	cm.apb1_max_hz = ccu_model_apb1_hz(&cm);
}

static void after(bool valid, int err, unsigned allowed, uint64_t apb1_before, uint64_t ticks)
{
	uint64_t now = ccu_model_apb1_hz(&cm);

	fz_end();
	cm.bgr_guard = false;
	fz_check_call(ticks);
	fz_check_err_writes(err, allowed);
	if (!valid) {
		FZ_CHECK(fz_call_writes() == 0u, "a call on a NULL/uninitialised handle wrote");
	}
	check_models();
	FZ_CHECK(cm.apb1_max_hz <= (now > apb1_before ? now : apb1_before),
	         "APB1 glitched to %llu Hz (before %llu, after %llu)",
	         (unsigned long long)cm.apb1_max_hz, (unsigned long long)apb1_before,
	         (unsigned long long)now);
}

/* A clock tree firmware could leave (the core on a running clock). */
static void preset(struct fz_in *in)
{
	uint8_t how = fz_u8(in);

	if ((how & 1u) != 0u) {
		ccu_model_preset_uboot(&cm);
	}
	if ((how & 2u) != 0u) { /* PSI and APB1 anywhere (PERI0 runs if U-Boot's) */
		ccu_model_poke(&cm, OFF_PSI, fz_u32(in) & 0x03000303u);
		ccu_model_poke(&cm, OFF_APB1, fz_u32(in) & 0x0300031Fu);
	}
	if ((how & 4u) != 0u) { /* the core on an oscillator, PLL_CPU anything legal */
		uint32_t v = fz_u32(in) & ~0x0000FF00u;

		ccu_model_poke(&cm, OFF_RISCV_CLK, (uint32_t)(fz_u8(in) % 3u) << 24 | 0x100u);
		ccu_model_poke(&cm, OFF_PLL_CPU, v | (uint32_t)(11u + fz_u8(in) % 245u) << 8);
	}
	if ((how & 8u) != 0u) { /* bus gates and resets as firmware left them */
		ccu_model_poke(&cm, bus_bits[fz_u8(in) % D1_CCU_BUS_COUNT].off, fz_u32(in));
	}
	cm.pll_cpu.never_lock = (how & 0x10u) != 0u;
	cm.lock_ticks = (how & 0x20u) != 0u ? (uint64_t)fz_u16(in) * 8u : 50u * FZ_TICKS_PER_US;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	preset(&in);
	memset(&zero_handle, 0, sizeof(zero_handle));
	(void)d1_ccu_init(&ch, D1_CCU_BASE, D1_OSC24M_HZ);
	ch_model_clock = true;
	ch_mapped = true;

	while (fz_more(&in) && !fz_over_budget()) {
		uint8_t op = fz_u8(&in) % 16u;
		bool valid;
		struct d1_ccu *c = pick(&in, &valid);
		/* the glitch check needs the driver's view of OSC24M */
		uint64_t apb1 = ch_model_clock ? ccu_model_apb1_hz(&cm) : UINT64_MAX;
		int err = D1_OK;

		valid = valid && c == &ch;
		switch (op) {
		case 0: { /* init: valid or not */
			uint8_t how = fz_u8(&in) % 6u;
			uintptr_t base = how == 1u   ? 0u
			                 : how == 2u ? D1_CCU_BASE + 2u
			                 : how == 3u ? UNMAPPED_BASE
			                             : D1_CCU_BASE;
			uint32_t osc = how == 4u ? 0u : how == 5u ? fz_u32(&in) : D1_OSC24M_HZ;
			struct d1_ccu scratch;

			fz_begin("d1_ccu_init");
			err = d1_ccu_init(c == &ch ? &ch : c == NULL ? NULL : &scratch, base, osc);
			fz_end();
			fz_check_no_access();
			FZ_CHECK((err == D1_OK) == (c != NULL && how != 1u && how != 2u &&
			                            how != 4u && osc != 0u),
			         "d1_ccu_init returned %s", d1_strerror(err));
			if (err == D1_OK && c == &ch) {
				ch_model_clock = osc == D1_OSC24M_HZ;
				ch_mapped = base == D1_CCU_BASE;
			}
			break;
		}
		case 1: {
			uint64_t lim = fz_u64(&in) >> (fz_u8(&in) % 64u);

			fz_begin("d1_ccu_set_cpu_limit");
			err = d1_ccu_set_cpu_limit(c, lim);
			fz_end();
			fz_check_no_access();
			break;
		}
		case 2: { /* rates */
			unsigned clk = fz_u8(&in) % (D1_CCU_CLK_COUNT + 2u);
			uint64_t hz = 1;
			bool null_out = fz_u8(&in) < 8u;

			begin("d1_ccu_get_rate");
			err = d1_ccu_get_rate(c, (enum d1_ccu_clk)clk, null_out ? NULL : &hz);
			guard(0u, 0u);
			after(valid, err, 0u, apb1, 0u);
			fz_check_no_write();
			FZ_CHECK(null_out || err == D1_OK || hz == 0u, "rate %llu on error",
			         (unsigned long long)hz);
			if (clk == D1_CCU_CLK_APB1 && valid && ch_model_clock && ch_mapped &&
			    !null_out) {
				/* the model decodes only running PLLs; the driver
				 * reports ESTATE for a PLL off or gated */
				FZ_CHECK(err != D1_OK || hz == ccu_model_apb1_hz(&cm) ||
				                 ccu_model_apb1_hz(&cm) == 0u,
				         "APB1 decoded as %llu Hz, the model says %llu",
				         (unsigned long long)hz,
				         (unsigned long long)ccu_model_apb1_hz(&cm));
			}
			break;
		}
		case 3: {
			unsigned u = fz_u8(&in) % 8u;
			uint32_t hz = 1;

			begin("d1_ccu_uart_clock_hz");
			err = d1_ccu_uart_clock_hz(c, u, fz_u8(&in) < 8u ? NULL : &hz);
			after(valid, err, 0u, apb1, 0u);
			fz_check_no_write();
			break;
		}
		case 4:
		case 5:
		case 6:
		case 7:
		case 8:
		case 9: { /* bus gates: the UART wrappers and the general calls */
			unsigned n = fz_u8(&in);
			bool on = false;
			bool null_on = fz_u8(&in) < 8u;
			unsigned bus =
			        op <= 6 ? D1_CCU_BUS_UART0 + n % 8u : n % (D1_CCU_BUS_COUNT + 3u);
			bool in_table =
			        op <= 6 ? n % 8u < D1_CCU_UART_COUNT : bus < D1_CCU_BUS_COUNT;

			begin("d1_ccu bus gate call");
			if (in_table) {
				guard(bus_bits[bus].off, bus_bits[bus].mask);
			} else {
				guard(0u, 0u);
			}
			switch (op) {
			case 4:
				err = d1_ccu_uart_enable(c, n % 8u);
				break;
			case 5:
				err = d1_ccu_uart_disable(c, n % 8u);
				break;
			case 6:
				err = d1_ccu_uart_is_enabled(c, n % 8u, null_on ? NULL : &on);
				break;
			case 7:
				err = d1_ccu_bus_enable(c, (enum d1_ccu_bus)bus);
				break;
			case 8:
				err = d1_ccu_bus_disable(c, (enum d1_ccu_bus)bus);
				break;
			default:
				err = d1_ccu_bus_is_enabled(c, (enum d1_ccu_bus)bus,
				                            null_on ? NULL : &on);
				break;
			}
			after(valid, err, 0u, apb1, 0u);
			FZ_CHECK(err == D1_OK || err == D1_EINVAL || err == D1_EBUSY,
			         "bus call returned %s", d1_strerror(err));
			if (err == D1_OK && in_table && ch_mapped) {
				uint32_t v =
				        ccu_model_peek(&cm, bus_bits[bus].off) & bus_bits[bus].mask;
				bool en = op == 4 || op == 7, dis = op == 5 || op == 8;

				FZ_CHECK(!en || v == bus_bits[bus].mask, "enabled, but bits 0x%x",
				         v);
				FZ_CHECK(!dis || v == 0u, "disabled, but bits 0x%x", v);
				FZ_CHECK(en || dis || on == (v == bus_bits[bus].mask),
				         "is_enabled wrong");
			}
			if (err == D1_EBUSY) {
				FZ_CHECK(bus == D1_CCU_BUS_DRAM || bus == D1_CCU_BUS_RISCV_CFG,
				         "EBUSY for bus %u", bus);
			}
			break;
		}
		case 10: { /* APB1 */
			unsigned src = fz_u8(&in) % 5u;
			unsigned m = fz_u8(&in) % 34u;
			unsigned p = fz_u8(&in) % 5u;
			uint32_t hz = 0;

			begin("d1_ccu_apb1_config");
			guard(0u, 0u);
			err = d1_ccu_apb1_config(c, (enum d1_ccu_apb_src)src, m, p,
			                         fz_bool(&in) ? &hz : NULL);
			after(valid, err, 0u, apb1, 0u);
			if (err == D1_OK && ch_model_clock && ch_mapped) {
				FZ_CHECK(((ccu_model_peek(&cm, OFF_APB1) >> 24) & 3u) == src &&
				                 (ccu_model_peek(&cm, OFF_APB1) & 0x1Fu) ==
				                         m - 1u &&
				                 ((ccu_model_peek(&cm, OFF_APB1) >> 8) & 3u) == p,
				         "APB1 is 0x%08x", ccu_model_peek(&cm, OFF_APB1));
				FZ_CHECK(ccu_model_apb1_hz(&cm) <= D1_CCU_APB_MAX_HZ,
				         "APB1 above the limit");
			}
			break;
		}
		case 11: { /* PLL_CPU */
			static const uint64_t rates[] = {1008000000u, 288000000u,  24000000u,
			                                 6144000000u, 6168000000u, 1200000000u};
			uint64_t hz = fz_pick64(&in, rates, sizeof(rates) / sizeof(rates[0]));
			uint64_t ach = 12345u;
			uint32_t core0 = ccu_model_peek(&cm, OFF_RISCV_CLK);

			begin("d1_ccu_set_pll_cpu");
			guard(0u, 0u);
			err = d1_ccu_set_pll_cpu(c, hz, &ach);
			after(valid, err, FZ_ERRBIT(D1_ETIMEDOUT), apb1, PLL_CALL_MAX_TICKS);
			FZ_CHECK(err == D1_OK || ach == 12345u, "achieved_hz written on %s",
			         d1_strerror(err));
			if (valid && ch_model_clock && ch_mapped && err == D1_OK) {
				uint32_t v = ccu_model_peek(&cm, OFF_PLL_CPU);

				FZ_CHECK(ach == (uint64_t)(((v >> 8) & 0xFFu) + 1u) *
				                                 D1_OSC24M_HZ &&
				                 (v & 3u) == 0u,
				         "PLL_CPU 0x%08x for %llu Hz", v, (unsigned long long)ach);
				FZ_CHECK(ccu_model_pll_locked(&cm, &cm.pll_cpu) &&
				                 (v & (1u << 27)) != 0u,
				         "PLL_CPU not locked and gated after D1_OK");
				FZ_CHECK(ccu_model_peek(&cm, OFF_RISCV_CLK) == core0,
				         "RISCV_CLK 0x%08x, was 0x%08x",
				         ccu_model_peek(&cm, OFF_RISCV_CLK), core0);
			}
			if (valid && ch_mapped && err == D1_ETIMEDOUT) {
				uint32_t v = ccu_model_peek(&cm, OFF_PLL_CPU);

				FZ_CHECK((v & (1u << 31)) != 0u && (v & (1u << 27)) == 0u,
				         "after D1_ETIMEDOUT PLL_CPU is 0x%08x", v);
				FZ_CHECK(((core0 >> 24) & 7u) != 5u ||
				                 ((ccu_model_peek(&cm, OFF_RISCV_CLK) >> 24) &
				                  7u) == 0u,
				         "after D1_ETIMEDOUT the core is not on OSC24M");
			}
			break;
		}
		case 12:
		case 13: /* model time (PLL locking) */
			sim_advance(fz_u16(&in) * 16u);
			break;
		default: /* a firmware-style change between calls */
			if ((ccu_model_peek(&cm, OFF_RISCV_CLK) >> 24 & 7u) != 5u) {
				cm.pll_cpu.never_lock = fz_bool(&in);
			}
			break;
		}
	}
	return 0;
}
