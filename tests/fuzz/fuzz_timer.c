/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the Timer driver (d1/timer.h, periodic and one-shot)
 * on the Timer model. Random sequences of every public call with arbitrary
 * arguments (NULL and never-initialised handles, bad bases, out-of-range
 * values), the ISR, model time, firmware-left state and the model's
 * alternative readings of the unknown facts. Invariants after every call:
 * fuzz_common.h, plus the model's counters (no CTRL/INTV write within the
 * sync time after a disable, no INTV 0, no reserved CLK_SRC, no write that
 * touches the other channel) and the documented ranges of isr/elapsed/
 * remaining on an exact periodic schedule.
 */
#include <string.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "fuzz_common.h"
#include "sim.h"
#include "timer_model.h"

/* Longest call: sync wait (3 clocks) + RELOAD budget (4 clocks, floor
 * 10 us) + sync wait again, at the slowest allowed input clock (26 kHz /
 * 128): 3 * 14.8 ms + 19.7 ms; with polling slack. */
#define TIMER_CALL_MAX_TICKS (70000u * FZ_TICKS_PER_US)
#define UNMAPPED_BASE        0x0A000000u

static struct timer_model tm;
static struct d1_timer th[2];
static struct d1_timer zero_handle;

/* What the harness knows of each channel handle (from return values). */
struct shadow {
	bool inited;
	bool mapped;  /* base is the model's */
	bool running; /* started or armed, per the return values */
	bool periodic_exact;
	uint64_t period; /* input clocks, periodic exact */
	uint64_t clocks; /* last period set */
	uint64_t rem;
};
static struct shadow sh[2];

static const uint32_t rates[] = {D1_OSC24M_HZ,        D1_LOSC_HZ, D1_TIMER_SRC_MIN_HZ,
                                 D1_TIMER_SRC_MAX_HZ, 1000000u,   12000000u};

static bool rate_ok(uint32_t hz)
{
	return hz >= D1_TIMER_SRC_MIN_HZ && hz <= D1_TIMER_SRC_MAX_HZ;
}

static void check_models(void)
{
	for (unsigned n = 0; n < 2u; n++) {
		const struct timer_model_ch *c = &tm.ch[n];

		FZ_CHECK(c->sync_violations == 0u,
		         "timer%u: CTRL/INTV written within 2 input clocks of a disable", n);
		FZ_CHECK(c->intv_zero_writes == 0u, "timer%u: INTV written 0 (a one-clock period)",
		         n);
		FZ_CHECK(c->reserved_src_writes == 0u, "timer%u: reserved CLK_SRC written", n);
	}
	FZ_CHECK(tm.foreign_writes == 0u, "a call touched the other channel's registers or bits");
}

/* Handle k of the input: a channel handle, NULL or a never-initialised one. */
static struct d1_timer *pick_handle(struct fz_in *in, int *slot)
{
	uint8_t k = fz_u8(in) % 8u;

	*slot = -1;
	if (k == 6u) {
		return NULL;
	}
	if (k == 7u) {
		return &zero_handle;
	}
	*slot = (int)(k & 1u);
	return &th[k & 1u];
}

static uint64_t pick_clocks(struct fz_in *in)
{
	static const uint64_t tab[] = {
	        0u,
	        1u,
	        2u,
	        3u,
	        24000u,
	        24000000u,
	        0xFFFFFFFEull,
	        0xFFFFFFFFull,
	        0x100000000ull,
	        UINT64_MAX,
	        1000u,
	        65536u,
	};

	return fz_pick64(in, tab, sizeof(tab) / sizeof(tab[0]));
}

/* Largest advance that keeps the model's per-boundary loop short: 512
 * periods of the fastest enabled channel. */
static uint64_t max_advance(void)
{
	uint64_t lim = 1ull << 30;

	for (unsigned n = 0; n < 2u; n++) {
		uint32_t ctrl = tm.ch[n].ctrl;
		uint64_t hz = ((ctrl >> 2) & 3u) == 1u ? tm.osc24m_hz : tm.losc_hz;
		uint64_t clocks = ((uint64_t)tm.ch[n].intv + 1u) << ((ctrl >> 4) & 7u);
		uint64_t ticks = clocks * SIM_HZ / hz + 1u;

		if ((ctrl & 1u) != 0u && ticks * 512u < lim) {
			lim = ticks * 512u;
		}
	}
	return lim;
}

static void after_call(int slot, const struct d1_timer *t, int err, unsigned allowed)
{
	fz_end();
	tm.owner = -1;
	fz_check_call(TIMER_CALL_MAX_TICKS);
	fz_check_err_writes(err, allowed);
	if (slot < 0 || !sh[slot].inited) {
		FZ_CHECK(fz_call_writes() == 0u, "a call on a %s handle wrote registers",
		         t == NULL ? "NULL" : "never-initialised");
	}
	check_models();
}

static void begin(const char *op, int slot)
{
	fz_begin(op);
	tm.owner = slot >= 0 && sh[slot].inited && sh[slot].mapped ? slot : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in;
	uint8_t setup;
	uint32_t osc, losc;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	setup = fz_u8(&in);
	/* The readings of the unknown facts the driver supports (not
	 * intv_latch_on_reload: docs/hardware-facts.md). */
	tm.reload_stuck = (setup & 1u) != 0u && (setup & 0x80u) != 0u;
	tm.reload_sticky = (setup & 2u) != 0u;
	tm.single_keeps_en = (setup & 4u) != 0u;
	osc = fz_pick32(&in, rates, sizeof(rates) / sizeof(rates[0]));
	losc = fz_pick32(&in, rates, sizeof(rates) / sizeof(rates[0]));
	tm.osc24m_hz = rate_ok(osc) ? osc : D1_OSC24M_HZ;
	tm.losc_hz = rate_ok(losc) ? losc : D1_LOSC_HZ;
	memset(th, 0, sizeof(th));
	memset(&zero_handle, 0, sizeof(zero_handle));
	memset(sh, 0, sizeof(sh));
	for (unsigned n = 0; n < 2u; n++) {
		(void)d1_timer_init(&th[n], D1_TIMER_BASE, n, tm.osc24m_hz, tm.losc_hz);
		sh[n].inited = true;
		sh[n].mapped = true;
	}

	while (fz_more(&in) && !fz_over_budget()) {
		uint8_t op = fz_u8(&in) % 20u;
		int slot;
		struct d1_timer *t = pick_handle(&in, &slot);
		struct d1_timer_achieved ach;
		int err = D1_OK;

		switch (op) {
		case 0: { /* init: valid, or a bad argument */
			uint8_t how = fz_u8(&in);
			uintptr_t base = D1_TIMER_BASE;
			unsigned ch = slot >= 0 ? (unsigned)slot : 0u;
			uint32_t o = tm.osc24m_hz, l = tm.losc_hz;

			switch (how % 8u) {
			case 1:
				base = 0u;
				break;
			case 2:
				base = D1_TIMER_BASE | (1u + how / 8u % 3u);
				break;
			case 3:
				ch = 2u + fz_u8(&in);
				break;
			case 4:
				o = fz_u32(&in);
				o = rate_ok(o) ? 0u : o;
				break;
			case 5:
				l = fz_u32(&in);
				l = rate_ok(l) ? D1_TIMER_SRC_MAX_HZ + 1u : l;
				break;
			case 6:
				base = UNMAPPED_BASE;
				break;
			default:
				break;
			}
			struct d1_timer scratch;

			begin("d1_timer_init", -1);
			/* the never-initialised handle stays so */
			err = d1_timer_init(t == &zero_handle ? &scratch : t, base, ch, o, l);
			fz_end();
			fz_check_no_access();
			if (t != NULL && err == D1_OK && slot >= 0) {
				sh[slot] = (struct shadow){.inited = true,
				                           .mapped = base == D1_TIMER_BASE};
			}
			FZ_CHECK((err == D1_OK) ==
			                 (t != NULL && how % 8u != 1u && how % 8u != 2u &&
			                  how % 8u != 3u && how % 8u != 4u && how % 8u != 5u),
			         "d1_timer_init returned %s", d1_strerror(err));
			break;
		}
		case 1: { /* set_clock */
			unsigned src = fz_u8(&in) % 5u;
			unsigned k = fz_u8(&in) % 10u;

			begin("d1_timer_set_clock", slot);
			err = d1_timer_set_clock(t, (enum d1_timer_src)src, k);
			after_call(slot, t, err, 0u);
			fz_check_no_access();
			break;
		}
		case 2:
		case 3:
		case 4: {
			uint64_t v = pick_clocks(&in);
			bool want_out = fz_bool(&in);

			memset(&ach, 0, sizeof(ach));
			begin(op == 2   ? "d1_timer_set_period_clocks"
			      : op == 3 ? "d1_timer_set_period_ns"
			                : "d1_timer_set_period_hz",
			      slot);
			if (op == 2) {
				err = d1_timer_set_period_clocks(t, v, want_out ? &ach : NULL);
			} else if (op == 3) {
				err = d1_timer_set_period_ns(t, v, want_out ? &ach : NULL);
			} else {
				err = d1_timer_set_period_hz(t, (uint32_t)v,
				                             want_out ? &ach : NULL);
			}
			after_call(slot, t, err, 0u);
			fz_check_no_access();
			if (err == D1_OK && slot >= 0) {
				sh[slot].clocks = t->clocks;
				sh[slot].rem = t->rem;
				FZ_CHECK(t->clocks >= D1_TIMER_MIN_PERIOD &&
				                 t->clocks + (t->rem != 0u) <= D1_TIMER_MAX_PERIOD,
				         "period %llu + %llu/%llu outside the documented range",
				         (unsigned long long)t->clocks, (unsigned long long)t->rem,
				         (unsigned long long)t->den);
				if (want_out) {
					FZ_CHECK(ach.clocks == t->clocks && ach.rem == t->rem,
					         "achieved differs from the period set");
				}
			}
			break;
		}
		case 5: { /* start */
			unsigned mode = fz_u8(&in) % 3u;

			begin("d1_timer_start", slot);
			err = d1_timer_start(t, (enum d1_timer_mode)mode);
			after_call(slot, t, err, FZ_ERRBIT(D1_ETIMEDOUT));
			if (slot >= 0 && err == D1_OK) {
				sh[slot].running = true;
				sh[slot].periodic_exact = sh[slot].mapped &&
				                          mode == D1_TIMER_PERIODIC && t->rem == 0u;
				sh[slot].period = t->clocks;
				/* (a one-shot may already have expired) */
				FZ_CHECK(!sh[slot].periodic_exact || (tm.ch[slot].ctrl & 1u) != 0u,
				         "started, but EN is clear");
			} else if (slot >= 0 && err == D1_ETIMEDOUT) {
				sh[slot].running = false;
				sh[slot].periodic_exact = false;
				FZ_CHECK(!sh[slot].mapped || (tm.ch[slot].ctrl & 1u) == 0u,
				         "D1_ETIMEDOUT left the channel enabled");
			}
			break;
		}
		case 6:
			begin("d1_timer_stop", slot);
			err = d1_timer_stop(t);
			after_call(slot, t, err, 0u);
			if (slot >= 0 && err == D1_OK) {
				sh[slot].running = false;
				sh[slot].periodic_exact = false;
				FZ_CHECK(!sh[slot].mapped || (tm.ch[slot].ctrl & 1u) == 0u,
				         "stopped, but EN is set");
			}
			break;
		case 7:
		case 8: { /* the ISR, called at random or when the line is up */
			uint32_t r;

			if (t == &zero_handle) {
				break; /* only NULL is checked on this path (timer.h) */
			}
			if (op == 8 && (slot < 0 || !timer_model_irq(&tm, (unsigned)slot))) {
				break;
			}
			begin("d1_timer_isr", slot);
			r = d1_timer_isr(t);
			after_call(slot, t, D1_OK, 0u);
			if (slot >= 0 && sh[slot].periodic_exact && r != D1_TIMER_ISR_SPURIOUS) {
				FZ_CHECK(r < sh[slot].period,
				         "isr: %u clocks since the boundary, period %llu", r,
				         (unsigned long long)sh[slot].period);
			}
			if (t == NULL) {
				FZ_CHECK(r == D1_TIMER_ISR_SPURIOUS, "isr(NULL) returned %u", r);
			}
			break;
		}
		case 9: { /* the getters */
			uint32_t e;
			uint64_t rem;
			uint64_t ns;
			bool pend, en;
			uint64_t clk = pick_clocks(&in);

			begin("d1_timer getters", slot);
			e = d1_timer_elapsed(t);
			rem = d1_timer_remaining(t);
			(void)d1_timer_read_current(t);
			pend = d1_timer_irq_pending(t);
			en = d1_timer_hw_enabled(t);
			ns = d1_timer_clocks_to_ns(t, clk);
			after_call(slot, t, D1_OK, 0u);
			fz_check_no_write();
			if (slot >= 0 && sh[slot].periodic_exact) {
				FZ_CHECK(e < sh[slot].period, "elapsed %u, period %llu", e,
				         (unsigned long long)sh[slot].period);
				FZ_CHECK(rem >= 1u && rem <= sh[slot].period,
				         "remaining %llu, period %llu", (unsigned long long)rem,
				         (unsigned long long)sh[slot].period);
			}
			if (t == NULL || t == &zero_handle) {
				FZ_CHECK(e == 0u && rem == 0u && !pend && !en,
				         "a NULL/uninitialised handle gave a non-neutral value");
			}
			(void)ns;
			break;
		}
		case 10:
			begin("d1_timer_irq_enable", slot);
			err = d1_timer_irq_enable(t, fz_bool(&in));
			after_call(slot, t, err, 0u);
			break;
		case 11:
			begin("d1_timer_irq_ack", slot);
			err = d1_timer_irq_ack(t);
			after_call(slot, t, err, 0u);
			break;
		case 12: { /* one-shot arm */
			uint64_t c = pick_clocks(&in);

			begin("d1_timer_oneshot_arm", slot);
			err = d1_timer_oneshot_arm(t, c);
			after_call(slot, t, err, 0u);
			if (slot >= 0 && err == D1_OK) {
				sh[slot].running = true;
				sh[slot].periodic_exact = false;
				FZ_CHECK(!sh[slot].mapped || (tm.ch[slot].ctrl & 0x81u) == 0x81u,
				         "armed, but not enabled in single mode");
			}
			FZ_CHECK(err != D1_OK || c <= D1_TIMER_ONESHOT_MAX,
			         "armed beyond the maximum");
			break;
		}
		case 13:
			begin("d1_timer_oneshot_cancel", slot);
			err = d1_timer_oneshot_cancel(t);
			after_call(slot, t, err, 0u);
			if (slot >= 0 && err == D1_OK) {
				sh[slot].running = false;
				FZ_CHECK(!sh[slot].mapped || ((tm.ch[slot].ctrl & 1u) == 0u &&
				                              (tm.irq_sta & (1u << slot)) == 0u),
				         "cancelled, but enabled or pending");
			}
			break;
		case 14: {
			uint64_t left = 0;
			bool null_out = fz_u8(&in) < 16u;

			begin("d1_timer_oneshot_remaining", slot);
			err = d1_timer_oneshot_remaining(t, null_out ? NULL : &left);
			after_call(slot, t, err, 0u);
			fz_check_no_write();
			break;
		}
		case 15: {
			struct d1_timer_stats st;

			begin("d1_timer_get_stats", slot);
			err = d1_timer_get_stats(t, fz_u8(&in) < 16u ? NULL : &st);
			after_call(slot, t, err, 0u);
			fz_check_no_access();
			break;
		}
		case 16:
		case 17: { /* model time passes */
			uint64_t lim = max_advance();
			uint64_t dt = fz_u32(&in) % lim;

			if (sim_now() < (1ull << 36)) {
				sim_advance(dt);
			}
			check_models();
			break;
		}
		case 18: { /* firmware left a channel running (only while the
			    * driver has nothing running: it owns the block after) */
			unsigned n = fz_u8(&in) & 1u;
			uint32_t ctrl = fz_u8(&in);
			uint32_t intv = fz_u32(&in) | 0x100u;

			if (sh[0].running || sh[1].running) {
				break;
			}
			tm.ch[n].ctrl = (ctrl | 1u) & 0xFDu;
			tm.ch[n].intv = intv;
			tm.ch[n].cur = intv / 2u;
			tm.ch[n].loaded = true;
			tm.ch[n].stopped = false;
			tm.ch[n].sync_pending = false; /* firmware's last disable was long ago */
			tm.irq_sta |= fz_u8(&in) & 3u;
			tm.irq_en = fz_u8(&in) & 3u;
			break;
		}
		default: { /* as a PLIC would: serve whichever line is up */
			for (unsigned n = 0; n < 2u; n++) {
				if (timer_model_irq(&tm, n) && sh[n].inited) {
					begin("d1_timer_isr (line)", (int)n);
					(void)d1_timer_isr(&th[n]);
					after_call((int)n, &th[n], D1_OK, 0u);
				}
			}
			break;
		}
		}
	}
	return 0;
}
