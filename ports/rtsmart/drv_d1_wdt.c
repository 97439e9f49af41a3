/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    rt_watchdog device on a D1 watchdog instance
 */

/*
 * rt_watchdog device on one D1 watchdog instance (Kconfig; default
 * riscv_wdt at 0x06011000, the one U-Boot may leave running at 16 s)
 * through d1_wdt (include/d1/wdt.h, docs/clocks-and-watchdog.md).
 *
 * The BSP's own drv_wdt.c registers "wdt" for the timer-block watchdog;
 * this device has its own name and, by default, another instance
 * (Kconfig refuses the timer-block instance or the name "wdt" while
 * BSP_USING_WDT is on).
 *
 * Takeover at INIT_DEVICE_EXPORT time: the inherited state is printed
 * ("riscv_wdt: running, 16000 ms, reset mode"), then by Kconfig policy
 * - STOP: stopped; the system is unguarded until an application starts it;
 * - KEEP: armed (or re-armed) in reset mode with BSP_D1_WDT_KEEP_TIMEOUT_S
 *   and fed from a kernel timer every BSP_D1_WDT_KEEP_FEED_MS until an
 *   application takes over with RT_DEVICE_CTRL_WDT_START or _STOP.
 *
 * Controls use seconds (drivers/watchdog.h). SET_TIMEOUT rounds up to the
 * hardware table (1..6, 8, 10, 12, 14, 16 s; 7 s becomes 8 s) and
 * GET_TIMEOUT reports what is programmed; 0 s or more than 16 s is
 * -RT_EINVAL with nothing written. The hardware has no readable counter:
 * GET_TIMELEFT is the timeout minus the kernel time since the last
 * start/feed/timeout change, rounded down to whole seconds.
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

#if defined(BSP_D1_WDT_TIMER)
#define D1_RT_WDT_ID   D1_WDT_TIMER
#define D1_RT_WDT_BASE D1_TIMER_WDT_BASE
#ifdef BSP_USING_WDT
#error "the timer-block watchdog is the BSP's drv_wdt.c (BSP_USING_WDT): choose another instance"
#endif
#elif defined(BSP_D1_WDT_R)
#define D1_RT_WDT_ID   D1_WDT_R
#define D1_RT_WDT_BASE D1_R_WDOG_BASE
#else
#define D1_RT_WDT_ID   D1_WDT_RISCV
#define D1_RT_WDT_BASE D1_RISCV_WDT_BASE
#endif

#ifndef BSP_D1_WDT_NAME
#define BSP_D1_WDT_NAME "d1wdt"
#endif
#ifdef BSP_D1_WDT_NAME_CLASH
#error "BSP_D1_WDT_NAME is \"wdt\", the BSP's drv_wdt.c device: choose another name"
#endif

#ifdef BSP_D1_WDT_TAKEOVER_KEEP
#ifndef BSP_D1_WDT_KEEP_TIMEOUT_S
#define BSP_D1_WDT_KEEP_TIMEOUT_S 16
#endif
#ifndef BSP_D1_WDT_KEEP_FEED_MS
#define BSP_D1_WDT_KEEP_FEED_MS 1000
#endif
/* The feeder's period as the kernel runs it, in whole ms rounded down:
 * rt_tick_from_millisecond() rounds up to whole ticks. A whole number of
 * ms N is <= this floor exactly when N ms is <= the period itself, so
 * both checks below (this one and SET_TIMEOUT's) compare with it. */
#define D1_RT_WDT_FEED_TICK_MS \
    (((BSP_D1_WDT_KEEP_FEED_MS * RT_TICK_PER_SECOND + 999) / 1000) * 1000 / RT_TICK_PER_SECOND)
#if D1_RT_WDT_FEED_TICK_MS >= BSP_D1_WDT_KEEP_TIMEOUT_S * 1000
#error "BSP_D1_WDT_KEEP_FEED_MS, in whole ticks, must be shorter than the kept timeout"
#endif
#endif

/* The instance and its registers fit in one page (memmap.h). */
#define D1_RT_WDT_MAP_SIZE 0x400u
/* Timeout until SET_TIMEOUT: the longest the hardware has. */
#define D1_RT_WDT_DEFAULT_MS D1_WDT_TIMEOUT_MAX_MS

struct d1_rt_wdt
{
    rt_watchdog_t parent; /* must be first: ops get &parent */
    struct d1_wdt w;
    uint32_t timeout_ms;  /* as programmed (rounded up to the table) */
    rt_tick_t last_feed;  /* kernel tick of the last start/feed/set */
    bool active;          /* running under this driver */
    bool kept;            /* KEEP policy: fed by the kernel timer */
    rt_timer_t feeder;
    rt_uint32_t feeds;    /* feeds made by the kernel timer */
};

static struct d1_rt_wdt d1_wdt_dev;

static rt_err_t d1_rt_wdt_ops_init(rt_watchdog_t *wdt)
{
    (void)wdt; /* hardware taken over in d1_rt_wdt_init() */
    return RT_EOK;
}

static rt_uint32_t d1_rt_wdt_timeleft_s(const struct d1_rt_wdt *d)
{
    uint64_t elapsed_ms;

    if (!d->active)
    {
        return 0u;
    }
    elapsed_ms = (uint64_t)(rt_tick_t)(rt_tick_get() - d->last_feed) * 1000u /
                 (uint64_t)RT_TICK_PER_SECOND;
    if (elapsed_ms >= d->timeout_ms)
    {
        return 0u;
    }
    return (rt_uint32_t)((d->timeout_ms - elapsed_ms) / 1000u);
}

/* The application takes over from the KEEP feeder. */
static void d1_rt_wdt_unkeep(struct d1_rt_wdt *d)
{
    if (d->kept && d->feeder != RT_NULL)
    {
        (void)rt_timer_stop(d->feeder);
    }
    d->kept = false;
}

static rt_err_t d1_rt_wdt_control(rt_watchdog_t *wdt, int cmd, void *arg)
{
    struct d1_rt_wdt *d = (struct d1_rt_wdt *)wdt;
    rt_uint32_t *val = (rt_uint32_t *)arg;
    uint32_t achieved = 0u;
    d1_err_t err = D1_OK;
    rt_base_t level;

    switch (cmd)
    {
    case RT_DEVICE_CTRL_WDT_GET_TIMEOUT:
        if (val == RT_NULL)
        {
            return -RT_EINVAL;
        }
        *val = (d->timeout_ms + 999u) / 1000u; /* 500 ms (inherited only) -> 1 */
        return RT_EOK;
    case RT_DEVICE_CTRL_WDT_GET_TIMELEFT:
        if (val == RT_NULL)
        {
            return -RT_EINVAL;
        }
        level = rt_hw_interrupt_disable();
        *val = d1_rt_wdt_timeleft_s(d);
        rt_hw_interrupt_enable(level);
        return RT_EOK;
    case RT_DEVICE_CTRL_WDT_SET_TIMEOUT:
        if (val == RT_NULL || *val == 0u || *val > D1_WDT_TIMEOUT_MAX_MS / 1000u)
        {
            return -RT_EINVAL;
        }
#ifdef BSP_D1_WDT_TAKEOVER_KEEP
        if (d->kept && *val * 1000u <= D1_RT_WDT_FEED_TICK_MS)
        {
            return -RT_EINVAL; /* the feeder could not keep it until START */
        }
#endif
        level = rt_hw_interrupt_disable();
        err = d1_wdt_set_timeout(&d->w, *val * 1000u, &achieved);
        if (err == D1_OK)
        {
            d->timeout_ms = achieved;
            d->last_feed = rt_tick_get(); /* set_timeout feeds when running */
        }
        rt_hw_interrupt_enable(level);
        break;
    case RT_DEVICE_CTRL_WDT_KEEPALIVE:
        level = rt_hw_interrupt_disable();
        err = d1_wdt_feed(&d->w);
        if (err == D1_OK)
        {
            d->last_feed = rt_tick_get();
        }
        rt_hw_interrupt_enable(level);
        break;
    case RT_DEVICE_CTRL_WDT_START:
        d1_rt_wdt_unkeep(d);
        level = rt_hw_interrupt_disable();
        err = d1_wdt_start(&d->w, d->timeout_ms, D1_WDT_ACTION_RESET, &achieved);
        if (err == D1_OK)
        {
            d->timeout_ms = achieved;
            d->last_feed = rt_tick_get();
            d->active = true;
        }
        rt_hw_interrupt_enable(level);
        break;
    case RT_DEVICE_CTRL_WDT_STOP:
        d1_rt_wdt_unkeep(d);
        level = rt_hw_interrupt_disable();
        err = d1_wdt_stop(&d->w);
        if (err == D1_OK)
        {
            d->active = false;
        }
        rt_hw_interrupt_enable(level);
        break;
    default:
        return -RT_ENOSYS;
    }
    return d1_rt_err(err);
}

static const struct rt_watchdog_ops d1_wdt_ops =
{
    .init = d1_rt_wdt_ops_init,
    .control = d1_rt_wdt_control,
};

#ifdef BSP_D1_WDT_TAKEOVER_KEEP
static void d1_rt_wdt_feeder(void *param)
{
    struct d1_rt_wdt *d = (struct d1_rt_wdt *)param;

    if (d->kept && d1_wdt_feed(&d->w) == D1_OK)
    {
        d->last_feed = rt_tick_get();
        d->feeds++;
    }
}
#endif

/* Feeds made by the KEEP feeder (for tests and msh). */
rt_uint32_t d1_rt_wdt_keep_feeds(void)
{
    return d1_wdt_dev.feeds;
}

int d1_rt_wdt_init(void)
{
    struct d1_rt_wdt *d = &d1_wdt_dev;
    struct d1_wdt_state st;
    char line[D1_WDT_STATE_STR_MAX];
    uintptr_t base;
    d1_err_t err;

    if (rt_device_find(BSP_D1_WDT_NAME) != RT_NULL)
    {
        rt_kprintf("d1 wdt: device name \"%s\" taken\n", BSP_D1_WDT_NAME);
        return -RT_EBUSY;
    }
    base = d1_rt_map(D1_RT_WDT_BASE, D1_RT_WDT_MAP_SIZE);
    if (base == 0u)
    {
        return -RT_ENOMEM;
    }
    d->active = false;
    d->kept = false;
    d->feeder = RT_NULL;
    d->feeds = 0u;
    d->timeout_ms = D1_RT_WDT_DEFAULT_MS;
    d->last_feed = 0u;
    err = d1_wdt_init(&d->w, D1_RT_WDT_ID, base);
    if (err != D1_OK)
    {
        return (int)d1_rt_err(err);
    }

    /* Say what firmware left, then apply the policy on purpose. */
    err = d1_wdt_get_state(&d->w, &st);
    if (err == D1_OK && d1_wdt_format_state(&st, line, sizeof(line)) != D1_EINVAL)
    {
        rt_kprintf("%s\n", line);
    }
#ifdef BSP_D1_WDT_TAKEOVER_KEEP
    d->feeder = rt_timer_create("d1wdtk", d1_rt_wdt_feeder, d,
                                rt_tick_from_millisecond(BSP_D1_WDT_KEEP_FEED_MS),
                                RT_TIMER_FLAG_PERIODIC | RT_TIMER_FLAG_HARD_TIMER);
    if (d->feeder == RT_NULL)
    {
        /* Without a feeder, keeping it armed would reset the system. */
        rt_kprintf("d1 wdt: no feeder timer, watchdog left as found\n");
        return -RT_ENOMEM;
    }
    err = d1_wdt_takeover(&d->w, D1_WDT_TAKEOVER_KEEP, BSP_D1_WDT_KEEP_TIMEOUT_S * 1000u, RT_NULL,
                          &d->timeout_ms);
    if (err == D1_OK)
    {
        d->active = true;
        d->kept = true;
        d->last_feed = rt_tick_get();
        (void)rt_timer_start(d->feeder);
        rt_kprintf("%s: kept, %u ms, fed every %u ms until started\n", st.name,
                   (unsigned)d->timeout_ms, (unsigned)BSP_D1_WDT_KEEP_FEED_MS);
    }
#else
    err = d1_wdt_takeover(&d->w, D1_WDT_TAKEOVER_STOP, 0u, RT_NULL, RT_NULL);
    if (err == D1_OK)
    {
        rt_kprintf("%s: stopped (policy stop)\n", st.name);
    }
#endif
    if (err != D1_OK)
    {
        return (int)d1_rt_err(err);
    }

    d->parent.ops = &d1_wdt_ops;
    return (int)rt_hw_watchdog_register(&d->parent, BSP_D1_WDT_NAME, RT_DEVICE_FLAG_DEACTIVATE,
                                        RT_NULL);
}
INIT_DEVICE_EXPORT(d1_rt_wdt_init);

#ifdef RT_USING_FINSH
#include <finsh.h>
#include <stdlib.h>
#include <string.h>

/* msh: d1wdt [status | start S | feed | stop] through the device API. */
static int d1wdt(int argc, char **argv)
{
    rt_device_t dev = rt_device_find(BSP_D1_WDT_NAME);
    struct d1_rt_wdt *d = &d1_wdt_dev;
    rt_uint32_t v = 0u, left = 0u;
    uint64_t now;
    rt_err_t ret = RT_EOK;

    if (dev == RT_NULL)
    {
        return -RT_ERROR;
    }
    if (argc > 2 && strcmp(argv[1], "start") == 0)
    {
        v = (rt_uint32_t)atoi(argv[2]);
        ret = rt_device_control(dev, RT_DEVICE_CTRL_WDT_SET_TIMEOUT, &v);
        if (ret == RT_EOK)
        {
            ret = rt_device_control(dev, RT_DEVICE_CTRL_WDT_START, RT_NULL);
        }
        __asm__ volatile("rdtime %0" : "=r"(now));
        rt_kprintf("start %u s: %d, at time CSR %u ms, not fed from now on\n", (unsigned)v,
                   (int)ret, (unsigned)(now / 24000u));
    }
    else if (argc > 1 && strcmp(argv[1], "feed") == 0)
    {
        ret = rt_device_control(dev, RT_DEVICE_CTRL_WDT_KEEPALIVE, RT_NULL);
    }
    else if (argc > 1 && strcmp(argv[1], "stop") == 0)
    {
        ret = rt_device_control(dev, RT_DEVICE_CTRL_WDT_STOP, RT_NULL);
    }
    (void)rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMEOUT, &v);
    (void)rt_device_control(dev, RT_DEVICE_CTRL_WDT_GET_TIMELEFT, &left);
    rt_kprintf("%s: %s, timeout %u s, left ~%u s, kept by kernel timer: %s (%u feeds), last %d\n",
               BSP_D1_WDT_NAME, d->active ? "running" : "stopped", (unsigned)v, (unsigned)left,
               d->kept ? "yes" : "no", (unsigned)d->feeds, (int)ret);
    return 0;
}
MSH_CMD_EXPORT(d1wdt, d1drivers watchdog: d1wdt [status | start S | feed | stop]);
#endif /* RT_USING_FINSH */

#endif /* BSP_USING_D1_WDT */
