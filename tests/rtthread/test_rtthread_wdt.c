/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/drv_d1_wdt.c on the watchdog model behind the watchdog
 * framework layer (rtt_host.c): the takeover policy chosen in Kconfig
 * (built twice: STOP and KEEP), timeout rounding in seconds, bad input
 * with nothing written, and an unfed watchdog resetting on time.
 * Also d1_rt_err(): every d1_err_t value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/error.h"
#include "d1/memmap.h"
#include "d1_rt.h"
#include "rtt_host.h"
#include "sim.h"
#include "wdt_model.h"

static struct wdt_model wm;
static rt_device_t dev;

/* U-Boot's state on the board (docs/clocks-and-watchdog.md): riscv_wdt
 * running, 16 s, reset mode. */
static void preset_uboot_16s(void)
{
	wdt_model_preset(&wm, 0x1u, 0xB1u);
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	rtt_host_reset();
	wdt_model_init(&wm, "riscv_wdt", D1_RISCV_WDT_BASE, false);
	preset_uboot_16s();
	assert_int_equal(d1_rt_wdt_init(), RT_EOK);
	dev = rt_device_find(BSP_D1_WDT_NAME);
	assert_non_null(dev);
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	return 0;
}

static uint64_t sec(uint64_t s)
{
	return s * SIM_HZ;
}

/* SET_TIMEOUT rounds up to the hardware table; GET_TIMEOUT reads back
 * what is programmed. */
static void test_timeout_rounding(void **state)
{
	static const rt_uint32_t want[17] = {0,  1,  2,  3,  4,  5,  6,  8, 8,
	                                     10, 10, 12, 12, 14, 14, 16, 16};

	(void)state;
	/* the application's watchdog (KEEP: no longer kept, so 1 s is taken) */
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_STOP, RT_NULL), RT_EOK);
	for (rt_uint32_t s = 1; s <= 16; s++) {
		rt_uint32_t v = s, got = 0;

		assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &v),
		                 RT_EOK);
		assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMEOUT, &got),
		                 RT_EOK);
		assert_int_equal(got, want[s]);
	}
}

static void test_bad_input(void **state)
{
	rt_uint32_t zero = 0, big = 17;

	(void)state;
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &zero),
	                    -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &big),
	                    -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, RT_NULL),
	                    -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMEOUT, RT_NULL),
	                    -RT_EINVAL);
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, 0x4242, RT_NULL), -RT_ENOSYS);
	assert_int_equal(wdt_model_keyless_unexpected(), 0);
	assert_int_equal(wdt_model_bad_feed_unexpected(), 0);
}

/* Started by the application with 2 s and never fed: the model resets the
 * system 2 s after the start, not before. */
static void test_unfed_resets_on_time(void **state)
{
	rt_uint32_t v = 2;
	uint64_t t0;

	(void)state;
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &v), RT_EOK);
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_START, RT_NULL), RT_EOK);
	t0 = sim_now();
	assert_int_equal(rtt_host_timer_running(), 0); /* the application owns it now */
	sim_advance(sec(2) - 24000);
	assert_int_equal(wm.resets, 0);
	sim_advance(48000);
	assert_int_equal(wm.resets, 1);
	assert_in_range(wm.last_reset_at - t0, sec(2) - 24000, sec(2) + 24000);
}

/* RT-Thread's watchdog close sends STOP (components/drivers/watchdog/
 * watchdog.c): the last close of a started watchdog stops it and nothing
 * resets afterwards; with the KEEP policy the kernel timer that kept it
 * is gone too (no feed keeps a stopped watchdog), and a second close of a
 * stopped one succeeds. */
static void test_close_stops(void **state)
{
	rt_uint32_t v = 2;

	(void)state;
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &v), RT_EOK);
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_START, RT_NULL), RT_EOK);
	assert_true(wdt_model_running(&wm));
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_false(wdt_model_running(&wm));
	assert_int_equal(rtt_host_timer_running(), 0);
	sim_advance(sec(20));
	assert_int_equal(wm.resets, 0);
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_int_equal(wdt_model_keyless_unexpected(), 0);
}

#ifdef BSP_D1_WDT_TAKEOVER_STOP
/* STOP: reported, then stopped; nothing resets however long we wait. */
static void test_policy(void **state)
{
	(void)state;
	assert_non_null(strstr(rtt_host_last_message(), "stopped"));
	assert_false(wdt_model_running(&wm));
	sim_advance(sec(40));
	assert_int_equal(wm.resets, 0);
	assert_int_equal(rtt_host_timer_period(), 0); /* no feeder */
}
#else
/* KEEP: never unarmed, fed by the kernel timer every
 * BSP_D1_WDT_KEEP_FEED_MS until the application starts it; with the
 * feeder stopped it resets BSP_D1_WDT_KEEP_TIMEOUT_S later. */
static void test_policy(void **state)
{
	rt_uint32_t left = 0;

	(void)state;
	assert_true(wdt_model_running(&wm));
	assert_true(rtt_host_timer_running());
	assert_int_equal(rtt_host_timer_period(),
	                 rt_tick_from_millisecond(BSP_D1_WDT_KEEP_FEED_MS));
	for (int i = 0; i < 40; i++) {
		sim_advance(SIM_HZ / 1000u * BSP_D1_WDT_KEEP_FEED_MS);
		assert_int_equal(rtt_host_timer_fire(), 1);
	}
	assert_int_equal(wm.resets, 0);
	assert_int_equal(d1_rt_wdt_keep_feeds(), 40);
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMELEFT, &left), RT_EOK);
	assert_int_equal(left, BSP_D1_WDT_KEEP_TIMEOUT_S);
	/* feeder gone (e.g. the kernel hung): reset on time */
	sim_advance(sec(BSP_D1_WDT_KEEP_TIMEOUT_S) + SIM_HZ / 100u);
	assert_int_equal(wm.resets, 1);
}
#endif

#ifdef BSP_D1_WDT_TAKEOVER_KEEP
/* While the kernel timer keeps it (before the application's START), a
 * timeout the feeder cannot keep (not longer than its period: 1 s against
 * 1,000 ms) would reset the system between SET_TIMEOUT and START: refused,
 * nothing written, the kept timeout still in force and fed. A longer one
 * is taken and kept. */
static void test_keep_refuses_unkeepable_timeout(void **state)
{
	rt_uint32_t one = 1, two = 2, got = 0;

	(void)state;
	SIM_EXPECT_NO_WRITE(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &one),
	                    -RT_EINVAL);
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMEOUT, &got), RT_EOK);
	assert_int_equal(got, BSP_D1_WDT_KEEP_TIMEOUT_S);
	assert_int_equal(rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &two), RT_EOK);
	for (int i = 0; i < 20; i++) {
		sim_advance(SIM_HZ / 1000u * BSP_D1_WDT_KEEP_FEED_MS);
		assert_int_equal(rtt_host_timer_fire(), 1);
	}
	assert_int_equal(wm.resets, 0);
	assert_true(wdt_model_running(&wm));
}
#endif

static void test_err_mapping(void **state)
{
	(void)state;
	assert_int_equal(d1_rt_err(D1_OK), RT_EOK);
	assert_int_equal(d1_rt_err(D1_EINVAL), -RT_EINVAL);
	assert_int_equal(d1_rt_err(D1_ERANGE), -RT_EINVAL);
	assert_int_equal(d1_rt_err(D1_ETIMEDOUT), -RT_ETIMEOUT);
	assert_int_equal(d1_rt_err(D1_ENOTSUP), -RT_ENOSYS);
	assert_int_equal(d1_rt_err(D1_EBUSY), -RT_EBUSY);
	assert_int_equal(d1_rt_err(D1_EAGAIN), -RT_EEMPTY);
	assert_int_equal(d1_rt_err(D1_ESTATE), -RT_ERROR);
	assert_int_equal(d1_rt_err(D1_ENODELEG), -RT_ERROR);
	assert_int_equal(d1_rt_err(-99), -RT_ERROR);
	assert_int_equal(d1_rt_err(5), -RT_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_timeout_rounding, setup),
	        cmocka_unit_test_setup(test_bad_input, setup),
	        cmocka_unit_test_setup(test_unfed_resets_on_time, setup),
	        cmocka_unit_test_setup(test_close_stops, setup),
	        cmocka_unit_test_setup(test_policy, setup),
#ifdef BSP_D1_WDT_TAKEOVER_KEEP
	        cmocka_unit_test_setup(test_keep_refuses_unkeepable_timeout, setup),
#endif
	        cmocka_unit_test(test_err_mapping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
