/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * T-Head C900 PLIC driver (also the QEMU virt PLIC). Hardware facts with
 * their sources: docs/uart-and-plic.md; each place that depends on one says
 * so.
 */
#include "d1/plic.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"

/* svc once completed (ids fit D1_PLIC_CLAIM_ID_BITS, so ~id < 0). */
static uint32_t svc_done(uint32_t id)
{
	return ~id;
}

static uintptr_t reg(const struct d1_plic *p, uintptr_t off)
{
	return p->base + off;
}

/* The context as an address-sized index: the per-context offsets are then
 * computed in 64 bits, with no zero-extension of a 32-bit sum per access. */
static uintptr_t ctx(const struct d1_plic *p)
{
	return p->context;
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
	/* Without S_PER the access faults (docs/uart-and-plic.md "S-mode access
	 * without S_PER"): every probe access goes through the port's fault-safe
	 * d1_port_probe32(). The read comes first (a load fault is precise) and
	 * alone decides on the D1; the write / read-back / restore also catch
	 * a PLIC that drops denied writes. Interrupts are off at the hart
	 * meanwhile, so the brief change cannot trap. */
	a = reg(p, D1_PLIC_PRIO_OFFSET((uintptr_t)p->nsources));
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
	        .claim = base + D1_PLIC_CLAIM_OFFSET(context), /* the dispatch path's one load */
	};
	if (context == D1_PLIC_CTX_S) {
		/* D1_ENOTSUP: the port has no fault-safe probe; proceed unchecked
		 * (documented in plic.h). */
		d1_err_t err = d1_plic_check_delegation(p);

		if (err != D1_OK && err != D1_ENOTSUP) {
			return err;
		}
	}
	for (unsigned src = 1; src <= nsources; src++) {
		d1_mmio_write32(reg(p, D1_PLIC_PRIO_OFFSET((uintptr_t)src)), 0u);
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
	d1_mmio_write32(reg(p, D1_PLIC_PRIO_OFFSET((uintptr_t)source)), prio);
	return D1_OK;
}

static void set_enable(struct d1_plic *p, unsigned source, bool on)
{
	uint32_t bit = 1u << (source % 32u);

	d1_mmio_modify32(reg(p, D1_PLIC_ENABLE_OFFSET(ctx(p), (uintptr_t)source / 32u)), bit,
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
		if (f->svc == source) { /* in service, not completed yet */
			d1_mmio_write32(p->claim, source);
			f->svc = svc_done(source);
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
	d1_mmio_write32(reg(p, D1_PLIC_THRESHOLD_OFFSET(ctx(p))), threshold);
	return D1_OK;
}

unsigned d1_plic_claim(struct d1_plic *p)
{
	if (!handle_ok(p)) {
		return 0u;
	}
	/* Only the id field is defined (plic_regs.h); other bits are masked. */
	return d1_mmio_read32(p->claim) & D1_PLIC_CLAIM_ID_BITS;
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
		if (f->svc == source || f->svc == svc_done(source)) {
			f->svc = svc_done(source);
		}
	}
	d1_mmio_write32(p->claim, source);
}

/* Mask @p id in this context, so a level that stays high cannot storm, and
 * count it (foreign above nsources, else unhandled). Its completion is the
 * caller's, before this (complete-before-mask: docs/uart-and-plic.md). */
static void mask_and_count(struct d1_plic *p, uint32_t id, struct d1_plic_stats *stats)
{
	uintptr_t s = d1_port_critical_enter(); /* the enable word is shared by 32 sources */

	set_enable(p, id, false);
	d1_port_critical_exit(s);
	if (id > p->nsources) {
		stats->foreign++;
		stats->last_foreign = id;
	} else {
		stats->unhandled++;
	}
}

/* Cold path of d1_plic_isr(): a claimed source that has no handler, or an
 * id above nsources (a source this handle does not know, enabled in this
 * context by other software). Complete it first, then mask and count it.
 * Kept out of line so the dispatch path stays short. */
__attribute__((noinline, cold)) static void complete_and_mask(struct d1_plic *p, uint32_t id,
                                                              struct d1_plic_stats *stats)
{
	d1_mmio_write32(p->claim, id);
	mask_and_count(p, id, stats);
}

unsigned d1_plic_claim_cold(struct d1_plic *p, uint32_t id, struct d1_plic_stats *stats)
{
	if (id == 0u) {
		stats->spurious++; /* nothing to serve */
	} else {
		complete_and_mask(p, id, stats); /* an id above nsources: foreign */
	}
	return 0u;
}

void d1_plic_claim_unhandled(struct d1_plic *p, struct d1_plic_frame *f,
                             struct d1_plic_stats *stats)
{
	uint32_t svc = f->svc;

	p->active = f->prev;
	if (svc <= D1_PLIC_CLAIM_ID_BITS) { /* an id: not completed yet */
		d1_mmio_write32(p->claim, svc);
	} else {
		/* Completed in service already (d1_plic_complete(), or
		 * d1_plic_disable() from a nested handler): the frame holds ~id.
		 * Complete nothing again. */
		svc = ~svc;
	}
	mask_and_count(p, svc, stats);
}

/* Cold path: bad table, or no stats struct (a zeroed one on the caller's
 * stack stands in). Recursion of depth 1: d1_plic_isr() comes back here
 * only without stats or with a bad table, and this call passes stats and
 * returns on a bad table before it. */
__attribute__((noinline, cold)) static unsigned
// NOLINTNEXTLINE(misc-no-recursion): depth 1, see above
isr_slow(struct d1_plic *p, const struct d1_plic_entry *table, unsigned table_len)
{
	struct d1_plic_stats scratch = {0};

	if (table == NULL && table_len != 0u) {
		p->rejected++; /* bad input: nothing read, nothing written */
		return 0u;
	}
	return d1_plic_isr(p, table, table_len, &scratch);
}

/*
 * The dispatch path is written for the executed instruction count
 * (docs/benchmarks.md): the claim address is precomputed in the
 * handle; the table bound and nsources are folded into one limit per call
 * (an id at or above it, or without a handler, takes the out-of-line path,
 * which tells foreign from unhandled); the in-service word is one store
 * before and one load after the handler; the loop is bounded by handler
 * calls (nsources + 1) and, separately, by unhandled / foreign claims
 * (D1_PLIC_MAX_SOURCES + 1) per call.
 */
/* The claim loop, entered with the first claimed id (non-zero). */
static unsigned dispatch(struct d1_plic *p, const struct d1_plic_entry *table, uint32_t lim,
                         struct d1_plic_stats *stats, uint32_t id)
{
	struct d1_plic_frame f;
	unsigned handled = 0;

	f.prev = p->active;
	f.cold = 0;
	f.lim = lim;
	f.table = table;
	f.stats = stats;
	/* The frame lives for this call only; it is unlinked before return. */
	// cppcheck-suppress autoVariables
	p->active = &f;
	do {
		uintptr_t esz = sizeof(struct d1_plic_entry);
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
		/* Materialised here, not held in a callee-saved register across
		 * the handler call (which costs a save, a restore and the li). */
		__asm__ volatile("li %0, %1" : "=r"(esz) : "i"(sizeof(struct d1_plic_entry)));
#endif
		const struct d1_plic_entry *e =
		        (const struct d1_plic_entry *)((uintptr_t)f.table + id * esz);
		const d1_plic_handler_t fn = id < f.lim ? e->fn : NULL;

		if (fn == NULL) {
			complete_and_mask(p, id, f.stats);
			/* Masked, so it cannot come back - unless the PLIC is
			 * broken: bound these too (counted in the frame, off the
			 * handler path). */
			if (++f.cold > D1_PLIC_MAX_SOURCES) {
				break;
			}
		} else {
			f.svc = id;
			if (e->edge) {
				/* T-Head: an edge during service is ignored, so open
				 * the gateway before the handler runs. */
				d1_mmio_write32(p->claim, id);
				f.svc = svc_done(id);
			}
			fn(id, e->arg);
			if ((int32_t)f.svc >= 0) {
				/* The handler's acknowledge (through mmio.h) already
				 * reached its device: every seam access is fenced before
				 * later ones (docs/design.md, MMIO ordering). A handler
				 * that acknowledges through its own accessor calls
				 * d1_mmio_order() first. */
				d1_mmio_write32(p->claim, f.svc);
			}
			if (++handled > p->nsources) {
				break; /* bound: a source re-asserting faster than served */
			}
		}
		id = d1_mmio_read32(p->claim) & D1_PLIC_CLAIM_ID_BITS;
	} while (__builtin_expect(id != 0u, 0)); /* one per call is the common case */
	f.stats->dispatched += handled;
	p->active = f.prev;
	return handled;
}

// NOLINTNEXTLINE(misc-no-recursion): depth 1 through isr_slow() (see there)
unsigned d1_plic_isr(struct d1_plic *p, const struct d1_plic_entry *table, unsigned table_len,
                     struct d1_plic_stats *stats)
{
	uint32_t lim;
	uint32_t id;

	if (p == NULL || p->claim == 0u) {
		return 0u;
	}
	if (stats == NULL || (table == NULL && table_len != 0u)) {
		return isr_slow(p, table, table_len);
	}
	id = d1_mmio_read32(p->claim) & D1_PLIC_CLAIM_ID_BITS;
	if (id == 0u) {
		stats->spurious++; /* the first claim was 0: nothing to serve */
		return 0u;
	}
	/* One limit for the table and the handle: ids at or above it take the
	 * out-of-line path, which tells foreign from unhandled. */
	lim = (uint32_t)p->nsources + 1u;
	if (table_len < lim) {
		lim = table_len;
	}
	return dispatch(p, table, lim, stats, id);
}

d1_err_t d1_plic_read_threshold(uintptr_t base, unsigned context, uint32_t *threshold)
{
	if (threshold == NULL || base == 0u || (base & 3u) != 0u || context >= D1_PLIC_CONTEXTS) {
		return D1_EINVAL;
	}
	*threshold = d1_mmio_read32(base + D1_PLIC_THRESHOLD_OFFSET(context));
	return D1_OK;
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
