/* SPDX-License-Identifier: Apache-2.0 */
#include "plic_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OFF_PENDING 0x1000u
#define OFF_ENABLE  0x2000u
#define OFF_CTRL    0x1FFFFCu
#define OFF_CONTEXT 0x200000u

static uint32_t prio_mask(const struct plic_model *m)
{
	return (1u << m->prio_bits) - 1u;
}

bool plic_model_enabled(const struct plic_model *m, unsigned ctx, unsigned src)
{
	return (m->enable[ctx][src / 32u] >> (src % 32u) & 1u) != 0;
}

static bool guard_ok(const struct plic_model *m, unsigned src)
{
	return !m->guard ||
	       (src <= PLIC_MODEL_MAX_SRC && (m->guard_allow[src / 32u] >> (src % 32u) & 1u) != 0);
}

static void guard_check(struct plic_model *m, unsigned src)
{
	if (!guard_ok(m, src)) {
		m->foreign_writes++;
	}
}

void plic_model_guard_clear(struct plic_model *m)
{
	m->guard = false;
	m->guard_claimed = false;
	m->guard_threshold = false;
	memset(m->guard_allow, 0, sizeof(m->guard_allow));
}

void plic_model_guard_allow(struct plic_model *m, unsigned src)
{
	if (src <= PLIC_MODEL_MAX_SRC) {
		m->guard_allow[src / 32u] |= 1u << (src % 32u);
	}
}

static void gateway(struct plic_model *m, unsigned src)
{
	if (!m->edge[src] && m->level[src] && m->claimed_by[src] < 0) {
		m->pending[src] = true;
	}
}

static unsigned best(const struct plic_model *m, unsigned ctx)
{
	unsigned id = 0;
	uint32_t bp = 0;

	for (unsigned s = 1; s <= m->nsources; s++) {
		if (m->pending[s] && plic_model_enabled(m, ctx, s) &&
		    m->prio[s] > m->threshold[ctx] && m->prio[s] > bp) {
			bp = m->prio[s];
			id = s; /* strict > keeps the lowest id on ties */
		}
	}
	return id;
}

bool plic_model_eip(const struct plic_model *m, unsigned ctx)
{
	return best(m, ctx) != 0;
}

/* S-mode without S_PER: priority, pending, enable and the M context's
 * threshold/claim answer PSLVERR (openC906 plic_top.v: pprot[1] = M ||
 * (S_PER && S); plic_kid_busif.v prio_split_prv_vio / ip pslverr;
 * plic_hreg_busif.v ie_apb_slverr_pre, ict_apb_slverr_pre). */
static bool s_denied(const struct plic_model *m)
{
	return m->has_ctrl && m->s_mode && (m->ctrl & 1u) == 0;
}

/* PLIC_CTRL: PSLVERR for any access that is not M-mode (plic_ctrl.v
 * plic_ctrl_pslverr_pre: pprot != 2'b11), S_PER or not. */
static bool ctrl_denied(const struct plic_model *m)
{
	return m->has_ctrl && m->s_mode;
}

static uint32_t rd(void *ctx, uint32_t off)
{
	struct plic_model *m = ctx;

	if ((off & 3u) != 0) {
		return 0;
	}
	if (off < OFF_PENDING) {
		unsigned s = off / 4u;
		if (s_denied(m)) {
			m->denied_reads++;
			sim_bus_fault();
			return 0;
		}
		return s >= 1 && s <= m->nsources ? m->prio[s] : 0;
	}
	if (off < OFF_ENABLE) {
		unsigned w = (off - OFF_PENDING) / 4u;
		uint32_t v = 0;
		if (s_denied(m)) {
			m->denied_reads++;
			sim_bus_fault();
			return 0;
		}
		for (unsigned b = 0; b < 32; b++) {
			unsigned s = w * 32u + b;
			if (s >= 1 && s <= m->nsources && m->pending[s]) {
				v |= 1u << b;
			}
		}
		return v;
	}
	if (off < OFF_ENABLE + 0x80u * PLIC_MODEL_CTX) {
		unsigned c = (off - OFF_ENABLE) / 0x80u;
		unsigned w = (off - OFF_ENABLE) % 0x80u / 4u;
		if (s_denied(m)) {
			m->denied_reads++;
			sim_bus_fault();
			return 0;
		}
		return m->enable[c][w];
	}
	if (off == OFF_CTRL) {
		if (ctrl_denied(m)) {
			m->denied_reads++;
			sim_bus_fault();
			return 0;
		}
		return m->has_ctrl ? m->ctrl : 0;
	}
	if (off >= OFF_CONTEXT && off < OFF_CONTEXT + 0x1000u * PLIC_MODEL_CTX) {
		unsigned c = (off - OFF_CONTEXT) / 0x1000u;
		unsigned r = (off - OFF_CONTEXT) % 0x1000u;
		unsigned id;
		if (c == 0 && s_denied(m)) {
			m->denied_reads++; /* the M context's threshold/claim */
			sim_bus_fault();
			return 0;
		}
		if (r == 0) {
			return m->threshold[c];
		}
		if (r != 4) {
			return 0;
		}
		if (m->stuck_claim != 0) {
			m->claims[c]++;
			if (m->guard && m->guard_claimed) {
				plic_model_guard_allow(m,
				                       m->stuck_claim & 0x3FFu); /* the id field */
			}
			return m->stuck_claim;
		}
		if (m->spurious_claims > 0) {
			m->spurious_claims--;
			m->claims_zero[c]++;
			return 0;
		}
		id = best(m, c);
		if (id == 0) {
			m->claims_zero[c]++;
			return 0;
		}
		if (m->guard && m->guard_claimed) {
			plic_model_guard_allow(m, id);
		}
		m->pending[id] = false;
		m->claimed_by[id] = (int)c;
		m->claims[c]++;
		m->delivered[id]++;
		return id | m->claim_or;
	}
	return 0;
}

static void complete(struct plic_model *m, unsigned c, uint32_t id)
{
	m->completes[c]++;
	guard_check(m, id <= PLIC_MODEL_MAX_SRC ? id : PLIC_MODEL_MAX_SRC + 1u);
	if (id == 0 || id > m->nsources) {
		m->completes_bad_id++;
		return;
	}
	if (!plic_model_enabled(m, c, id)) {
		m->completes_dropped_masked++; /* the PLIC drops it */
		return;
	}
	if (m->claimed_by[id] != (int)c) {
		m->completes_unclaimed++;
		return;
	}
	m->claimed_by[id] = -1;
	gateway(m, id);
}

static uint32_t valid_bits(const struct plic_model *m, unsigned w)
{
	uint32_t v = 0;

	for (unsigned b = 0; b < 32; b++) {
		unsigned s = w * 32u + b;
		if (s >= 1 && s <= m->nsources) {
			v |= 1u << b;
		}
	}
	return v;
}

static void wr(void *ctx, uint32_t off, uint32_t v)
{
	struct plic_model *m = ctx;

	if ((off & 3u) != 0) {
		return;
	}
	if (off < OFF_PENDING) {
		unsigned s = off / 4u;
		if (s_denied(m)) {
			m->denied_writes++;
			sim_bus_fault();
			return;
		}
		guard_check(m, s);
		if (s >= 1 && s <= m->nsources) {
			if (m->prio_limit != 0 && (v & prio_mask(m)) > m->prio_limit) {
				return; /* WARL: illegal value, register unchanged */
			}
			m->prio[s] = v & prio_mask(m);
		}
		return;
	}
	if (off < OFF_ENABLE) {
		if (s_denied(m)) {
			m->denied_writes++;
			sim_bus_fault();
		}
		return; /* pending is read-only */
	}
	if (off < OFF_ENABLE + 0x80u * PLIC_MODEL_CTX) {
		unsigned c = (off - OFF_ENABLE) / 0x80u;
		unsigned w = (off - OFF_ENABLE) % 0x80u / 4u;
		if (s_denied(m)) {
			m->denied_writes++;
			sim_bus_fault();
			return;
		}
		uint32_t nv = v & valid_bits(m, w);
		for (unsigned b = 0; b < 32; b++) {
			if (((m->enable[c][w] ^ nv) >> b & 1u) != 0) {
				guard_check(m, w * 32u + b);
			}
		}
		m->enable[c][w] = nv;
		return;
	}
	if (off == OFF_CTRL) {
		if (!m->has_ctrl) {
			return;
		}
		if (ctrl_denied(m)) {
			m->denied_writes++; /* M-mode access only */
			sim_bus_fault();
			return;
		}
		if (m->guard) {
			m->foreign_writes++;
		}
		m->ctrl = v & 1u;
		return;
	}
	if (off >= OFF_CONTEXT && off < OFF_CONTEXT + 0x1000u * PLIC_MODEL_CTX) {
		unsigned c = (off - OFF_CONTEXT) / 0x1000u;
		unsigned r = (off - OFF_CONTEXT) % 0x1000u;
		if (c == 0 && s_denied(m)) {
			m->denied_writes++; /* the M context's threshold/claim */
			sim_bus_fault();
			return;
		}
		if (r == 0) {
			if (m->guard && !m->guard_threshold) {
				m->foreign_writes++;
			}
			m->threshold[c] = v & prio_mask(m);
		} else if (r == 4) {
			complete(m, c, v);
		}
	}
}

static void reset_state(struct plic_model *m)
{
	m->ctrl = 0;
	memset(m->prio, 0, sizeof(m->prio));
	memset(m->pending, 0, sizeof(m->pending));
	memset(m->enable, 0, sizeof(m->enable));
	memset(m->threshold, 0, sizeof(m->threshold));
	for (unsigned s = 0; s <= PLIC_MODEL_MAX_SRC; s++) {
		m->claimed_by[s] = -1;
	}
	for (unsigned s = 1; s <= m->nsources; s++) {
		gateway(m, s);
	}
}

void plic_model_init(struct plic_model *m, uintptr_t base, unsigned nsources, unsigned prio_bits,
                     bool has_ctrl)
{
	if (nsources == 0 || nsources > PLIC_MODEL_MAX_SRC - 1u || prio_bits == 0 ||
	    prio_bits > 8) {
		fprintf(stderr, "plic_model: bad parameters\n");
		abort();
	}
	memset(m, 0, sizeof(*m));
	m->nsources = nsources;
	m->prio_bits = prio_bits;
	m->has_ctrl = has_ctrl;
	reset_state(m);
	m->region = (struct sim_region){
	        .name = "plic",
	        .base = base,
	        .size = 0x4000000,
	        .read = rd,
	        .write = wr,
	        .ctx = m,
	};
	sim_map(&m->region);
}

void plic_model_set_level(struct plic_model *m, unsigned src, bool high)
{
	m->level[src] = high;
	gateway(m, src);
}

void plic_model_pulse(struct plic_model *m, unsigned src)
{
	if (m->claimed_by[src] >= 0) {
		m->edges_lost++; /* T-Head: edges during service are ignored */
		return;
	}
	m->pending[src] = true;
}

void plic_model_power_cycle(struct plic_model *m)
{
	reset_state(m);
}
