/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/drv_d1_plic.c on the PLIC model: the RT-Thread interrupt
 * API (install, mask, unmask, the trap's plic_handle_irq) served by the
 * library's d1_plic_* and its lean entry (d1_plic_claim_begin()/_end()),
 * as the --wrap link makes it on the target (the host test calls the
 * __wrap_ functions directly).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1_rt.h"
#include "plic_model.h"
#include "rtt_host.h"
#include "sim.h"

#define CTX 1u /* S-mode */

static struct plic_model pm;
static unsigned real_init_calls;
static int seen_vector;
static void *seen_param;
static unsigned handler_calls;

/* libcpu's rt_hw_interrupt_init(), reached as __real_ through the wrap. */
void __real_rt_hw_interrupt_init(void);
void __real_rt_hw_interrupt_init(void)
{
	real_init_calls++;
}

/* A device handler: it clears its device's request, as a driver's ack does. */
static void handler(int vector, void *param)
{
	seen_vector = vector;
	seen_param = param;
	handler_calls++;
	plic_model_set_level(&pm, (unsigned)vector, false);
}

/* A handler that masks its own source, its device still requesting. */
static void masking_handler(int vector, void *param)
{
	(void)param;
	handler_calls++;
	__wrap_rt_hw_interrupt_mask(vector);
}

static void other_handler(int vector, void *param)
{
	(void)vector;
	(void)param;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	rtt_host_reset();
	plic_model_init(&pm, D1_PLIC_BASE, D1_PLIC_NSOURCES, 5, true);
	pm.s_mode = true;
	pm.ctrl = 1u; /* S_PER, as OpenSBI leaves it */
	real_init_calls = 0;
	handler_calls = 0;
	seen_vector = 0;
	seen_param = NULL;
	__wrap_rt_hw_interrupt_init();
	assert_int_equal(real_init_calls, 1);
	return 0;
}

static void test_install_unmask_dispatch(void **state)
{
	int token;

	(void)state;
	assert_null(__wrap_rt_hw_interrupt_install(75, handler, &token, "timer0"));
	assert_false(plic_model_enabled(&pm, CTX, 75));
	__wrap_rt_hw_interrupt_umask(75);
	assert_true(plic_model_enabled(&pm, CTX, 75));
	assert_int_equal(pm.prio[75], 1);
	plic_model_set_level(&pm, 75, true);
	assert_true(plic_model_eip(&pm, CTX));
	__wrap_plic_handle_irq();
	assert_int_equal(handler_calls, 1);
	assert_int_equal(seen_vector, 75);
	assert_ptr_equal(seen_param, &token);
	assert_int_equal(pm.completes[CTX], 1);
	assert_false(plic_model_eip(&pm, CTX));
	assert_int_equal(d1_rt_irq_count(75), 1);
	/* masked: a new request does not reach the hart */
	__wrap_rt_hw_interrupt_mask(75);
	assert_false(plic_model_enabled(&pm, CTX, 75));
	plic_model_set_level(&pm, 75, true);
	assert_false(plic_model_eip(&pm, CTX));
}

/* A handler masks its own source while its line stays high: the source is
 * completed before the mask (the PLIC drops a completion for a masked
 * source), so it is not left in service, is completed once, and is
 * delivered again once unmasked. */
static void test_mask_in_handler_completes_first(void **state)
{
	struct d1_plic_stats st;
	rt_uint32_t bad, rep;

	(void)state;
	assert_null(__wrap_rt_hw_interrupt_install(18, masking_handler, NULL, "uart0"));
	__wrap_rt_hw_interrupt_umask(18);
	plic_model_set_level(&pm, 18, true);
	__wrap_plic_handle_irq();
	assert_int_equal(handler_calls, 1);
	assert_false(plic_model_enabled(&pm, CTX, 18));
	assert_int_equal(pm.claimed_by[18], -1);
	assert_int_equal(pm.completes[CTX], 1);
	assert_int_equal(pm.completes_dropped_masked + pm.completes_unclaimed, 0);
	assert_true(__wrap_rt_hw_interrupt_install(18, handler, NULL, "uart0") == masking_handler);
	__wrap_rt_hw_interrupt_umask(18);
	assert_true(plic_model_eip(&pm, CTX));
	__wrap_plic_handle_irq();
	assert_int_equal(handler_calls, 2);
	assert_false(plic_model_eip(&pm, CTX));
	d1_rt_plic_stats(&st, &bad, &rep);
	assert_int_equal(st.dispatched, 2);
	assert_int_equal(st.unhandled, 0);
}

/* A source unmasked without a handler is completed, masked and counted:
 * it cannot storm. */
static void test_unhandled_masked(void **state)
{
	struct d1_plic_stats st;
	rt_uint32_t bad, rep;

	(void)state;
	__wrap_rt_hw_interrupt_umask(20);
	plic_model_set_level(&pm, 20, true);
	__wrap_plic_handle_irq();
	d1_rt_plic_stats(&st, &bad, &rep);
	assert_int_equal(st.unhandled, 1);
	assert_false(plic_model_enabled(&pm, CTX, 20));
	assert_false(plic_model_eip(&pm, CTX));
}

/* Vectors outside 1..175: refused, counted, nothing written. */
static void test_bad_vectors(void **state)
{
	struct d1_plic_stats st;
	rt_uint32_t bad, rep;

	(void)state;
	uint64_t w = sim_writes();
	assert_null(__wrap_rt_hw_interrupt_install(0, handler, NULL, "x"));
	assert_null(__wrap_rt_hw_interrupt_install(176, handler, NULL, "x"));
	assert_null(__wrap_rt_hw_interrupt_install(-1, handler, NULL, "x"));
	__wrap_rt_hw_interrupt_umask(176);
	__wrap_rt_hw_interrupt_mask(0);
	assert_int_equal(sim_writes(), w);
	d1_rt_plic_stats(&st, &bad, &rep);
	assert_int_equal(bad, 5);
}

/* A second driver on the same source is reported with both names. */
static void test_replace_reported(void **state)
{
	struct d1_plic_stats st;
	rt_uint32_t bad, rep;

	(void)state;
	assert_null(__wrap_rt_hw_interrupt_install(75, handler, NULL, "d1timer0"));
	assert_ptr_equal(__wrap_rt_hw_interrupt_install(75, other_handler, NULL, "timer-ctl"),
	                 handler);
	d1_rt_plic_stats(&st, &bad, &rep);
	assert_int_equal(rep, 1);
	assert_non_null(strstr(rtt_host_last_message(), "timer-ctl"));
	assert_non_null(strstr(rtt_host_last_message(), "d1timer0"));
	/* removing a handler (RT_NULL) is not a clash */
	assert_ptr_equal(__wrap_rt_hw_interrupt_install(75, NULL, NULL, "x"), other_handler);
	d1_rt_plic_stats(&st, &bad, &rep);
	assert_int_equal(rep, 1);
}

/* Without S_PER the library's init refuses (D1_ENODELEG) and the layer
 * stays off rather than writing registers that do nothing. */
static void test_no_delegation(void **state)
{
	(void)state;
	sim_reset();
	plic_model_init(&pm, D1_PLIC_BASE, D1_PLIC_NSOURCES, 5, true);
	pm.s_mode = true;
	pm.ctrl = 0u;
	__wrap_rt_hw_interrupt_init();
	assert_non_null(strstr(rtt_host_last_message(), "no external interrupts"));
	uint64_t w = sim_writes();
	__wrap_rt_hw_interrupt_umask(75);
	__wrap_plic_handle_irq();
	assert_int_equal(sim_writes(), w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_install_unmask_dispatch, setup),
	        cmocka_unit_test_setup(test_unhandled_masked, setup),
	        cmocka_unit_test_setup(test_mask_in_handler_completes_first, setup),
	        cmocka_unit_test_setup(test_bad_vectors, setup),
	        cmocka_unit_test_setup(test_replace_reported, setup),
	        cmocka_unit_test_setup(test_no_delegation, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
