/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of the D1 Timer block (Timer0/Timer1), written from the
 * hardware facts (docs/hardware-facts.md), not from the driver:
 *  - a running counter counts input clocks (source / 2^prescaler) DOWN and
 *    includes zero, so a period is INTV + 1 input clocks;
 *  - at each boundary it sets its IRQ_STA bit and, in periodic mode, loads
 *    the INTV value present at that moment (IRQ_STA is set whether or not
 *    IRQ_EN is); in single mode it stops at 0 with EN cleared (unknown
 *    fact; alternative: EN stays set, switch single_keeps_en);
 *  - RELOAD copies INTV into CUR at the next input clock and self-clears
 *    (unknown fact; alternatives: never loads, loads but reads back 1);
 *  - a write to CTRL or INTV less than 2 input clocks after EN was cleared is
 *    a sync violation (Linux timer-sun4i.c: wait >= 2 source clocks).
 * Every boundary is reported with its exact input-clock index.
 * Invariant counters (hardware facts, for tests and the fuzz harnesses):
 *  - an INTV write of 0: interval N gives N + 1 input clocks
 *    (docs/hardware-facts.md "The N+1 rule"), so 0 is a one-clock
 *    period whose IRQ_STA sets on every input clock, faster than any
 *    handler; counted per channel (intv_zero_writes);
 *  - a CTRL write that puts a reserved CLK_SRC (2 or 3; SVD tmr_clk_src
 *    enumerates only 0 LOSC and 1 OSC24M) into a channel that did not
 *    already hold it (reserved_src_writes);
 *  - with owner set to a channel (0 or 1; -1: no check), a write that
 *    touches the other channel: its CTRL or INTV, its IRQ_EN bit changed,
 *    or its IRQ_STA bit written 1 (W1C clears it) (foreign_writes).
 */
#ifndef D1_TEST_TIMER_MODEL_H
#define D1_TEST_TIMER_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct timer_model;
typedef void (*timer_boundary_fn)(void *arg, unsigned ch, uint64_t input_clock);

struct timer_model_ch {
	uint32_t ctrl;
	uint32_t intv;
	uint32_t cur;
	bool loaded;          /* CUR holds a loaded value */
	uint32_t presc_resid; /* source edges not yet making an input clock */
	uint64_t in_clocks;   /* input clocks counted since the RELOAD load edge */
	uint64_t boundaries;
	uint64_t disabled_at;    /* input clock index (own clock) at disable */
	uint64_t src_at_disable; /* source edge count at disable */
	bool sync_pending;
	uint64_t sync_violations;
	uint64_t intv_writes;
	uint64_t intv_zero_writes;
	uint64_t reserved_src_writes;
	bool reload_req; /* a RELOAD write waiting for its input clock */
	bool stopped;    /* single mode ended with EN kept (single_keeps_en) */
	uint32_t shadow; /* value reloaded at a boundary (see intv_latch_on_reload) */
};

struct timer_model {
	struct sim_region region;
	uint32_t osc24m_hz;
	uint32_t losc_hz;
	uint32_t irq_en;
	uint32_t irq_sta;
	uint64_t last_now;
	struct timer_model_ch ch[2];
	/* faults and alternative readings of unknown facts */
	bool reload_stuck;  /* RELOAD never loads CUR and never clears */
	bool reload_sticky; /* RELOAD loads CUR but reads back 1 for ever */
	/* INTV is copied to the reload register only by RELOAD, not at each
	 * boundary (the reading the driver does NOT support; see docs). */
	bool intv_latch_on_reload;
	/* Single mode keeps EN set after its boundary (the counter stays at 0)
	 * instead of clearing it. */
	bool single_keeps_en;
	/* observation */
	int owner; /* channel the current driver call acts for; -1: no check */
	uint64_t foreign_writes;
	timer_boundary_fn on_boundary;
	void *arg;
};

/* Initialise and map at base (window 0xA0: the watchdog at +0xA0 is a
 * separate model). */
void timer_model_init(struct timer_model *m, uintptr_t base);
/* A channel as firmware may leave it: periodic on OSC24M /1 with INTV
 * @p intv and its IRQ_EN bit set, run (model time moves) until its first
 * boundary has set its IRQ_STA bit. No bus access is counted. */
void timer_model_preset_running(struct timer_model *m, unsigned ch, uint32_t intv);
/* Model ticks from now to the channel's next boundary, for a test that
 * wants to skip idle time: exact for a loaded, counting channel on OSC24M
 * at SIM_HZ; 0 when that is not so (not counting, a RELOAD pending, LOSC,
 * another rate): then step. */
uint64_t timer_model_ticks_to_boundary(const struct timer_model *m, unsigned ch);
/* Level of the channel's interrupt line (IRQ_EN & IRQ_STA). */
bool timer_model_irq(const struct timer_model *m, unsigned ch);
/* Source edges of @p src (0 LOSC, 1 OSC24M) elapsed by model time @p now. */
uint64_t timer_model_src_edges(const struct timer_model *m, unsigned src, uint64_t now);

#endif /* D1_TEST_TIMER_MODEL_H */
