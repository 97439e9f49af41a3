/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PLIC glue (ports/nuttx/d1_nuttx_plic.c, CONFIG_D1LIB_PLIC: NuttX's
 * up_irqinitialize(), up_enable_irq(), up_disable_irq() and
 * riscv_dispatch_irq() over the library's PLIC driver) compiled as it is,
 * on the PLIC model (S-mode, S_PER set, 200 sources so that ids above the
 * D1's 175 exist), with NuttX's side stood in here: riscv_doirq() calls
 * the handler attached to the irq and returns a register pointer of its
 * own, the interrupt-enable CSR is a variable.
 *
 * What it checks is what the model did: every source at priority 1 and
 * masked, threshold 0, at initialisation, whatever firmware left; a level source dispatched
 * once, its handler called with NuttX's irq number, completed after it and
 * no longer in service; riscv_doirq()'s register pointer returned; a claim
 * of 0 counted as spurious with nothing written; an id above the handle's
 * 175 (enabled by other software) completed, masked and counted, no
 * handler; a handler that disables its own (still high) source leaves it
 * completed, not stuck in service, so it is delivered again once enabled
 * (the completion of a masked source would be dropped); the software and
 * timer interrupts through the CSR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arch/irq.h>
#include <nuttx/arch.h>
#include <nuttx/irq.h>

#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/plic_regs.h"
#include "d1_nuttx.h"
#include "plic_model.h"
#include "riscv_internal.h"
#include "sim.h"

void __wrap_up_irqinitialize(void);
void __wrap_up_enable_irq(int irq);
void __wrap_up_disable_irq(int irq);
void *__wrap_riscv_dispatch_irq(uintptr_t vector, uintptr_t *regs);

#define SRC_A     18u  /* a level device */
#define SRC_B     19u  /* another */
#define FOREIGN   190u /* above D1_PLIC_NSOURCES */
#define VEC_EXT   ((1ull << 63) | 9u)
#define VEC_TIMER ((1ull << 63) | 5u)
#define IRQ_OF(s) (RISCV_IRQ_EXT + (int)(s))
#define MAX_IRQ   256

uintptr_t nx_csr_ie;

static struct plic_model pm;
static uintptr_t regs_in[4], regs_out[4];

static struct {
	unsigned calls[MAX_IRQ];
	int last_irq;
	bool disable_self; /* the handler of SRC_A masks SRC_A */
	bool clear_device; /* the handler lowers its device's line */
	unsigned exc_attached, colored, enabled;
} nx;

void nx_panic(const char *file, int line)
{
	fail_msg("PANIC() at %s:%d", file, line);
}

irqstate_t up_irq_save(void)
{
	return 0;
}

void up_irq_restore(irqstate_t flags)
{
	(void)flags;
}

irqstate_t up_irq_enable(void)
{
	nx.enabled++;
	return 0;
}

void riscv_exception_attach(void)
{
	nx.exc_attached++;
}

void riscv_color_intstack(void)
{
	nx.colored++;
}

/* NuttX's dispatch: the handler of @p irq runs; a context switch would
 * return another register set, which the test marks with regs_out. */
uintreg_t *riscv_doirq(int irq, uintreg_t *regs)
{
	assert_true(irq >= 0 && irq < MAX_IRQ);
	assert_ptr_equal(regs, regs_in);
	nx.calls[irq]++;
	nx.last_irq = irq;
	if (irq == IRQ_OF(SRC_A) && nx.disable_self) {
		__wrap_up_disable_irq(irq);
	}
	if (irq >= RISCV_IRQ_EXT && nx.clear_device) {
		plic_model_set_level(&pm, (unsigned)(irq - RISCV_IRQ_EXT), false);
	}
	return regs_out;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	plic_model_init(&pm, D1_PLIC_BASE, 200u, 5u, true);
	pm.s_mode = true;
	pm.ctrl = 1u; /* S_PER: set by the M-mode firmware */
	memset(&nx, 0, sizeof(nx));
	nx.clear_device = true;
	nx_csr_ie = 0;
	return 0;
}

/* The counters live as long as the glue (NuttX initialises once): the
 * cases compare them before and after. */
static struct d1_plic_stats st0;

static void init(void)
{
	/* Firmware left sources enabled in the S context with a line high. */
	pm.enable[1][0] = 0xFFFFFFFEu;
	pm.threshold[1] = 7u;
	plic_model_set_level(&pm, 7u, true);
	__wrap_up_irqinitialize();
	plic_model_set_level(&pm, 7u, false);
	d1_nx_plic_get_stats(&st0);
}

/* Initialisation: every D1 source at priority 1 and masked in the S
 * context, threshold 0, nothing claimed or completed (nothing can be
 * claimed once all is masked), exceptions attached, interrupts on. */
static void test_init(void **state)
{
	unsigned s;

	(void)state;
	init();
	assert_int_equal(pm.claims[1], 0);
	assert_int_equal(pm.completes[1], 0);
	assert_false(plic_model_eip(&pm, 1u));
	for (s = 1; s <= D1_PLIC_NSOURCES; s++) {
		assert_int_equal(pm.prio[s], 1u);
		assert_false(plic_model_enabled(&pm, 1u, s));
	}
	assert_int_equal(pm.threshold[1], 0u);
	assert_int_equal(nx.exc_attached, 1);
	assert_int_equal(nx.enabled, 1);
	assert_int_equal(sim_unhandled_faults(), 0);
}

/* A level source: one dispatch, its handler with NuttX's irq number,
 * completed after it, the register pointer of riscv_doirq() returned. */
static void test_dispatch_level_source(void **state)
{
	struct d1_plic_stats st;
	void *r;

	(void)state;
	init();
	__wrap_up_enable_irq(IRQ_OF(SRC_A));
	assert_true(plic_model_enabled(&pm, 1u, SRC_A));
	plic_model_set_level(&pm, SRC_A, true);
	assert_true(plic_model_eip(&pm, 1u));
	r = __wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_ptr_equal(r, regs_out);
	assert_int_equal(nx.calls[IRQ_OF(SRC_A)], 1);
	assert_int_equal(pm.claimed_by[SRC_A], -1);
	assert_int_equal(pm.completes[1], 1);
	assert_false(plic_model_eip(&pm, 1u));
	d1_nx_plic_get_stats(&st);
	assert_int_equal(st.dispatched - st0.dispatched, 1);
	assert_int_equal(st.spurious - st0.spurious, 0);
}

/* Nothing pending: the claim reads 0, counted as spurious, no handler,
 * nothing written, the caller's registers returned. */
static void test_spurious_claim(void **state)
{
	struct d1_plic_stats st;
	uint64_t w0;
	void *r;

	(void)state;
	init();
	w0 = sim_writes();
	r = __wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_ptr_equal(r, regs_in);
	assert_int_equal(sim_writes() - w0, 0);
	d1_nx_plic_get_stats(&st);
	assert_int_equal(st.spurious - st0.spurious, 1);
	assert_int_equal(st.dispatched - st0.dispatched, 0);
	for (int i = 0; i < MAX_IRQ; i++) {
		assert_int_equal(nx.calls[i], 0);
	}
}

/* Source 190, above the 175 the handle knows, enabled in the S context by
 * other software: completed, masked, counted as foreign; no NuttX
 * handler (its table has no such irq). */
static void test_foreign_source(void **state)
{
	struct d1_plic_stats st;

	(void)state;
	init();
	pm.prio[FOREIGN] = 1u;
	pm.enable[1][FOREIGN / 32u] |= 1u << (FOREIGN % 32u);
	plic_model_set_level(&pm, FOREIGN, true);
	(void)__wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_int_equal(nx.calls[IRQ_OF(FOREIGN)], 0);
	assert_int_equal(pm.claimed_by[FOREIGN], -1);
	assert_false(plic_model_enabled(&pm, 1u, FOREIGN));
	assert_false(plic_model_eip(&pm, 1u)); /* no storm from the high line */
	d1_nx_plic_get_stats(&st);
	assert_int_equal(st.foreign - st0.foreign, 1);
	assert_int_equal(st.last_foreign, FOREIGN);
	assert_int_equal(st.dispatched - st0.dispatched, 0);
}

/* The handler masks its own source while the device still holds the line
 * high: the glue completes it before the mask, so it is not left in
 * service (the PLIC drops a completion for a masked source), nothing is
 * completed twice, and once enabled again the still-high line is
 * delivered again. */
static void test_disable_in_handler_completes_first(void **state)
{
	(void)state;
	init();
	nx.clear_device = false;
	nx.disable_self = true;
	__wrap_up_enable_irq(IRQ_OF(SRC_A));
	plic_model_set_level(&pm, SRC_A, true);
	(void)__wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_int_equal(nx.calls[IRQ_OF(SRC_A)], 1);
	assert_false(plic_model_enabled(&pm, 1u, SRC_A));
	assert_int_equal(pm.claimed_by[SRC_A], -1);
	assert_int_equal(pm.completes_dropped_masked, 0);
	assert_int_equal(pm.completes_unclaimed, 0);
	nx.disable_self = false;
	nx.clear_device = true;
	__wrap_up_enable_irq(IRQ_OF(SRC_A));
	assert_true(plic_model_eip(&pm, 1u));
	(void)__wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_int_equal(nx.calls[IRQ_OF(SRC_A)], 2);
	assert_false(plic_model_eip(&pm, 1u));
}

/* Two sources pending: one claim per trap (the higher id waits for the
 * next trap, as NuttX's own dispatch does), both served in two traps. */
static void test_one_claim_per_trap(void **state)
{
	(void)state;
	init();
	__wrap_up_enable_irq(IRQ_OF(SRC_A));
	__wrap_up_enable_irq(IRQ_OF(SRC_B));
	plic_model_set_level(&pm, SRC_A, true);
	plic_model_set_level(&pm, SRC_B, true);
	(void)__wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_int_equal(nx.calls[IRQ_OF(SRC_A)], 1); /* ties go to the lower id */
	assert_int_equal(nx.calls[IRQ_OF(SRC_B)], 0);
	assert_true(plic_model_eip(&pm, 1u));
	(void)__wrap_riscv_dispatch_irq(VEC_EXT, regs_in);
	assert_int_equal(nx.calls[IRQ_OF(SRC_B)], 1);
	assert_false(plic_model_eip(&pm, 1u));
}

/* The software and timer interrupts: enable/disable through the CSR, no
 * PLIC access; their traps go straight to riscv_doirq(). */
static void test_csr_interrupts(void **state)
{
	uint64_t r0;
	uint64_t w0;

	(void)state;
	init();
	r0 = sim_reads();
	w0 = sim_writes();
	__wrap_up_enable_irq(RISCV_IRQ_SOFT);
	__wrap_up_enable_irq(RISCV_IRQ_TIMER);
	assert_int_equal(nx_csr_ie, IE_SIE | IE_TIE);
	__wrap_up_disable_irq(RISCV_IRQ_SOFT);
	assert_int_equal(nx_csr_ie, IE_TIE);
	__wrap_up_disable_irq(RISCV_IRQ_TIMER);
	assert_int_equal(nx_csr_ie, 0u);
	assert_ptr_equal(__wrap_riscv_dispatch_irq(VEC_TIMER, regs_in), regs_out);
	assert_int_equal(nx.calls[RISCV_IRQ_TIMER], 1);
	assert_int_equal(sim_reads() - r0, 0);
	assert_int_equal(sim_writes() - w0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_init, setup),
	        cmocka_unit_test_setup(test_dispatch_level_source, setup),
	        cmocka_unit_test_setup(test_spurious_claim, setup),
	        cmocka_unit_test_setup(test_foreign_source, setup),
	        cmocka_unit_test_setup(test_disable_in_handler_completes_first, setup),
	        cmocka_unit_test_setup(test_one_claim_per_trap, setup),
	        cmocka_unit_test_setup(test_csr_interrupts, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
