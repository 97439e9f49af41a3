/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test ccu_cpu: d1_ccu_set_pll_cpu() on a core that runs from PLL_CPU,
 * as the boot chain leaves the D1 (the emulator's boot-state: PLL_CPU
 * 1008 MHz, RISCV_CLK on PLL_CPU, AXI /2). The library must park the core
 * on OSC24M before it touches PLL_CPU and switch back only to a locked,
 * gated PLL (docs/clocks-and-watchdog.md "PLL_CPU change"); the emulated
 * CCU logs every write that leaves the core on a PLL that is not running,
 * locked and gated, which tests/emu/d1test_ccu_cpu.py reads from QEMU's
 * guest-error log. Prints
 *   "CCU boot core=<Hz> axi=<Hz>"
 *   "CCU set <MHz> err=<e> achieved=<Hz> core=<Hz> riscv_clk=0x<reg>"
 * for 1200 MHz (after d1_ccu_set_cpu_limit) and back to 1008 MHz.
 * CCU_RAW_GLITCH=1 builds the negative control: the same change written
 * straight into PLL_CPU while the core runs from it, which the emulator
 * must report.
 */
#include <stdint.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/ccu.h"
#include "d1/ccu_regs.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/uart.h"

#ifndef CCU_RAW_GLITCH
#define CCU_RAW_GLITCH 0
#endif

static struct d1_ccu ccu;

static void set(uint64_t hz)
{
	uint64_t achieved = 0;
	uint64_t core = 0;
	d1_err_t e;

	if (CCU_RAW_GLITCH) {
		/* What a driver without the park does: N changed under the core. */
		uint32_t v = d1_mmio_read32(D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET);
		v = (v & ~D1_CCU_PLL_CPU_CTRL_N_BITS) |
		    ((uint32_t)(hz / D1_OSC24M_HZ - 1u) << D1_CCU_PLL_CPU_CTRL_N_LSB);
		d1_mmio_write32(D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET, v);
		e = D1_OK;
		achieved = hz;
	} else {
		e = d1_ccu_set_pll_cpu(&ccu, hz, &achieved);
	}
	(void)d1_ccu_get_rate(&ccu, D1_CCU_CLK_RISCV, &core);
	bm_printf("CCU set %lu err=%d achieved=%llu core=%llu riscv_clk=0x%08x\n",
	          (unsigned long)(hz / 1000000u), (int)e, (unsigned long long)achieved,
	          (unsigned long long)core,
	          (unsigned)d1_mmio_read32(D1_CCU_BASE + D1_CCU_RISCV_CLK_OFFSET));
}

int bm_main(uint64_t a0, uint64_t a1)
{
	uint64_t core = 0;
	uint64_t axi = 0;

	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(0u);
	bm_check(d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ), "d1_ccu_init");
	bm_check(d1_ccu_get_rate(&ccu, D1_CCU_CLK_RISCV, &core), "core rate");
	bm_check(d1_ccu_get_rate(&ccu, D1_CCU_CLK_RISCV_AXI, &axi), "AXI rate");
	bm_printf("CCU boot core=%llu axi=%llu\n", (unsigned long long)core,
	          (unsigned long long)axi);
	bm_check(d1_ccu_set_cpu_limit(&ccu, 1200000000u), "d1_ccu_set_cpu_limit");
	set(1200000000u);
	set(1008000000u);
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
