/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PLIC driver against the PLIC model: which source the hart gets, in which
 * order, whether a source can be wedged or can storm, and the T-Head S-mode
 * delegation; every bad input with "no register written" checked on the bus.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "plic_model.h"
#include "sim.h"

#define BASE D1_PLIC_BASE
#define NSRC D1_PLIC_NSOURCES

static struct plic_model pm;
static struct d1_plic plic;

/* Handler log. */
struct hlog {
	unsigned order[512];
	unsigned n;
	unsigned calls[NSRC + 1];
	unsigned keep_high[NSRC + 1]; /* calls that leave the level high */
};
static struct hlog hl;

static int setup(void **state)
{
	(void)state;
	sim_reset();
	plic_model_init(&pm, BASE, NSRC, 5, true);
	hl = (struct hlog){0};
	return 0;
}

/* A level device: the handler services it (drops the line) unless told to
 * leave it high for a number of calls. */
static void level_handler(unsigned src, void *arg)
{
	(void)arg;
	if (hl.n < 512) {
		hl.order[hl.n] = src;
	}
	hl.n++;
	hl.calls[src]++;
	if (hl.keep_high[src] > 0) {
		hl.keep_high[src]--;
	} else {
		plic_model_set_level(&pm, src, false);
	}
}

static struct d1_plic_entry table[NSRC + 1];

/* Another piece of software (firmware) enables a source in context S
 * behind the handle's back: its priority and enable bit, written raw. */
static void firmware_enable(unsigned id, uint32_t prio)
{
	d1_mmio_write32(BASE + D1_PLIC_PRIO_OFFSET(id), prio);
	d1_mmio_write32(BASE + D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, id / 32), 1u << (id % 32));
}

static void table_all(d1_plic_handler_t fn, bool edge)
{
	for (unsigned s = 0; s <= NSRC; s++) {
		table[s] = (struct d1_plic_entry){.fn = fn, .arg = NULL, .edge = edge};
	}
}

static void init_ctx1(unsigned threshold)
{
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, NSRC, threshold), D1_OK);
}

static void test_init_known_state(void **state)
{
	uint64_t w0;

	(void)state;
	/* as firmware might leave it */
	for (unsigned s = 1; s <= NSRC; s++) {
		pm.prio[s] = s % 32u;
	}
	for (unsigned w = 0; w < 6; w++) {
		pm.enable[0][w] = 0x5A5A5A5Au;
		pm.enable[1][w] = 0xFFFFFFFEu;
	}
	pm.threshold[0] = 7;
	pm.threshold[1] = 7; /* OpenSBI leaves 7 */
	w0 = sim_writes();
	init_ctx1(0);
	for (unsigned s = 1; s <= NSRC; s++) {
		assert_int_equal(pm.prio[s], 0);
	}
	for (unsigned w = 0; w < 6; w++) {
		assert_int_equal(pm.enable[1][w], 0);
		assert_int_equal(pm.enable[0][w], 0x5A5A5A5Au); /* other context untouched */
	}
	assert_int_equal(pm.threshold[1], 0);
	assert_int_equal(pm.threshold[0], 7);
	/* delegation probe (write + restore) + 175 priorities + 6 enable words + threshold */
	assert_int_equal(sim_writes() - w0, 2 + NSRC + 6 + 1);
	assert_int_equal(plic.prio_max, 31);
	assert_int_equal(sim_unmapped(), 0);
}

/* The threshold firmware left, read before init and never written by the
 * read; after init the one the handle set. */
static void test_read_threshold_before_and_after_init(void **state)
{
	uint32_t th = 99u;
	uint64_t w0;

	(void)state;
	pm.threshold[1] = 7; /* OpenSBI leaves 7 */
	w0 = sim_writes();
	assert_int_equal(d1_plic_read_threshold(BASE, 1, &th), D1_OK);
	assert_int_equal(th, 7);
	assert_int_equal(sim_writes(), w0);
	init_ctx1(3);
	assert_int_equal(d1_plic_read_threshold(BASE, 1, &th), D1_OK);
	assert_int_equal(th, 3);
	assert_int_equal(pm.threshold[1], 3);
}

static void test_claims_highest_priority_above_threshold(void **state)
{
	static const unsigned want[] = {21, 22, 20};

	(void)state;
	init_ctx1(2);
	table_all(level_handler, false);
	assert_int_equal(d1_plic_set_priority(&plic, 20, 3), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 21, 5), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 22, 5), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 23, 2), D1_OK);  /* == threshold: never */
	assert_int_equal(d1_plic_set_priority(&plic, 24, 31), D1_OK); /* not enabled */
	assert_int_equal(d1_plic_set_priority(&plic, 25, 0), D1_OK);  /* priority 0: never */
	for (unsigned s = 20; s <= 23; s++) {
		assert_int_equal(d1_plic_enable(&plic, s), D1_OK);
	}
	assert_int_equal(d1_plic_enable(&plic, 25), D1_OK);
	for (unsigned s = 20; s <= 25; s++) {
		plic_model_set_level(&pm, s, true);
	}
	assert_true(plic_model_eip(&pm, 1));
	assert_false(plic_model_eip(&pm, 0));
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 3);
	assert_int_equal(hl.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(hl.order[i], want[i]);
	}
	assert_int_equal(hl.calls[23] + hl.calls[24] + hl.calls[25], 0);
	assert_false(plic_model_eip(&pm, 1));
	/* lower the threshold: 23 now qualifies; 25 (priority 0) still never */
	assert_int_equal(d1_plic_set_threshold(&plic, 1), D1_OK);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(hl.order[3], 23);
	assert_int_equal(hl.calls[25], 0);
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
}

/* Random configurations: the dispatch order must be priority descending,
 * id ascending, over exactly the eligible sources. */
static void test_random_arbitration_order(void **state)
{
	uint64_t rng = 12345;

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	for (unsigned round = 0; round < 200; round++) {
		unsigned thr = (unsigned)(sim_rand(&rng) % 8u);
		unsigned expect[NSRC + 1];
		unsigned ne = 0;
		bool en[NSRC + 1];
		unsigned pr[NSRC + 1];

		hl = (struct hlog){0};
		assert_int_equal(d1_plic_set_threshold(&plic, thr), D1_OK);
		for (unsigned s = 1; s <= NSRC; s++) {
			uint64_t r = sim_rand(&rng);
			bool high = (r & 3u) == 0;
			pr[s] = (unsigned)((r >> 8) % 32u);
			en[s] = ((r >> 16) & 1u) != 0;
			assert_int_equal(d1_plic_set_priority(&plic, s, pr[s]), D1_OK);
			assert_int_equal(en[s] ? d1_plic_enable(&plic, s)
			                       : d1_plic_disable(&plic, s),
			                 D1_OK);
			plic_model_set_level(&pm, s, high);
			if (high && en[s] && pr[s] > thr) {
				expect[ne++] = s;
			}
		}
		/* reference order: priority descending, then id ascending */
		for (unsigned i = 1; i < ne; i++) {
			for (unsigned j = i; j > 0; j--) {
				unsigned a = expect[j - 1], b = expect[j];
				if (pr[b] > pr[a]) {
					expect[j - 1] = b;
					expect[j] = a;
				}
			}
		}
		assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), ne);
		assert_int_equal(hl.n, ne);
		for (unsigned i = 0; i < ne; i++) {
			assert_int_equal(hl.order[i], expect[i]);
		}
		/* the rest stays as it was: pending where high, nothing in service */
		for (unsigned s = 1; s <= NSRC; s++) {
			assert_int_equal(pm.claimed_by[s], -1);
			plic_model_set_level(&pm, s, false);
			pm.pending[s] = false;
		}
	}
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
}

static void test_level_redelivered_until_serviced_and_bounded(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	assert_int_equal(d1_plic_set_priority(&plic, 60, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 60), D1_OK);
	plic_model_set_level(&pm, 60, true);
	hl.keep_high[60] = 2; /* the device needs three services */
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 3);
	assert_int_equal(hl.calls[60], 3);
	assert_int_equal(st.dispatched, 3);
	assert_int_equal(st.spurious, 0);
	/* a line stuck high: the dispatch loop is bounded, the source stays
	 * pending (not lost, not wedged) */
	hl.keep_high[60] = 1000000;
	plic_model_set_level(&pm, 60, true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), NSRC + 1);
	assert_true(pm.pending[60]);
	assert_int_equal(pm.claimed_by[60], -1);
	assert_true(plic_model_eip(&pm, 1));
}

static unsigned edge_repulse;

static void edge_handler(unsigned src, void *arg)
{
	(void)arg;
	hl.calls[src]++;
	if (edge_repulse > 0) {
		edge_repulse--;
		plic_model_pulse(&pm, src); /* the device fires again during the handler */
	}
}

static void test_edge_completed_before_handler(void **state)
{
	(void)state;
	init_ctx1(0);
	pm.edge[30] = true;
	assert_int_equal(d1_plic_set_priority(&plic, 30, 4), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 30), D1_OK);

	table_all(edge_handler, true);
	edge_repulse = 1;
	plic_model_pulse(&pm, 30);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 2);
	assert_int_equal(hl.calls[30], 2);
	assert_int_equal(pm.edges_lost, 0);

	/* the same source treated as level (completed after the handler):
	 * the edge during service is lost — why edge entries exist */
	table_all(edge_handler, false);
	hl = (struct hlog){0};
	edge_repulse = 1;
	plic_model_pulse(&pm, 30);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(pm.edges_lost, 1);
}

static void masking_handler(unsigned src, void *arg)
{
	(void)arg;
	hl.calls[src]++;
	/* defer the work: mask the source, leave the device line high */
	assert_int_equal(d1_plic_disable(&plic, src), D1_OK);
}

static void test_masked_eoi_cannot_wedge(void **state)
{
	uintptr_t en = BASE + D1_PLIC_ENABLE_OFFSET(1, 18u / 32u);
	uintptr_t claim = BASE + D1_PLIC_CLAIM_OFFSET(1);

	(void)state;
	init_ctx1(0);
	table_all(masking_handler, false);
	assert_int_equal(d1_plic_set_priority(&plic, D1_IRQ_UART(0), 3), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, D1_IRQ_UART(0)), D1_OK);
	plic_model_set_level(&pm, D1_IRQ_UART(0), true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.claimed_by[D1_IRQ_UART(0)], -1); /* completed */
	assert_false(plic_model_enabled(&pm, 1, D1_IRQ_UART(0)));
	assert_false(plic_model_eip(&pm, 1));
	/* the thread finishes and unmasks: the still-high line comes back */
	assert_int_equal(d1_plic_enable(&plic, D1_IRQ_UART(0)), D1_OK);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(hl.calls[D1_IRQ_UART(0)], 2);

	/* The sequence the driver avoids, on the raw bus: mask, then complete.
	 * The completion is dropped and the source is wedged for good. */
	assert_int_equal(d1_plic_enable(&plic, D1_IRQ_UART(0)), D1_OK);
	assert_int_equal(d1_plic_claim(&plic), D1_IRQ_UART(0));
	d1_mmio_modify32(en, 1u << (D1_IRQ_UART(0) % 32u), 0);
	d1_mmio_write32(claim, D1_IRQ_UART(0));
	assert_int_equal(pm.completes_dropped_masked, 1);
	d1_mmio_modify32(en, 0, 1u << (D1_IRQ_UART(0) % 32u));
	assert_int_equal(d1_plic_claim(&plic), 0); /* never again */
	assert_int_equal(pm.claimed_by[D1_IRQ_UART(0)], 1);
}

static void test_unhandled_source_completed_then_masked(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	assert_int_equal(d1_plic_set_priority(&plic, 40, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 40), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 150, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 150), D1_OK);
	table[40].fn = NULL;
	plic_model_set_level(&pm, 40, true);  /* stays high: would storm */
	plic_model_set_level(&pm, 150, true); /* beyond a short table */
	assert_int_equal(d1_plic_isr(&plic, table, 100, &st), 0);
	assert_int_equal(st.unhandled, 2);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.claimed_by[40], -1);
	assert_int_equal(pm.claimed_by[150], -1);
	assert_false(plic_model_enabled(&pm, 1, 40));
	assert_false(plic_model_enabled(&pm, 1, 150));
	assert_false(plic_model_eip(&pm, 1)); /* no storm */
	assert_int_equal(d1_plic_isr(&plic, table, 100, &st), 0);
	assert_int_equal(st.spurious, 1);
	assert_int_equal(pm.claims[1], 2);
}

static void test_spurious_claims_counted(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(st.spurious, 1);
	/* a source pending, but the claim says 0 (the interrupt was taken by
	 * another context, or went away) */
	assert_int_equal(d1_plic_set_priority(&plic, 76, 9), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 76), D1_OK);
	plic_model_set_level(&pm, 76, true);
	pm.spurious_claims = 1;
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(st.spurious, 2);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 1);
	assert_int_equal(st.dispatched, 1);
	assert_int_equal(st.spurious, 2);
}

/* The lean OS-dispatcher entry (plic.h d1_plic_claim_begin()/_end()): the
 * OS calls its own handler between the two. */
static void lean_dispatch(struct d1_plic_stats *st, void (*fn)(unsigned src))
{
	struct d1_plic_frame f;
	unsigned src = d1_plic_claim_begin(&plic, &f, st);

	if (src != 0u) {
		fn(src);
		d1_plic_claim_end(&plic, &f, st);
	}
	assert_null(plic.active); /* the frame is unlinked */
}

static void lean_level(unsigned src)
{
	assert_int_equal(pm.claimed_by[src], 1); /* in service during the handler */
	level_handler(src, NULL);
}

static void lean_mask(unsigned src)
{
	masking_handler(src, NULL);
}

static void lean_self_complete(unsigned src)
{
	hl.calls[src]++;
	plic_model_set_level(&pm, src, false);
	d1_plic_complete(&plic, src);
	assert_int_equal(pm.claimed_by[src], -1);
}

static void test_lean_claim_level_source(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, 76, 4), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 76), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 18, 2), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 18), D1_OK);
	plic_model_set_level(&pm, 18, true);
	plic_model_set_level(&pm, 76, true);
	lean_dispatch(&st, lean_level); /* the higher priority first */
	assert_int_equal(hl.n, 1);
	assert_int_equal(hl.order[0], 76);
	assert_int_equal(pm.claimed_by[76], -1); /* completed */
	assert_true(plic_model_eip(&pm, 1));     /* 18 still waiting */
	lean_dispatch(&st, lean_level);
	assert_int_equal(hl.order[1], 18);
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(st.dispatched, 2);
	assert_int_equal(pm.completes[1], 2);
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
	/* a level left high is delivered again after the completion */
	hl.keep_high[76] = 1;
	plic_model_set_level(&pm, 76, true);
	lean_dispatch(&st, lean_level);
	assert_true(pm.pending[76]);
	lean_dispatch(&st, lean_level);
	assert_int_equal(hl.calls[76], 3);
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(st.spurious, 0);
}

static void test_lean_claim_masked_or_self_completed_once(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, D1_IRQ_UART(0), 3), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, D1_IRQ_UART(0)), D1_OK);
	plic_model_set_level(&pm, D1_IRQ_UART(0), true);
	/* the handler masks its source and leaves the line high (deferred
	 * work): completed before the mask, not after it */
	lean_dispatch(&st, lean_mask);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.claimed_by[D1_IRQ_UART(0)], -1);
	assert_int_equal(pm.completes[1], 1); /* once: the end did not repeat it */
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(d1_plic_enable(&plic, D1_IRQ_UART(0)), D1_OK);
	lean_dispatch(&st, lean_self_complete); /* the line comes back */
	assert_int_equal(hl.calls[D1_IRQ_UART(0)], 2);
	assert_int_equal(pm.completes[1], 2);
	assert_int_equal(pm.completes_unclaimed, 0); /* no second completion */
	assert_int_equal(st.dispatched, 2);
}

/* Nested: while source 76 is in service through the lean entry, its handler
 * serves 18 through a nested lean dispatch, then masks 76 (deferred work):
 * the disable finds 76 in the outer frame and completes it before the mask. */
static struct d1_plic_stats nest_st;

static void lean_inner(unsigned src)
{
	assert_int_equal(src, 18);
	plic_model_set_level(&pm, src, false);
	hl.calls[src]++;
}

static void lean_outer(unsigned src)
{
	struct d1_plic_frame f;
	unsigned inner;

	assert_int_equal(src, 76);
	hl.calls[src]++;
	plic_model_set_level(&pm, 18, true);
	inner = d1_plic_claim_begin(&plic, &f, &nest_st);
	assert_int_equal(inner, 18);
	lean_inner(inner);
	d1_plic_claim_end(&plic, &f, &nest_st);
	assert_int_equal(pm.claimed_by[18], -1);
	assert_int_equal(d1_plic_disable(&plic, src), D1_OK);
	assert_int_equal(pm.claimed_by[src], -1);
}

static void test_lean_claim_nested(void **state)
{
	(void)state;
	nest_st = (struct d1_plic_stats){0};
	init_ctx1(0);
	/* 18 above 76 would pre-empt on the hart; here the threshold stays 0
	 * and the outer handler serves it with interrupts off, as a nested
	 * dispatch would */
	assert_int_equal(d1_plic_set_priority(&plic, 76, 2), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 76), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 18, 5), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 18), D1_OK);
	plic_model_set_level(&pm, 76, true); /* stays high: deferred */
	lean_dispatch(&nest_st, lean_outer);
	assert_int_equal(hl.calls[76], 1);
	assert_int_equal(hl.calls[18], 1);
	assert_int_equal(nest_st.dispatched, 2);
	assert_int_equal(pm.completes[1], 2);
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
	assert_false(plic_model_enabled(&pm, 1, 76));
	assert_false(plic_model_eip(&pm, 1));
}

static void test_lean_claim_spurious_and_foreign_counted(void **state)
{
	struct d1_plic_stats st = {0};
	struct d1_plic wide;

	(void)state;
	/* this handle knows 100 sources; other software enabled 150 */
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, 100u, 0u), D1_OK);
	assert_int_equal(d1_plic_init(&wide, BASE, D1_PLIC_CTX_S, NSRC, 0u), D1_OK);
	lean_dispatch(&st, lean_level);
	assert_int_equal(st.spurious, 1);
	assert_int_equal(pm.claims_zero[1], 1);
	assert_int_equal(d1_plic_set_priority(&wide, 150, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&wide, 150), D1_OK);
	plic_model_set_level(&pm, 150, true); /* stays high: would storm */
	lean_dispatch(&st, lean_level);
	assert_int_equal(hl.n, 0); /* no handler for it */
	assert_int_equal(st.foreign, 1);
	assert_int_equal(st.last_foreign, 150);
	assert_int_equal(pm.claimed_by[150], -1); /* completed, then masked */
	assert_false(plic_model_enabled(&pm, 1, 150));
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(st.dispatched, 0);
	assert_int_equal(st.spurious, 1);
}

/* Source 18 enabled in context 1 with its level held high, claimed
 * through the lean entry with frame @p f. */
static void lean_claim_18_high(struct d1_plic_frame *f, struct d1_plic_stats *st)
{
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, 18, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 18), D1_OK);
	plic_model_set_level(&pm, 18, true); /* stays high */
	assert_int_equal(d1_plic_claim_begin(&plic, f, st), 18);
}

/* An OS with no handler for a claimed source ends the dispatch with
 * d1_plic_claim_unhandled(): completed before the mask, masked in this
 * context so the high level cannot storm, counted as unhandled (not
 * dispatched), the frame unlinked; enabled again with a handler, the still
 * high level is delivered. */
static void test_lean_claim_unhandled(void **state)
{
	struct d1_plic_stats st = {0};
	struct d1_plic_frame f;

	(void)state;
	lean_claim_18_high(&f, &st);
	d1_plic_claim_unhandled(&plic, &f, &st);
	assert_null(plic.active);
	assert_int_equal(pm.claimed_by[18], -1);
	assert_false(plic_model_enabled(&pm, 1, 18));
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
	assert_int_equal(st.unhandled, 1);
	assert_int_equal(st.dispatched, 0);
	assert_int_equal(d1_plic_enable(&plic, 18), D1_OK);
	lean_dispatch(&st, lean_level);
	assert_int_equal(hl.calls[18], 1);
	assert_int_equal(st.dispatched, 1);
	assert_false(plic_model_eip(&pm, 1));
}

/* The source was completed while in service (d1_plic_complete() first, as
 * an edge source's handler does, or d1_plic_disable() from a nested
 * handler), then the OS found no handler: d1_plic_claim_unhandled() must
 * not complete it again, must mask source 18 itself (not the complement
 * the frame holds once completed) and count it as unhandled, with no
 * access outside the PLIC. */
static void test_lean_claim_unhandled_after_complete(void **state)
{
	struct d1_plic_stats st = {0};
	struct d1_plic_frame f;

	(void)state;
	lean_claim_18_high(&f, &st);
	d1_plic_complete(&plic, 18);
	assert_int_equal(pm.completes[1], 1);
	d1_plic_claim_unhandled(&plic, &f, &st);
	assert_null(plic.active);
	assert_int_equal(sim_unmapped(), 0);
	assert_int_equal(pm.completes[1], 1); /* not completed twice */
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
	assert_false(plic_model_enabled(&pm, 1, 18));
	assert_false(plic_model_eip(&pm, 1));
	assert_int_equal(st.unhandled, 1);
	assert_int_equal(st.foreign, 0);
	assert_int_equal(st.last_foreign, 0);
	assert_int_equal(st.dispatched, 0);
}

static void test_s_per_and_delegation(void **state)
{
	struct d1_plic m_ctx;
	uint64_t w0;

	(void)state;
	/* M-mode firmware: known state, a priority to see restored */
	assert_int_equal(d1_plic_init(&m_ctx, BASE, D1_PLIC_CTX_M, NSRC, 7), D1_OK);
	pm.prio[NSRC] = 9;
	assert_int_equal(d1_plic_check_delegation(&m_ctx), D1_OK); /* M: always */

	/* S-mode without S_PER: refused, and nothing takes effect; the probe
	 * read faulted inside the fault-safe probe, nothing trapped unhandled */
	pm.s_mode = true;
	plic = (struct d1_plic){0};
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, NSRC, 0), D1_ENODELEG);
	assert_int_equal(pm.prio[NSRC], 9);
	assert_int_equal(pm.denied_reads, 1); /* only the probe's read */
	assert_int_equal(pm.denied_writes, 0);
	assert_int_equal(sim_probe_faults(), 1);
	assert_int_equal(sim_unhandled_faults(), 0);
	/* threshold and claim/complete stay reachable (T-Head) */
	plic.base = BASE;
	plic.context = 1;
	plic.nsources = NSRC;
	plic.prio_max = 31;
	assert_int_equal(d1_plic_set_threshold(&plic, 3), D1_OK);
	assert_int_equal(pm.threshold[1], 3);
	assert_int_equal(d1_plic_check_delegation(&plic), D1_ENODELEG);
	/* S-mode cannot grant itself S_PER: on the D1 the access faults
	 * (M-mode only, plic_ctrl.v), here an unhandled fault for each of the
	 * write and the read-back */
	assert_int_equal(d1_plic_set_s_per(BASE, true), D1_ENODELEG);
	assert_int_equal(pm.ctrl, 0);
	assert_int_equal(sim_unhandled_faults(), 2);

	/* M-mode sets S_PER (as OpenSBI does at boot) */
	pm.s_mode = false;
	assert_int_equal(d1_plic_set_s_per(BASE, true), D1_OK);
	assert_int_equal(pm.ctrl, 1);
	pm.s_mode = true;
	assert_int_equal(d1_plic_check_delegation(&plic), D1_OK);
	assert_int_equal(pm.prio[NSRC], 9); /* probe restored */
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, 76, 5), D1_OK);
	assert_int_equal(pm.prio[76], 5);

	/* the CPU power domain went off: S_PER is lost, the check says so */
	plic_model_power_cycle(&pm);
	w0 = pm.denied_reads;
	assert_int_equal(d1_plic_check_delegation(&plic), D1_ENODELEG);
	assert_int_equal(pm.denied_reads, w0 + 1);
	assert_int_equal(sim_unhandled_faults(), 2); /* no new one */
	pm.s_mode = false;
	assert_int_equal(d1_plic_set_s_per(BASE, false), D1_OK);
}

static void test_qemu_virt_prio_max(void **state)
{
	struct d1_plic q;
	uint64_t w0;

	(void)state;
	sim_reset();
	plic_model_init(&pm, D1_PLIC_QEMU_VIRT_BASE, D1_PLIC_QEMU_VIRT_NSOURCES, 3, false);
	pm.s_mode = true; /* no PLIC_CTRL: S-mode is never gated */
	assert_int_equal(d1_plic_init_ex(&q, D1_PLIC_QEMU_VIRT_BASE, D1_PLIC_CTX_S,
	                                 D1_PLIC_QEMU_VIRT_NSOURCES, 0, D1_PLIC_QEMU_VIRT_PRIO_MAX),
	                 D1_OK);
	/* the hazard: 3-bit registers turn 8 into 0 (= never) */
	d1_mmio_write32(D1_PLIC_QEMU_VIRT_BASE + D1_PLIC_PRIO_OFFSET(5), 8);
	assert_int_equal(pm.prio[5], 0);
	w0 = sim_writes();
	assert_int_equal(d1_plic_set_priority(&q, D1_PLIC_QEMU_VIRT_UART0_IRQ, 8), D1_ERANGE);
	assert_int_equal(d1_plic_set_threshold(&q, 8), D1_ERANGE);
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(d1_plic_set_priority(&q, D1_PLIC_QEMU_VIRT_UART0_IRQ, 7), D1_OK);
	assert_int_equal(d1_plic_enable(&q, D1_PLIC_QEMU_VIRT_UART0_IRQ), D1_OK);
	plic_model_set_level(&pm, D1_PLIC_QEMU_VIRT_UART0_IRQ, true);
	table_all(level_handler, false);
	assert_int_equal(d1_plic_isr(&q, table, NSRC + 1, NULL), 1);
	assert_int_equal(hl.calls[D1_PLIC_QEMU_VIRT_UART0_IRQ], 1);
	/* no PLIC_CTRL there */
	assert_int_equal(d1_plic_set_s_per(D1_PLIC_QEMU_VIRT_BASE, true), D1_ENODELEG);
	/* the other way in: D1 defaults, then the max */
	assert_int_equal(d1_plic_init(&q, D1_PLIC_QEMU_VIRT_BASE, 1, D1_PLIC_QEMU_VIRT_NSOURCES, 0),
	                 D1_OK);
	assert_int_equal(d1_plic_set_max_priority(&q, 7), D1_OK);
	assert_int_equal(d1_plic_set_priority(&q, 1, 31), D1_ERANGE);
	assert_int_equal(sim_unmapped(), 0);
}

static void inner_handler(unsigned src, void *arg)
{
	(void)arg;
	hl.calls[src]++;
	plic_model_set_level(&pm, src, false);
	/* the high-priority handler masks the interrupted low-priority source */
	assert_int_equal(d1_plic_disable(&plic, 50), D1_OK);
}

static void outer_handler(unsigned src, void *arg)
{
	(void)arg;
	hl.calls[src]++;
	plic_model_set_level(&pm, 51, true);
	/* nested interrupt (the port re-enabled interrupts in the handler) */
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
}

static void test_nested_dispatch_disable_of_outer_source(void **state)
{
	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	table[50].fn = outer_handler;
	table[51].fn = inner_handler;
	assert_int_equal(d1_plic_set_priority(&plic, 50, 2), D1_OK);
	assert_int_equal(d1_plic_set_priority(&plic, 51, 6), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 50), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 51), D1_OK);
	plic_model_set_level(&pm, 50, true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(hl.calls[50], 1);
	assert_int_equal(hl.calls[51], 1);
	assert_int_equal(pm.claimed_by[50], -1);
	assert_int_equal(pm.claimed_by[51], -1);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.completes_unclaimed, 0);
	assert_null(plic.active);
}

static void self_completing_handler(unsigned src, void *arg)
{
	(void)arg;
	hl.calls[src]++;
	plic_model_set_level(&pm, src, false);
	d1_plic_complete(&plic, src);
}

static void test_self_complete_not_repeated(void **state)
{
	(void)state;
	init_ctx1(0);
	table_all(self_completing_handler, false);
	assert_int_equal(d1_plic_set_priority(&plic, 90, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 90), D1_OK);
	plic_model_set_level(&pm, 90, true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, NULL), 1);
	assert_int_equal(pm.completes[1], 1);
	assert_int_equal(pm.completes_unclaimed, 0);
}

static void test_invalid_inputs_write_nothing(void **state)
{
	struct d1_plic q;
	uint64_t w0;

	(void)state;
	SIM_EXPECT_NO_WRITE(d1_plic_init(NULL, BASE, 1, NSRC, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, 0, 1, NSRC, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, BASE + 2, 1, NSRC, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, BASE, 2, NSRC, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, BASE, 1, 0, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, BASE, 1, D1_PLIC_MAX_SOURCES + 1, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init(&q, BASE, 1, NSRC, 32), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_plic_init_ex(&q, BASE, 1, NSRC, 0, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init_ex(&q, BASE, 1, NSRC, 0, 32), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_init_ex(&q, BASE, 1, NSRC, 8, 7), D1_ERANGE);
	init_ctx1(0);
	SIM_EXPECT_NO_WRITE(d1_plic_set_priority(NULL, 20, 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_priority(&plic, 0, 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_priority(&plic, NSRC + 1, 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_priority(&plic, 20, 32), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_plic_enable(NULL, 20), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_enable(&plic, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_enable(&plic, NSRC + 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_disable(NULL, 20), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_disable(&plic, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_disable(&plic, NSRC + 1), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_threshold(NULL, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_threshold(&plic, 32), D1_ERANGE);
	SIM_EXPECT_NO_WRITE(d1_plic_set_max_priority(NULL, 7), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_max_priority(&plic, 0), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_max_priority(&plic, 32), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_s_per(0, true), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_set_s_per(BASE + 1, true), D1_EINVAL);
	SIM_EXPECT_NO_WRITE(d1_plic_check_delegation(NULL), D1_EINVAL);
	w0 = sim_writes();
	d1_plic_complete(&plic, 0);
	d1_plic_complete(&plic, NSRC + 1);
	d1_plic_complete(NULL, 20);
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(plic.rejected, 2);
	assert_int_equal(d1_plic_isr(NULL, table, NSRC + 1, NULL), 0);
	assert_int_equal(sim_writes(), w0);
	/* the priority limit follows the handle */
	assert_int_equal(d1_plic_set_max_priority(&plic, 7), D1_OK);
	SIM_EXPECT_NO_WRITE(d1_plic_set_priority(&plic, 20, 8), D1_ERANGE);
	assert_int_equal(sim_unmapped(), 0);
}

/* A claim of an id above the handle's nsources (a source other
 * software enabled) is completed, so it does not stay in service for ever,
 * and counted as foreign, not spurious; the handle's own sources still run. */
static void test_foreign_claim_completed_and_counted(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, 100, 0), D1_OK);
	table_all(level_handler, false);
	/* firmware enabled source 150 in this context, priority 9 */
	firmware_enable(150, 9);
	plic_model_set_level(&pm, 150, true);
	plic_model_set_level(&pm, 150, false); /* one pulse of the level: latched */
	assert_int_equal(d1_plic_set_priority(&plic, 40, 3), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 40), D1_OK);
	plic_model_set_level(&pm, 40, true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 1);
	assert_int_equal(pm.claimed_by[150], -1); /* completed: gateway open */
	assert_int_equal(pm.delivered[150], 1);
	assert_int_equal(st.foreign, 1);
	assert_int_equal(st.spurious, 0);
	assert_int_equal(st.dispatched, 1);
	assert_int_equal(hl.calls[40], 1);
	/* completed first (enabled at that moment), then masked in this
	 * context: it cannot come back */
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_false(plic_model_enabled(&pm, D1_PLIC_CTX_S, 150));
	assert_int_equal(st.last_foreign, 150);
	plic_model_set_level(&pm, 150, true);
	plic_model_set_level(&pm, 150, false);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(pm.delivered[150], 1);
	assert_int_equal(st.foreign, 1);
	assert_int_equal(st.spurious, 1);
	assert_false(plic_model_eip(&pm, D1_PLIC_CTX_S));
}

/* The ends of the documented ranges are accepted and written: prio_max 1
 * and 31, one source, a threshold equal to prio_max. */
static void test_range_ends_accepted(void **state)
{
	(void)state;
	assert_int_equal(d1_plic_init_ex(&plic, BASE, D1_PLIC_CTX_S, NSRC, 1, 1), D1_OK);
	assert_int_equal(pm.threshold[D1_PLIC_CTX_S], 1);
	assert_int_equal(d1_plic_set_priority(&plic, 1, 2), D1_ERANGE);
	assert_int_equal(d1_plic_set_max_priority(&plic, 1), D1_OK);
	assert_int_equal(d1_plic_init_ex(&plic, BASE, D1_PLIC_CTX_S, 1, 5, 5), D1_OK);
	assert_int_equal(plic.nsources, 1);
	assert_int_equal(pm.threshold[D1_PLIC_CTX_S], 5);
	assert_int_equal(d1_plic_set_threshold(&plic, 5), D1_OK);
	assert_int_equal(d1_plic_set_threshold(&plic, 6), D1_ERANGE);
	assert_int_equal(d1_plic_set_max_priority(&plic, D1_PLIC_PRIO_MAX), D1_OK);
	assert_int_equal(d1_plic_set_threshold(&plic, D1_PLIC_PRIO_MAX), D1_OK);
	assert_int_equal(pm.threshold[D1_PLIC_CTX_S], D1_PLIC_PRIO_MAX);
	assert_int_equal(d1_plic_set_priority(&plic, 1, D1_PLIC_PRIO_MAX), D1_OK);
	assert_int_equal(pm.prio[1], D1_PLIC_PRIO_MAX);
}

/* The dispatch limit is exclusive at both of its sources: an id equal to
 * table_len (beyond a short table) is unhandled, an id of nsources + 1 is
 * foreign, even where the table has a handler at that index. */
static void test_dispatch_limit_is_exclusive(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, 100, 0), D1_OK);
	table_all(level_handler, false);
	/* firmware enabled source 101 (nsources + 1) in this context */
	firmware_enable(101, 9);
	plic_model_set_level(&pm, 101, true);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(hl.calls[101], 0);
	assert_int_equal(st.foreign, 1);
	assert_int_equal(st.last_foreign, 101);
	assert_false(plic_model_enabled(&pm, D1_PLIC_CTX_S, 101));
	/* source 40 with a table of 40 entries (ids 0..39) */
	assert_int_equal(d1_plic_set_priority(&plic, 40, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 40), D1_OK);
	plic_model_set_level(&pm, 40, true);
	assert_int_equal(d1_plic_isr(&plic, table, 40, &st), 0);
	assert_int_equal(hl.calls[40], 0);
	assert_int_equal(st.unhandled, 1);
	assert_false(plic_model_enabled(&pm, D1_PLIC_CTX_S, 40));
	/* the last id inside both limits runs */
	assert_int_equal(d1_plic_set_priority(&plic, 100, 1), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 100), D1_OK);
	plic_model_set_level(&pm, 100, true);
	assert_int_equal(d1_plic_isr(&plic, table, 101, &st), 1);
	assert_int_equal(hl.calls[100], 1);
	assert_false(plic_model_eip(&pm, D1_PLIC_CTX_S));
}

/* The openC906 RTL answers an S-mode access to a priority
 * register without S_PER with PSLVERR (a load/store access fault); the model
 * faults the same way. The old check read the register directly: an
 * unhandled fault (on the D1: a trap). Now every probe access runs through
 * the port's fault-safe d1_port_probe32(): D1_ENODELEG, no unhandled fault,
 * no write reached the PLIC. */
static void test_delegation_check_is_trap_safe(void **state)
{
	uint64_t w0;

	(void)state;
	plic = (struct d1_plic){.base = BASE, .context = 1, .nsources = NSRC, .prio_max = 31};
	pm.s_mode = true;
	w0 = sim_writes();
	assert_int_equal(d1_plic_check_delegation(&plic), D1_ENODELEG);
	assert_int_equal(sim_unhandled_faults(), 0);
	assert_int_equal(sim_probe_faults(), 1);
	assert_int_equal(sim_probe_calls(), 1); /* the read faulted: no write tried */
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(sim_critical_depth(), 0);
	/* init for context 1 says the same, and writes nothing */
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, NSRC, 0), D1_ENODELEG);
	assert_int_equal(sim_unhandled_faults(), 0);
	assert_int_equal(sim_writes(), w0);
	/* with S_PER (set from M-mode) the same probe passes, 4 accesses */
	pm.s_mode = false;
	assert_int_equal(d1_plic_set_s_per(BASE, true), D1_OK);
	pm.s_mode = true;
	assert_int_equal(d1_plic_check_delegation(&plic), D1_OK);
	assert_int_equal(sim_probe_calls(), 2 + 4);
	assert_int_equal(sim_unhandled_faults(), 0);
}

/* A port without a fault-safe probe: the check makes no access at all and
 * says D1_ENOTSUP; init proceeds unchecked (documented), which works with
 * S_PER set. */
static void test_delegation_without_probe_support(void **state)
{
	uint64_t r0;
	uint64_t w0;

	(void)state;
	sim_set_probe_supported(false);
	plic = (struct d1_plic){.base = BASE, .context = 1, .nsources = NSRC, .prio_max = 31};
	pm.s_mode = true;
	r0 = sim_reads();
	w0 = sim_writes();
	assert_int_equal(d1_plic_check_delegation(&plic), D1_ENOTSUP);
	assert_int_equal(sim_reads(), r0);
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(sim_unhandled_faults(), 0);
	pm.s_mode = false;
	assert_int_equal(d1_plic_set_s_per(BASE, true), D1_OK);
	pm.s_mode = true;
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, 76, 5), D1_OK);
	assert_int_equal(pm.prio[76], 5);
	assert_int_equal(sim_unhandled_faults(), 0);
}

/* The model's fault rule can fail: every gated register class faults from
 * S-mode without S_PER; S_PER opens all but PLIC_CTRL; context 1's threshold
 * and claim are always reachable. */
static void test_model_faults_like_the_rtl(void **state)
{
	static const uint32_t gated[] = {
	        D1_PLIC_PRIO_OFFSET(5),
	        D1_PLIC_PENDING_OFFSET(0),
	        D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, 1),
	        D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_M, 0),
	        D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_M),
	        D1_PLIC_CTRL_OFFSET,
	};
	uint64_t n = 0;

	(void)state;
	pm.s_mode = true;
	for (unsigned i = 0; i < sizeof(gated) / sizeof(gated[0]); i++) {
		(void)d1_mmio_read32(BASE + gated[i]);
		d1_mmio_write32(BASE + gated[i], 0);
		n += 2;
		assert_int_equal(sim_unhandled_faults(), n);
	}
	(void)d1_mmio_read32(BASE + D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_S));
	d1_mmio_write32(BASE + D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_S), 2);
	(void)d1_mmio_read32(BASE + D1_PLIC_CLAIM_OFFSET(D1_PLIC_CTX_S));
	assert_int_equal(pm.threshold[1], 2);
	assert_int_equal(sim_unhandled_faults(), n);
	pm.ctrl = 1; /* S_PER as M-mode firmware sets it */
	for (unsigned i = 0; i + 1 < sizeof(gated) / sizeof(gated[0]); i++) {
		(void)d1_mmio_read32(BASE + gated[i]);
	}
	assert_int_equal(sim_unhandled_faults(), n);
	(void)d1_mmio_read32(BASE + D1_PLIC_CTRL_OFFSET);
	assert_int_equal(sim_unhandled_faults(), n + 1);
}

/* The loop stays bounded when masking does not help: a broken claim
 * register that returns the same foreign id for ever. */
static void test_stuck_claim_bounded(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	pm.stuck_claim = 500; /* > nsources: foreign, masked each time to no avail */
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(st.foreign, D1_PLIC_MAX_SOURCES + 1u);
	assert_int_equal(pm.claims[1], D1_PLIC_MAX_SOURCES + 1u);
	pm.stuck_claim = 40; /* a valid id without a handler */
	table[40].fn = NULL;
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 0);
	assert_int_equal(st.unhandled, D1_PLIC_MAX_SOURCES + 1u);
	assert_int_equal(sim_critical_depth(), 0);
}

/* A LEVEL source above the handle's nsources that stays
 * high (id 100, a 32-source handle): the old dispatch completed it 33 times
 * in one call (the loop bound) and left it enabled, so the line stayed high
 * and the trap re-entered for ever. One claim, complete, mask, counted. */
static void test_foreign_level_source_masked(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	assert_int_equal(d1_plic_init(&plic, BASE, D1_PLIC_CTX_S, 32, 0), D1_OK);
	table_all(level_handler, false);
	firmware_enable(100, 4);
	plic_model_set_level(&pm, 100, true); /* and it stays high */
	assert_int_equal(d1_plic_isr(&plic, table, 33, &st), 0);
	assert_int_equal(pm.claims[D1_PLIC_CTX_S], 1);
	assert_int_equal(pm.completes[D1_PLIC_CTX_S], 1);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.claimed_by[100], -1);
	assert_false(plic_model_enabled(&pm, D1_PLIC_CTX_S, 100));
	assert_false(plic_model_eip(&pm, D1_PLIC_CTX_S)); /* the trap does not re-enter */
	assert_int_equal(st.foreign, 1);
	assert_int_equal(st.last_foreign, 100);
	assert_int_equal(st.unhandled + st.dispatched + st.spurious, 0);
	assert_int_equal(hl.n, 0);
}

/* d1_plic_isr() with a NULL table but a non-zero length
 * crashed (ASan); it is refused, counted in d1_plic::rejected, and touches
 * nothing. d1_plic_claim(NULL) reads nothing and returns 0. */
static void test_isr_null_table_refused(void **state)
{
	struct d1_plic_stats st = {0};
	uint64_t r0;

	(void)state;
	init_ctx1(0);
	assert_int_equal(d1_plic_set_priority(&plic, 76, 9), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 76), D1_OK);
	plic_model_set_level(&pm, 76, true);
	r0 = sim_reads();
	SIM_EXPECT_NO_WRITE(d1_plic_isr(&plic, NULL, 100, &st), 0u);
	assert_int_equal(sim_reads(), r0);
	assert_int_equal(plic.rejected, 1);
	assert_int_equal(pm.claims[1], 0);
	SIM_EXPECT_NO_WRITE(d1_plic_claim(NULL), 0u);
	assert_int_equal(sim_reads(), r0);
	/* a NULL table with length 0 is the documented "no handlers" */
	assert_int_equal(d1_plic_isr(&plic, NULL, 0, &st), 0);
	assert_int_equal(st.unhandled, 1);
	assert_false(plic_model_eip(&pm, D1_PLIC_CTX_S));
}

/* Claim values are masked to the 10-bit id field. */
static void test_claim_value_masked(void **state)
{
	struct d1_plic_stats st = {0};

	(void)state;
	init_ctx1(0);
	table_all(level_handler, false);
	pm.claim_or = ~(uint32_t)D1_PLIC_CLAIM_ID_BITS;
	assert_int_equal(d1_plic_set_priority(&plic, 76, 9), D1_OK);
	assert_int_equal(d1_plic_enable(&plic, 76), D1_OK);
	plic_model_set_level(&pm, 76, true);
	assert_int_equal(d1_plic_claim(&plic), 76);
	d1_plic_complete(&plic, 76);
	assert_int_equal(pm.claimed_by[76], -1);
	assert_int_equal(d1_plic_isr(&plic, table, NSRC + 1, &st), 1);
	assert_int_equal(hl.calls[76], 1);
	assert_int_equal(pm.claimed_by[76], -1);
	assert_int_equal(st.spurious + st.foreign, 0);
}

/* The delegation probe stays within 0..prio_max when prio_max is not
 * 2^n - 1 (a WARL register refusing larger values must not look like
 * "no delegation"), and the original value is restored. */
static void test_delegation_probe_within_prio_max(void **state)
{
	struct d1_plic m_ctx;

	(void)state;
	sim_reset();
	plic_model_init(&pm, BASE, NSRC, 3, true);
	pm.prio_limit = 6;
	assert_int_equal(d1_plic_init_ex(&m_ctx, BASE, D1_PLIC_CTX_M, NSRC, 0, 6), D1_OK);
	assert_int_equal(d1_plic_set_s_per(BASE, true), D1_OK);
	assert_int_equal(d1_plic_set_priority(&m_ctx, NSRC, 6), D1_OK);
	pm.s_mode = true;
	plic = m_ctx;
	plic.context = D1_PLIC_CTX_S;
	assert_int_equal(d1_plic_check_delegation(&plic), D1_OK);
	assert_int_equal(pm.prio[NSRC], 6);
	pm.prio[NSRC] = 1; /* the other probe value */
	assert_int_equal(d1_plic_check_delegation(&plic), D1_OK);
	assert_int_equal(pm.prio[NSRC], 1);
	assert_int_equal(d1_plic_init_ex(&plic, BASE, D1_PLIC_CTX_S, NSRC, 0, 6), D1_OK);
	/* without S_PER the probe still fails */
	pm.s_mode = false;
	assert_int_equal(d1_plic_set_s_per(BASE, false), D1_OK);
	pm.s_mode = true;
	assert_int_equal(d1_plic_check_delegation(&plic), D1_ENODELEG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_init_known_state, setup),
	        cmocka_unit_test_setup(test_read_threshold_before_and_after_init, setup),
	        cmocka_unit_test_setup(test_claims_highest_priority_above_threshold, setup),
	        cmocka_unit_test_setup(test_random_arbitration_order, setup),
	        cmocka_unit_test_setup(test_level_redelivered_until_serviced_and_bounded, setup),
	        cmocka_unit_test_setup(test_edge_completed_before_handler, setup),
	        cmocka_unit_test_setup(test_masked_eoi_cannot_wedge, setup),
	        cmocka_unit_test_setup(test_unhandled_source_completed_then_masked, setup),
	        cmocka_unit_test_setup(test_spurious_claims_counted, setup),
	        cmocka_unit_test_setup(test_lean_claim_level_source, setup),
	        cmocka_unit_test_setup(test_lean_claim_masked_or_self_completed_once, setup),
	        cmocka_unit_test_setup(test_lean_claim_spurious_and_foreign_counted, setup),
	        cmocka_unit_test_setup(test_lean_claim_nested, setup),
	        cmocka_unit_test_setup(test_lean_claim_unhandled, setup),
	        cmocka_unit_test_setup(test_lean_claim_unhandled_after_complete, setup),
	        cmocka_unit_test_setup(test_s_per_and_delegation, setup),
	        cmocka_unit_test_setup(test_qemu_virt_prio_max, setup),
	        cmocka_unit_test_setup(test_nested_dispatch_disable_of_outer_source, setup),
	        cmocka_unit_test_setup(test_self_complete_not_repeated, setup),
	        cmocka_unit_test_setup(test_invalid_inputs_write_nothing, setup),
	        cmocka_unit_test_setup(test_foreign_claim_completed_and_counted, setup),
	        cmocka_unit_test_setup(test_range_ends_accepted, setup),
	        cmocka_unit_test_setup(test_dispatch_limit_is_exclusive, setup),
	        cmocka_unit_test_setup(test_delegation_check_is_trap_safe, setup),
	        cmocka_unit_test_setup(test_delegation_without_probe_support, setup),
	        cmocka_unit_test_setup(test_model_faults_like_the_rtl, setup),
	        cmocka_unit_test_setup(test_foreign_level_source_masked, setup),
	        cmocka_unit_test_setup(test_stuck_claim_bounded, setup),
	        cmocka_unit_test_setup(test_isr_null_table_refused, setup),
	        cmocka_unit_test_setup(test_claim_value_masked, setup),
	        cmocka_unit_test_setup(test_delegation_probe_within_prio_max, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
