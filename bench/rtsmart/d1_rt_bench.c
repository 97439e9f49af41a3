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
 * msh command "d1bench [periods] [period_us] [load]": a D1 Timer channel
 * runs periodic at period_us (default 1000 us, 20000 periods), idle or
 * under the comparison's load (docs/comparison.md): a thread at the
 * lowest priority above idle copying 64 KiB in a loop, and one just above
 * it keeping the console's UART transmitting (a FIFO's worth of a line,
 * then a sleep of the time the line takes to send, since this port's
 * transmit is polled: a writer that waited for FIFO room would spin and
 * starve the copy). Both stop before the reports. A thin shell
 * around the library's bench accounting (include/d1/bench.h: the grid,
 * the samples, missed periods, late and spurious wake-ups, defined once
 * for every OS) and its recorder:
 *  - timer-irq: the ISR captures d1_timer_isr()'s sample (d1_bench_isr())
 *    and releases a semaphore;
 *  - task-wakeup: a thread at priority BSP_D1_BENCH_PRIO takes it and
 *    passes its wake-up time to d1_bench_wake().
 * Both are printed as the same text report and JSON line as every other
 * OS's bench (os "rtthread", or "rtsmart" under RT_USING_SMART,
 * measurement "timer-irq" / "task-wakeup",
 * wake "semaphore"). Nothing is printed while it runs.
 *
 * Every wait is bounded: the thread waits at most 1 s + 100 periods for
 * each post (an interrupt that never comes ends the run with
 * -RT_ETIMEOUT, Timer stopped and handler removed, and d1_bench_finish()
 * counts the boundaries no one accounted as missed); the command waits
 * for the thread at most the run's length + that bound + 1 s.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/bench.h"
#include "d1/latency.h"
#include "d1/memmap.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1_rt.h"
#include "d1_rt_wing.h"
#include "d1_rt_ubench.h"

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

/* The line time rounded up to the tick's milliseconds */
#define D1_LOAD_LINE_MS ((D1_BENCH_LOAD_LINE_US + 999u) / 1000u)

static rt_uint8_t d1_load_a[D1_BENCH_LOAD_COPY_BYTES];
static rt_uint8_t d1_load_b[D1_BENCH_LOAD_COPY_BYTES];
static volatile bool d1_load_stop;
static volatile bool d1_load_held;
static rt_sem_t d1_load_done;

static void d1_load_copy(void *arg)
{
    (void)arg;
    while (!d1_load_stop)
    {
        if (d1_load_held)
        {
            rt_thread_mdelay(1); /* a tick: the idle thread runs (d1_load_hold()) */
            continue;
        }
        rt_memcpy(d1_load_b, d1_load_a, sizeof(d1_load_a));
    }
    rt_sem_release(d1_load_done);
}

/* Holds the copy (it sleeps a tick at a time after its current copy) so
 * that the idle thread runs, or lets it go on; d1svc frees exited threads
 * so. */
void d1_load_hold(bool hold)
{
    d1_load_held = hold;
}

static void d1_load_uart(void *arg)
{
    static const char line[] = D1_BENCH_LOAD_LINE;
    rt_device_t con = rt_console_get_device();

    (void)arg;
    while (!d1_load_stop && con != RT_NULL)
    {
        (void)rt_device_write(con, 0, line, sizeof(line) - 1u);
        rt_thread_mdelay(D1_LOAD_LINE_MS);
    }
    rt_sem_release(d1_load_done);
}

/* Starts both load threads (d1bench's and d1svc's load); false (none
 * left running) if one cannot be, or they already run. */
bool d1_load_start(void)
{
    rt_thread_t c;
    rt_thread_t u;

    if (d1_load_done != RT_NULL)
    {
        return false;
    }
    d1_load_stop = false;
    d1_load_held = false;
    d1_load_done = rt_sem_create("d1lddone", 0, RT_IPC_FLAG_PRIO);
    c = rt_thread_create("d1ldcopy", d1_load_copy, RT_NULL, 2048, RT_THREAD_PRIORITY_MAX - 2, 10);
    u = rt_thread_create("d1lduart", d1_load_uart, RT_NULL, 2048, RT_THREAD_PRIORITY_MAX - 3, 10);
    if (d1_load_done == RT_NULL || c == RT_NULL || u == RT_NULL)
    {
        if (c != RT_NULL)
        {
            rt_thread_delete(c);
        }
        if (u != RT_NULL)
        {
            rt_thread_delete(u);
        }
        if (d1_load_done != RT_NULL)
        {
            rt_sem_delete(d1_load_done);
            d1_load_done = RT_NULL;
        }
        return false;
    }
    rt_thread_startup(c);
    rt_thread_startup(u);
    return true;
}

/* Stops both and waits for them (each ends within a copy or a line). */
void d1_load_end(void)
{
    d1_load_stop = true;
    (void)rt_sem_take(d1_load_done, (rt_int32_t)rt_tick_from_millisecond(1000));
    (void)rt_sem_take(d1_load_done, (rt_int32_t)rt_tick_from_millisecond(1000));
    rt_sem_delete(d1_load_done);
    d1_load_done = RT_NULL;
    rt_thread_mdelay(100); /* the console drains before the reports */
}

struct d1_rt_bench
{
    struct d1_timer t;
    struct d1_bench acc;       /* the library's accounting of the run */
    struct d1_lat *irq;
    struct d1_lat *wake;
    void *mem;      /* both recorders (and bins), from the heap for the run */
    rt_sem_t go;
    rt_sem_t finished;
    uint32_t period_clocks;
    uint32_t periods;
    uint32_t period_us;
    bool loaded;
    uint64_t t0;               /* time CSR at the start */
    uint64_t run_ms;           /* bound of the whole run, for the command */
    volatile bool abort;       /* the command ends the thread early */
    rt_err_t failed;           /* the thread's failed wait (-RT_ETIMEOUT) */
    rt_int32_t wait_ticks;     /* bound of one wait for a post */
};

static struct d1_rt_bench d1b;
static bool d1_bench_busy; /* d1b holds a run (the command's or the device's) */

/* The capture only (the counter, then the time CSR); the accounting runs
 * in the woken thread, after its wake-up sample. */
static void d1_bench_timer_isr(int vector, void *param)
{
    struct d1_rt_bench *b = (struct d1_rt_bench *)param;

    (void)vector;
    if (d1_bench_isr(&b->acc, &b->t) == D1_BENCH_SAMPLE)
    {
        rt_sem_release(b->go);
    }
}

static void d1_bench_thread(void *param)
{
    struct d1_rt_bench *b = (struct d1_rt_bench *)param;

    for (;;)
    {
        b->failed = rt_sem_take(b->go, b->wait_ticks);
        if (b->failed != RT_EOK || b->abort)
        {
            break;
        }
        uint64_t now = d1_time_now();
        bool done = d1_bench_wake(&b->acc, now);
        /* posts of boundaries accounted here, or captured since: those
         * are accounted now (their wake-ups are missed) */
        while (rt_sem_trytake(b->go) == RT_EOK)
        {
        }
        if (!done)
        {
            done = d1_bench_account(&b->acc) == D1_BENCH_DONE;
        }
        if (done)
        {
            (void)d1_timer_stop(&b->t);
            break;
        }
    }
    rt_sem_release(b->finished);
}

/* d1_lat_dump()'s pieces (at most 64 bytes) to the console */
static void d1_bench_put(void *ctx, const char *s, size_t n)
{
    char piece[65];

    (void)ctx;
    while (n > 0u)
    {
        size_t k = n < sizeof(piece) - 1u ? n : sizeof(piece) - 1u;

        rt_memcpy(piece, s, k);
        piece[k] = '\0';
        rt_kputs(piece);
        s += k;
        n -= k;
    }
}

/* A recorder's text report, JSON line and dump line on the console (the
 * reports of d1bench and d1svc). */
void d1_rt_report(const struct d1_lat *r, const struct d1_lat_meta *meta)
{
    static char report[D1_LAT_REPORT_SIZE];

    /* rt_kputs: rt_kprintf would cut a line at RT_CONSOLEBUF_SIZE */
    if (d1_lat_report_text(r, meta, report, sizeof(report), RT_NULL) == D1_OK)
    {
        rt_kputs(report);
    }
    if (d1_lat_report_json(r, meta, report, sizeof(report), RT_NULL) == D1_OK)
    {
        rt_kputs(report);
    }
    /* the recorder's dump line: every bin, for bench/tools/d1lat_dump.py */
    (void)d1_lat_dump(r, meta, d1_bench_put, RT_NULL);
}

static void d1_bench_print(struct d1_lat *r, const char *measurement, const char *wake,
                           const char *load, uint32_t period_us,
                           const struct d1_bench_stats *st)
{
    const struct d1_lat_meta meta =
    {
#ifdef RT_USING_SMART
        .os = "rtsmart",
#else
        .os = "rtthread",
#endif
        .board = "allwinner-d1",
        .load = load,
        .period_ns = (uint64_t)period_us * 1000u,
        .measurement = measurement,
        .wake = wake,
        .bench_instr_min = st->irq_instr_min,
        .bench_instr_max = st->irq_instr_max,
    };

    d1_rt_report(r, &meta);
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

/* Gives back what d1_bench_setup() took; the run is over. */
static void d1_bench_free(struct d1_rt_bench *b)
{
    if (b->go != RT_NULL)
    {
        rt_sem_delete(b->go);
        b->go = RT_NULL;
    }
    if (b->finished != RT_NULL)
    {
        rt_sem_delete(b->finished);
        b->finished = RT_NULL;
    }
    if (b->mem != RT_NULL)
    {
        rt_free(b->mem);
        b->mem = RT_NULL;
    }
    d1_bench_busy = false;
}

/*
 * Memory, semaphores, recorders, the accounting and the Timer (stopped,
 * its interrupt acknowledged) for a run: 0, or a negative RT-Thread error
 * with a message printed and nothing held.
 */
static int d1_bench_setup(struct d1_rt_bench *b, uint32_t periods, uint32_t period_us,
                          bool loaded)
{
    uintptr_t base;
    d1_err_t err;

    if (d1_bench_busy)
    {
        rt_kprintf("d1bench: a run is in progress\n");
        return -RT_EBUSY;
    }
    rt_memset(b, 0, sizeof(*b));
    d1_bench_busy = true;
    b->periods = periods;
    b->period_us = period_us;
    b->loaded = loaded;
    b->period_clocks = period_us * (D1_OSC24M_HZ / 1000000u);
    /* 1 s + 100 periods per post; the run + that + 1 s for the thread */
    b->wait_ticks = (rt_int32_t)rt_tick_from_millisecond(
        (rt_int32_t)(1000u + (period_us * 100u + 999u) / 1000u));
    b->run_ms = ((uint64_t)periods * period_us + 999u) / 1000u + 2000u +
                (period_us * 100u + 999u) / 1000u;
    if (b->run_ms > (uint64_t)INT32_MAX / RT_TICK_PER_SECOND)
    {
        b->run_ms = (uint64_t)INT32_MAX / RT_TICK_PER_SECOND;
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
        d1_bench_free(b);
        return -RT_ENOMEM;
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
        err = d1_bench_init(&b->acc, b->irq, b->wake, b->period_clocks, periods);
    }
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
        d1_bench_free(b);
        return (int)d1_rt_err(err);
    }
    (void)d1_timer_stop(&b->t);
    d1_timer_irq_ack(&b->t);
    return 0;
}

static void d1_bench_announce(struct d1_rt_bench *b, const char *waker)
{
    rt_kprintf("d1bench: %u periods of %u us on Timer%u (PLIC %d), %s priority %d, "
               "load %s; %s until done\n", (unsigned)b->periods, (unsigned)b->period_us,
               (unsigned)D1_BENCH_CH, D1_BENCH_IRQ, waker, BSP_D1_BENCH_PRIO,
               b->loaded ? "memcpy+uart" : "idle", b->loaded ? "load lines" : "silent");
}

/* The handler in, the interrupt on, the grid's origin, the Timer running. */
static d1_err_t d1_bench_arm(struct d1_rt_bench *b)
{
    rt_hw_interrupt_install(D1_BENCH_IRQ, d1_bench_timer_isr, b, "d1bench");
    (void)d1_timer_irq_enable(&b->t, true);
    rt_hw_interrupt_umask(D1_BENCH_IRQ);
    b->t0 = d1_time_now();
    (void)d1_bench_start(&b->acc, b->t0);
    return d1_timer_start(&b->t, D1_TIMER_PERIODIC);
}

/* The load stopped, the Timer stopped, its handler out; boundaries no
 * interrupt or wake-up accounted up to t1 are missed. */
static void d1_bench_disarm(struct d1_rt_bench *b, uint64_t t1)
{
    if (b->loaded)
    {
        d1_load_end();
    }
    rt_hw_interrupt_mask(D1_BENCH_IRQ);
    (void)d1_timer_stop(&b->t);
    (void)d1_timer_irq_enable(&b->t, false);
    d1_timer_irq_ack(&b->t);
    rt_hw_interrupt_install(D1_BENCH_IRQ, RT_NULL, RT_NULL, "d1bench");
    (void)d1_bench_finish(&b->acc, t1);
}

/* The run line and the reports (the timer-irq one only if with_irq); or,
 * after a failed wait, the message and -RT_ETIMEOUT. */
static int d1_bench_report(struct d1_rt_bench *b, uint64_t t1, int ret, const char *wake,
                           bool with_irq)
{
    static char line[D1_BENCH_RUN_LINE_SIZE];
    struct d1_bench_stats st;
    const char *load = b->loaded ? "memcpy+uart" : "idle";

    (void)d1_bench_get_stats(&b->acc, &st);
    if (b->failed != RT_EOK && ret == 0)
    {
        rt_kprintf("d1bench: no Timer%u interrupt for %u ms after %u of %u periods: "
                   "stopped\n", (unsigned)D1_BENCH_CH,
                   (unsigned)(1000u + (b->period_us * 100u + 999u) / 1000u),
                   (unsigned)st.boundaries, (unsigned)b->periods);
        ret = -RT_ETIMEOUT;
    }
    if (ret != 0)
    {
        return ret;
    }
    if (d1_bench_report_run(&b->acc, t1 - b->t0, line, sizeof(line), RT_NULL) == D1_OK)
    {
        rt_kputs(line);
        rt_kputs("\n");
    }
    if (with_irq)
    {
        d1_bench_print(b->irq, "timer-irq", "none", load, b->period_us, &st);
    }
    d1_bench_print(b->wake, "task-wakeup", wake, load, b->period_us, &st);
    return 0;
}

static int d1bench(int argc, char **argv)
{
    struct d1_rt_bench *b = &d1b;
    uint32_t periods = 20000u;
    uint32_t period_us = 1000u;
    rt_thread_t th;
    uint64_t t1;
    d1_err_t err;
    int ret;
    bool loaded = argc > 3 && strcmp(argv[3], "load") == 0;

    if (argc > 4 || (argc > 3 && !loaded) || (argc > 1 && !d1_bench_arg(argv[1], &periods)) ||
        (argc > 2 && !d1_bench_arg(argv[2], &period_us)) ||
        periods == 0u || period_us == 0u || period_us > 100000u)
    {
        rt_kprintf("usage: d1bench [periods] [period_us 1..100000] [load]\n");
        return -RT_EINVAL;
    }
    ret = d1_bench_setup(b, periods, period_us, loaded);
    if (ret != 0)
    {
        return ret;
    }
    th = rt_thread_create("d1bwake", d1_bench_thread, b, 2048, BSP_D1_BENCH_PRIO, 10);
    if (th == RT_NULL)
    {
        rt_kprintf("d1bench: no thread\n");
        d1_bench_free(b);
        return -RT_ENOMEM;
    }
    d1_bench_announce(b, "wake thread");
    rt_thread_mdelay(100); /* let the console drain */
    if (loaded && !d1_load_start())
    {
        rt_kprintf("d1bench: the load threads did not start\n");
        rt_thread_delete(th);
        d1_bench_free(b);
        return -RT_ENOMEM;
    }
    rt_thread_startup(th);
    err = d1_bench_arm(b);
    if (err != D1_OK)
    {
        rt_kprintf("d1bench: start failed (%d)\n", (int)err);
        b->abort = true;
        rt_sem_release(b->go);
        ret = -RT_ERROR;
    }
    if (rt_sem_take(b->finished, (rt_int32_t)rt_tick_from_millisecond((rt_int32_t)b->run_ms)) !=
        RT_EOK)
    {
        b->abort = true;
        rt_sem_release(b->go);
        if (rt_sem_take(b->finished, (rt_int32_t)rt_tick_from_millisecond(1000)) != RT_EOK)
        {
            /* The thread still holds the semaphores and the recorders:
             * they are left to it, not freed under it (and d1bench stays
             * busy). */
            rt_hw_interrupt_mask(D1_BENCH_IRQ);
            (void)d1_timer_stop(&b->t);
            rt_kprintf("d1bench: the wake-up thread did not end: stopped, its memory "
                       "kept\n");
            return -RT_ETIMEOUT;
        }
        rt_kprintf("d1bench: the run did not end within %u ms: stopped\n",
                   (unsigned)b->run_ms);
        ret = -RT_ETIMEOUT;
    }
    t1 = d1_time_now();
    d1_bench_disarm(b, t1);
    ret = d1_bench_report(b, t1, ret, "semaphore", true);
    d1_bench_free(b);
    return ret;
}
MSH_CMD_EXPORT(d1bench, d1drivers latency bench: d1bench [periods] [period_us] [load]);

#ifdef BSP_D1_BENCH_DEV
/*
 * The d1bench device (RT-Smart): the same run, woken in a user process
 * instead of the wake-up thread (protocol: d1_rt_ubench.h; the program:
 * user/d1ubench.c). The process's thread runs the read and write
 * handlers: it is raised to BSP_D1_BENCH_PRIO for the run, like the
 * thread it replaces, and put back at close.
 */
static struct rt_device d1_bench_dev;
static bool d1_bench_dev_running;
static bool d1_bench_dev_done;
static rt_thread_t d1_bench_dev_owner;
static rt_uint8_t d1_bench_dev_prio;

static rt_ssize_t d1_bench_dev_start(struct d1_rt_bench *b, const void *buf, rt_size_t size)
{
    struct d1_ubench_start req;
    rt_uint8_t prio = BSP_D1_BENCH_PRIO;
    d1_err_t err;
    int ret;

    if (size != sizeof(req))
    {
        return -RT_EINVAL;
    }
    rt_memcpy(&req, buf, sizeof(req));
    if (req.magic != D1_UBENCH_MAGIC || req.load > 1u || req.periods == 0u ||
        req.period_us == 0u || req.period_us > 100000u)
    {
        return -RT_EINVAL;
    }
    ret = d1_bench_setup(b, req.periods, req.period_us, req.load != 0u);
    if (ret != 0)
    {
        return ret;
    }
    d1_bench_announce(b, "user process");
    rt_thread_mdelay(100); /* let the console drain */
    if (b->loaded && !d1_load_start())
    {
        rt_kprintf("d1bench: the load threads did not start\n");
        d1_bench_free(b);
        return -RT_ENOMEM;
    }
    d1_bench_dev_owner = rt_thread_self();
    d1_bench_dev_prio = d1_bench_dev_owner->current_priority;
    (void)rt_thread_control(d1_bench_dev_owner, RT_THREAD_CTRL_CHANGE_PRIORITY, &prio);
    d1_bench_dev_done = false;
    d1_bench_dev_running = true;
    err = d1_bench_arm(b);
    if (err != D1_OK)
    {
        rt_kprintf("d1bench: start failed (%d)\n", (int)err);
        d1_bench_dev_done = true; /* reads return 0; close cleans up */
        return -RT_ERROR;
    }
    return (rt_ssize_t)size;
}

static rt_ssize_t d1_bench_dev_read(rt_device_t dev, rt_off_t pos, void *buf, rt_size_t size)
{
    struct d1_rt_bench *b = &d1b;
    struct d1_bench_stats st;

    (void)dev;
    (void)pos;
    if (!d1_bench_dev_running || size != sizeof(uint64_t))
    {
        return -RT_EINVAL;
    }
    if (d1_bench_dev_done || b->failed != RT_EOK)
    {
        return 0;
    }
    b->failed = rt_sem_take(b->go, b->wait_ticks);
    if (b->failed != RT_EOK)
    {
        return -RT_ETIMEOUT;
    }
    (void)d1_bench_get_stats(&b->acc, &st);
    rt_memcpy(buf, &st.boundaries, sizeof(st.boundaries));
    return (rt_ssize_t)size;
}

static rt_ssize_t d1_bench_dev_write(rt_device_t dev, rt_off_t pos, const void *buf,
                                     rt_size_t size)
{
    struct d1_rt_bench *b = &d1b;
    uint64_t now;
    bool done;

    (void)dev;
    (void)pos;
    if (!d1_bench_dev_running)
    {
        return d1_bench_dev_start(b, buf, size);
    }
    if (size != sizeof(now) || d1_bench_dev_done)
    {
        return -RT_EINVAL;
    }
    rt_memcpy(&now, buf, sizeof(now));
    done = d1_bench_wake(&b->acc, now);
    /* posts of boundaries accounted here, or captured since */
    while (rt_sem_trytake(b->go) == RT_EOK)
    {
    }
    if (done || d1_bench_account(&b->acc) == D1_BENCH_DONE)
    {
        (void)d1_timer_stop(&b->t);
        d1_bench_dev_done = true;
    }
    return (rt_ssize_t)size;
}

static rt_err_t d1_bench_dev_close(rt_device_t dev)
{
    struct d1_rt_bench *b = &d1b;
    uint64_t t1;

    (void)dev;
    if (!d1_bench_dev_running)
    {
        return RT_EOK;
    }
    t1 = d1_time_now();
    d1_bench_disarm(b, t1);
    if (rt_thread_self() == d1_bench_dev_owner)
    {
        (void)rt_thread_control(d1_bench_dev_owner, RT_THREAD_CTRL_CHANGE_PRIORITY,
                                &d1_bench_dev_prio);
    }
    (void)d1_bench_report(b, t1, 0, D1_UBENCH_WAKE, false);
    d1_bench_free(b);
    d1_bench_dev_running = false;
    return RT_EOK;
}

#ifdef RT_USING_DEVICE_OPS
static const struct rt_device_ops d1_bench_dev_ops =
{
    RT_NULL, RT_NULL, d1_bench_dev_close, d1_bench_dev_read, d1_bench_dev_write, RT_NULL,
};
#endif

/* User mode may read the `time` CSR only with scounteren.TM set (RISC-V
 * privileged spec, "Counter-Enable Registers"; M mode's mcounteren.TM is
 * OpenSBI's): the program samples its wake-up with rdtime. */
int d1_rt_bench_dev_init(void)
{
    rt_device_t dev = &d1_bench_dev;

#ifdef __riscv
    __asm__ volatile("csrs scounteren, %0" : : "r"(2ul) : "memory");
#endif
    dev->type = RT_Device_Class_Miscellaneous;
#ifdef RT_USING_DEVICE_OPS
    dev->ops = &d1_bench_dev_ops;
#else
    dev->close = d1_bench_dev_close;
    dev->read = d1_bench_dev_read;
    dev->write = d1_bench_dev_write;
#endif
    return (int)rt_device_register(dev, D1_UBENCH_NAME,
                                   RT_DEVICE_FLAG_RDWR | RT_DEVICE_FLAG_STANDALONE);
}
INIT_DEVICE_EXPORT(d1_rt_bench_dev_init);
#endif /* BSP_D1_BENCH_DEV */

#endif /* BSP_USING_D1_BENCH && RT_USING_FINSH */
