/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    rt_hwtimer device on a D1 Timer channel
 */

/*
 * rt_hwtimer device on D1 Timer0 or Timer1 (Kconfig) through d1_timer.
 *
 * Count frequency. The framework counts in units of timer->freq: its
 * rt_hwtimer_init() takes 1 MHz when that lies in [minfreq, maxfreq] and
 * its open asks for it with HWTIMER_CTRL_FREQ_SET
 * (components/drivers/hwtimer/hwtimer.c). The channel always counts the
 * 24 MHz OSC24M undivided; one framework count is m = 24 MHz / freq
 * OSC24M clocks. A frequency is accepted only when m is a whole number
 * >= 2 (freq divides 24 MHz and is at most 12 MHz), so every count the
 * framework computes is exact: 1 ms at the default 1 MHz is 1,000 counts
 * = 24,000 OSC24M clocks. Any other frequency is refused (-RT_EINVAL),
 * and the device's open fails if the hardware refused the framework's
 * frequency (the framework's own open ignores that result).
 *
 * A period of cnt counts is cnt * m clocks; d1_timer_set_period_clocks()
 * programs cnt * m - 1 (the counter includes zero, docs/hardware-facts.md),
 * and m >= 2 makes cnt = 1 (a timeout shorter than one count) a legal
 * period. maxcnt follows the frequency and stays below 2^24 so that the
 * framework's float arithmetic cannot push a count past what the hardware
 * takes (docs/rtsmart.md, "hwtimer").
 *
 * count_get returns the counts left, ceil(clocks left / m): the
 * framework's down-count read (period - count) is then the whole counts
 * elapsed, rounded down. A periodic boundary whose ISR has not run yet
 * reads 0. Once stopped it returns the counts left at the stop, so a read
 * after HWTIMER_CTRL_STOP gives the time the timer ran (the framework
 * keeps its overflow count across a stop; examples/test/hwtimer_test.c
 * reads so); after a one-shot's end or before any start, the whole period
 * (0 elapsed beyond the overflows the framework counted).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rtdevice.h>
#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_HWTIMER

#ifdef BSP_D1_HWTIMER_TIMER1
#define D1_RT_HWTIMER_CH  1u
#define D1_RT_HWTIMER_IRQ ((int)D1_IRQ_TIMER1)
#ifdef BSP_USING_D1_TICK
#error "Timer1 is the system tick (BSP_USING_D1_TICK): put the hwtimer on Timer0"
#endif
#else
#define D1_RT_HWTIMER_CH  0u
#define D1_RT_HWTIMER_IRQ ((int)D1_IRQ_TIMER0)
#endif

#ifndef BSP_D1_HWTIMER_NAME
#define BSP_D1_HWTIMER_NAME "d1timer"
#endif

#define D1_RT_TIMER_MAP_SIZE 0x400u
#define D1_RT_HWTIMER_CLK_HZ D1_OSC24M_HZ
/* Highest count frequency: 2 clocks per count, the shortest period. */
#define D1_RT_HWTIMER_MAXFREQ (D1_RT_HWTIMER_CLK_HZ / D1_TIMER_MIN_PERIOD)
/* Lowest: 1 Hz (24,000,000 clocks per count). */
#define D1_RT_HWTIMER_MINFREQ 1
/* maxcnt ceiling: below 2^24 a float holds every count exactly, so the
 * framework's count is at most 2 above maxcnt; the margin covers that. */
#define D1_RT_HWTIMER_CNT_CEIL   0xFFFFFFu
#define D1_RT_HWTIMER_CNT_MARGIN 2u

struct d1_rt_hwtimer
{
    rt_hwtimer_t parent;          /* must be first: ops get &parent */
    struct rt_hwtimer_info info;  /* maxcnt follows the frequency */
    struct d1_timer t;
    rt_uint32_t clocks_per_count; /* m, OSC24M clocks per count; 0: none */
    rt_int32_t freq;              /* frequency m was set for; 0: none */
    rt_uint32_t period_counts;    /* counts of the period running */
    rt_uint32_t left_at_stop;     /* count_get's value once stopped */
    bool running;
    bool oneshot;                 /* mode of the hardware start */
    volatile uint64_t t_started;  /* time CSR when the last start returned */
    volatile uint64_t t_isr;      /* time CSR at the last ISR entry */
    rt_err_t (*fw_open)(rt_device_t dev, rt_uint16_t oflag);
#ifdef RT_USING_DEVICE_OPS
    struct rt_device_ops dev_ops;
#endif
};

static struct d1_rt_hwtimer d1_hwtimer;

/* m = 24 MHz / freq if it is a whole number >= 2, else 0. */
static rt_uint32_t d1_rt_hwtimer_divisor(rt_int32_t freq)
{
    rt_uint32_t f;

    if (freq < D1_RT_HWTIMER_MINFREQ || freq > (rt_int32_t)D1_RT_HWTIMER_MAXFREQ)
    {
        return 0u;
    }
    f = (rt_uint32_t)freq;
    if (D1_RT_HWTIMER_CLK_HZ % f != 0u)
    {
        return 0u;
    }
    return D1_RT_HWTIMER_CLK_HZ / f;
}

static rt_uint32_t d1_rt_hwtimer_maxcnt(rt_uint32_t m)
{
    uint64_t hw = D1_TIMER_MAX_PERIOD / m - D1_RT_HWTIMER_CNT_MARGIN;

    return (rt_uint32_t)(hw < D1_RT_HWTIMER_CNT_CEIL ? hw : D1_RT_HWTIMER_CNT_CEIL);
}

/* RISC-V `time` CSR (24 MHz on the D1): timestamps for d1hwtimer only. */
static inline uint64_t d1_rt_hwtimer_time(void)
{
#if defined(__riscv)
    uint64_t t;

    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
#else
    return 0u; /* host tests */
#endif
}

/* Counts left of the running period, ceil(clocks left / m). */
static rt_uint32_t d1_rt_hwtimer_left(struct d1_rt_hwtimer *h)
{
    uint64_t left = d1_timer_remaining(&h->t); /* 1 .. cnt * m */

    return (rt_uint32_t)((left + h->clocks_per_count - 1u) / h->clocks_per_count);
}

/* The framework calls this from a thread with interrupts on (CTRL_STOP,
 * write, close) and from the ISR (a one-shot's end): interrupts off, so a
 * callback that restarts the timer runs before or after the whole stop,
 * never in its sync wait (include/d1/timer.h "Concurrency").
 *
 * The counts left are kept for count_get. A boundary still pending is
 * counted by its ISR, taken after the stop (the status stays set): a
 * periodic counter already runs the next period, whose counts left are
 * read as usual; an ended one-shot has nothing left beyond its period. */
static void d1_rt_hwtimer_stop(rt_hwtimer_t *timer)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;
    rt_base_t level = rt_hw_interrupt_disable();

    if (h->running)
    {
        if (h->oneshot && d1_timer_irq_pending(&h->t))
        {
            h->left_at_stop = h->period_counts;
        }
        else
        {
            h->left_at_stop = d1_rt_hwtimer_left(h);
        }
    }
    (void)d1_timer_stop(&h->t);
    h->running = false;
    rt_hw_interrupt_enable(level);
}

static void d1_rt_hwtimer_ops_init(rt_hwtimer_t *timer, rt_uint32_t state)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;

    /* state 1: first open, 0: close. Either way: stopped, no stale
     * status; the frequency is set again by the next open. */
    d1_rt_hwtimer_stop(timer);
    if (state != 0u)
    {
        d1_timer_irq_ack(&h->t);
        (void)d1_timer_irq_enable(&h->t, true);
        rt_hw_interrupt_umask(D1_RT_HWTIMER_IRQ);
    }
    else
    {
        rt_hw_interrupt_mask(D1_RT_HWTIMER_IRQ);
        (void)d1_timer_irq_enable(&h->t, false);
        d1_timer_irq_ack(&h->t);
    }
    h->clocks_per_count = 0u;
    h->freq = 0;
    h->period_counts = 0u;
    h->left_at_stop = 0u;
}

static rt_err_t d1_rt_hwtimer_start(rt_hwtimer_t *timer, rt_uint32_t cnt, rt_hwtimer_mode_t mode)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;
    enum d1_timer_mode m;
    rt_base_t level;
    d1_err_t err;

    if (h->clocks_per_count == 0u)
    {
        return -RT_ERROR; /* no frequency accepted since open */
    }
    if (cnt == 0u || cnt > h->info.maxcnt + D1_RT_HWTIMER_CNT_MARGIN)
    {
        return -RT_EINVAL;
    }
    if (mode == HWTIMER_MODE_ONESHOT)
    {
        m = D1_TIMER_ONESHOT;
    }
    else if (mode == HWTIMER_MODE_PERIOD)
    {
        m = D1_TIMER_PERIODIC;
    }
    else
    {
        return -RT_EINVAL;
    }
    /* Interrupts off: a period of a few clocks can end before
     * d1_timer_start() returns, and its ISR must find the handle and the
     * state below complete (it stops a one-shot that has ended). */
    level = rt_hw_interrupt_disable();
    if (h->running)
    {
        d1_rt_hwtimer_stop(timer);
    }
    err = d1_timer_set_period_clocks(&h->t, (uint64_t)cnt * h->clocks_per_count, RT_NULL);
    if (err == D1_OK)
    {
        err = d1_timer_start(&h->t, m);
    }
    if (err == D1_OK)
    {
        h->running = true;
        h->oneshot = (m == D1_TIMER_ONESHOT);
        h->period_counts = cnt;
        h->left_at_stop = cnt;
        h->t_started = d1_rt_hwtimer_time();
    }
    rt_hw_interrupt_enable(level);
    return d1_rt_err(err);
}

static rt_uint32_t d1_rt_hwtimer_count_get(rt_hwtimer_t *timer)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;

    if (!h->running || h->clocks_per_count == 0u)
    {
        return h->left_at_stop;
    }
    if (!h->oneshot && d1_timer_irq_pending(&h->t))
    {
        /* A boundary its ISR has not handled yet (the framework reads
         * with interrupts off): the counter already runs the next period,
         * but overflow does not count this one yet. 0 counts left reads
         * as the whole period, never as time going back. */
        return 0u;
    }
    return d1_rt_hwtimer_left(h);
}

static rt_err_t d1_rt_hwtimer_control(rt_hwtimer_t *timer, rt_uint32_t cmd, void *args)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;
    rt_uint32_t m;
    rt_int32_t freq;

    switch (cmd)
    {
    case HWTIMER_CTRL_FREQ_SET:
        if (args == RT_NULL)
        {
            return -RT_EINVAL;
        }
        freq = *(rt_int32_t *)args;
        m = d1_rt_hwtimer_divisor(freq);
        if (m == 0u)
        {
            return -RT_EINVAL;
        }
        if (h->running)
        {
            return -RT_EBUSY;
        }
        h->clocks_per_count = m;
        h->freq = freq;
        h->info.maxcnt = d1_rt_hwtimer_maxcnt(m);
        return RT_EOK;
    case HWTIMER_CTRL_STOP:
        d1_rt_hwtimer_stop(timer);
        return RT_EOK;
    case HWTIMER_CTRL_INFO_GET:
        if (args == RT_NULL)
        {
            return -RT_EINVAL;
        }
        *(struct rt_hwtimer_info *)args = h->info;
        return RT_EOK;
    default:
        return -RT_ENOSYS;
    }
}

static const struct rt_hwtimer_ops d1_hwtimer_ops =
{
    .init = d1_rt_hwtimer_ops_init,
    .start = d1_rt_hwtimer_start,
    .stop = d1_rt_hwtimer_stop,
    .count_get = d1_rt_hwtimer_count_get,
    .control = d1_rt_hwtimer_control,
};

/* The framework's open, then a check that the hardware accepted the
 * frequency the framework will compute with. */
static rt_err_t d1_rt_hwtimer_open(rt_device_t dev, rt_uint16_t oflag)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)dev;
    rt_err_t ret = (h->fw_open != RT_NULL) ? h->fw_open(dev, oflag) : -RT_ENOSYS;

    if (ret == RT_EOK && (h->freq == 0 || h->freq != h->parent.freq))
    {
        rt_kprintf("%s: count frequency %d Hz not exact on this timer\n",
                   BSP_D1_HWTIMER_NAME, (int)h->parent.freq);
        d1_rt_hwtimer_ops_init(&h->parent, 0u);
        ret = -RT_EINVAL;
    }
    return ret;
}

static void d1_rt_hwtimer_isr(int vector, void *param)
{
    struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)param;

    (void)vector;
    h->t_isr = d1_rt_hwtimer_time();
    if (d1_timer_isr(&h->t) == D1_TIMER_ISR_SPURIOUS) /* W1C this channel's bit */
    {
        return; /* no expiry pending: counted by the library */
    }
    /* A hardware one-shot has ended: the driver's state follows, so the
     * next start is accepted (d1_timer_stop waits >= 3 clocks). */
    if (h->oneshot && h->running)
    {
        d1_rt_hwtimer_stop(&h->parent);
        h->left_at_stop = h->period_counts; /* the framework counts it */
    }
    rt_device_hwtimer_isr(&h->parent);
}

int d1_rt_hwtimer_init(void)
{
    struct d1_rt_hwtimer *h = &d1_hwtimer;
    uintptr_t base;
    rt_err_t ret;
    d1_err_t err;

    if (rt_device_find(BSP_D1_HWTIMER_NAME) != RT_NULL)
    {
        rt_kprintf("d1 hwtimer: device name \"%s\" taken\n", BSP_D1_HWTIMER_NAME);
        return -RT_EBUSY;
    }
    base = d1_rt_map(D1_TIMER_BASE, D1_RT_TIMER_MAP_SIZE);
    if (base == 0u)
    {
        return -RT_ENOMEM;
    }
    err = d1_timer_init(&h->t, base, D1_RT_HWTIMER_CH, D1_OSC24M_HZ, D1_LOSC_HZ);
    if (err == D1_OK)
    {
        err = d1_timer_set_clock(&h->t, D1_TIMER_SRC_OSC24M, 0u);
    }
    if (err != D1_OK)
    {
        return (int)d1_rt_err(err);
    }
    (void)d1_timer_stop(&h->t);
    d1_timer_irq_ack(&h->t);
    h->running = false;
    h->oneshot = false;
    h->clocks_per_count = 0u;
    h->freq = 0;
    h->period_counts = 0u;
    h->info.maxfreq = (rt_int32_t)D1_RT_HWTIMER_MAXFREQ;
    h->info.minfreq = D1_RT_HWTIMER_MINFREQ;
    h->info.maxcnt = d1_rt_hwtimer_maxcnt(D1_RT_HWTIMER_CLK_HZ / 1000000u);
    h->info.cntmode = HWTIMER_CNTMODE_DW;

    h->parent.ops = &d1_hwtimer_ops;
    h->parent.info = &h->info;
    ret = rt_device_hwtimer_register(&h->parent, BSP_D1_HWTIMER_NAME, h);
    if (ret != RT_EOK)
    {
        return (int)ret;
    }
    /* Wrap the framework's open (see d1_rt_hwtimer_open). */
#ifdef RT_USING_DEVICE_OPS
    h->dev_ops = *h->parent.parent.ops;
    h->fw_open = h->dev_ops.open;
    h->dev_ops.open = d1_rt_hwtimer_open;
    h->parent.parent.ops = &h->dev_ops;
#else
    h->fw_open = h->parent.parent.open;
    h->parent.parent.open = d1_rt_hwtimer_open;
#endif
    rt_hw_interrupt_install(D1_RT_HWTIMER_IRQ, d1_rt_hwtimer_isr, h, BSP_D1_HWTIMER_NAME);
    return RT_EOK;
}
INIT_DEVICE_EXPORT(d1_rt_hwtimer_init);

#ifdef RT_USING_FINSH
#include <finsh.h>
#include <stdlib.h>

static volatile uint64_t d1_hwt_fired_at;

static rt_err_t d1_hwt_cb(rt_device_t dev, rt_size_t size)
{
    uint64_t t;

    (void)dev;
    (void)size;
    __asm__ volatile("rdtime %0" : "=r"(t));
    d1_hwt_fired_at = t;
    return RT_EOK;
}

/* msh: d1hwtimer [us] - a one-shot timeout through the standard device
 * API (open, write, rx_indicate), measured with the 24 MHz time CSR, and
 * the interval the framework's count put in the hardware. */
static int d1hwtimer(int argc, char **argv)
{
    rt_device_t dev = rt_device_find(BSP_D1_HWTIMER_NAME);
    rt_int32_t us = (argc > 1) ? atoi(argv[1]) : 1000;
    rt_hwtimerval_t tv = {us / 1000000, us % 1000000};
    struct d1_rt_hwtimer *h = &d1_hwtimer;
    uint64_t t0, clocks;
    rt_err_t ret;
    int i;

    if (dev == RT_NULL || us <= 0)
    {
        rt_kprintf("usage: d1hwtimer [us > 0]\n");
        return -RT_EINVAL;
    }
    ret = rt_device_open(dev, RT_DEVICE_OFLAG_RDWR);
    if (ret != RT_EOK)
    {
        rt_kprintf("open: %d\n", (int)ret);
        return ret;
    }
    rt_device_set_rx_indicate(dev, d1_hwt_cb);
    d1_hwt_fired_at = 0u;
    __asm__ volatile("rdtime %0" : "=r"(t0));
    if (rt_device_write(dev, 0, &tv, sizeof(tv)) != sizeof(tv))
    {
        rt_kprintf("write refused\n");
        (void)rt_device_close(dev);
        return -RT_ERROR;
    }
    for (i = 0; i < 2000 && d1_hwt_fired_at == 0u; i++)
    {
        rt_thread_mdelay(1);
    }
    clocks = d1_hwt_fired_at - t0;
    rt_kprintf("%s: %d us at %d Hz: %u counts x %u clocks = %u OSC24M clocks programmed"
               "; time CSR: start -> ISR %u clocks, write -> callback %u (%s)\n",
               BSP_D1_HWTIMER_NAME, (int)us, (int)h->parent.freq, (unsigned)h->period_counts,
               (unsigned)h->clocks_per_count,
               (unsigned)(h->period_counts * h->clocks_per_count),
               d1_hwt_fired_at != 0u ? (unsigned)(h->t_isr - h->t_started) : 0u,
               d1_hwt_fired_at != 0u ? (unsigned)clocks : 0u,
               d1_hwt_fired_at != 0u ? "fired" : "did not fire");
    (void)rt_device_close(dev);
    return 0;
}
MSH_CMD_EXPORT(d1hwtimer, d1drivers hwtimer: d1hwtimer [us] one-shot measured in clocks);
#endif /* RT_USING_FINSH */

#endif /* BSP_USING_D1_HWTIMER */
