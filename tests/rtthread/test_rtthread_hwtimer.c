/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/drv_d1_hwtimer.c under the hwtimer framework's own
 * arithmetic (rtt_host.c follows components/drivers/hwtimer/hwtimer.c) on
 * the Timer model: what the framework computes for a timeout is what the
 * model's counter runs, in OSC24M clocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/timer_regs.h"
#include "d1_rt.h"
#include "rtt_host.h"
#include "sim.h"
#include "timer_model.h"

#define CH  0u
#define IRQ ((int)D1_IRQ_TIMER0)

static struct timer_model tm;
static uint64_t boundaries;
static uint64_t first_boundary_clocks;
static uint64_t first_boundary_at; /* model time */
static unsigned indications;
static rt_device_t dev;

static void on_boundary(void *arg, unsigned ch, uint64_t in_clocks)
{
	(void)arg;
	if (ch != CH)
		return;
	if (boundaries++ == 0) {
		first_boundary_clocks = in_clocks;
		first_boundary_at = sim_now();
	}
}

static rt_err_t on_timeout(rt_device_t d, rt_size_t size)
{
	(void)d;
	(void)size;
	indications++;
	return RT_EOK;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	rtt_host_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	boundaries = 0;
	first_boundary_clocks = 0;
	indications = 0;
	assert_int_equal(d1_rt_hwtimer_init(), RT_EOK);
	dev = rt_device_find(BSP_D1_HWTIMER_NAME);
	assert_non_null(dev);
	return 0;
}

static rt_hwtimer_t *hwt(void)
{
	return (rt_hwtimer_t *)dev;
}

/* Advance model time clock by clock, delivering the Timer IRQ as the PLIC
 * would, for n OSC24M clocks. */
static void run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		sim_advance(1);
		if (timer_model_irq(&tm, CH))
			assert_int_equal(rtt_host_irq_raise(IRQ), 1);
	}
}

static void open_dev(void)
{
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	rt_device_set_rx_indicate_host(dev, on_timeout);
}

static rt_ssize_t write_us(rt_int32_t sec, rt_int32_t usec)
{
	rt_hwtimerval_t tv = {sec, usec};

	return rt_device_write(dev, 0, &tv, sizeof(tv));
}

/* The framework picks 1 MHz; open asks for it; 1 ms is 1,000 counts and
 * the model's counter runs 24,000 OSC24M clocks, once (one-shot). */
static void test_1ms_is_24000_clocks(void **state)
{
	(void)state;
	open_dev();
	assert_int_equal(hwt()->freq, 1000000);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24000);
	assert_int_equal(boundaries, 1);
	assert_int_equal(first_boundary_clocks, 24000);
	assert_int_equal(indications, 1);
	run(48000); /* one-shot: nothing more */
	assert_int_equal(boundaries, 1);
	assert_int_equal(indications, 1);
}

/* Read path: period - count_get is the whole counts elapsed, measured
 * against model time from the counter's load edge (first boundary minus
 * one period). */
static void test_read_elapsed(void **state)
{
	rt_hwtimer_mode_t mode = HWTIMER_MODE_PERIOD;
	rt_hwtimerval_t tv;
	uint64_t t_read, load;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(12000);
	t_read = sim_now();
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	while (boundaries == 0)
		run(1);
	load = first_boundary_at - 24000u;
	assert_int_equal(tv.sec, 0);
	assert_int_equal(tv.usec, (t_read - load) / 24u);
	assert_in_range(tv.usec, 500, 510);
	run(6000); /* overflow 1, then 250 us more */
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	assert_int_equal(tv.sec, 0);
	assert_int_equal(tv.usec, 1000u + (sim_now() - first_boundary_at) / 24u);
	assert_int_equal(tv.usec, 1250);
	run(24000 * 3);
	assert_int_equal(boundaries, 4);
	assert_int_equal(indications, 4);
}

/* A read between a periodic boundary and its interrupt (the line raised,
 * the handler not yet run: the framework's read holds interrupts off, or
 * the PLIC has not delivered it yet) must not go back in time: the period
 * that has just ended counts whole until the handler adds its overflow,
 * so 1 ms and 20 us into the second period reads at least 1,000 us, not
 * the 20 us of the new period alone. */
static void test_read_boundary_unhandled(void **state)
{
	rt_hwtimer_mode_t mode = HWTIMER_MODE_PERIOD;
	rt_hwtimerval_t before, after;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(23000);
	assert_int_equal(rt_device_read(dev, 0, &before, sizeof(before)),
	                 (rt_ssize_t)sizeof(before));
	assert_in_range(before.usec, 950, 1000);
	sim_advance(1500); /* the boundary passes; its IRQ is not taken yet */
	assert_true(timer_model_irq(&tm, CH));
	assert_int_equal(rt_device_read(dev, 0, &after, sizeof(after)), (rt_ssize_t)sizeof(after));
	assert_int_equal(after.sec, 0);
	assert_in_range(after.usec, 1000, 1100);
	assert_true(after.usec >= before.usec);
	run(1); /* the handler runs: one overflow */
	assert_int_equal(indications, 1);
	assert_int_equal(rt_device_read(dev, 0, &after, sizeof(after)), (rt_ssize_t)sizeof(after));
	assert_in_range(after.usec, 1000, 1100);
}

/* A read after HWTIMER_CTRL_STOP gives the time the timer ran, as
 * RT-Thread's examples/test/hwtimer_test.c expects (start, sleep, stop,
 * read): the counts left at the stop, not the whole period (which read as
 * 0 elapsed). Stopped 750 us into the first 1 ms period it reads 750 us;
 * a period and 250 us in, 1,250 us; a one-shot that ended reads its one
 * period, not two. */
static void test_read_after_stop(void **state)
{
	rt_hwtimer_mode_t mode = HWTIMER_MODE_PERIOD;
	rt_hwtimerval_t tv;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(18000);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_STOP, RT_NULL), RT_EOK);
	run(48000); /* stopped: time passes, the reading stays */
	assert_int_equal(boundaries, 0);
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	assert_int_equal(tv.sec, 0);
	assert_in_range(tv.usec, 749, 750);

	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24000 + 6000);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_STOP, RT_NULL), RT_EOK);
	run(24000);
	assert_int_equal(indications, 1);
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	assert_int_equal(tv.sec, 0);
	assert_in_range(tv.usec, 1249, 1250);

	mode = HWTIMER_MODE_ONESHOT;
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24000 + 12000);
	assert_int_equal(indications, 2);
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	assert_int_equal(tv.sec, 0);
	assert_int_equal(tv.usec, 1000);
}

/* A stop with a periodic boundary pending (its interrupt not yet taken):
 * the handler, taken after the stop, counts the period that ended, and
 * the counts left at the stop add the part of the next one, 104 us in
 * all, never a period twice. */
static void test_read_after_stop_boundary_pending(void **state)
{
	rt_hwtimer_mode_t mode = HWTIMER_MODE_PERIOD;
	rt_hwtimerval_t tv;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 100), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	sim_advance(2400u + 96u); /* a boundary, its interrupt not yet taken */
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_STOP, RT_NULL), RT_EOK);
	run(1); /* the handler runs */
	assert_int_equal(indications, 1);
	assert_int_equal(rt_device_read(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
	assert_int_equal(tv.sec, 0);
	assert_in_range(tv.usec, 103, 104);
}

/* Every frequency the port accepts is exact: 1 ms at f is f / 1000
 * counts of 24 MHz / f clocks, 24,000 clocks in all. */
static void test_frequencies_exact(void **state)
{
	static const rt_int32_t freqs[] = {12000000, 8000000, 6000000, 3000000, 2000000,
	                                   1000000,  500000,  100000,  8000,    1000};
	struct rt_hwtimer_info info;

	(void)state;
	open_dev();
	for (size_t i = 0; i < sizeof(freqs) / sizeof(freqs[0]); i++) {
		rt_int32_t f = freqs[i];

		boundaries = 0;
		assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
		assert_int_equal(hwt()->freq, f);
		assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_INFO_GET, &info), RT_EOK);
		assert_true((uint64_t)info.maxcnt * (uint64_t)(24000000 / f) <= 0x100000000ull);
		assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
		run(24000);
		assert_int_equal(boundaries, 1);
		assert_int_equal(first_boundary_clocks, 24000);
	}
}

/* Frequencies that are not a whole number of OSC24M clocks per count, or
 * outside the advertised range, are refused with nothing written and the
 * framework keeps its frequency. */
static void test_inexact_refused(void **state)
{
	static const rt_int32_t bad[] = {7000000, 24000000, 16000000, 999999, 0, -1, 25000000};
	struct rt_hwtimer_info info;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_INFO_GET, &info), RT_EOK);
	assert_int_equal(info.maxfreq, 12000000);
	assert_int_equal(info.cntmode, HWTIMER_CNTMODE_DW);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rt_int32_t f = bad[i];

		SIM_EXPECT_NO_WRITE(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), -RT_EINVAL);
		assert_int_equal(hwt()->freq, 1000000);
	}
	/* still exact at 1 MHz */
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24000);
	assert_int_equal(first_boundary_clocks, 24000);
}

/* A timeout shorter than one count: the framework passes cnt = 1. */
static void test_cnt_one(void **state)
{
	rt_int32_t f = 12000000;

	(void)state;
	open_dev();
	assert_int_equal(write_us(0, 0), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24);
	assert_int_equal(boundaries, 1);
	assert_int_equal(first_boundary_clocks, 24); /* one count of 1 MHz */
	assert_int_equal(indications, 1);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
	boundaries = 0;
	assert_int_equal(write_us(0, 0), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(2);
	assert_int_equal(boundaries, 1);
	assert_int_equal(first_boundary_clocks, 2); /* one count of 12 MHz */
	assert_int_equal(indications, 2);
}

/* Close and reopen: the framework is back at 1 MHz, and so is the port. */
static void test_reopen_follows_framework(void **state)
{
	rt_int32_t f = 3000000;

	(void)state;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_false(rtt_host_irqs[IRQ].enabled);
	open_dev();
	assert_int_equal(hwt()->freq, 1000000);
	assert_true(rtt_host_irqs[IRQ].enabled);
	assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	run(24000);
	assert_int_equal(first_boundary_clocks, 24000);
}

/* If the framework's frequency is one the hardware refuses, open fails
 * (the framework's own open ignores that result) and the IRQ stays off. */
static void test_open_fails_when_hw_refuses(void **state)
{
	(void)state;
	/* init as the framework would, then a frequency it might pick */
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	dev->flag |= RT_DEVICE_FLAG_ACTIVATED; /* skip init: keep the freq below */
	hwt()->freq = 7000000;
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), -RT_EINVAL);
	assert_false(dev->open_flag & RT_DEVICE_OFLAG_OPEN);
	assert_false(rtt_host_irqs[IRQ].enabled);
	assert_int_equal(write_us(0, 1000), 0); /* nothing runs on a wrong clock */
	run(48000);
	assert_int_equal(boundaries, 0);
}

/* Every timeout from 1 us to 1000 s: the count the framework computes is
 * one the hardware takes (maxcnt keeps the float margin), and a cycle is
 * exactly count * 24 clocks at 1 MHz. */
static void test_timeout_sweep(void **state)
{
	(void)state;
	open_dev();
	for (uint64_t us = 1; us <= 1000000000ull; us = us * 3 + 1) {
		rt_hwtimerval_t tv = {(rt_int32_t)(us / 1000000u), (rt_int32_t)(us % 1000000u)};
		rt_hwtimer_t probe = *hwt();
		rt_uint32_t count = rtt_host_timeout_calc(&probe, &tv);

		assert_true(count >= 1u);
		assert_int_equal(rt_device_write(dev, 0, &tv, sizeof(tv)), (rt_ssize_t)sizeof(tv));
		if (count <= 4000u) {
			boundaries = 0;
			run((uint64_t)count * 24u);
			assert_int_equal(boundaries, 1);
			assert_int_equal(first_boundary_clocks, (uint64_t)count * 24u);
		}
		assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_STOP, RT_NULL), RT_EOK);
	}
}

/* The Timer IRQ taken wherever the model raises it (sim_irq_arm). */
static void take_timer_irq(void *arg)
{
	(void)arg;
	if (timer_model_irq(&tm, CH))
		(void)rtt_host_irq_raise(IRQ);
}

static void isr_during_start_at(uint64_t point, rt_ssize_t *written)
{
	rt_int32_t f = 12000000;

	(void)setup(NULL);
	rtt_host_irq_lock = d1_port_critical_enter;
	rtt_host_irq_unlock = d1_port_critical_exit;
	open_dev();
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
	sim_irq_arm(point, take_timer_irq, NULL);
	*written = write_us(0, 0); /* one count of 12 MHz: 2 clocks */
	sim_irq_disarm();
}

/* A one-shot so short that it expires while the port's start is still
 * running (the Timer IRQ taken at any access or delay of the write): its
 * expiry is indicated once, and the port is left stopped, as after any
 * one-shot: the next frequency change is accepted (not -RT_EBUSY for a
 * timer that no longer runs) and the next timeout runs. */
static void test_isr_during_start(void **state)
{
	rt_ssize_t written;
	uint64_t events;

	(void)state;
	isr_during_start_at(SIM_IRQ_NEVER, &written);
	events = sim_irq_events();
	for (uint64_t p = 0; p <= 2u * events + 1u; p++) {
		rt_int32_t f = 1000000;

		isr_during_start_at(p, &written);
		run(100);
		assert_int_equal(written, (rt_ssize_t)sizeof(rt_hwtimerval_t));
		assert_int_equal(boundaries, 1);
		assert_int_equal(indications, 1);
		assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
		assert_int_equal(write_us(0, 1000), (rt_ssize_t)sizeof(rt_hwtimerval_t));
		run(24000);
		assert_int_equal(indications, 2);
	}
}

/* The first timeout indication restarts the timer from the callback
 * (interrupt context), as an application's timeout callback may. */
static unsigned rearms;

static rt_err_t on_timeout_rearm(rt_device_t d, rt_size_t size)
{
	(void)d;
	(void)size;
	if (indications++ == 0u) {
		rearms++;
		assert_int_equal(write_us(0, 100), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	}
	return RT_EOK;
}

static void stop_with_isr_at(uint64_t point)
{
	rt_int32_t f = 1000000;
	rt_hwtimer_mode_t mode = HWTIMER_MODE_PERIOD;

	(void)setup(NULL);
	rtt_host_irq_lock = d1_port_critical_enter;
	rtt_host_irq_unlock = d1_port_critical_exit;
	rearms = 0;
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	rt_device_set_rx_indicate_host(dev, on_timeout_rearm);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f), RT_EOK);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_MODE_SET, &mode), RT_EOK);
	assert_int_equal(write_us(0, 100), (rt_ssize_t)sizeof(rt_hwtimerval_t));
	sim_advance(2400u + 100u); /* a boundary, its interrupt not yet taken */
	sim_irq_arm(point, take_timer_irq, NULL);
	assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_STOP, RT_NULL), RT_EOK);
	sim_irq_disarm();
}

/* A thread's HWTIMER_CTRL_STOP (the framework calls ops->stop with
 * interrupts on) against a boundary's interrupt whose callback restarts
 * the timer, taken at every access and delay of the stop. Either order is
 * a correct outcome (stopped, or restarted), but the port's view must be
 * the hardware's: while the counter runs, a frequency change is refused
 * (-RT_EBUSY); once it is stopped, accepted. Before the fix, an interrupt
 * in the stop's sync wait restarted the counter and the stop then marked
 * the port stopped: FREQ_SET was accepted under a running counter, whose
 * reads then used the new scale. */
static void test_stop_against_restarting_isr(void **state)
{
	uint64_t events;

	(void)state;
	stop_with_isr_at(SIM_IRQ_NEVER);
	events = sim_irq_events();
	for (uint64_t p = 0; p < 2u * events; p++) { /* each point inside the stop */
		rt_int32_t f = 2000000;
		bool counting;

		stop_with_isr_at(p);
		counting = (tm.ch[CH].ctrl & D1_TIMER_CTRL_EN_BITS) != 0u;
		assert_int_equal(rearms, 1); /* the interrupt was taken */
		assert_int_equal(rt_device_control(dev, HWTIMER_CTRL_FREQ_SET, &f),
		                 counting ? -RT_EBUSY : RT_EOK);
	}
}

/* Bad counts reach the port only through a broken caller: refused, no
 * register written. */
static void test_bad_counts(void **state)
{
	rt_hwtimer_t *t;

	(void)state;
	open_dev();
	t = hwt();
	SIM_EXPECT_NO_WRITE(t->ops->start(t, 0u, HWTIMER_MODE_ONESHOT), -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(t->ops->start(t, t->info->maxcnt + 3u, HWTIMER_MODE_ONESHOT),
	                    -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(t->ops->start(t, 10u, (rt_hwtimer_mode_t)7), -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(t->ops->control(t, HWTIMER_CTRL_FREQ_SET, RT_NULL), -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(t->ops->control(t, 0x7777u, RT_NULL), -RT_ENOSYS);
}

/* A second registration under the same name is refused before any
 * register access. */
static void test_name_taken(void **state)
{
	uint64_t r = sim_reads();

	(void)state;
	SIM_EXPECT_NO_WRITE(d1_rt_hwtimer_init(), -RT_EBUSY);
	assert_int_equal(sim_reads(), r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_1ms_is_24000_clocks, setup),
	        cmocka_unit_test_setup(test_read_elapsed, setup),
	        cmocka_unit_test_setup(test_read_boundary_unhandled, setup),
	        cmocka_unit_test_setup(test_read_after_stop, setup),
	        cmocka_unit_test_setup(test_read_after_stop_boundary_pending, setup),
	        cmocka_unit_test_setup(test_frequencies_exact, setup),
	        cmocka_unit_test_setup(test_inexact_refused, setup),
	        cmocka_unit_test_setup(test_cnt_one, setup),
	        cmocka_unit_test_setup(test_reopen_follows_framework, setup),
	        cmocka_unit_test_setup(test_open_fails_when_hw_refuses, setup),
	        cmocka_unit_test_setup(test_timeout_sweep, setup),
	        cmocka_unit_test_setup(test_isr_during_start, setup),
	        cmocka_unit_test_setup(test_stop_against_restarting_isr, setup),
	        cmocka_unit_test_setup(test_bad_counts, setup),
	        cmocka_unit_test_setup(test_name_taken, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
