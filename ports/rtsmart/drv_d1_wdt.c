/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rt_watchdog device "wdt" on riscv_wdt (0x06011000, the instance U-Boot
 * may leave running at 16 s) via d1_wdt (include/d1/wdt.h,
 * docs/clocks-and-watchdog.md).
 *
 * At init the inherited state is read back and printed
 * ("riscv_wdt: running, 16000 ms, reset mode"), then taken over on purpose
 * with d1_wdt_takeover(STOP). The device then runs in reset mode.
 *
 * Control commands use seconds (dev_watchdog.h). SET_TIMEOUT rounds up to
 * the hardware table (1..6, 8, 10, 12, 14, 16 s; 7 s becomes 8 s) and
 * GET_TIMEOUT reports what was programmed; 0 s or more than 16 s is
 * -RT_EINVAL with nothing written. The hardware has no readable counter:
 * GET_TIMELEFT is the timeout minus the kernel time since the last
 * start/feed/timeout change, rounded down to whole seconds (an estimate
 * to one tick).
 */
#include <stdbool.h>
#include <stdint.h>

#include <rtdevice.h>
#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/wdt.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_WDT

#define D1_RT_WDT_MAP_SIZE 0x400u
/* Timeout until SET_TIMEOUT: the longest the hardware has. */
#define D1_RT_WDT_DEFAULT_MS D1_WDT_TIMEOUT_MAX_MS

struct d1_rt_wdt {
	rt_watchdog_t parent; /* Must be first: ops get &parent. */
	struct d1_wdt w;
	uint32_t timeout_ms; /* As programmed (rounded up to the table). */
	rt_tick_t last_feed; /* Kernel tick of the last start/feed/set. */
	bool active;
};

static struct d1_rt_wdt g_d1_rt_wdt;

static rt_err_t d1_rt_wdt_ops_init(rt_watchdog_t *wdt)
{
	(void)wdt; /* Hardware taken over in d1_rt_wdt_init(). */
	return RT_EOK;
}

static rt_uint32_t d1_rt_wdt_timeleft_s(const struct d1_rt_wdt *d)
{
	uint64_t elapsed_ms;

	if (!d->active)
		return 0u;
	elapsed_ms = (uint64_t)(rt_tick_t)(rt_tick_get() - d->last_feed) * 1000u /
	             (uint64_t)RT_TICK_PER_SECOND;
	if (elapsed_ms >= d->timeout_ms)
		return 0u;
	return (rt_uint32_t)((d->timeout_ms - elapsed_ms) / 1000u);
}

static rt_err_t d1_rt_wdt_control(rt_watchdog_t *wdt, int cmd, void *arg)
{
	struct d1_rt_wdt *d = (struct d1_rt_wdt *)wdt;
	rt_uint32_t *val = (rt_uint32_t *)arg;
	uint32_t achieved = 0u;
	d1_err_t err = D1_OK;
	rt_base_t level;

	switch (cmd) {
	case RT_DEVICE_CTRL_WDT_GET_TIMEOUT:
		if (val == RT_NULL)
			return -RT_EINVAL;
		*val = (d->timeout_ms + 999u) / 1000u; /* 500 ms (inherited only) -> 1 */
		return RT_EOK;
	case RT_DEVICE_CTRL_WDT_GET_TIMELEFT:
		if (val == RT_NULL)
			return -RT_EINVAL;
		level = rt_hw_interrupt_disable();
		*val = d1_rt_wdt_timeleft_s(d);
		rt_hw_interrupt_enable(level);
		return RT_EOK;
	case RT_DEVICE_CTRL_WDT_SET_TIMEOUT:
		if (val == RT_NULL || *val == 0u || *val > D1_WDT_TIMEOUT_MAX_MS / 1000u)
			return -RT_EINVAL;
		level = rt_hw_interrupt_disable();
		err = d1_wdt_set_timeout(&d->w, *val * 1000u, &achieved);
		if (err == D1_OK) {
			d->timeout_ms = achieved;
			d->last_feed = rt_tick_get(); /* set_timeout feeds when running */
		}
		rt_hw_interrupt_enable(level);
		break;
	case RT_DEVICE_CTRL_WDT_KEEPALIVE:
		level = rt_hw_interrupt_disable();
		err = d1_wdt_feed(&d->w);
		if (err == D1_OK)
			d->last_feed = rt_tick_get();
		rt_hw_interrupt_enable(level);
		break;
	case RT_DEVICE_CTRL_WDT_START:
		level = rt_hw_interrupt_disable();
		err = d1_wdt_start(&d->w, d->timeout_ms, D1_WDT_ACTION_RESET, &achieved);
		if (err == D1_OK) {
			d->timeout_ms = achieved;
			d->last_feed = rt_tick_get();
			d->active = true;
		}
		rt_hw_interrupt_enable(level);
		break;
	case RT_DEVICE_CTRL_WDT_STOP:
		level = rt_hw_interrupt_disable();
		err = d1_wdt_stop(&d->w);
		if (err == D1_OK)
			d->active = false;
		rt_hw_interrupt_enable(level);
		break;
	default:
		return -RT_ENOSYS;
	}
	return d1_rt_err(err);
}

static const struct rt_watchdog_ops g_d1_rt_wdt_ops = {
        .init = d1_rt_wdt_ops_init,
        .control = d1_rt_wdt_control,
};

int d1_rt_wdt_init(void)
{
	struct d1_rt_wdt *d = &g_d1_rt_wdt;
	uintptr_t base = d1_rt_map(D1_RISCV_WDT_BASE, D1_RT_WDT_MAP_SIZE);
	struct d1_wdt_state st;
	char line[D1_WDT_STATE_STR_MAX];
	d1_err_t err;

	if (base == 0u)
		return -RT_ENOMEM;
	d->active = false;
	d->timeout_ms = D1_RT_WDT_DEFAULT_MS;
	d->last_feed = 0u;
	err = d1_wdt_init(&d->w, D1_WDT_RISCV, base);
	if (err != D1_OK)
		return (int)d1_rt_err(err);

	/* Say what firmware left, then stop it on purpose. */
	err = d1_wdt_get_state(&d->w, &st);
	if (err == D1_OK && d1_wdt_format_state(&st, line, sizeof(line)) != D1_EINVAL)
		rt_kprintf("%s\n", line);
	err = d1_wdt_takeover(&d->w, D1_WDT_TAKEOVER_STOP, 0u, RT_NULL, RT_NULL);
	if (err != D1_OK)
		return (int)d1_rt_err(err);

	d->parent.ops = &g_d1_rt_wdt_ops;
	return (int)rt_hw_watchdog_register(&d->parent, "wdt", RT_DEVICE_FLAG_DEACTIVATE, RT_NULL);
}

INIT_DEVICE_EXPORT(d1_rt_wdt_init);

#endif /* BSP_USING_D1_WDT */
