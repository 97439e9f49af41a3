/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The periodic tick glue (ports/nuttx/d1_nuttx_tick.c: Timer1 through the
 * library, CONFIG_USEC_PER_TICK from the command line) compiled as it is,
 * on the Timer model, with NuttX's side stood in here: the interrupt line
 * (the handler runs a varying 0..99 ticks after the model raises Timer1's
 * line), irq_attach() and nxsched_process_timer() (counted).
 *
 * What it checks is what the model measured: Timer1's boundaries exactly
 * 24 x USEC_PER_TICK input clocks apart (the counter includes zero, so the
 * glue must not program the interval one clock long: 24,001 clocks a
 * millisecond was the comparison's 41.7 ppm drift), one scheduler tick per
 * boundary and none lost over 10,000 ticks, one MMIO write and no read per
 * tick, and a Timer1 left running by firmware with its status bit set
 * giving no early or extra tick.
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
#include "d1/timer.h"
#include "sim.h"
#include "nx_line_host.h"
#include "timer_model.h"

void __wrap_up_timer_initialize(void);

#define IRQ_T1   (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER1)
#define TICK_CLK (24ull * CONFIG_USEC_PER_TICK)
#define NTICKS   10000u

static struct timer_model tm;

static struct {
	unsigned ticks;         /* nxsched_process_timer() calls */
	uint64_t first_tick_at; /* model time */
	uint64_t boundaries;    /* Timer1 boundaries the model counted */
	uint64_t last_clk, bad_spacing;
} nx;

void nxsched_process_timer(void)
{
	if (nx.ticks++ == 0u) {
		nx.first_tick_at = sim_now();
	}
}

/* Every Timer1 boundary: its input-clock index, and whether it is
 * TICK_CLK after the previous one. */
static void on_boundary(void *arg, unsigned ch, uint64_t clk)
{
	(void)arg;
	if (ch != 1u) {
		return;
	}
	if (nx.boundaries++ != 0u && clk - nx.last_clk != TICK_CLK) {
		nx.bad_spacing++;
	}
	nx.last_clk = clk;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	memset(&nx, 0, sizeof(nx));
	nx_line_reset(&tm, 1u, IRQ_T1);
	nx_line.lat_seed = 1u; /* the handler 0..99 ticks after the line rises */
	nx_line.lat_span = 100u;
	return 0;
}

/* 10,000 ticks: every boundary exactly TICK_CLK clocks after the last,
 * one scheduler tick per boundary, the SBI timer interrupt left off. */
static void test_ticks_exact(void **state)
{
	uint64_t t0;

	(void)state;
	__wrap_up_timer_initialize();
	assert_true(nx_line.stimer_disabled);
	assert_true(nx_line.enabled);
	t0 = sim_now();
	nx_line_run_for(NTICKS * TICK_CLK + TICK_CLK / 2u);
	assert_int_equal(nx.boundaries, NTICKS);
	assert_int_equal(nx.bad_spacing, 0);
	assert_int_equal(nx.ticks, NTICKS);
	assert_in_range(nx.first_tick_at, t0 + TICK_CLK, t0 + TICK_CLK + 100u);
}

/* The tick path's MMIO, measured on the bus: one write (the status
 * acknowledgement) and no read per tick. */
static void test_one_write_per_tick(void **state)
{
	uint64_t r0;
	uint64_t w0;

	(void)state;
	__wrap_up_timer_initialize();
	nx_line_run_for(TICK_CLK + TICK_CLK / 2u); /* the first tick */
	assert_int_equal(nx.ticks, 1);
	r0 = sim_reads();
	w0 = sim_writes();
	nx_line_run_for(1000u * TICK_CLK);
	assert_int_equal(nx.ticks, 1001);
	assert_int_equal(sim_reads() - r0, 0);
	assert_int_equal(sim_writes() - w0, 1000);
}

/* Firmware left Timer1 running on a 1,000-clock interval with its status
 * bit and interrupt enable set: after initialisation the first tick comes
 * one full tick after the start, and no boundary is off the tick grid. */
static void test_firmware_timer_left_running(void **state)
{
	uint64_t t0;

	(void)state;
	timer_model_preset_running(&tm, 1u, 999u);
	assert_true(timer_model_irq(&tm, 1)); /* pending before NuttX starts */
	__wrap_up_timer_initialize();
	t0 = sim_now();
	nx.boundaries = 0; /* count the new schedule's boundaries only */
	nx.bad_spacing = 0;
	nx_line_run_for(100u * TICK_CLK + TICK_CLK / 2u);
	assert_int_equal(nx.ticks, 100);
	assert_int_equal(nx.boundaries, 100);
	assert_int_equal(nx.bad_spacing, 0);
	assert_in_range(nx.first_tick_at, t0 + TICK_CLK, t0 + TICK_CLK + 100u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_ticks_exact, setup),
	        cmocka_unit_test_setup(test_one_write_per_tick, setup),
	        cmocka_unit_test_setup(test_firmware_timer_left_running, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
