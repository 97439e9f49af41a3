/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/drv_d1_plic.c under RT_USING_SMART: the PLIC is reached
 * only through the window rt_ioremap_nocache() mapped, as under the MMU.
 * The stand-in rt_ioremap_nocache() below places the PLIC model at a
 * virtual base and lets it answer only inside the size asked for; an
 * access beyond it is an unmapped access of the simulated bus (on the
 * target: a store/load page fault in d1_plic_init before the console).
 * The driver's registers of the context it serves (S-mode, context 1:
 * enables at +0x2080, threshold +0x201000, claim/complete +0x201004;
 * PLIC_CTRL at +0x1FFFFC for the S_PER check) must all lie inside.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <ioremap.h>

#include "d1/memmap.h"
#include "d1/plic_regs.h"
#include "d1_rt.h"
#include "plic_model.h"
#include "rtt_host.h"
#include "sim.h"

#define CTX   D1_PLIC_CTX_S
#define VBASE ((uintptr_t)0xFFFFFFD000000000u) /* a kernel ioremap address */
#define PAGE  4096u

static struct plic_model pm;
static unsigned map_calls;
static uintptr_t map_paddr;
static size_t map_size;
static unsigned handler_calls;

void __real_rt_hw_interrupt_init(void);
void __real_rt_hw_interrupt_init(void)
{
}

void *rt_ioremap_nocache(void *paddr, size_t size)
{
	map_calls++;
	map_paddr = (uintptr_t)paddr;
	map_size = size;
	if (map_paddr != D1_PLIC_BASE || size == 0u) {
		return NULL;
	}
	/* The model answers at the virtual base, in the mapped pages only. */
	plic_model_init(&pm, VBASE, D1_PLIC_NSOURCES, 5, true);
	pm.region.size = (size + PAGE - 1u) / PAGE * PAGE;
	pm.s_mode = true;
	pm.ctrl = 1u;            /* S_PER, as OpenSBI leaves it */
	pm.threshold[CTX] = 31u; /* what another stage may leave: init writes 0 */
	return (void *)VBASE;
}

static void handler(int vector, void *param)
{
	(void)param;
	handler_calls++;
	plic_model_set_level(&pm, (unsigned)vector, false);
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	rtt_host_reset();
	map_calls = 0;
	map_size = 0;
	handler_calls = 0;
	__wrap_rt_hw_interrupt_init();
	return 0;
}

/* The window covers every register of the context the port serves. */
static void test_window_covers_context_registers(void **state)
{
	(void)state;
	assert_int_equal(map_calls, 1);
	assert_true(map_paddr == D1_PLIC_BASE);
	assert_true(map_size >= (size_t)D1_PLIC_CTRL_OFFSET + 4u);
	assert_true(map_size >= (size_t)D1_PLIC_ENABLE_OFFSET(CTX, D1_PLIC_NSOURCES / 32u) + 4u);
	assert_true(map_size >= (size_t)D1_PLIC_THRESHOLD_OFFSET(CTX) + 4u);
	assert_true(map_size >= (size_t)D1_PLIC_CLAIM_OFFSET(CTX) + 4u);
}

/* Init, install, unmask, one dispatch and a mask, all inside the window:
 * no access reaches an unmapped address, and the interrupt is served. */
static void test_all_accesses_inside_window(void **state)
{
	(void)state;
	assert_null(__wrap_rt_hw_interrupt_install(75, handler, NULL, "d1timer0"));
	__wrap_rt_hw_interrupt_umask(75);
	assert_true(plic_model_enabled(&pm, CTX, 75));
	plic_model_set_level(&pm, 75, true);
	assert_true(plic_model_eip(&pm, CTX));
	__wrap_plic_handle_irq();
	__wrap_rt_hw_interrupt_mask(75);
	assert_int_equal(sim_unmapped(), 0);
	assert_int_equal(handler_calls, 1);
	assert_int_equal(pm.completes[CTX], 1);
	assert_int_equal(pm.threshold[CTX], 0);
	assert_null(strstr(rtt_host_last_message(), "no external interrupts"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_window_covers_context_registers, setup),
	        cmocka_unit_test_setup(test_all_accesses_inside_window, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
