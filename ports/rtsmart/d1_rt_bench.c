/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    d1bench: Timer-IRQ and thread wake-up latency
 */

/*
 * msh command "d1bench [periods] [period_us]": a D1 Timer channel runs
 * periodic at period_us (default 1000 us, 20000 periods). Per period:
 *  - timer-irq: the ISR's d1_timer_isr() sample, clocks of the 24 MHz
 *    OSC24M since the period boundary (interrupt-entry latency through
 *    trap entry, the PLIC dispatch and the handler table);
 *  - thread-wake: the ISR releases a semaphore to a thread at priority
 *    BSP_D1_BENCH_PRIO; the thread samples the time CSR (the same 24 MHz
 *    OSC24M) since the same boundary, found by the ISR as its time CSR
 *    reading less its sample, when it runs.
 * Both go to the shared recorder (include/d1/latency.h) and are printed
 * as the same text report and JSON line as the bare-metal, Linux and
 * NuttX benches (os "rtthread", load "timer-irq" / "thread-wake").
 * Missed periods are detected with the 24 MHz `time` CSR, as the
 * bare-metal bench does, and counted, not recorded. The thread records
 * one sample per wake-up, from the latest boundary, and counts the
 * boundaries since its last wake-up that it did not sample (it came
 * after the next boundary: "late") as missed; every boundary is a sample
 * or a missed period of both recorders. Nothing is printed while it runs.
 *
 * Every wait is bounded: the thread waits at most 1 s + 100 periods for
 * each post (an interrupt that never comes ends the run with
 * -RT_ETIMEOUT, Timer stopped and handler removed); the command waits for
 * the thread at most the run's length + that bound + 1 s.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/latency.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1_rt.h"

#if defined(BSP_USING_D1_BENCH) && defined(RT_USING_FINSH)
#include <finsh.h>

#if defined(BSP_D1_BENCH_TIMER1)
#define D1_BENCH_CH  1u
#define D1_BENCH_IRQ ((int)D1_IRQ_TIMER1)
#elif defined(BSP_D1_BENCH_TIMER0)
#define D1_BENCH_CH  0u
#define D1_BENCH_IRQ ((int)D1_IRQ_TIMER0)
#else
#error "d1bench has no free Timer channel: the tick and the hwtimer use both (Kconfig)"
#endif
#ifndef BSP_D1_BENCH_PRIO
#define BSP_D1_BENCH_PRIO 2
#endif

#define D1_BENCH_MAP_SIZE 0x400u

/* The recorder API: this builds with the fixed-size recorder (bins
 * inside struct d1_lat, D1_LAT_TOP defined) and with the earlier one
 * (caller-provided exact bins, D1_LAT_NBINS(max)). */
#ifdef D1_LAT_TOP
#define D1_BENCH_FIXED_RECORDER 1
#else
#define D1_BENCH_FIXED_RECORDER 0
#endif

struct d1_bench
{
    struct d1_timer t;
    struct d1_lat *irq;
    struct d1_lat *wake;
    void *mem;      /* both recorders (and bins), from the heap for the run */
    rt_sem_t go;
    rt_sem_t finished;
    uint32_t period_clocks;
    uint32_t periods;
    uint64_t t0;               /* time CSR at the start */
    volatile uint64_t seen;    /* boundaries accounted by the ISR */
    volatile uint64_t boundary; /* time CSR at the latest of them */
    volatile bool stop;
    volatile bool abort;       /* the command ends the thread early */
    rt_err_t failed;           /* the thread's failed wait (-RT_ETIMEOUT) */
    rt_int32_t wait_ticks;     /* bound of one wait for a post */
    rt_uint32_t spurious;      /* ISR calls with no new boundary */
    rt_uint32_t wake_late;     /* wake-ups after a later boundary */
};

static struct d1_bench d1b;

/* The 24 MHz time CSR (rdtime), through the library's d1/time.h. */
static inline uint64_t d1_bench_now(void)
{
    return d1_time_now();
}

static void d1_bench_isr(int vector, void *param)
{
    struct d1_bench *b = (struct d1_bench *)param;
    uint32_t sample = d1_timer_isr(&b->t);
    uint64_t now = d1_bench_now();
    uint64_t due = (now - b->t0) / b->period_clocks; /* boundaries by now */
    uint64_t n;

    (void)vector;
    if (b->stop)
    {
        return;
    }
    if (due <= b->seen)
    {
        b->spurious++;
        return;
    }
    n = due - b->seen;
    if (n > 1u)
    {
        d1_lat_missed(b->irq, (uint32_t)(n - 1u));
    }
    d1_lat_record(b->irq, sample);
    b->boundary = now - sample;
    b->seen = due;
    if (due >= b->periods)
    {
        b->stop = true;
        (void)d1_timer_stop(&b->t);
    }
    rt_sem_release(b->go);
}

static void d1_bench_thread(void *param)
{
    struct d1_bench *b = (struct d1_bench *)param;
    uint64_t accounted = 0; /* boundaries a wake-up sampled or counted */

    for (;;)
    {
        uint64_t total;
        uint64_t now;
        uint64_t boundary;
        rt_base_t level;

        b->failed = rt_sem_take(b->go, b->wait_ticks);
        if (b->failed != RT_EOK || b->abort)
        {
            break;
        }
        /* the time CSR, not the Timer: the ISR stops the Timer at the
         * last boundary */
        level = rt_hw_interrupt_disable();
        total = b->seen;
        boundary = b->boundary;
        now = d1_bench_now();
        rt_hw_interrupt_enable(level);
        d1_lat_record(b->wake, (uint32_t)(now - boundary)); /* from the latest boundary */
        if (total - accounted > 1u)
        {
            b->wake_late++;
            d1_lat_missed(b->wake, (uint32_t)(total - accounted - 1u));
        }
        accounted = total;
        /* posts of boundaries counted here */
        while (rt_sem_trytake(b->go) == RT_EOK)
        {
        }
        if (total >= b->periods || b->stop)
        {
            break;
        }
    }
    /* boundaries after the last wake-up (their posts were taken above) */
    if (b->failed == RT_EOK && !b->abort && b->seen > accounted)
    {
        d1_lat_missed(b->wake, (uint32_t)(b->seen - accounted));
    }
    rt_sem_release(b->finished);
}

static void d1_bench_print(struct d1_lat *r, const char *load, uint32_t period_us)
{
    static char report[D1_LAT_REPORT_SIZE];
    const struct d1_lat_meta meta =
    {
        .os = "rtthread",
        .board = "allwinner-d1",
        .load = load,
        .period_ns = (uint64_t)period_us * 1000u,
    };

    /* rt_kputs: rt_kprintf would cut a line at RT_CONSOLEBUF_SIZE */
    if (d1_lat_report_text(r, &meta, report, sizeof(report), RT_NULL) == D1_OK)
    {
        rt_kputs(report);
    }
    if (d1_lat_report_json(r, &meta, report, sizeof(report), RT_NULL) == D1_OK)
    {
        rt_kputs(report);
    }
}

/* A decimal argument, all of it, 0..UINT32_MAX; false otherwise. */
static bool d1_bench_arg(const char *s, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);

    if (end == s || *end != '\0' || v > UINT32_MAX)
    {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static int d1bench(int argc, char **argv)
{
    struct d1_bench *b = &d1b;
    uint32_t periods = 20000u;
    uint32_t period_us = 1000u;
    struct d1_lat_summary si, sw;
    uintptr_t base;
    rt_thread_t th;
    uint64_t t1;
    uint64_t run_ms;
    d1_err_t err;
    int ret = 0;

    if (argc > 3 || (argc > 1 && !d1_bench_arg(argv[1], &periods)) ||
        (argc > 2 && !d1_bench_arg(argv[2], &period_us)) ||
        periods == 0u || period_us == 0u || period_us > 100000u)
    {
        rt_kprintf("usage: d1bench [periods] [period_us 1..100000]\n");
        return -RT_EINVAL;
    }
    rt_memset(b, 0, sizeof(*b));
    b->periods = periods;
    b->period_clocks = period_us * (D1_OSC24M_HZ / 1000000u);
    /* 1 s + 100 periods per post; the run + that + 1 s for the thread */
    b->wait_ticks = (rt_int32_t)rt_tick_from_millisecond(
        (rt_int32_t)(1000u + (period_us * 100u + 999u) / 1000u));
    run_ms = ((uint64_t)periods * period_us + 999u) / 1000u + 2000u +
             (period_us * 100u + 999u) / 1000u;
    if (run_ms > (uint64_t)INT32_MAX / RT_TICK_PER_SECOND)
    {
        run_ms = (uint64_t)INT32_MAX / RT_TICK_PER_SECOND;
    }
#if D1_BENCH_FIXED_RECORDER
    b->mem = rt_malloc(2u * sizeof(struct d1_lat));
#else
    /* exact bins for 0 .. one period, per recorder */
    b->mem = rt_malloc(2u * sizeof(struct d1_lat) +
                       2u * D1_LAT_NBINS(b->period_clocks) * sizeof(uint32_t));
#endif
    base = d1_rt_map(D1_TIMER_BASE, D1_BENCH_MAP_SIZE);
    b->go = rt_sem_create("d1bgo", 0, RT_IPC_FLAG_PRIO);
    b->finished = rt_sem_create("d1bfin", 0, RT_IPC_FLAG_PRIO);
    if (b->mem == RT_NULL || base == 0u || b->go == RT_NULL || b->finished == RT_NULL)
    {
        rt_kprintf("d1bench: out of memory\n");
        ret = -RT_ENOMEM;
        goto out;
    }
    b->irq = (struct d1_lat *)b->mem;
    b->wake = b->irq + 1;
#if D1_BENCH_FIXED_RECORDER
    err = d1_lat_init(b->irq, D1_OSC24M_HZ);
    if (err == D1_OK)
    {
        err = d1_lat_init(b->wake, D1_OSC24M_HZ);
    }
#else
    {
        uint32_t nbins = D1_LAT_NBINS(b->period_clocks);
        uint32_t *bins = (uint32_t *)(void *)(b->wake + 1);

        err = d1_lat_init(b->irq, bins, nbins, D1_OSC24M_HZ);
        if (err == D1_OK)
        {
            err = d1_lat_init(b->wake, bins + nbins, nbins, D1_OSC24M_HZ);
        }
    }
#endif
    if (err == D1_OK)
    {
        err = d1_timer_init(&b->t, base, D1_BENCH_CH, D1_OSC24M_HZ, D1_LOSC_HZ);
    }
    if (err == D1_OK)
    {
        err = d1_timer_set_clock(&b->t, D1_TIMER_SRC_OSC24M, 0u);
    }
    if (err == D1_OK)
    {
        err = d1_timer_set_period_clocks(&b->t, b->period_clocks, RT_NULL);
    }
    if (err != D1_OK)
    {
        rt_kprintf("d1bench: setup failed (%d)\n", (int)err);
        ret = (int)d1_rt_err(err);
        goto out;
    }
    (void)d1_timer_stop(&b->t);
    d1_timer_irq_ack(&b->t);
    th = rt_thread_create("d1bwake", d1_bench_thread, b, 2048, BSP_D1_BENCH_PRIO, 10);
    if (th == RT_NULL)
    {
        rt_kprintf("d1bench: no thread\n");
        ret = -RT_ENOMEM;
        goto out;
    }
    rt_kprintf("d1bench: %u periods of %u us on Timer%u (PLIC %d), wake thread priority %d; "
               "silent until done\n", (unsigned)periods, (unsigned)period_us,
               (unsigned)D1_BENCH_CH, D1_BENCH_IRQ, BSP_D1_BENCH_PRIO);
    rt_thread_mdelay(100); /* let the console drain */
    rt_thread_startup(th);
    rt_hw_interrupt_install(D1_BENCH_IRQ, d1_bench_isr, b, "d1bench");
    (void)d1_timer_irq_enable(&b->t, true);
    rt_hw_interrupt_umask(D1_BENCH_IRQ);
    b->t0 = d1_bench_now();
    err = d1_timer_start(&b->t, D1_TIMER_PERIODIC);
    if (err != D1_OK)
    {
        rt_kprintf("d1bench: start failed (%d)\n", (int)err);
        b->stop = true;
        b->abort = true;
        rt_sem_release(b->go);
        ret = -RT_ERROR;
    }
    if (rt_sem_take(b->finished, (rt_int32_t)rt_tick_from_millisecond((rt_int32_t)run_ms)) !=
        RT_EOK)
    {
        b->stop = true;
        b->abort = true;
        rt_sem_release(b->go);
        if (rt_sem_take(b->finished, (rt_int32_t)rt_tick_from_millisecond(1000)) != RT_EOK)
        {
            /* The thread still holds the semaphores and the recorders:
             * they are left to it, not freed under it. */
            rt_hw_interrupt_mask(D1_BENCH_IRQ);
            (void)d1_timer_stop(&b->t);
            rt_kprintf("d1bench: the wake-up thread did not end: stopped, its memory "
                       "kept\n");
            return -RT_ETIMEOUT;
        }
        rt_kprintf("d1bench: the run did not end within %u ms: stopped\n", (unsigned)run_ms);
        ret = -RT_ETIMEOUT;
    }
    t1 = d1_bench_now();
    rt_hw_interrupt_mask(D1_BENCH_IRQ);
    (void)d1_timer_stop(&b->t);
    (void)d1_timer_irq_enable(&b->t, false);
    d1_timer_irq_ack(&b->t);
    rt_hw_interrupt_install(D1_BENCH_IRQ, RT_NULL, RT_NULL, "d1bench");
    if (b->failed != RT_EOK && ret == 0)
    {
        rt_kprintf("d1bench: no Timer%u interrupt for %u ms after %u of %u periods: "
                   "stopped\n", (unsigned)D1_BENCH_CH,
                   (unsigned)(1000u + (period_us * 100u + 999u) / 1000u),
                   (unsigned)b->seen, (unsigned)periods);
        ret = -RT_ETIMEOUT;
    }
    if (ret != 0)
    {
        goto out;
    }

    (void)d1_lat_summarize(b->irq, &si);
    (void)d1_lat_summarize(b->wake, &sw);
    rt_kprintf("run: %u boundaries, irq %u samples + %u missed, wake %u samples + %u missed "
               "(%u late), spurious %u, %u us of time CSR (ideal %u us)\n",
               (unsigned)b->seen, (unsigned)si.samples, (unsigned)si.missed,
               (unsigned)sw.samples, (unsigned)sw.missed, (unsigned)b->wake_late,
               (unsigned)b->spurious, (unsigned)((t1 - b->t0) / (D1_OSC24M_HZ / 1000000u)),
               (unsigned)(periods * period_us));
    d1_bench_print(b->irq, "timer-irq", period_us);
    d1_bench_print(b->wake, "thread-wake", period_us);
out:
    if (b->go != RT_NULL)
    {
        rt_sem_delete(b->go);
    }
    if (b->finished != RT_NULL)
    {
        rt_sem_delete(b->finished);
    }
    if (b->mem != RT_NULL)
    {
        rt_free(b->mem);
    }
    return ret;
}
MSH_CMD_EXPORT(d1bench, d1drivers latency bench: d1bench [periods] [period_us]);

#endif /* BSP_USING_D1_BENCH && RT_USING_FINSH */
