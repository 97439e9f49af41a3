/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file plic.h
 * @brief PLIC driver for the T-Head C900 PLIC of the D1; also drives the
 *        standard PLIC of the QEMU `virt` machine.
 *
 * Hardware semantics the driver relies on (sources in plic_regs.h and
 * docs/uart-and-plic.md):
 *  - A source interrupts a context when it is pending, enabled in that
 *    context and its priority is > the context's threshold; a claim returns
 *    the highest-priority such source (ties: lowest id) or 0, and the
 *    source's gateway forwards nothing more until it is completed.
 *  - A completion written for a source whose enable bit in that context is
 *    clear is silently dropped (Linux irq-sifive-plic.c "Fixup EOI failed
 *    when masked"): the source would stay claimed for ever. The driver
 *    therefore completes BEFORE it masks: d1_plic_disable() of a source that
 *    is being dispatched completes it first, and d1_plic_isr() masks an
 *    unhandled source only after completing it.
 *  - The T-Head PLIC ignores edges that arrive while a source is in
 *    service, so edge-triggered sources are completed before their handler
 *    runs (all D1 peripheral sources are level-high).
 *  - PLIC_CTRL.S_PER (base + 0x1FFFFC, bit 0, M-mode access only, reset
 *    0): while it is 0, S-mode can reach only its own threshold and
 *    claim/complete registers; an S-mode access to a priority, pending or
 *    enable register (or to PLIC_CTRL at any time) is answered with PSLVERR,
 *    a load/store access fault (openC906 RTL). OpenSBI sets it at boot and
 *    resume; it is lost when the CPU power domain is off.
 *
 * Priority width: the D1's priority registers are 5 bits (1..31), QEMU
 * virt's are 3 bits (1..7, QEMU 7.2; larger values are masked, so 8 would
 * become 0 = never). The handle carries its highest priority, prio_max:
 * d1_plic_init() sets #D1_PLIC_PRIO_MAX (31), d1_plic_init_ex() takes it
 * (#D1_PLIC_QEMU_VIRT_PRIO_MAX for QEMU virt), d1_plic_set_max_priority()
 * changes it. Priorities and thresholds above it are refused.
 *
 * Source numbering: @p nsources is the highest source id (the device tree's
 * `riscv,ndev`): #D1_PLIC_NSOURCES = 175 on the D1; on QEMU 7.2 virt use
 * #D1_PLIC_QEMU_VIRT_NSOURCES (95: QEMU implements ids 1..95 although its
 * device tree says 96). Valid ids are 1..nsources.
 *
 * Errors: an out-of-range source or context is D1_EINVAL, a priority or
 * threshold above prio_max is D1_ERANGE; neither writes any register.
 */
#ifndef D1_PLIC_H
#define D1_PLIC_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
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
 * Counters kept by d1_plic_isr(). Caller-owned. The updates are plain
 * (non-atomic) increments: give each context, and each nesting level that can
 * interrupt another dispatch (e.g. one struct per priority level the trap
 * re-enables interrupts for), its own struct; sum them to read totals. A
 * struct shared by dispatches that can nest may lose counts.
 */
struct d1_plic_stats {
	uint32_t spurious;     /**< Dispatches whose FIRST claim returned 0 (nothing to serve). */
	uint32_t unhandled;    /**< Claimed sources without a handler (completed, then masked). */
	uint32_t dispatched;   /**< Handler calls. */
	uint32_t foreign;      /**< Claims of an id > nsources (completed, then masked). */
	uint32_t last_foreign; /**< Id of the latest foreign claim (0: none yet). */
};

struct d1_plic_frame;

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
 * @param threshold Threshold to set, 0..31 (OpenSBI leaves 7; 0 lets every
 *                  priority >= 1 through).
 * @return As d1_plic_init_ex().
 */
d1_err_t d1_plic_init(struct d1_plic *p, uintptr_t base, unsigned context, unsigned nsources,
                      unsigned threshold);

/**
 * @brief Initialise a context to a known state: priority 0 for sources
 *        1..nsources, every enable bit of THIS context off, threshold set.
 *
 * Priorities are shared by all contexts: initialise once per system. For
 * context 1 it first runs d1_plic_check_delegation(), so an S-mode caller
 * without S_PER gets D1_ENODELEG instead of an access fault. If the port has
 * no fault-safe probe (d1_port_probe32() returns D1_ENOTSUP) the check is
 * skipped and init proceeds: without S_PER its first priority write then
 * faults, as Linux's PLIC driver would.
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
 * @brief Enable a source in this context (read-modify-write of one enable
 *        word inside a critical section).
 * @param p      Initialised handle.
 * @param source 1..nsources.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_plic_enable(struct d1_plic *p, unsigned source);

/**
 * @brief Disable a source in this context, completing it first if it is
 *        being dispatched and not yet completed (a completion written after
 *        the mask would be dropped and the source would never interrupt
 *        again). Safe to call from the source's own handler.
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
 * @brief Complete a claimed source (one MMIO write).
 *
 * Must happen while the source is still enabled in this context (the PLIC
 * drops it otherwise): complete first, mask after — or use
 * d1_plic_disable(), which does that for a source in dispatch.
 * @param p      Initialised handle.
 * @param source 1..nsources; anything else writes nothing and increments
 *               d1_plic::rejected.
 */
void d1_plic_complete(struct d1_plic *p, unsigned source);

/**
 * @brief Claim until 0 and call the table's handlers.
 *
 * Per claim: a level source's handler runs, then the source is completed; an
 * edge source is completed first. A claim with no handler (id >= table_len
 * or fn NULL) is counted as unhandled, completed, then masked in this
 * context so it cannot storm. A first claim of 0 counts as spurious. A
 * claim of an id above nsources (a source this handle does not know, enabled
 * by other software) is likewise completed, then masked in this context,
 * counted as foreign with its id in last_foreign, and the loop goes on.
 * Claim values are masked with #D1_PLIC_CLAIM_ID_BITS. The
 * loop stops after nsources + 1 claims (a source that re-asserts faster than
 * it is served cannot hold the hart for ever; it remains pending and
 * re-enters the trap). Re-entrant (nested dispatch from a higher-priority
 * interrupt works).
 * @param p         Initialised handle (NULL: returns 0, no access).
 * @param table     Handlers indexed by source id; NULL only with table_len 0
 *                  (every claim unhandled). NULL with table_len > 0 is bad
 *                  input: returns 0 with no access and increments
 *                  d1_plic::rejected.
 * @param table_len Entries in @p table.
 * @param stats     Counters to update (NULL: not counted); one struct per
 *                  context and nesting level (see struct d1_plic_stats).
 * @return Number of handler calls.
 */
unsigned d1_plic_isr(struct d1_plic *p, const struct d1_plic_entry *table, unsigned table_len,
                     struct d1_plic_stats *stats);

/**
 * @brief M-mode only: set or clear PLIC_CTRL.S_PER (T-Head; base +
 *        0x1FFFFC), and verify by read-back.
 *
 * From S-mode the access faults on the D1 (PSLVERR for any non-M access to
 * PLIC_CTRL, openC906 plic_ctrl.v): call it from M-mode firmware only. The
 * QEMU virt PLIC has no PLIC_CTRL: there the write is ignored and the
 * read-back fails with D1_ENODELEG.
 * @param base PLIC base, non-zero, 4-byte aligned.
 * @param on   true: let S-mode reach all registers but PLIC_CTRL.
 * @return D1_OK; D1_EINVAL bad base (nothing written); D1_ENODELEG when the
 *         read-back differs (no PLIC_CTRL).
 */
d1_err_t d1_plic_set_s_per(uintptr_t base, bool on);

/**
 * @brief S-mode: check that the PLIC registers S-mode needs are reachable,
 *        without ever taking an unhandled trap.
 *
 * Probes the priority register of source nsources, every access through the
 * port's fault-safe d1_port_probe32(), inside a critical section: read it
 * (on the D1 without S_PER this read faults: D1_ENODELEG), write a different
 * value (1, or 0 when it holds 1: legal for any prio_max), read it back and
 * restore the original (4 accesses). A write that does not take (a PLIC that
 * drops denied writes) is D1_ENODELEG too. Context 0 (M-mode always has
 * access) returns D1_OK without any access.
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
