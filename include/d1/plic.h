/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file plic.h
 * @brief PLIC driver: the T-Head C900 PLIC of the D1 and the standard PLIC
 *        of QEMU `virt`.
 *
 * Hardware facts (claim, complete-before-mask, edges, S_PER, priority width,
 * source counts) with their sources: docs/uart-and-plic.md. Bad input: an
 * out-of-range source or context is D1_EINVAL, a priority or threshold above
 * prio_max D1_ERANGE; neither writes a register.
 */
#ifndef D1_PLIC_H
#define D1_PLIC_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/mmio.h"
#include "d1/plic_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_plic PLIC driver
 * @{ */

#define D1_PLIC_QEMU_VIRT_BASE      0x0C000000u /**< PLIC base on QEMU virt. */
#define D1_PLIC_QEMU_VIRT_NSOURCES  95u         /**< Highest source id on QEMU 7.2 virt. */
#define D1_PLIC_QEMU_VIRT_UART0_IRQ 10u         /**< QEMU virt ns16550a source. */

/**
 * @brief Handler of one source, called by d1_plic_isr().
 * @param source The claimed source id.
 * @param arg    The entry's argument.
 */
typedef void (*d1_plic_handler_t)(unsigned source, void *arg);

/** One row of a dispatch table, indexed by source id. */
struct d1_plic_entry {
	d1_plic_handler_t fn; /**< Handler, or NULL (unhandled). */
	void *arg;            /**< Passed to fn. */
	bool edge;            /**< Edge-triggered: complete before the handler. */
};

/**
 * Counters kept by d1_plic_isr(), caller-owned, plain increments: one struct
 * per context and nesting level (docs/uart-and-plic.md "Stats contract").
 */
struct d1_plic_stats {
	uint32_t spurious;     /**< Dispatches whose FIRST claim returned 0 (nothing to serve). */
	uint32_t unhandled;    /**< Claimed sources without a handler (completed, then masked). */
	uint32_t dispatched;   /**< Handler calls. */
	uint32_t foreign;      /**< Claims of an id > nsources (completed, then masked). */
	uint32_t last_foreign; /**< Id of the latest foreign claim (0: none yet). */
};

/**
 * One dispatch in progress, on the dispatcher's stack (d1_plic_isr() keeps
 * its own; an OS dispatcher passes one to d1_plic_claim_begin()).
 * d1_plic_disable() and d1_plic_complete() walk the chain so that a source
 * masked or completed while it is in service is completed exactly once,
 * before the mask (complete-before-mask: docs/uart-and-plic.md). The
 * fields are private to the driver.
 */
struct d1_plic_frame {
	struct d1_plic_frame *prev; /**< Enclosing dispatch, or NULL. */
	/** The source in service, or its complement ~id (negative as int32_t,
	 * so never a source) once it is completed, by the dispatch before an
	 * edge handler or by d1_plic_complete() / d1_plic_disable() from the
	 * handler: one word, one store and one load on the per-interrupt path. */
	uint32_t svc;
	uint32_t lim;                      /**< d1_plic_isr(): ids below it have an entry. */
	uint32_t cold;                     /**< d1_plic_isr(): unhandled + foreign claims. */
	const struct d1_plic_entry *table; /**< d1_plic_isr(): the table. */
	struct d1_plic_stats *stats;       /**< d1_plic_isr(): the counters. */
};

/**
 * @brief One PLIC context. Owned by the caller; fields are private to the
 *        driver (use the functions below).
 */
struct d1_plic {
	uintptr_t base;    /**< PLIC base (physical or mapped). */
	uint8_t context;   /**< 0 = M-mode, 1 = S-mode (C906 hart 0). */
	uint8_t prio_max;  /**< Highest priority the hardware holds (31 D1, 7 QEMU). */
	uint16_t nsources; /**< Highest valid source id. */
	uint32_t rejected; /**< Calls refused (d1_plic_complete() bad id, d1_plic_isr() NULL table).
	                    */
	struct d1_plic_frame *active; /**< Innermost dispatch in progress (NULL outside). */
	uintptr_t claim; /**< Claim/complete register of this context (set by init; 0: none). */
};

/**
 * @brief Initialise a context to a known state with prio_max = 31 (D1).
 *
 * Equivalent to d1_plic_init_ex(p, base, context, nsources, threshold,
 * #D1_PLIC_PRIO_MAX).
 * @param p         Handle to fill.
 * @param base      PLIC base, non-zero.
 * @param context   0 (M-mode) or 1 (S-mode).
 * @param nsources  Highest source id, 1..#D1_PLIC_MAX_SOURCES (175 on D1).
 * @param threshold Threshold to set, 0..31 (0 lets every priority >= 1 through).
 * @return As d1_plic_init_ex().
 */
d1_err_t d1_plic_init(struct d1_plic *p, uintptr_t base, unsigned context, unsigned nsources,
                      unsigned threshold);

/**
 * @brief Initialise a context: priority 0 for sources 1..nsources (shared by
 *        all contexts: once per system), every enable bit of this context
 *        off, threshold set.
 *
 * Context 1 first runs d1_plic_check_delegation(); if that returns
 * D1_ENOTSUP (no fault-safe probe) init proceeds unchecked.
 * @param p         Handle to fill.
 * @param base      PLIC base, non-zero, 4-byte aligned.
 * @param context   0 or 1.
 * @param nsources  Highest source id, 1..#D1_PLIC_MAX_SOURCES.
 * @param threshold 0..@p prio_max.
 * @param prio_max  Highest priority of the hardware, 1..31
 *                  (#D1_PLIC_PRIO_MAX, #D1_PLIC_QEMU_VIRT_PRIO_MAX).
 * @return D1_OK; D1_EINVAL for NULL, zero/unaligned base, bad context,
 *         nsources or prio_max; D1_ERANGE for threshold > prio_max; (nothing
 *         written in these cases); D1_ENODELEG (context 1 only) when the
 *         priority registers are out of reach (the probe faulted or did not
 *         take; nothing else written).
 */
d1_err_t d1_plic_init_ex(struct d1_plic *p, uintptr_t base, unsigned context, unsigned nsources,
                         unsigned threshold, unsigned prio_max);

/**
 * @brief Change the handle's highest priority. Touches no register.
 * @param p        Initialised handle.
 * @param prio_max 1..31.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_plic_set_max_priority(struct d1_plic *p, unsigned prio_max);

/**
 * @brief Set a source's priority (shared by all contexts).
 * @param p      Initialised handle.
 * @param source 1..nsources.
 * @param prio   0..prio_max; 0 = never interrupts.
 * @return D1_OK; D1_EINVAL bad handle/source; D1_ERANGE prio > prio_max.
 */
d1_err_t d1_plic_set_priority(struct d1_plic *p, unsigned source, unsigned prio);

/**
 * @brief Enable a source in this context (read-modify-write in a critical
 *        section).
 * @param p      Initialised handle.
 * @param source 1..nsources.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_plic_enable(struct d1_plic *p, unsigned source);

/**
 * @brief Disable a source in this context; a source in dispatch and not yet
 *        completed is completed first (complete-before-mask:
 *        docs/uart-and-plic.md). Safe from the source's own handler.
 * @param p      Initialised handle.
 * @param source 1..nsources.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_plic_disable(struct d1_plic *p, unsigned source);

/**
 * @brief Set this context's threshold: sources with priority <= threshold
 *        do not interrupt it.
 * @param p         Initialised handle.
 * @param threshold 0..prio_max.
 * @return D1_OK; D1_EINVAL bad handle; D1_ERANGE threshold > prio_max.
 */
d1_err_t d1_plic_set_threshold(struct d1_plic *p, unsigned threshold);

/**
 * @brief Claim: the highest-priority pending enabled source above threshold
 *        (one MMIO read). The source stays in service until completed.
 * @param p Initialised handle (NULL or zero base: returns 0, no access).
 * @return Source id (the claim value masked with #D1_PLIC_CLAIM_ID_BITS), or 0
 *         when nothing is pending.
 */
unsigned d1_plic_claim(struct d1_plic *p);

/**
 * @brief Complete a claimed source (one MMIO write). Call it while the source
 *        is still enabled in this context (complete-before-mask:
 *        docs/uart-and-plic.md), or use d1_plic_disable().
 * @param p      Initialised handle.
 * @param source 1..nsources; anything else writes nothing and increments
 *               d1_plic::rejected.
 */
void d1_plic_complete(struct d1_plic *p, unsigned source);

/**
 * @brief Claim until 0 and call the table's handlers; call from the
 *        external-interrupt trap. Re-entrant (nested dispatch works).
 *
 * Level source: handler, then complete; edge source: complete, then handler.
 * A claim without a handler (id >= table_len or fn NULL) is counted as
 * unhandled, a claim above nsources as foreign (id in last_foreign); both
 * are completed, then masked in this context. A first claim of 0 counts as
 * spurious. Bounded: at most nsources + 1 handler calls and
 * #D1_PLIC_MAX_SOURCES + 1 unhandled/foreign claims (docs/uart-and-plic.md
 * "Dispatch").
 * @param p         Initialised handle (NULL: returns 0, no access).
 * @param table     Handlers indexed by source id; NULL only with table_len 0
 *                  (else: returns 0, no access, d1_plic::rejected + 1).
 * @param table_len Entries in @p table.
 * @param stats     Counters (NULL: not counted; see struct d1_plic_stats).
 * @return Number of handler calls. nsources + 1 means the handler-call bound
 *         ended the loop (a source re-asserting faster than it is served:
 *         it stays pending and the trap re-enters); #D1_PLIC_MAX_SOURCES + 1
 *         unhandled + foreign claims counted by one call mean the claim
 *         bound did (a broken PLIC).
 */
unsigned d1_plic_isr(struct d1_plic *p, const struct d1_plic_entry *table, unsigned table_len,
                     struct d1_plic_stats *stats);

/**
 * @brief Out-of-line part of d1_plic_claim_begin(): a claim of 0 is counted
 *        as spurious; an id above nsources is completed, masked in this
 *        context and counted as foreign (as d1_plic_isr() does).
 * @param p     Handle that d1_plic_init() accepted (not checked).
 * @param id    The claimed id (0 or above nsources).
 * @param stats Counters (not checked: non-NULL).
 * @return 0.
 */
unsigned d1_plic_claim_cold(struct d1_plic *p, uint32_t id, struct d1_plic_stats *stats);

/**
 * @brief Claim one source for an OS's own dispatcher (NuttX
 *        riscv_dispatch_irq(), ...): the lean form of d1_plic_isr() for a
 *        kernel that keeps its own handler table.
 *
 * One claim (the fenced read of d1_plic_claim()). A claim of 0 is counted
 * in @p stats->spurious and returns 0; an id above nsources is completed,
 * masked and counted as foreign, and returns 0 (d1_plic_claim_cold()).
 * Otherwise @p f is linked in as the innermost dispatch and the id is
 * returned: call the OS handler, then d1_plic_claim_end() with the same
 * frame. While it is in service, d1_plic_disable() of the source completes
 * it before masking it and d1_plic_complete() completes it once; nested
 * use (also inside d1_plic_isr()) works. For level sources: an edge
 * source's handler calls d1_plic_complete() first (the T-Head PLIC ignores
 * an edge while its source is in service, docs/uart-and-plic.md).
 * Inline, with no handle check: for a handle that d1_plic_init() accepted.
 * @param p     Handle that d1_plic_init() accepted (not checked).
 * @param f     Frame on the caller's stack, live until d1_plic_claim_end().
 * @param stats Counters (not checked: non-NULL).
 * @return The source in service (1..nsources), or 0: nothing to dispatch
 *         (do not call d1_plic_claim_end()).
 */
static inline unsigned d1_plic_claim_begin(struct d1_plic *p, struct d1_plic_frame *f,
                                           struct d1_plic_stats *stats)
{
	uint32_t id = d1_mmio_read32(p->claim) & D1_PLIC_CLAIM_ID_BITS;

	if (__builtin_expect(id - 1u >= (uint32_t)p->nsources, 0)) { /* 0, or above nsources */
		(void)d1_plic_claim_cold(p, id, stats);
		return 0u; /* said here too: the caller sees nothing to dispatch */
	}
	f->svc = id;
	f->prev = p->active;
	p->active = f;
	return id;
}

/**
 * @brief End a dispatch begun by d1_plic_claim_begin(): complete the source
 *        unless the handler already did (d1_plic_complete(),
 *        d1_plic_disable()), unlink the frame, count the handler call in
 *        @p stats->dispatched.
 *
 * The handler's device acknowledge through d1/mmio.h is fenced before this
 * completion (docs/design.md "MMIO ordering").
 * @param p     The handle given to d1_plic_claim_begin().
 * @param f     The frame given to it (which returned non-zero).
 * @param stats The counters given to it.
 */
static inline void d1_plic_claim_end(struct d1_plic *p, struct d1_plic_frame *f,
                                     struct d1_plic_stats *stats)
{
	if ((int32_t)f->svc >= 0) {
		d1_mmio_write32(p->claim, f->svc);
	}
	p->active = f->prev;
	stats->dispatched++;
}

/**
 * @brief End a dispatch begun by d1_plic_claim_begin() whose source has no
 *        handler in the OS: complete it (unless it was completed in service
 *        already: d1_plic_complete(), d1_plic_disable()), mask it in this
 *        context (so a level that stays high cannot storm), count it in
 *        @p stats->unhandled (not dispatched), unlink the frame, as
 *        d1_plic_isr() does for a table entry without a handler. Call it
 *        instead of d1_plic_claim_end().
 * @param p     The handle given to d1_plic_claim_begin() (not checked).
 * @param f     The frame given to it (which returned non-zero).
 * @param stats The counters given to it.
 */
void d1_plic_claim_unhandled(struct d1_plic *p, struct d1_plic_frame *f,
                             struct d1_plic_stats *stats);

/**
 * @brief M-mode only (from S-mode it faults on the D1): set or clear
 *        PLIC_CTRL.S_PER and verify by read-back. S_PER: docs/uart-and-plic.md.
 * @param base PLIC base, non-zero, 4-byte aligned.
 * @param on   true: let S-mode reach all registers but PLIC_CTRL.
 * @return D1_OK; D1_EINVAL bad base (nothing written); D1_ENODELEG when the
 *         read-back differs (no PLIC_CTRL).
 */
d1_err_t d1_plic_set_s_per(uintptr_t base, bool on);

/**
 * @brief Read a context's threshold register as it stands: before
 *        d1_plic_init() it is what firmware left there (for a report),
 *        after it what the handle set. One read, no write; no handle needed.
 * @param base      PLIC base, non-zero, 4-byte aligned.
 * @param context   0..#D1_PLIC_CONTEXTS - 1.
 * @param threshold Receives the register's value.
 * @return D1_OK; D1_EINVAL for a bad base or context or a NULL @p threshold
 *         (nothing read).
 */
d1_err_t d1_plic_read_threshold(uintptr_t base, unsigned context, uint32_t *threshold);

/**
 * @brief S-mode: check that the PLIC registers S-mode needs are reachable,
 *        without an unhandled trap.
 *
 * Reads, changes, reads back and restores the priority of source nsources
 * (4 accesses through d1_port_probe32(), in a critical section). Context 0
 * returns D1_OK without access.
 * @param p Initialised handle.
 * @return D1_OK; D1_EINVAL bad handle; D1_ENODELEG the probe faulted or did
 *         not take (S_PER off, e.g. lost in a CPU power-down); D1_ENOTSUP
 *         the port has no fault-safe probe (nothing accessed).
 */
d1_err_t d1_plic_check_delegation(struct d1_plic *p);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_PLIC_H */
