/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of the parts of the D1 CCU the drivers use, written from
 * the hardware facts (docs/clocks-and-watchdog.md "CCU", SVD CCU), not from
 * the driver:
 *  - every register stores what is written (a 4 KiB window);
 *  - every write to PLL_CPU or PLL_PERI0 is checked against the legal
 *    factor range: N = field + 1 >= 12 (Linux ccu-sun20i-d1.c
 *    _SUNXI_CCU_MULT_MIN(8, 8, 12) for both PLLs), whatever EN says; a write
 *    with a smaller N is a range violation (counted, first value kept),
 *    even if the next write fixes it;
 *  - PLL_CPU and PLL_PERI0 lock lock_ticks after the last of: EN set,
 *    LOCK_EN set, N/M changed; the LOCK bit (28, read-only) reads 1 only
 *    while EN and LOCK_EN are set and the PLL is locked; fault: never_lock;
 *  - after every write to RISCV_CLK, PLL_CPU or PLL_PERI0 the model checks
 *    that the core's selected source is running: OSC24M/LOSC/IOSC always; a
 *    PLL output only when that PLL is enabled, locked and its output gate
 *    open; PLL_AUDIO1 and reserved values are never "known good". Each
 *    failed check is a core violation;
 *  - writes to any of the 39 *_BGR registers (their gate and reset bits
 *    taken from the SVD; gate bit n pairs with reset bit 16 + n) are logged
 *    per pair (gate on/off, reset de-assert / assert, in order, with time and
 *    register); an order violation is a reset released while the pair's gate
 *    is closed, a gate closed while its reset is released, or both bits of a
 *    pair changed by one write; a change of a bit the SVD does not list is
 *    counted;
 *  - APB1's rate is decoded by the model after every APB1/PSI/PERI0 write
 *    and the highest rate ever seen is kept (glitch detection);
 *  - with bgr_guard set, a *_BGR write that changes any bit other than
 *    bgr_own_mask of register bgr_own_off (mask 0: no *_BGR bit may change)
 *    is counted in bgr_foreign_changes: a driver call for one block must
 *    leave every other block's gate and reset alone.
 */
#ifndef D1_TEST_CCU_MODEL_H
#define D1_TEST_CCU_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

enum ccu_bgr_what {
	CCU_GATE_ON,
	CCU_GATE_OFF,
	CCU_RST_DEASSERT,
	CCU_RST_ASSERT,
};

struct ccu_bgr_event {
	uint64_t at;
	uint16_t off; /* the *_BGR register */
	uint8_t bit;  /* pair n: gate bit n, reset bit 16 + n (UART_BGR: UARTn) */
	uint8_t what; /* enum ccu_bgr_what */
};

struct ccu_model_pll {
	uint32_t off;
	uint64_t lock_at; /* model time at which it is locked (if EN && LOCK_EN) */
	bool never_lock;  /* fault */
};

#define CCU_MODEL_LOG 256

struct ccu_model {
	struct sim_region region;
	uint32_t regs[0x1000 / 4];
	uint64_t lock_ticks;
	struct ccu_model_pll pll_cpu;
	struct ccu_model_pll pll_peri0;
	/* observation */
	uint64_t core_violations;
	uint32_t first_violation_riscv_clk;
	uint32_t first_violation_pll_cpu;
	uint64_t pll_cpu_writes;
	uint64_t pll_range_violations;
	uint32_t first_range_violation; /* the offending register value */
	uint64_t riscv_clk_writes;
	struct ccu_bgr_event log[CCU_MODEL_LOG];
	unsigned nlog;
	uint64_t bgr_order_violations;
	uint64_t bgr_writes;
	uint64_t bgr_reserved_changes;
	bool bgr_guard;
	uint32_t bgr_own_off;
	uint32_t bgr_own_mask;
	uint64_t bgr_foreign_changes;
	uint64_t apb1_max_hz;
	uint64_t apb1_writes;
};

/* Power-on state (all zero: PLLs off, core on OSC24M), mapped at base. */
void ccu_model_init(struct ccu_model *m, uintptr_t base);
/* The state U-Boot leaves (PLLs on and already locked). */
void ccu_model_preset_uboot(struct ccu_model *m);
/* Set a register as firmware left it (no bus access counted). PLL
 * registers set this way count as locked when EN|LOCK_EN are set. */
void ccu_model_poke(struct ccu_model *m, uint32_t off, uint32_t v);
/* Register value as the bus would read it. */
uint32_t ccu_model_peek(const struct ccu_model *m, uint32_t off);
/* Whether a PLL is enabled and locked now. */
bool ccu_model_pll_locked(const struct ccu_model *m, const struct ccu_model_pll *p);
/* Number of *_BGR registers the model knows (39). */
unsigned ccu_model_bgr_count(void);
/* APB1 rate as the model decodes it (0 if its source is off). */
uint64_t ccu_model_apb1_hz(const struct ccu_model *m);

#endif /* D1_TEST_CCU_MODEL_H */
