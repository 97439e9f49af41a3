/* SPDX-License-Identifier: Apache-2.0 */
/*
 * T-Head C900 PLIC driver (also the QEMU virt PLIC). Hardware semantics are
 * listed in d1/plic.h and docs/uart-and-plic.md; each place that depends on
 * one says so.
 */
#include "d1/plic.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"

/*
 * One dispatch in progress, on the dispatcher's stack. d1_plic_disable()
 * walks the chain so that a source masked while it is in service is
 * completed first (the PLIC drops a completion for a masked source).
 */
struct d1_plic_frame {
	struct d1_plic_frame *prev;
	uint32_t source;
	bool completed;
};

static uintptr_t reg(const struct d1_plic *p, uint32_t off)
{
	return p->base + off;
}

static bool handle_ok(const struct d1_plic *p)
{
	return p != NULL && p->base != 0u;
}

static bool source_ok(const struct d1_plic *p, unsigned source)
{
	return source >= 1u && source <= p->nsources;
}

d1_err_t d1_plic_check_delegation(struct d1_plic *p)
{
	uintptr_t a;
	uintptr_t s;
	uint32_t orig = 0;
	uint32_t probe;
	uint32_t back = 0;
	d1_err_t e;

	if (!handle_ok(p)) {
		return D1_EINVAL;
	}
	if (p->context == D1_PLIC_CTX_M) {
		return D1_OK; /* M-mode reaches every register */
	}
	/* Without S_PER an S-mode access to a priority register is answered
	 * with PSLVERR (openC906 plic_top.v / plic_kid_busif.v), a load/store
	 * access fault: every probe access goes through the port's fault-safe
	 * d1_port_probe32(). The read comes first (a load fault is precise) and
	 * alone decides on the D1; the write / read-back / restore also catch
	 * a PLIC that drops denied writes. Interrupts are off at the hart
	 * meanwhile, so the brief change cannot trap. */
	a = reg(p, D1_PLIC_PRIO_OFFSET(p->nsources));
	s = d1_port_critical_enter();
	e = d1_port_probe32(a, false, &orig);
	if (e == D1_OK) {
		/* Differs from orig and is legal for any prio_max >= 1 (a WARL
		 * register with a limit that is not 2^n - 1 could refuse
		 * orig ^ 1). */
		probe = orig == 1u ? 0u : 1u;
		e = d1_port_probe32(a, true, &probe);
		if (e == D1_OK) {
			e = d1_port_probe32(a, false, &back);
		}
		if (e == D1_OK && back == probe) {
			e = d1_port_probe32(a, true, &orig);
		} else if (e == D1_OK) {
			e = D1_ENODELEG; /* the write was dropped */
		}
	}
	d1_port_critical_exit(s);
	if (e == D1_ENOTSUP) {
		return D1_ENOTSUP; /* no fault-safe probe: nothing was accessed */
	}
	return e == D1_OK ? D1_OK : D1_ENODELEG;
}

d1_err_t d1_plic_init_ex(struct d1_plic *p, uintptr_t base, unsigned context, unsigned nsources,
                         unsigned threshold, unsigned prio_max)
{
	d1_err_t err;

	if (p == NULL || base == 0u || (base & 3u) != 0u || context >= D1_PLIC_CONTEXTS ||
	    nsources < 1u || nsources > D1_PLIC_MAX_SOURCES || prio_max < 1u ||
	    prio_max > D1_PLIC_PRIO_MAX) {
		return D1_EINVAL;
	}
	if (threshold > prio_max) {
		return D1_ERANGE;
	}
	*p = (struct d1_plic){
	        .base = base,
	        .context = (uint8_t)context,
	        .prio_max = (uint8_t)prio_max,
	        .nsources = (uint16_t)nsources,
	};
	if (context == D1_PLIC_CTX_S) {
		/* D1_ENOTSUP: the port has no fault-safe probe; proceed unchecked
		 * (documented in plic.h). */
		err = d1_plic_check_delegation(p);
		if (err != D1_OK && err != D1_ENOTSUP) {
			return err;
		}
	}
	for (unsigned src = 1; src <= nsources; src++) {
		d1_mmio_write32(reg(p, D1_PLIC_PRIO_OFFSET(src)), 0u);
	}
	for (unsigned w = 0; w <= nsources / 32u; w++) {
		d1_mmio_write32(reg(p, D1_PLIC_ENABLE_OFFSET(context, w)), 0u);
	}
	d1_mmio_write32(reg(p, D1_PLIC_THRESHOLD_OFFSET(context)), threshold);
	return D1_OK;
}

d1_err_t d1_plic_init(struct d1_plic *p, uintptr_t base, unsigned context, unsigned nsources,
                      unsigned threshold)
{
	return d1_plic_init_ex(p, base, context, nsources, threshold, D1_PLIC_PRIO_MAX);
}

d1_err_t d1_plic_set_max_priority(struct d1_plic *p, unsigned prio_max)
{
	if (!handle_ok(p) || prio_max < 1u || prio_max > D1_PLIC_PRIO_MAX) {
		return D1_EINVAL;
	}
	p->prio_max = (uint8_t)prio_max;
	return D1_OK;
}

d1_err_t d1_plic_set_priority(struct d1_plic *p, unsigned source, unsigned prio)
{
	if (!handle_ok(p) || !source_ok(p, source)) {
		return D1_EINVAL;
	}
	/* QEMU virt masks to 3 bits: 8 would silently become 0 (never). */
	if (prio > p->prio_max) {
		return D1_ERANGE;
	}
	d1_mmio_write32(reg(p, D1_PLIC_PRIO_OFFSET(source)), prio);
	return D1_OK;
}

static void set_enable(struct d1_plic *p, unsigned source, bool on)
{
	uint32_t bit = 1u << (source % 32u);

	d1_mmio_modify32(reg(p, D1_PLIC_ENABLE_OFFSET(p->context, source / 32u)), bit,
	                 on ? bit : 0u);
}

d1_err_t d1_plic_enable(struct d1_plic *p, unsigned source)
{
	uintptr_t s;

	if (!handle_ok(p) || !source_ok(p, source)) {
		return D1_EINVAL;
	}
	s = d1_port_critical_enter(); /* the enable word is shared by 32 sources */
	set_enable(p, source, true);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_plic_disable(struct d1_plic *p, unsigned source)
{
	uintptr_t s;

	if (!handle_ok(p) || !source_ok(p, source)) {
		return D1_EINVAL;
	}
	s = d1_port_critical_enter();
	/* Complete before masking: a completion for a masked source is dropped
	 * (Linux irq-sifive-plic.c) and the gateway would stay closed. */
	for (struct d1_plic_frame *f = p->active; f != NULL; f = f->prev) {
		if (f->source == source && !f->completed) {
			d1_mmio_write32(reg(p, D1_PLIC_CLAIM_OFFSET(p->context)), source);
			f->completed = true;
		}
	}
	set_enable(p, source, false);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_plic_set_threshold(struct d1_plic *p, unsigned threshold)
{
	if (!handle_ok(p)) {
		return D1_EINVAL;
	}
	if (threshold > p->prio_max) {
		return D1_ERANGE;
	}
	d1_mmio_write32(reg(p, D1_PLIC_THRESHOLD_OFFSET(p->context)), threshold);
	return D1_OK;
}

unsigned d1_plic_claim(struct d1_plic *p)
{
	if (!handle_ok(p)) {
		return 0u;
	}
	/* Only the id field is defined (plic_regs.h); other bits are masked. */
	return d1_mmio_read32(reg(p, D1_PLIC_CLAIM_OFFSET(p->context))) & D1_PLIC_CLAIM_ID_BITS;
}

void d1_plic_complete(struct d1_plic *p, unsigned source)
{
	if (!handle_ok(p)) {
		return;
	}
	if (!source_ok(p, source)) {
		p->rejected++;
		return;
	}
	/* A handler completing its own source: dispatch must not repeat it. */
	for (struct d1_plic_frame *f = p->active; f != NULL; f = f->prev) {
		if (f->source == source) {
			f->completed = true;
		}
	}
	d1_mmio_write32(reg(p, D1_PLIC_CLAIM_OFFSET(p->context)), source);
}

/* Cold path of d1_plic_isr(): a claimed source that has no handler, or an
 * id above nsources (a source this handle does not know, enabled in this
 * context by other software). Complete it first (a completion for a masked
 * source is dropped: Linux irq-sifive-plic.c), then mask it in this context
 * so a level that stays high cannot storm; the caller counts it. Kept out of
 * line so the dispatch path stays short. */
__attribute__((noinline, cold)) static void complete_and_mask(struct d1_plic *p, uintptr_t claim,
                                                              uint32_t id)
{
	uintptr_t s;

	d1_mmio_write32(claim, id);
	s = d1_port_critical_enter(); /* the enable word is shared by 32 sources */
	set_enable(p, id, false);
	d1_port_critical_exit(s);
}

unsigned d1_plic_isr(struct d1_plic *p, const struct d1_plic_entry *table, unsigned table_len,
                     struct d1_plic_stats *stats)
{
	struct d1_plic_stats scratch;
	struct d1_plic_frame f;
	uintptr_t claim;
	unsigned handled = 0;
	unsigned k;

	if (!handle_ok(p)) {
		return 0u;
	}
	if (table == NULL && table_len != 0u) {
		p->rejected++; /* bad input: nothing read, nothing written */
		return 0u;
	}
	if (stats == NULL) {
		stats = &scratch;
	}
	claim = reg(p, D1_PLIC_CLAIM_OFFSET(p->context));
	f.prev = p->active;
	/* The frame lives for this call only; it is unlinked before return. */
	// cppcheck-suppress autoVariables
	p->active = &f;
	for (k = 0; k <= p->nsources; k++) {
		uint32_t id = d1_mmio_read32(claim) & D1_PLIC_CLAIM_ID_BITS;
		const struct d1_plic_entry *e;

		if (id == 0u) {
			break; /* nothing (more) to serve */
		}
		if (id > p->nsources) {
			/* Foreign: complete, mask, count, report its id. */
			complete_and_mask(p, claim, id);
			stats->foreign++;
			stats->last_foreign = id;
			continue;
		}
		if (id >= table_len || table[id].fn == NULL) {
			complete_and_mask(p, claim, id);
			stats->unhandled++;
			continue;
		}
		e = &table[id];
		f.source = id;
		f.completed = e->edge;
		if (e->edge) {
			/* T-Head: an edge during service is ignored, so open the
			 * gateway before the handler runs. */
			d1_mmio_write32(claim, id);
		}
		e->fn(id, e->arg);
		handled++;
		if (!f.completed) {
			d1_mmio_write32(claim, id);
		}
	}
	if (k == 0u) {
		stats->spurious++; /* the first claim was 0: nothing to serve */
	}
	stats->dispatched += handled;
	p->active = f.prev;
	return handled;
}

d1_err_t d1_plic_set_s_per(uintptr_t base, bool on)
{
	uintptr_t a;
	uint32_t v = on ? D1_PLIC_CTRL_S_PER_BITS : 0u;

	if (base == 0u || (base & 3u) != 0u) {
		return D1_EINVAL;
	}
	a = base + D1_PLIC_CTRL_OFFSET;
	/* M-mode write only (openC906 RTL, OpenSBI); the S-mode write and the
	 * QEMU virt PLIC (no PLIC_CTRL) leave it unchanged. */
	d1_mmio_write32(a, v);
	return (d1_mmio_read32(a) & D1_PLIC_CTRL_S_PER_BITS) == v ? D1_OK : D1_ENODELEG;
}
