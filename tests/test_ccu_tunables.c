/* SPDX-License-Identifier: Apache-2.0 */
/*
 * src/ccu.c built with overridden lock-poll tunables (ccu.h: they are
 * #ifndef-guarded so that a build can set them with -D; the lock wait is
 * promised to give up after D1_CCU_PLL_LOCK_TIMEOUT_US). Compiled together
 * with ../src/ccu.c with a 2^30 us poll and a budget of 0xFFFFFFFF us
 * (tests/CMakeLists.txt): with a PLL that never locks,
 * d1_ccu_set_pll_cpu() must still return D1_ETIMEDOUT within the budget.
 * (A poll of 0, which would never advance the count, is refused at
 * compile time by src/ccu.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "sim.h"

#define MHZ(x) ((uint64_t)(x)*1000000u)

/* How many LOCK polls the test lets the driver make before it rescues it
 * (the PLL then locks, so the call returns instead of spinning for ever). */
#define POLL_RESCUE 100000u

static struct ccu_model cm;
static struct d1_ccu ccu;
static uint64_t pll_reads;

static void count_pll_reads(void *arg, bool write, uintptr_t addr, uint32_t value)
{
	(void)arg;
	(void)value;
	if (!write && addr == D1_CCU_BASE + D1_CCU_PLL_CPU_CTRL_OFFSET) {
		if (++pll_reads == POLL_RESCUE) {
			/* rescue: the driver never gave up by itself */
			cm.pll_cpu.never_lock = false;
			cm.pll_cpu.lock_at = 0;
		}
	}
}

static void test_lock_wait_bounded_by_budget(void **state)
{
	uint64_t t0;
	d1_err_t e;

	(void)state;
	sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	assert_int_equal(d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ), D1_OK);
	cm.pll_cpu.never_lock = true;
	pll_reads = 0;
	sim_set_trace(count_pll_reads, NULL);
	t0 = sim_now();
	e = d1_ccu_set_pll_cpu(&ccu, MHZ(912), NULL);
	/* The promise: a PLL that never locks gives D1_ETIMEDOUT after the
	 * budget (and at most one poll more), not a spin that ends only
	 * because the PLL happened to lock. */
	assert_true(pll_reads < POLL_RESCUE);
	assert_in_range((sim_now() - t0) / (SIM_HZ / 1000000u), D1_CCU_PLL_LOCK_TIMEOUT_US,
	                (uint64_t)D1_CCU_PLL_LOCK_TIMEOUT_US + D1_CCU_PLL_LOCK_POLL_US + 1000u);
	assert_int_equal(e, D1_ETIMEDOUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_lock_wait_bounded_by_budget),
	};
	return cmocka_run_group_tests_name("ccu_tunables", tests, NULL, NULL);
}
