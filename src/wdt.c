/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 watchdog driver (timer-block WDT, riscv_wdt, R_WDOG: one register
 * layout). Hardware facts with their sources: docs/clocks-and-watchdog.md;
 * each place that depends on one says so.
 * d1_wdt_format_state() is in wdt_format.c (its own object: it links only
 * if used).
 */
#include "d1/wdt.h"

#include <stddef.h>

#include "d1/memmap.h"
#include "d1/mmio.h"

/*
 * Interval index -> count cycles / 16000. SVD wdog_intv_value enumerates the cycle
 * counts (C16000 .. C512000); at the 32 kHz (24 MHz / 750) clock they are
 * the 0.5, 1..6, 8, 10, 12, 14, 16 s of Linux/U-Boot sunxi_wdt.c.
 */
static const uint8_t intv_x16000[D1_WDT_INTV_MAX + 1u] = {
        1u, 2u, 4u, 6u, 8u, 10u, 12u, 16u, 20u, 24u, 28u, 32u, /* x 16000 cycles */
};

static uintptr_t reg(const struct d1_wdt *w, uint32_t off)
{
	return w->base + off;
}

/* A register base is non-zero and 4-byte aligned (every access is a 32-bit
 * one, mmio.h). */
static bool base_ok(uintptr_t base)
{
	return base != 0u && (base & 3u) == 0u;
}

static bool valid(const struct d1_wdt *w)
{
	return w != NULL && base_ok(w->base) && w->id < D1_WDT_COUNT;
}

/* The only way this file writes CFG, MODE or SOFT_RST: the key is always
 * in [31:16] (keyless writes are silently dropped by the D1). The three
 * key fields have the same position (SVD key_field [31:16]). */
static void write_keyed(const struct d1_wdt *w, uint32_t off, uint32_t value)
{
	d1_mmio_write32(reg(w, off), (value & ~D1_WDT_CFG_KEY_FIELD_BITS) | D1_WDT_KEY_FIELD);
}

/* Timeout in ms of interval index @i counted at @hz, rounded down (a
 * shorter report is the safe one for a feeder). */
static uint32_t cycles_to_ms(unsigned i, uint32_t hz)
{
	return (uint32_t)(((uint64_t)intv_x16000[i] * 16000u * 1000u) / hz);
}

const char *d1_wdt_name(enum d1_wdt_id id)
{
	/* In enum order, then the name of an unknown id (10-byte rows: one
	 * string table, no pointer table). */
	static const char names[D1_WDT_COUNT + 1u][10] = {"timer_wdt", "riscv_wdt", "r_wdog",
	                                                  "wdt?"};
	_Static_assert(D1_WDT_TIMER == 0 && D1_WDT_RISCV == 1 && D1_WDT_R == 2 &&
	                       D1_WDT_COUNT == 3u,
	               "names[] follows enum d1_wdt_id");

	return names[(unsigned)id < D1_WDT_COUNT ? (unsigned)id : D1_WDT_COUNT];
}

d1_err_t d1_wdt_init(struct d1_wdt *w, enum d1_wdt_id id, uintptr_t base)
{
	if (w == NULL || !base_ok(base) || (unsigned)id >= D1_WDT_COUNT) {
		return D1_EINVAL;
	}
	*w = (struct d1_wdt){
	        .base = base,
	        .id = (uint8_t)id,
	        /* Only the timer-block instance is the `-wdt-reset` one with
	         * SOFT_RST (docs/hardware-facts.md "Watchdogs"; OpenSBI
	         * fdt_reset_sunxi_wdt.c). */
	        .caps = id == D1_WDT_TIMER ? D1_WDT_CAP_SOFT_RESET : 0u,
	};
	return D1_OK;
}

unsigned d1_wdt_caps(const struct d1_wdt *w)
{
	return valid(w) ? w->caps : 0u;
}

d1_err_t d1_wdt_round_timeout(uint32_t timeout_ms, uint32_t *achieved_ms, unsigned *index)
{
	if (timeout_ms == 0u) {
		return D1_EINVAL;
	}
	/* Table in the clock the driver programs (24 MHz / 750); Linux also
	 * rounds an unsupported request up. */
	for (unsigned i = 0; i <= D1_WDT_INTV_MAX; i++) {
		uint32_t ms = cycles_to_ms(i, D1_WDT_HOSC32K_HZ);
		if (ms >= timeout_ms) {
			if (achieved_ms != NULL) {
				*achieved_ms = ms;
			}
			if (index != NULL) {
				*index = i;
			}
			return D1_OK;
		}
	}
	return D1_ERANGE;
}

d1_err_t d1_wdt_get_state(const struct d1_wdt *w, struct d1_wdt_state *st)
{
	uint32_t mode;
	uint32_t cfg;
	unsigned idx;
	unsigned act;

	if (!valid(w) || st == NULL) {
		return D1_EINVAL;
	}
	mode = d1_mmio_read32(reg(w, D1_WDT_MODE_OFFSET));
	cfg = d1_mmio_read32(reg(w, D1_WDT_CFG_OFFSET));
	idx = (mode & D1_WDT_MODE_INTV_VALUE_BITS) >> D1_WDT_MODE_INTV_VALUE_LSB;
	act = (cfg & D1_WDT_CFG_MODE_BITS) >> D1_WDT_CFG_MODE_LSB;

	*st = (struct d1_wdt_state){
	        .name = d1_wdt_name((enum d1_wdt_id)w->id),
	        .running = (mode & D1_WDT_MODE_EN_BITS) != 0u,
	        .cfg_mode = (uint8_t)act,
	        .interval_index = (uint8_t)idx,
	        .losc = (cfg & D1_WDT_CFG_CLK_SRC_BITS) != 0u,
	        .action = (act == D1_WDT_CFG_MODE_RESET || act == D1_WDT_CFG_MODE_IRQ)
	                          ? (enum d1_wdt_action)act
	                          : D1_WDT_ACTION_NONE,
	        .timeout_ms = D1_WDT_TIMEOUT_UNKNOWN,
	};
	if (idx <= D1_WDT_INTV_MAX) {
		st->timeout_ms = cycles_to_ms(idx, st->losc ? D1_LOSC_HZ : D1_WDT_HOSC32K_HZ);
	}
	st->irq_enabled =
	        (d1_mmio_read32(reg(w, D1_WDT_IRQ_EN_OFFSET)) & D1_WDT_IRQ_EN_IRQ_EN_BITS) != 0u;
	st->irq_pending = (d1_mmio_read32(reg(w, D1_WDT_IRQ_STA_OFFSET)) &
	                   D1_WDT_IRQ_STA_IRQ_PEND_BITS) != 0u;
	return D1_OK;
}

/* --- arming --- */

static void feed(const struct d1_wdt *w)
{
	d1_mmio_write32(reg(w, D1_WDT_CTRL_OFFSET), D1_WDT_FEED_VALUE);
}

static uint32_t mode_value(unsigned idx, bool en)
{
	return ((uint32_t)idx << D1_WDT_MODE_INTV_VALUE_LSB) | (en ? D1_WDT_MODE_EN_BITS : 0u);
}

/* CFG with the action set and the 24 MHz / 750 clock selected (clk_src 0,
 * the clock in which the interval table is exact); other bits kept. */
static uint32_t cfg_value(const struct d1_wdt *w, unsigned action)
{
	uint32_t cfg = d1_mmio_read32(reg(w, D1_WDT_CFG_OFFSET));

	cfg &= ~(D1_WDT_CFG_MODE_BITS | D1_WDT_CFG_CLK_SRC_BITS | D1_WDT_CFG_KEY_FIELD_BITS);
	/* The source field's value is 0 (HOSC32K); OR'd in to name it. */
	// cppcheck-suppress badBitmaskCheck
	return cfg | ((uint32_t)action << D1_WDT_CFG_MODE_LSB) |
	       (D1_WDT_CFG_CLK_SRC_HOSC32K << D1_WDT_CFG_CLK_SRC_LSB);
}

static bool hw_running(const struct d1_wdt *w)
{
	return (d1_mmio_read32(reg(w, D1_WDT_MODE_OFFSET)) & D1_WDT_MODE_EN_BITS) != 0u;
}

/*
 * Stopped: the Linux / U-Boot D1 start order, interval, feed, action,
 * enable. Running: never unwatched, so the old count is restarted first
 * (the reconfiguration happens with a full old timeout left), then the
 * action and interval, then the new count is restarted.
 */
static void arm(const struct d1_wdt *w, unsigned idx, unsigned action)
{
	bool running = hw_running(w);

	if (!running) {
		write_keyed(w, D1_WDT_MODE_OFFSET, mode_value(idx, false));
	}
	feed(w);
	write_keyed(w, D1_WDT_CFG_OFFSET, cfg_value(w, action));
	write_keyed(w, D1_WDT_MODE_OFFSET, mode_value(idx, true));
	if (running) {
		feed(w);
	}
}

d1_err_t d1_wdt_start(struct d1_wdt *w, uint32_t timeout_ms, enum d1_wdt_action action,
                      uint32_t *achieved_ms)
{
	unsigned idx;
	uint32_t ms;
	d1_err_t e;

	if (!valid(w) || (action != D1_WDT_ACTION_RESET && action != D1_WDT_ACTION_IRQ)) {
		return D1_EINVAL;
	}
	e = d1_wdt_round_timeout(timeout_ms, &ms, &idx);
	if (e != D1_OK) {
		return e;
	}
	arm(w, idx, (unsigned)action);
	d1_wdt_irq_ack(w); /* a new count: an interval reached before it is not this run's */
	if (achieved_ms != NULL) {
		*achieved_ms = ms;
	}
	return D1_OK;
}

d1_err_t d1_wdt_set_timeout(struct d1_wdt *w, uint32_t timeout_ms, uint32_t *achieved_ms)
{
	unsigned idx;
	uint32_t ms;
	d1_err_t e;

	if (!valid(w)) {
		return D1_EINVAL;
	}
	e = d1_wdt_round_timeout(timeout_ms, &ms, &idx);
	if (e != D1_OK) {
		return e;
	}
	if (hw_running(w)) {
		uint32_t cfg = d1_mmio_read32(reg(w, D1_WDT_CFG_OFFSET));

		feed(w);
		if ((cfg & D1_WDT_CFG_CLK_SRC_BITS) != 0u) {
			/* Left counting the LOSC by firmware: the table is exact
			 * only from the 24 MHz-derived clock (docs/clocks-and-
			 * watchdog.md); select it, keep the action. */
			write_keyed(w, D1_WDT_CFG_OFFSET, cfg & ~D1_WDT_CFG_CLK_SRC_BITS);
		}
		write_keyed(w, D1_WDT_MODE_OFFSET, mode_value(idx, true));
		feed(w);
	} else {
		write_keyed(w, D1_WDT_MODE_OFFSET, mode_value(idx, false));
	}
	if (achieved_ms != NULL) {
		*achieved_ms = ms;
	}
	return D1_OK;
}

d1_err_t d1_wdt_takeover(struct d1_wdt *w, enum d1_wdt_policy policy, uint32_t timeout_ms,
                         struct d1_wdt_state *inherited, uint32_t *achieved_ms)
{
	struct d1_wdt_state st;
	unsigned idx = 0;
	uint32_t ms = 0;

	if (!valid(w) || (policy != D1_WDT_TAKEOVER_STOP && policy != D1_WDT_TAKEOVER_KEEP)) {
		return D1_EINVAL;
	}
	if (policy == D1_WDT_TAKEOVER_KEEP) {
		d1_err_t e = d1_wdt_round_timeout(timeout_ms, &ms, &idx);
		if (e != D1_OK) {
			return e;
		}
	}
	(void)d1_wdt_get_state(w, &st); /* cannot fail: arguments checked */
	if (inherited != NULL) {
		*inherited = st;
	}
	if (policy == D1_WDT_TAKEOVER_STOP) {
		write_keyed(w, D1_WDT_MODE_OFFSET, 0u);
	} else {
		arm(w, idx, D1_WDT_CFG_MODE_RESET);
	}
	if (achieved_ms != NULL) {
		*achieved_ms = ms;
	}
	return D1_OK;
}

d1_err_t d1_wdt_feed(const struct d1_wdt *w)
{
	if (!valid(w)) {
		return D1_EINVAL;
	}
	feed(w);
	return D1_OK;
}

d1_err_t d1_wdt_stop(struct d1_wdt *w)
{
	if (!valid(w)) {
		return D1_EINVAL;
	}
	/* The bare key (0x16AA0000) stops it (Linux sunxi_wdt_stop on D1). */
	write_keyed(w, D1_WDT_MODE_OFFSET, 0u);
	return D1_OK;
}

d1_err_t d1_wdt_irq_enable(const struct d1_wdt *w, bool on)
{
	if (!valid(w)) {
		return D1_EINVAL;
	}
	/* One defined bit per instance: a plain write, no read-modify-write. */
	d1_mmio_write32(reg(w, D1_WDT_IRQ_EN_OFFSET), on ? D1_WDT_IRQ_EN_IRQ_EN_BITS : 0u);
	return D1_OK;
}

bool d1_wdt_irq_pending(const struct d1_wdt *w)
{
	if (!valid(w)) {
		return false;
	}
	return (d1_mmio_read32(reg(w, D1_WDT_IRQ_STA_OFFSET)) & D1_WDT_IRQ_STA_IRQ_PEND_BITS) != 0u;
}

void d1_wdt_irq_ack(const struct d1_wdt *w)
{
	if (!valid(w)) {
		return;
	}
	d1_mmio_write32(reg(w, D1_WDT_IRQ_STA_OFFSET), D1_WDT_IRQ_STA_IRQ_PEND_BITS);
}

d1_err_t d1_wdt_soft_reset(const struct d1_wdt *w)
{
	if (!valid(w)) {
		return D1_EINVAL;
	}
	if ((w->caps & D1_WDT_CAP_SOFT_RESET) == 0u) {
		return D1_ENOTSUP;
	}
	/* 0x16AA0001 (docs/hardware-facts.md "Watchdogs"; OpenSBI
	 * fdt_reset_sunxi_wdt.c). */
	write_keyed(w, D1_WDT_SOFT_RST_OFFSET, D1_WDT_SOFT_RST_SOFT_RST_EN_BITS);
	return D1_OK;
}
