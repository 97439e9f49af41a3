/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of one D1 watchdog instance, written from the hardware
 * facts (docs/clocks-and-watchdog.md "Watchdog", SVD TIMER wdog_*), not
 * from the driver:
 *  - CFG, MODE and SOFT_RST writes without 0x16AA in [31:16] are ignored and
 *    counted, per instance and in a global counter that no model reset
 *    clears (so a test binary can prove "zero keyless writes, whole suite");
 *  - CTRL: only exactly 0x14AF restarts the count; any other value is
 *    ignored and counted as a bad feed (also globally);
 *  - while MODE.EN is set, the count runs in the 32 kHz clock CFG.clk_src
 *    selects (0: 24 MHz / 750 = 32000 Hz, 1: LOSC 32768 Hz) up to the
 *    interval's cycle count (SVD C16000 .. C512000); at that moment
 *    (exactly, in model ticks, however large the sim_advance() step):
 *      CFG mode 1 -> a "system reset" event, after which the instance is in
 *                    its power-on state (all registers 0);
 *      CFG mode 2 -> IRQ_STA set, an IRQ event, and the count restarts
 *                    (assumed periodic; no source says);
 *      other      -> counted as a silent expiry, count restarts;
 *  - changing the interval or clock while running re-evaluates the deadline
 *    from the last restart (a shorter interval already passed expires now);
 *  - SOFT_RST with key|1 is a soft reset event on an instance that has it,
 *    ignored (and counted) on one that does not;
 *  - key fields and CTRL read back as 0 (write-only in the SVD);
 *  - a keyed MODE write with an interval index above 0xB (the SVD
 *    wdog_intv_value enumerates C16000 .. C512000 = 0x0 .. 0xB only) is
 *    counted as a reserved interval (reserved_intv_writes).
 */
#ifndef D1_TEST_WDT_MODEL_H
#define D1_TEST_WDT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct wdt_model;
typedef void (*wdt_event_fn)(void *arg, struct wdt_model *m, uint64_t at);

struct wdt_model {
	struct sim_region region;
	bool has_soft_rst;
	/* registers (key fields stripped) */
	uint32_t irq_en;
	uint32_t irq_sta;
	uint32_t cfg;
	uint32_t mode;
	uint32_t output_cfg;
	uint64_t armed_at; /* model time of the last (re)start of the count */
	uint64_t last_now;
	/* observation */
	uint64_t keyless_writes;
	uint64_t reserved_intv_writes;
	uint64_t bad_feeds;
	uint64_t feeds;
	uint64_t resets; /* expiries in reset-system mode */
	uint64_t last_reset_at;
	uint64_t irqs; /* expiries in interrupt mode */
	uint64_t last_irq_at;
	uint64_t silent_expiries;
	uint64_t soft_resets;
	uint64_t soft_rst_ignored;
	wdt_event_fn on_reset;
	void *arg;
};

/* Initialise (power-on state, all registers 0) and map [base, base + 0x20). */
void wdt_model_init(struct wdt_model *m, const char *name, uintptr_t base, bool has_soft_rst);
/* Firmware left CFG/MODE like this (as keyed writes would), count
 * (re)started now. No bus access is counted. */
void wdt_model_preset(struct wdt_model *m, uint32_t cfg, uint32_t mode);
/* Ticks from (re)start to expiry in the current configuration; 0 if the
 * interval index is reserved (> 0xB: never expires in the model). */
uint64_t wdt_model_timeout_ticks(const struct wdt_model *m);
/* Interrupt line level: IRQ_EN & IRQ_STA. */
bool wdt_model_irq(const struct wdt_model *m);
/* Whether the count is running. */
bool wdt_model_running(const struct wdt_model *m);

/* Global counters over every instance and every test of the binary. */
uint64_t wdt_model_keyless_total(void);
uint64_t wdt_model_bad_feed_total(void);
/* A test that makes keyless writes on purpose declares how many; the
 * "unexpected" count is total - declared. */
void wdt_model_keyless_expect(uint64_t n);
uint64_t wdt_model_keyless_unexpected(void);
/* The same for bad feeds (CTRL values other than 0x14AF). */
void wdt_model_bad_feed_expect(uint64_t n);
uint64_t wdt_model_bad_feed_unexpected(void);

#endif /* D1_TEST_WDT_MODEL_H */
