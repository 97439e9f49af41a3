/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the PLIC driver (d1/plic.h) on the PLIC model, D1
 * (T-Head, PLIC_CTRL, 5-bit priorities, M- or S-mode accessor) and QEMU
 * virt flavours. Random sequences of every public call with arbitrary
 * arguments; device lines (level and edge); dispatch through d1_plic_isr()
 * with handlers that complete, disable or enable sources, change
 * priorities or dispatch again (nested), and through the lean entry
 * (d1_plic_claim_begin/_end/_unhandled, as an OS with its own table); the model's faults (spurious
 * claims, reserved claim bits, a WARL priority limit, a stuck claim, power
 * cycles). Invariants after every call: fuzz_common.h; no call waits at
 * all; the driver never completes a source that is not in service or that
 * is masked (complete-before-mask), and never touches a source other than
 * the call's (its own claims, for a dispatch); no unhandled bus fault from
 * S-mode; handler calls bounded (nsources + 1 per dispatch); the documented
 * effect of enable/disable/set_priority.
 */
#include <string.h>

#include "d1/memmap.h"
#include "d1/plic.h"
#include "fuzz_common.h"
#include "plic_model.h"
#include "sim.h"

#define UNMAPPED_BASE 0x0A000000u
#define TABLE_MAX     200u
#define MAX_NEST      2u

static struct plic_model pm;
static struct d1_plic ph;
static struct d1_plic zero_handle;
static bool ph_ok;       /* init succeeded on the model */
static bool stuck;       /* the stuck-claim fault is on: completions unverifiable */
static unsigned prio_hw; /* the model's priority mask */
static struct d1_plic_entry table[TABLE_MAX];
static uint8_t action[TABLE_MAX]; /* what each source's handler does */
static uint8_t action_arg[TABLE_MAX];
static struct d1_plic_stats stats;
static unsigned depth;  /* nested dispatches */
static unsigned budget; /* handler actions left in this input */

static void check_models(void)
{
	if (!stuck) {
		FZ_CHECK(pm.completes_unclaimed == 0u, "a completion for a source not in service");
		FZ_CHECK(pm.completes_dropped_masked == 0u,
		         "a completion for a masked source (dropped: complete-before-mask)");
		FZ_CHECK(pm.completes_bad_id == 0u, "a completion with id 0 or above nsources");
	}
	FZ_CHECK(pm.foreign_writes == 0u, "a call touched another source's bits or registers");
	FZ_CHECK(sim_unhandled_faults() == 0u, "an access faulted outside the fault-safe probe");
}

struct guard_save {
	bool on, claimed, thr;
	uint32_t allow[PLIC_MODEL_MAX_SRC / 32 + 1];
};

static void guard_save(struct guard_save *g)
{
	g->on = pm.guard;
	g->claimed = pm.guard_claimed;
	g->thr = pm.guard_threshold;
	memcpy(g->allow, pm.guard_allow, sizeof(g->allow));
}

static void guard_restore(const struct guard_save *g)
{
	pm.guard = g->on;
	pm.guard_claimed = g->claimed;
	pm.guard_threshold = g->thr;
	memcpy(pm.guard_allow, g->allow, sizeof(g->allow));
}

/* Guard for a call that may touch @p src only (0: none). */
static void guard_src(unsigned src, bool claimed, bool thr)
{
	plic_model_guard_clear(&pm);
	pm.guard = true;
	pm.guard_claimed = claimed;
	pm.guard_threshold = thr;
	if (src != 0u) {
		plic_model_guard_allow(&pm, src);
	}
}

static void handler(unsigned source, void *arg);

static void dispatch_once(void)
{
	unsigned n;
	struct guard_save g;

	guard_save(&g);
	guard_src(0u, true, false);
	depth++;
	n = d1_plic_isr(&ph, table, TABLE_MAX, &stats);
	depth--;
	guard_restore(&g);
	FZ_CHECK(n <= (unsigned)ph.nsources + 1u, "one dispatch made %u handler calls", n);
}

/* A handler: acknowledges its device (unless told not to), and may call
 * the driver for its own or another source. Edge sources are completed by
 * the dispatch before the handler, so a handler completes only a level
 * source (its own completion of an edge source would be the caller's). */
static void handler(unsigned source, void *arg)
{
	unsigned other = action_arg[source] % (pm.nsources + 1u);
	struct guard_save g;

	(void)arg;
	if ((action[source] & 0x80u) == 0u) {
		plic_model_set_level(&pm, source, false); /* the device's acknowledge */
	}
	if (budget == 0u) {
		return;
	}
	budget--;
	guard_save(&g);
	switch (action[source] % 8u) {
	case 1:
		if (!table[source].edge) {
			guard_src(source, false, false);
			d1_plic_complete(&ph, source);
		}
		break;
	case 2:
		guard_src(source, false, false);
		(void)d1_plic_disable(&ph, source);
		break;
	case 3: /* disabling another source completes it first if in service */
		guard_src(other, false, false);
		(void)d1_plic_disable(&ph, other);
		break;
	case 4:
		guard_src(other, false, false);
		(void)d1_plic_enable(&ph, other);
		break;
	case 5:
		guard_src(other, false, false);
		(void)d1_plic_set_priority(&ph, other, action_arg[source] % (prio_hw + 1u));
		break;
	case 6:
		if (depth < MAX_NEST && !stuck) {
			guard_restore(&g);
			dispatch_once();
		}
		break;
	case 7: /* another device raises its line meanwhile */
		plic_model_set_level(&pm, other == 0u ? 1u : other, true);
		break;
	default:
		break;
	}
	guard_restore(&g);
}

static void after(bool valid, int err, unsigned allowed)
{
	fz_end();
	plic_model_guard_clear(&pm);
	fz_check_call(0u); /* no call of this driver waits */
	fz_check_err_writes(err, allowed);
	if (!valid) {
		FZ_CHECK(fz_call_writes() == 0u, "a call on a NULL/uninitialised handle wrote");
	}
	check_models();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in;
	uint8_t setup;
	bool d1;
	unsigned ctx;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	setup = fz_u8(&in);
	d1 = (setup & 1u) == 0u;
	plic_model_init(&pm, D1_PLIC_BASE, d1 ? D1_PLIC_NSOURCES : D1_PLIC_QEMU_VIRT_NSOURCES,
	                d1 ? 5u : 3u, d1);
	prio_hw = d1 ? 31u : 7u;
	pm.s_mode = d1 && (setup & 2u) != 0u;
	pm.ctrl = (setup & 4u) != 0u ? 1u : 0u; /* S_PER as M-mode firmware left it */
	stuck = false;
	if ((setup & 0x18u) == 0x18u) {
		pm.claim_or = 0xFC00u; /* reserved bits read 1 */
	}
	if ((setup & 0x60u) == 0x60u) {
		pm.prio_limit = 5u;
	}
	memset(table, 0, sizeof(table));
	memset(&stats, 0, sizeof(stats));
	memset(&zero_handle, 0, sizeof(zero_handle));
	depth = 0;
	budget = 16;
	fz_set_input_budget(60000u); /* each claim scans every source in the model */
	for (unsigned s = 1; s < TABLE_MAX; s++) {
		uint8_t t = fz_u8(&in);

		table[s].fn = (t & 3u) != 0u ? handler : NULL;
		table[s].edge = (t & 4u) != 0u;
		action[s] = (uint8_t)(t >> 3) | (uint8_t)(t & 0x80u);
		action_arg[s] = fz_u8(&in);
		if (s >= 8u && fz_u8(&in) < 200u) {
			/* the rest like the last: short inputs stay short */
			for (unsigned r = s + 1u; r < TABLE_MAX; r++) {
				table[r] = table[s];
				action[r] = action[s];
				action_arg[r] = (uint8_t)(action_arg[s] + r);
			}
			break;
		}
	}
	for (unsigned s = 1; s <= pm.nsources; s++) {
		pm.edge[s] = s < TABLE_MAX && table[s].edge;
	}
	/* Context 1 from S-mode, or 0 from M-mode (context 0 from S-mode
	 * faults without S_PER: not a driver question). */
	ctx = pm.s_mode ? 1u : fz_u8(&in) & 1u;
	guard_src(0u, false, true);
	plic_model_guard_clear(&pm);
	fz_begin("d1_plic_init_ex (setup)");
	{
		int err = d1_plic_init_ex(&ph, D1_PLIC_BASE, ctx, pm.nsources, 0u, prio_hw);

		after(true, err, FZ_ERRBIT(D1_ENODELEG));
		ph_ok = err == D1_OK;
		FZ_CHECK(err == D1_OK || (err == D1_ENODELEG && pm.s_mode && pm.ctrl == 0u),
		         "init returned %s", d1_strerror(err));
	}

	while (fz_more(&in) && !fz_over_budget()) {
		uint8_t op = fz_u8(&in) % 20u;
		uint8_t k = fz_u8(&in);
		struct d1_plic *p = k % 8u == 6u ? NULL : k % 8u == 7u ? &zero_handle : &ph;
		bool valid = p == &ph && ph_ok;
		unsigned src = fz_u8(&in);
		int err = D1_OK;

		if (p == &ph && !ph_ok) {
			continue; /* S-mode without delegation: the driver said so */
		}
		src = src % 4u == 0u ? fz_u16(&in) % 1100u : src % (pm.nsources + 2u);
		switch (op) {
		case 0: { /* init again: valid or a bad argument */
			uint8_t how = fz_u8(&in) % 8u;
			uintptr_t base = how == 1u   ? 0u
			                 : how == 2u ? D1_PLIC_BASE + 2u
			                             : D1_PLIC_BASE;
			unsigned c = how == 3u ? 2u + fz_u8(&in) : ctx;
			unsigned ns = how == 4u ? 0u : how == 5u ? 1024u + fz_u8(&in) : pm.nsources;
			unsigned thr = how == 6u ? prio_hw + 1u + fz_u8(&in) % 8u
			                         : fz_u8(&in) % (prio_hw + 1u);
			unsigned pmax = how == 7u ? (fz_bool(&in) ? 0u : 32u) : prio_hw;
			struct d1_plic scratch;

			if (depth == 0u) {
				fz_begin("d1_plic_init_ex");
				err = d1_plic_init_ex(p == &ph    ? &ph
				                      : p == NULL ? NULL
				                                  : &scratch,
				                      base, c, ns, thr, pmax);
				after(true, err, FZ_ERRBIT(D1_ENODELEG));
				FZ_CHECK(err == D1_ENODELEG
				                 ? pm.s_mode && pm.ctrl == 0u && how == 0u
				                 : (err == D1_OK) == (p != NULL && how == 0u),
				         "init_ex returned %s", d1_strerror(err));
			}
			break;
		}
		case 1: {
			unsigned m = fz_u8(&in) % 40u;

			fz_begin("d1_plic_set_max_priority");
			err = d1_plic_set_max_priority(p, m);
			fz_end();
			fz_check_no_access();
			if (err == D1_OK && p == &ph && m > prio_hw) {
				(void)d1_plic_set_max_priority(
				        p, prio_hw); /* keep it the hardware's */
			}
			break;
		}
		case 2: {
			unsigned prio = fz_u8(&in) % 40u;

			fz_begin("d1_plic_set_priority");
			guard_src(src, false, false);
			err = d1_plic_set_priority(p, src, prio);
			after(valid, err, 0u);
			if (err == D1_OK && pm.prio_limit == 0u) {
				FZ_CHECK(pm.prio[src] == prio, "priority %u, set %u", pm.prio[src],
				         prio);
			}
			break;
		}
		case 3:
		case 4: {
			bool en = op == 3;

			fz_begin(en ? "d1_plic_enable" : "d1_plic_disable");
			guard_src(src, false, false);
			err = en ? d1_plic_enable(p, src) : d1_plic_disable(p, src);
			after(valid, err, 0u);
			if (err == D1_OK) {
				FZ_CHECK(plic_model_enabled(&pm, ph.context, src) == en,
				         "source %u %s, but the enable bit says otherwise", src,
				         en ? "enabled" : "disabled");
			}
			break;
		}
		case 5: {
			unsigned thr = fz_u8(&in) % 40u;

			fz_begin("d1_plic_set_threshold");
			guard_src(0u, false, true);
			err = d1_plic_set_threshold(p, thr);
			after(valid, err, 0u);
			break;
		}
		case 6:
		case 7:
		case 8: { /* dispatch, as the trap handler does */
			bool null_table = fz_u8(&in) < 8u;
			bool null_stats = fz_u8(&in) < 8u;
			unsigned len = null_table ? fz_u8(&in) % 2u : fz_u8(&in) % (TABLE_MAX + 1u);
			unsigned n;

			fz_begin("d1_plic_isr");
			guard_src(0u, true, false);
			depth = 1;
			n = d1_plic_isr(p, null_table ? NULL : table, len,
			                null_stats ? NULL : &stats);
			depth = 0;
			after(valid, D1_OK, 0u);
			FZ_CHECK(p == NULL || n <= (unsigned)p->nsources + 1u,
			         "one dispatch made %u handler calls", n);
			if (null_table && len != 0u) {
				FZ_CHECK(n == 0u && fz_call_accesses() == 0u,
				         "a NULL table was used");
			}
			break;
		}
		case 9: { /* a claim and a completion outside dispatch, by the caller */
			unsigned id;

			fz_begin("d1_plic_claim");
			guard_src(0u, true, false);
			id = d1_plic_claim(p);
			after(valid, D1_OK, 0u);
			fz_check_no_write();
			if (id != 0u && valid && !stuck) {
				guard_src(id, false, false);
				fz_begin("d1_plic_complete (claimed)");
				d1_plic_complete(p, id);
				after(valid, D1_OK, 0u);
			}
			break;
		}
		case 10: { /* a completion with an arbitrary id: only bad ids are the
			    * driver's to refuse */
			uint32_t rej = ph.rejected;

			if (src >= 1u && src <= ph.nsources) {
				break; /* a valid id is written as the caller asks */
			}
			fz_begin("d1_plic_complete (bad id)");
			d1_plic_complete(p, src);
			after(valid, D1_OK, 0u);
			fz_check_no_write();
			FZ_CHECK(p != &ph || ph.rejected == rej + 1u, "a bad id was not counted");
			break;
		}
		case 11:
			fz_begin("d1_plic_check_delegation");
			err = d1_plic_check_delegation(p);
			after(valid, err, FZ_ERRBIT(D1_ENODELEG));
			if (p == &ph && ph.context == 0u) {
				fz_check_no_access();
			}
			break;
		case 12: /* S_PER from M-mode firmware (S-mode would fault) */
			if (!pm.s_mode) {
				uint8_t how = fz_u8(&in) % 3u;

				fz_begin("d1_plic_set_s_per");
				err = d1_plic_set_s_per(how == 1u   ? 0u
				                        : how == 2u ? D1_PLIC_BASE + 1u
				                                    : D1_PLIC_BASE,
				                        fz_bool(&in));
				after(true, err, FZ_ERRBIT(D1_ENODELEG));
				FZ_CHECK(err != D1_ENODELEG || !pm.has_ctrl, "S_PER did not stick");
			}
			break;
		case 13:
		case 14: /* device lines */
			if (src >= 1u && src <= pm.nsources) {
				if (pm.edge[src]) {
					plic_model_pulse(&pm, src);
				} else {
					plic_model_set_level(&pm, src, fz_bool(&in));
				}
			}
			break;
		case 15: { /* faults */
			uint8_t f = fz_u8(&in);

			if (f % 4u == 0u) {
				pm.spurious_claims = f >> 2;
			} else if (f % 4u == 1u && !pm.s_mode) {
				plic_model_power_cycle(&pm); /* S_PER lost: M-mode only */
				for (unsigned s = 1; s <= pm.nsources; s++) {
					pm.edge[s] = s < TABLE_MAX && table[s].edge;
				}
			} else if (f == 0xFEu) {
				pm.stuck_claim = 1u + fz_u8(&in) % 1023u;
				stuck = true;
			}
			break;
		}
		case 16: { /* the lean entry, as an OS dispatcher with its own table */
			struct d1_plic_frame f;
			unsigned id;

			if (!valid || stuck) {
				break; /* unchecked inline: for a handle init accepted */
			}
			fz_begin("d1_plic_claim_begin/_end/_unhandled");
			guard_src(0u, true, false);
			depth = 1;
			id = d1_plic_claim_begin(&ph, &f, &stats);
			FZ_CHECK(id <= ph.nsources, "the lean entry returned id %u", id);
			if (id != 0u && id < TABLE_MAX && table[id].fn != NULL) {
				if (table[id].edge) {
					d1_plic_complete(&ph, id); /* an edge source: first */
				}
				handler(id, NULL);
				d1_plic_claim_end(&ph, &f, &stats);
			} else if (id != 0u) {
				if (id < TABLE_MAX && table[id].edge) {
					/* an OS that completes an edge source before it
					 * looks for a handler: the end must not repeat it */
					d1_plic_complete(&ph, id);
				}
				d1_plic_claim_unhandled(&ph, &f, &stats);
				FZ_CHECK(!plic_model_enabled(&pm, ph.context, id),
				         "an unhandled source %u left enabled", id);
			}
			depth = 0;
			FZ_CHECK(ph.active == NULL, "the lean entry left its frame linked");
			FZ_CHECK(id == 0u || pm.claimed_by[id] != (int)ph.context,
			         "the lean entry left source %u in service", id);
			after(true, D1_OK, 0u);
			break;
		}
		default: { /* the other context's software enables a source */
			unsigned c = ph.context;

			if (src >= 1u && src <= pm.nsources) {
				pm.enable[c][src / 32u] |= 1u << (src % 32u);
				if (pm.prio[src] == 0u) {
					pm.prio[src] = 1u;
				}
			}
			break;
		}
		}
		check_models();
	}
	return 0;
}
