/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RT-Thread system tick (ports/rtsmart/drv_d1_tick.c: Timer1 through
 * the library at RT_TICK_PER_SECOND, from the command line) compiled as it
 * is, on the Timer model, with the kernel side from rtt_host.c (interrupt
 * table, rt_tick_increase()) and here: sie and sbi_set_timer() as
 * variables, the handler run a varying 0..99 ticks after the model raises
 * Timer1's line.
 *
 * What it checks is what the model measured: over 10 s of model time the
 * kernel tick advanced exactly 10 x RT_TICK_PER_SECOND, once per Timer1
 * boundary, and the boundaries add up to exactly 24,000,000 input clocks
 * per RT_TICK_PER_SECOND ticks (1,000 Hz: 24,000 each; 7 Hz: the
 * fractional 3,428,571 3/7 spread so the tick never drifts); the SBI tick
 * is switched off (sie.STIE cleared, the SBI timer parked at the far
 * future) only once Timer1 runs; a Timer1 left running by firmware with
 * its status set gives no early tick; a dispatch without the status bit
 * is no tick.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/timer_regs.h"
#include "rtt_host.h"
#include "sim.h"
#include "timer_model.h"

int d1_rt_tick_init(void);
void d1_rt_host_sie_clear(unsigned long bits);
void sbi_set_timer(uint64_t val);

#define SIE_STIE (1ul << 5)
#define HZ       ((uint64_t)RT_TICK_PER_SECOND)
#define NCLK     (5u * RT_TICK_PER_SECOND + 2u)

static struct timer_model tm;
static unsigned long sie;
static uint64_t sbi_timer;
static unsigned sbi_calls;

static struct {
	bool line_high;
	uint64_t line_since, lat;
	uint32_t seed;
	uint64_t boundaries, first_clk, last_clk;
	uint64_t clk[NCLK]; /* input-clock index of each boundary */
	uint64_t first_tick_at;
} hw;

void d1_rt_host_sie_clear(unsigned long bits)
{
	/* Timer1 must already run when the SBI tick goes off. */
	assert_true((tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS) != 0u);
	sie &= ~bits;
}

void sbi_set_timer(uint64_t val)
{
	sbi_timer = val;
	sbi_calls++;
}

static void on_boundary(void *arg, unsigned ch, uint64_t clk)
{
	(void)arg;
	if (ch != 1u) {
		return;
	}
	if (hw.boundaries == 0u) {
		hw.first_clk = clk;
	}
	if (hw.boundaries < NCLK) {
		hw.clk[hw.boundaries] = clk;
	}
	hw.boundaries++;
	hw.last_clk = clk;
}

static void step(void)
{
	uint64_t now;

	sim_advance(1);
	now = sim_now();
	if (!rtt_host_irqs[D1_IRQ_TIMER1].enabled || !timer_model_irq(&tm, 1)) {
		hw.line_high = false;
		return;
	}
	if (!hw.line_high) {
		hw.line_high = true;
		hw.line_since = now;
		hw.seed = hw.seed * 1103515245u + 12345u;
		hw.lat = (hw.seed >> 16) % 100u;
	}
	if (now - hw.line_since < hw.lat) {
		return;
	}
	hw.line_high = false;
	assert_int_equal(rtt_host_irq_raise((int)D1_IRQ_TIMER1), 1);
	if (rt_tick_get() == 1u) {
		hw.first_tick_at = now;
	}
}

/* Model time to @p end: straight to two ticks before the next boundary
 * when the line is down, else a tick at a time. */
static void run_to(uint64_t end)
{
	while (sim_now() < end) {
		uint64_t to = timer_model_ticks_to_boundary(&tm, 1);
		uint64_t n = end - sim_now();

		if (!hw.line_high && to > 4u && !timer_model_irq(&tm, 1)) {
			if (n > to - 2u) {
				n = to - 2u;
			}
			sim_advance(n);
			continue;
		}
		step();
	}
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	rtt_host_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	memset(&hw, 0, sizeof(hw));
	hw.seed = 1u;
	sie = SIE_STIE; /* libcpu's rt_hw_tick_init() set it */
	sbi_timer = 0;
	sbi_calls = 0;
	return 0;
}

/* 10 s: 10 x HZ kernel ticks, one per boundary; every HZ boundaries span
 * exactly 24,000,000 clocks; the SBI tick off. */
static void test_ticks_exact(void **state)
{
	uint64_t t0;

	(void)state;
	assert_int_equal(d1_rt_tick_init(), RT_EOK);
	assert_int_equal(sie & SIE_STIE, 0u);
	assert_int_equal(sbi_timer, UINT64_MAX);
	assert_int_equal(sbi_calls, 1);
	assert_true(rtt_host_irqs[D1_IRQ_TIMER1].enabled);
	t0 = sim_now();
	run_to(t0 + 10u * 24000000u + 24000000u / HZ / 2u);
	assert_int_equal(hw.boundaries, 10u * HZ);
	assert_int_equal(rt_tick_get(), 10u * HZ);
	assert_true(hw.first_tick_at >= t0 + 24000000u / HZ);
	assert_true(hw.first_tick_at <= t0 + 24000000u / HZ + 1u + 100u);
}

/* Any HZ consecutive periods span exactly one second of input clocks
 * (24,000,000), and no period is off by more than one clock from
 * 24,000,000 / HZ: the schedule does not drift. */
static void test_no_drift(void **state)
{
	uint64_t k;

	(void)state;
	assert_int_equal(d1_rt_tick_init(), RT_EOK);
	run_to(sim_now() + 5u * 24000000u + 24000000u / HZ + 200u);
	assert_int_equal(hw.boundaries, 5u * HZ + 1u);
	for (k = 0; k + HZ < hw.boundaries; k++) {
		assert_int_equal(hw.clk[k + HZ] - hw.clk[k], 24000000u);
	}
	for (k = 1; k < hw.boundaries; k++) {
		assert_in_range(hw.clk[k] - hw.clk[k - 1u], 24000000u / HZ,
		                (24000000u + HZ - 1u) / HZ);
	}
}

/* A Timer1 left running by firmware (1,000-clock interval, status and
 * enable set): no tick before one full period after the start. */
static void test_firmware_timer_left_running(void **state)
{
	uint64_t t0;

	(void)state;
	timer_model_preset_running(&tm, 1u, 999u);
	assert_true(timer_model_irq(&tm, 1));
	assert_int_equal(d1_rt_tick_init(), RT_EOK);
	t0 = sim_now();
	hw.boundaries = 0;
	run_to(t0 + 24000000u / HZ - 1u);
	assert_int_equal(rt_tick_get(), 0);
	run_to(t0 + 3u * 24000000u / HZ + 200u);
	assert_int_equal(rt_tick_get(), 3);
	assert_int_equal(hw.boundaries, 3);
}

/* A dispatch with no status bit set (a spurious PLIC claim) is no tick. */
static void test_spurious_dispatch_is_no_tick(void **state)
{
	(void)state;
	assert_int_equal(d1_rt_tick_init(), RT_EOK);
	assert_int_equal(rtt_host_irq_raise((int)D1_IRQ_TIMER1), 1);
	assert_int_equal(rt_tick_get(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_ticks_exact, setup),
	        cmocka_unit_test_setup(test_no_drift, setup),
	        cmocka_unit_test_setup(test_firmware_timer_left_running, setup),
	        cmocka_unit_test_setup(test_spurious_dispatch_is_no_tick, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
