/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library as a port without the optional hook links it: the plain
 * (not hooked) library, its registers a block of memory, and no
 * d1_port_probe32() of the port's own, so the weak default of
 * src/port_probe.c is the one linked (d1/port.h):
 *  - the default accesses nothing: no store through @p addr, nothing
 *    loaded into @p *value, D1_ENOTSUP;
 *  - d1_plic_check_delegation() on an S-mode handle then reports D1_ENOTSUP
 *    and leaves every PLIC register as it was; d1_plic_init() proceeds
 *    unchecked (documented in plic.h) and sets its known state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "d1/plic.h"
#include "d1/port.h"

/* The port contract the library needs here, with bookkeeping. */
static unsigned depth, entries;

uintptr_t d1_port_critical_enter(void)
{
	depth++;
	entries++;
	return depth;
}

void d1_port_critical_exit(uintptr_t state)
{
	assert_int_equal(state, depth);
	depth--;
}

void d1_port_delay_us(uint32_t us)
{
	(void)us;
}

/* A PLIC register file in memory: priorities, enables and context 1's
 * threshold and claim (D1_PLIC_THRESHOLD_OFFSET(1) + 8 bytes). */
#define NSRC     31u
#define PLIC_LEN ((D1_PLIC_THRESHOLD_OFFSET(1) + 8u) / 4u)
#define SENTINEL 0xA5A5A5A5u

static uint32_t regs[PLIC_LEN];

static void fill(void)
{
	for (size_t i = 0; i < PLIC_LEN; i++) {
		regs[i] = SENTINEL;
	}
}

static size_t changed(void)
{
	size_t n = 0;

	for (size_t i = 0; i < PLIC_LEN; i++) {
		n += regs[i] != SENTINEL;
	}
	return n;
}

static void test_default_probe_accesses_nothing(void **state)
{
	uint32_t word = 0x12345678u;
	uint32_t value = 0xCAFEF00Du;

	(void)state;
	assert_int_equal(d1_port_probe32((uintptr_t)&word, true, &value), D1_ENOTSUP);
	assert_int_equal(word, 0x12345678u); /* no store */
	assert_int_equal(d1_port_probe32((uintptr_t)&word, false, &value), D1_ENOTSUP);
	assert_int_equal(value, 0xCAFEF00Du); /* no load */
}

static void test_delegation_unknown_without_probe(void **state)
{
	struct d1_plic p;

	(void)state;
	fill();
	/* init proceeds unchecked and sets its known state */
	assert_int_equal(d1_plic_init(&p, (uintptr_t)regs, D1_PLIC_CTX_S, NSRC, 0), D1_OK);
	assert_int_equal(regs[D1_PLIC_PRIO_OFFSET(NSRC) / 4u], 0u);
	assert_int_equal(regs[D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, 0) / 4u], 0u);
	assert_int_equal(regs[D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_S) / 4u], 0u);
	assert_int_equal(depth, 0u);
	/* the check itself: D1_ENOTSUP, no register written (the default probe
	 * makes no access at all), in one balanced critical section */
	fill();
	entries = 0;
	assert_int_equal(d1_plic_check_delegation(&p), D1_ENOTSUP);
	assert_int_equal(changed(), 0u);
	assert_int_equal(entries, 1u);
	assert_int_equal(depth, 0u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_default_probe_accesses_nothing),
	        cmocka_unit_test(test_delegation_unknown_without_probe),
	};
	return cmocka_run_group_tests_name("port_default", tests, NULL, NULL);
}
