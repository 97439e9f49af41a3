/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of the T-Head C900 PLIC of the D1 (and, with
 * has_ctrl = false and prio_bits = 3, of the QEMU virt PLIC). Written from
 * the hardware facts (docs/uart-and-plic.md, docs/hardware-facts.md, the
 * RISC-V PLIC specification), not from the driver:
 *  - per-source gateway: a level source with its input high becomes pending
 *    unless it is in service (claimed and not completed); an edge source
 *    becomes pending on a pulse, and a pulse that arrives while it is in
 *    service is LOST (T-Head: edges during the handler are ignored);
 *    pending stays latched until claimed;
 *  - claim (read of a context's claim register): the highest-priority source
 *    that is pending, enabled in the context and has priority > the
 *    context's threshold, ties to the lowest id; it stops being pending and
 *    is in service; nothing eligible returns 0;
 *  - complete (write of the id): dropped (and counted) when the source's
 *    enable bit in that context is clear; otherwise ends the service, and a
 *    level source whose input is still high is pending again;
 *  - priority and threshold registers hold prio_bits bits (writes masked,
 *    as QEMU and the WARL rule do); enable bit 0 and bits above nsources
 *    are hardwired 0;
 *  - PLIC_CTRL (has_ctrl) bit 0 S_PER, reset 0, M-mode access only: an
 *    S-mode (s_mode) read or write of it is a bus fault; with S_PER = 0 an
 *    S-mode access to a priority, pending or enable register or to context
 *    0's threshold/claim is a bus fault (the openC906 RTL answers PSLVERR,
 *    which the hart takes as a load/store access fault): counted in
 *    denied_reads/denied_writes, then sim_bus_fault() (a fault-safe probe
 *    returns D1_ENODELEG; any other access is an unhandled fault, counted by
 *    the sim; the write is dropped, the read gives 0). Context 1's threshold
 *    and claim/complete stay reachable.
 * Write guard (for tests and the fuzz harnesses): with guard set, a write
 * that touches a source outside guard_allow (a priority register, an
 * enable bit changed in any context, a completion), a threshold write
 * without guard_threshold, or a PLIC_CTRL write is counted in
 * foreign_writes; with guard_claimed, every source claimed while the guard
 * is on joins guard_allow (a dispatch may complete and mask what it
 * claimed, nothing else).
 * Faults: spurious claims (the next N claims return 0), power cycling
 * (everything, S_PER included, back to reset), claim values with reserved
 * bits above the 10-bit id set, and a priority limit that is not 2^n - 1
 * (WARL: an illegal write leaves the register unchanged).
 */
#ifndef D1_TEST_PLIC_MODEL_H
#define D1_TEST_PLIC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

#define PLIC_MODEL_MAX_SRC 1024u
#define PLIC_MODEL_CTX     2u

struct plic_model {
	struct sim_region region;
	unsigned nsources;  /* highest id */
	unsigned prio_bits; /* 5 on the D1, 3 on QEMU virt */
	bool has_ctrl;      /* T-Head PLIC_CTRL present */
	bool s_mode;        /* the accessing hart runs in S-mode */
	uint32_t ctrl;
	uint32_t prio[PLIC_MODEL_MAX_SRC + 1];
	bool level[PLIC_MODEL_MAX_SRC + 1];
	bool edge[PLIC_MODEL_MAX_SRC + 1]; /* gateway in edge mode */
	bool pending[PLIC_MODEL_MAX_SRC + 1];
	int claimed_by[PLIC_MODEL_MAX_SRC + 1]; /* -1: not in service */
	uint32_t enable[PLIC_MODEL_CTX][32];
	uint32_t threshold[PLIC_MODEL_CTX];
	/* counters */
	uint64_t claims[PLIC_MODEL_CTX];
	uint64_t claims_zero[PLIC_MODEL_CTX];
	uint64_t completes[PLIC_MODEL_CTX];
	uint64_t completes_dropped_masked;
	uint64_t completes_unclaimed;
	uint64_t completes_bad_id;
	uint64_t denied_writes, denied_reads;
	uint64_t edges_lost;
	uint64_t delivered[PLIC_MODEL_MAX_SRC + 1];
	/* write guard */
	bool guard;
	bool guard_claimed;
	bool guard_threshold;
	uint32_t guard_allow[PLIC_MODEL_MAX_SRC / 32 + 1];
	uint64_t foreign_writes;
	/* faults */
	unsigned spurious_claims;
	uint32_t claim_or;    /* OR-ed into every claim value (reserved bits reading 1) */
	uint32_t prio_limit;  /* 0: none; else WARL: a priority write above it is ignored */
	uint32_t stuck_claim; /* non-zero: every claim returns this id (a broken PLIC) */
};

/* D1 flavour: nsources 175, 5-bit priorities, PLIC_CTRL, M-mode accessor. */
void plic_model_init(struct plic_model *m, uintptr_t base, unsigned nsources, unsigned prio_bits,
                     bool has_ctrl);
/* Drive a level input. */
void plic_model_set_level(struct plic_model *m, unsigned src, bool high);
/* One edge on an edge-mode source. */
void plic_model_pulse(struct plic_model *m, unsigned src);
/* Interrupt output of a context (MEIP for 0, SEIP for 1). */
bool plic_model_eip(const struct plic_model *m, unsigned ctx);
/* Is the source enabled in the context? */
bool plic_model_enabled(const struct plic_model *m, unsigned ctx, unsigned src);
/* Guard helpers: clear the allow set (guard off), allow one source. */
void plic_model_guard_clear(struct plic_model *m);
void plic_model_guard_allow(struct plic_model *m, unsigned src);
/* The CPU power domain went off and on: all state back to reset. */
void plic_model_power_cycle(struct plic_model *m);

#endif /* D1_TEST_PLIC_MODEL_H */
