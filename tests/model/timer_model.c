/* SPDX-License-Identifier: Apache-2.0 */
#include "timer_model.h"

#include <string.h>

#define CTRL_EN         0x1u
#define CTRL_RELOAD     0x2u
#define CTRL_SRC(v)     (((v) >> 2) & 0x3u)
#define CTRL_PRES(v)    (((v) >> 4) & 0x7u)
#define CTRL_SINGLE     0x80u
#define SYNC_MIN_CLOCKS 2u

uint64_t timer_model_src_edges(const struct timer_model *m, unsigned src, uint64_t now)
{
	/* Model time counts SIM_HZ ticks; LOSC edges are floor(now * f / SIM_HZ). */
	uint32_t hz = src == 1u ? m->osc24m_hz : m->losc_hz;
	if (hz == SIM_HZ) {
		return now;
	}
	return now * hz / SIM_HZ; /* exact while now * hz < 2^64 (> 10^7 s of LOSC) */
}

static void count(struct timer_model *m, unsigned n, uint64_t src_edges)
{
	struct timer_model_ch *c = &m->ch[n];
	unsigned k = CTRL_PRES(c->ctrl);
	uint64_t total = c->presc_resid + src_edges;
	uint64_t clocks = total >> k;

	c->presc_resid = (uint32_t)(total & ((1u << k) - 1u));
	while (clocks > 0 && (c->ctrl & CTRL_EN) != 0) {
		if (c->reload_req && !m->reload_stuck) {
			/* the load happens on an input clock edge */
			c->cur = c->intv;
			c->shadow = c->intv;
			c->loaded = true;
			c->in_clocks = 0;
			c->reload_req = false;
			if (!m->reload_sticky) {
				c->ctrl &= ~CTRL_RELOAD;
			}
			clocks--;
			continue;
		}
		if (!c->loaded || c->stopped) {
			return; /* never loaded, or single mode ended: nothing counts */
		}
		if (clocks <= c->cur) {
			c->cur -= (uint32_t)clocks;
			c->in_clocks += clocks;
			return;
		}
		/* through zero to the boundary: cur + 1 clocks */
		clocks -= (uint64_t)c->cur + 1u;
		c->in_clocks += (uint64_t)c->cur + 1u;
		m->irq_sta |= 1u << n;
		c->boundaries++;
		if (m->on_boundary != NULL) {
			m->on_boundary(m->arg, n, c->in_clocks);
		}
		if ((c->ctrl & CTRL_SINGLE) != 0) {
			/* single mode: stop at the boundary (EN cleared, or in
			 * the other reading kept while the counter stays at 0) */
			c->cur = 0;
			if (m->single_keeps_en) {
				c->stopped = true;
			} else {
				c->ctrl &= ~CTRL_EN;
			}
			return;
		}
		/* periodic: latch INTV as it is now (or, in the alternative
		 * reading, the value the last RELOAD copied) */
		c->cur = m->intv_latch_on_reload ? c->shadow : c->intv;
	}
}

static void advance(void *ctx, uint64_t now)
{
	struct timer_model *m = ctx;

	for (unsigned n = 0; n < 2; n++) {
		unsigned src = CTRL_SRC(m->ch[n].ctrl) == 1u ? 1u : 0u;
		uint64_t e = timer_model_src_edges(m, src, now) -
		             timer_model_src_edges(m, src, m->last_now);
		if (e != 0) {
			count(m, n, e);
		}
	}
	m->last_now = now;
}

static void check_sync(struct timer_model *m, unsigned n)
{
	struct timer_model_ch *c = &m->ch[n];
	unsigned src;
	uint64_t edges;

	if (!c->sync_pending) {
		return;
	}
	/* 2 input clocks of the clock it was running on */
	src = CTRL_SRC(c->ctrl) == 1u ? 1u : 0u;
	edges = timer_model_src_edges(m, src, m->last_now) - c->src_at_disable;
	if (edges < ((uint64_t)SYNC_MIN_CLOCKS << CTRL_PRES(c->ctrl))) {
		c->sync_violations++;
	}
	c->sync_pending = false;
}

static uint32_t rd(void *ctx, uint32_t off)
{
	struct timer_model *m = ctx;

	switch (off) {
	case 0x00:
		return m->irq_en;
	case 0x04:
		return m->irq_sta;
	case 0x10:
	case 0x20:
		return m->ch[(off - 0x10) / 0x10].ctrl;
	case 0x14:
	case 0x24:
		return m->ch[(off - 0x14) / 0x10].intv;
	case 0x18:
	case 0x28:
		return m->ch[(off - 0x18) / 0x10].cur;
	default:
		return 0;
	}
}

/* With an owner channel set, a write that touches the other channel. */
static void check_owner(struct timer_model *m, uint32_t off, uint32_t v)
{
	uint32_t other;
	bool foreign = false;

	if (m->owner != 0 && m->owner != 1) {
		return;
	}
	other = 1u << (1 - m->owner);
	switch (off) {
	case 0x00:
		foreign = ((m->irq_en ^ v) & other) != 0;
		break;
	case 0x04:
		foreign = (v & other) != 0;
		break;
	case 0x10:
	case 0x14:
	case 0x18:
	case 0x20:
	case 0x24:
	case 0x28:
		foreign = (off & 0xF0u) != 0x10u * (uint32_t)(m->owner + 1);
		break;
	default:
		break;
	}
	if (foreign) {
		m->foreign_writes++;
	}
}

static void wr(void *ctx, uint32_t off, uint32_t v)
{
	struct timer_model *m = ctx;
	struct timer_model_ch *c;
	unsigned n;

	check_owner(m, off, v);
	switch (off) {
	case 0x00:
		m->irq_en = v & 0x3u;
		return;
	case 0x04:
		m->irq_sta &= ~(v & 0x3u); /* W1C */
		return;
	case 0x10:
	case 0x20:
		n = (off - 0x10) / 0x10;
		c = &m->ch[n];
		check_sync(m, n);
		if (CTRL_SRC(v) >= 2u && CTRL_SRC(v) != CTRL_SRC(c->ctrl)) {
			c->reserved_src_writes++; /* SVD: only 0 LOSC, 1 OSC24M */
		}
		if ((c->ctrl & CTRL_EN) != 0 && (v & CTRL_EN) == 0) {
			unsigned src = CTRL_SRC(c->ctrl) == 1u ? 1u : 0u;
			c->sync_pending = true;
			c->src_at_disable = timer_model_src_edges(m, src, m->last_now);
		}
		if ((v & CTRL_EN) != 0 && (c->ctrl & CTRL_EN) == 0) {
			c->presc_resid = 0;
		}
		/* RELOAD, once set, stays set until the load happens */
		c->ctrl = (v & 0xFDu) | (c->ctrl & CTRL_RELOAD) | (v & CTRL_RELOAD);
		if ((v & CTRL_RELOAD) != 0) {
			c->reload_req = true;
		}
		if ((v & CTRL_EN) == 0 || (v & CTRL_RELOAD) != 0) {
			c->stopped = false; /* a new start (or a disable) ends the stop */
		}
		if ((v & CTRL_EN) == 0) {
			c->ctrl &= ~CTRL_RELOAD;
			c->reload_req = false;
		}
		return;
	case 0x14:
	case 0x24:
		n = (off - 0x14) / 0x10;
		check_sync(m, n);
		m->ch[n].intv = v;
		m->ch[n].intv_writes++;
		if (v == 0u) {
			m->ch[n].intv_zero_writes++; /* a one-clock period */
		}
		return;
	default:
		return;
	}
}

void timer_model_init(struct timer_model *m, uintptr_t base)
{
	memset(m, 0, sizeof(*m));
	m->osc24m_hz = SIM_HZ;
	m->losc_hz = 32768u;
	m->last_now = sim_now();
	m->owner = -1;
	m->region = (struct sim_region){
	        .name = "timer",
	        .base = base,
	        .size = 0xA0,
	        .read = rd,
	        .write = wr,
	        .advance = advance,
	        .ctx = m,
	};
	sim_map(&m->region);
}

void timer_model_preset_running(struct timer_model *m, unsigned ch, uint32_t intv)
{
	uint32_t base = 0x10u * ch;

	wr(m, 0x14u + base, intv);
	wr(m, 0x10u + base, (1u << 2) | CTRL_RELOAD | CTRL_EN); /* OSC24M /1, periodic */
	wr(m, 0x00u, m->irq_en | (1u << ch));
	sim_advance((uint64_t)intv + 2u); /* the load edge, then intv + 1 clocks */
}

uint64_t timer_model_ticks_to_boundary(const struct timer_model *m, unsigned ch)
{
	const struct timer_model_ch *c = &m->ch[ch];
	unsigned k = CTRL_PRES(c->ctrl);

	if ((c->ctrl & CTRL_EN) == 0 || !c->loaded || c->stopped || c->reload_req ||
	    CTRL_SRC(c->ctrl) != 1u || m->osc24m_hz != SIM_HZ) {
		return 0; /* not counting, or not one source edge per tick */
	}
	/* through zero to the boundary: cur + 1 input clocks of 2^k edges,
	 * less the edges of the next clock already seen */
	return (((uint64_t)c->cur + 1u) << k) - c->presc_resid;
}

bool timer_model_irq(const struct timer_model *m, unsigned ch)
{
	return (m->irq_en & m->irq_sta & (1u << ch)) != 0;
}
