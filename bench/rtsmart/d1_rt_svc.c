/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-07     d1drivers    d1svc: OS-service measurements of kernel threads
 */

/*
 * msh command "d1svc [load]": the comparison's OS-service measurements
 * (include/d1/bench_svc.h, defined once for every OS) through RT-Thread's
 * own kernel API, in kernel threads, idle or under d1bench's load (the
 * copy and console threads, below every thread here). Every sample is two
 * readings of the `time` CSR (d1_time_now()) passed to d1_svc_sample():
 *  - clock-read: batches of D1_SVC_CLOCK_BATCH calls of rt_tick_get(),
 *    RT-Thread's monotonic clock (the tick count: this BSP's POSIX
 *    CLOCK_MONOTONIC needs RT_USING_CPUTIME, which it does not set); its
 *    nominal resolution (one tick), the smallest step seen between two
 *    successive reads and the time between two steps are printed first;
 *  - mutex-handoff: the driver thread (priority BSP_D1_BENCH_PRIO + 1)
 *    holds an rt_mutex a helper at BSP_D1_BENCH_PRIO is blocked on in
 *    rt_mutex_take(); start just before rt_mutex_release(), stop when the
 *    helper's take returns;
 *  - semaphore-handoff: the helper blocked in rt_sem_take(); start just
 *    before the driver's rt_sem_release(), stop when the take returns;
 *  - thread-create: start before rt_thread_create() of a thread at
 *    BSP_D1_BENCH_PRIO with D1_SVC_STACK bytes of stack, stop its first
 *    statement (rt_thread_startup() switches to it);
 *  - thread-create-join: kernel threads have no join; the thread's last
 *    act releases a semaphore, and stop is when the creator's
 *    rt_sem_take() returns, which is after the thread has exited (it runs
 *    above the creator): creation, first run and exit to the defunct
 *    list. The idle thread frees its stack and object later, outside the
 *    sample: every D1_SVC_REAP samples the creator sleeps a tick with the
 *    load's copy held, so that the idle thread runs (docs/rtsmart.md
 *    "d1svc").
 * Each measurement runs under its own load (started D1_SVC_LOAD_LEAD_MS
 * before, stopped before its report; below every bench thread, the load
 * gets the CPU only when they all block, which a hand-off never does, so
 * it is present, not interleaved); the reports are those of d1bench (text, JSON, dump line;
 * os "rtthread" or "rtsmart", period_ns 0, wake the API's name).
 *
 * Every wait is bounded: the threads wait at most D1_SVC_WAIT_MS for each
 * other (a timeout is a failed sample, d1_svc_fail()); the command waits
 * for the driver while it makes progress, and stops it after
 * D1_SVC_STALL_MS without a sample. Samples a run could not take are
 * counted failed, so every report has d1_svc_samples() samples.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rtthread.h>

#include "d1/bench_svc.h"
#include "d1/latency.h"
#include "d1/time.h"
#include "d1_rt_wing.h"

#if defined(BSP_USING_D1_BENCH) && defined(RT_USING_FINSH)
#include <finsh.h>

#ifndef BSP_D1_BENCH_PRIO
#define BSP_D1_BENCH_PRIO 2
#endif

/* The helper and the created threads run at the bench's priority, the
 * driver just below them (above the timer thread and the load). */
#define D1_SVC_HI_PRIO  BSP_D1_BENCH_PRIO
#define D1_SVC_LO_PRIO  (BSP_D1_BENCH_PRIO + 1)
#define D1_SVC_THREAD_STACK 4096
/* The created threads' stack: rt_thread_create() has no default; the one
 * RT-Thread gives a thread whose creator names no size is the POSIX
 * layer's (components/libc/posix/pthreads/pthread_attr.c,
 * DEFAULT_STACK_SIZE 2048). */
#define D1_SVC_STACK    2048
#define D1_SVC_WAIT_MS  1000
#define D1_SVC_STALL_MS 3000
#define D1_SVC_LOAD_LEAD_MS 100
#define D1_SVC_REAP     16u  /* created threads between two idle runs */

struct d1_svc_ctx
{
    struct d1_svc_run run;
    struct d1_lat *lat;
    rt_mutex_t mutex;
    rt_sem_t sem;          /* the handed-off semaphore; the thread's exit */
    rt_sem_t go;           /* the driver lets the mutex helper take */
    rt_sem_t helper_done;
    rt_sem_t finished;     /* the driver's end */
    volatile uint64_t start;
    volatile uint64_t stamp;
    volatile bool quit;    /* the helper ends */
    volatile bool helper_alive;
    volatile bool abort;   /* the command stops the driver */
    rt_int32_t wait;       /* D1_SVC_WAIT_MS in ticks */
    rt_tick_t step;        /* smallest non-zero step of rt_tick_get(), ticks */
    int steps;             /* steps seen */
    uint64_t period_counts; /* `time` counts between two steps */
};

static bool d1_svc_busy;

static uint32_t d1_svc_taken(struct d1_svc_ctx *c)
{
    return *(volatile uint32_t *)&c->run.taken;
}

static bool d1_svc_more(struct d1_svc_ctx *c)
{
    return d1_svc_taken(c) < c->run.want && !c->abort;
}

/* The `time` CSR when rt_tick_get() next changes, the change (the step
 * between two successive reads) in *step; 0 if it does not change within
 * D1_SVC_WAIT_MS (by the CSR). */
static uint64_t d1_svc_tick_edge(rt_tick_t *step)
{
    rt_tick_t t = rt_tick_get();
    rt_tick_t u;
    uint64_t t0 = d1_time_now();
    uint64_t now;

    do
    {
        now = d1_time_now();
        if (now - t0 > (uint64_t)D1_TIME_HZ * D1_SVC_WAIT_MS / 1000u)
        {
            return 0u;
        }
        u = rt_tick_get();
    } while (u == t);
    *step = u - t;
    return now;
}

static void d1_svc_clock(struct d1_svc_ctx *c)
{
    rt_tick_t s0 = 0;
    rt_tick_t s1 = 0;
    uint64_t e0 = d1_svc_tick_edge(&s0);
    uint64_t e1 = e0 != 0u ? d1_svc_tick_edge(&s1) : 0u;
    volatile rt_tick_t sink;
    rt_tick_t acc = 0;

    /* the clock's resolution: its smallest step between two successive
     * reads, and the time between two steps */
    c->steps = (e0 != 0u) + (e1 != 0u);
    c->step = e1 != 0u && s1 < s0 ? s1 : s0;
    c->period_counts = e0 != 0u && e1 != 0u ? e1 - e0 : 0u;
    while (d1_svc_more(c))
    {
        uint64_t t0 = d1_time_now();

        for (uint32_t i = 0; i < D1_SVC_CLOCK_BATCH; i++)
        {
            acc += rt_tick_get();
        }
        uint64_t t1 = d1_time_now();

        (void)d1_svc_sample(&c->run, t0, t1);
    }
    sink = acc;
    (void)sink;
}

static void d1_svc_mutex_helper(void *param)
{
    struct d1_svc_ctx *c = (struct d1_svc_ctx *)param;

    while (rt_sem_take(c->go, c->wait) == RT_EOK && !c->quit)
    {
        rt_err_t r = rt_mutex_take(c->mutex, c->wait);
        uint64_t stop = d1_time_now();

        if (r == RT_EOK)
        {
            (void)d1_svc_sample(&c->run, c->start, stop);
            (void)rt_mutex_release(c->mutex);
        }
        else
        {
            (void)d1_svc_fail(&c->run);
        }
    }
    c->helper_alive = false;
    rt_sem_release(c->helper_done);
}

static void d1_svc_sem_helper(void *param)
{
    struct d1_svc_ctx *c = (struct d1_svc_ctx *)param;

    for (;;)
    {
        rt_err_t r = rt_sem_take(c->sem, c->wait);
        uint64_t stop = d1_time_now();

        if (c->quit)
        {
            break;
        }
        if (r == RT_EOK)
        {
            (void)d1_svc_sample(&c->run, c->start, stop);
        }
        else
        {
            (void)d1_svc_fail(&c->run);
        }
    }
    c->helper_alive = false;
    rt_sem_release(c->helper_done);
}

/* The helper at the higher priority, started: it runs until it blocks. */
static bool d1_svc_helper_start(struct d1_svc_ctx *c, void (*entry)(void *))
{
    rt_thread_t th = rt_thread_create("d1svch", entry, c, D1_SVC_THREAD_STACK,
                                      D1_SVC_HI_PRIO, 10);

    if (th == RT_NULL)
    {
        return false;
    }
    c->helper_alive = true;
    rt_thread_startup(th);
    return true;
}

/* The helper told to end, and waited for (bounded). */
static void d1_svc_helper_end(struct d1_svc_ctx *c, rt_sem_t wake)
{
    c->quit = true;
    rt_sem_release(wake);
    (void)rt_sem_take(c->helper_done, c->wait);
}

static void d1_svc_mutex(struct d1_svc_ctx *c)
{
    if (!d1_svc_helper_start(c, d1_svc_mutex_helper))
    {
        return;
    }
    while (d1_svc_more(c) && c->helper_alive)
    {
        if (rt_mutex_take(c->mutex, c->wait) != RT_EOK)
        {
            (void)d1_svc_fail(&c->run);
            continue;
        }
        rt_sem_release(c->go); /* the helper blocks in rt_mutex_take() */
        c->start = d1_time_now();
        (void)rt_mutex_release(c->mutex);
    }
    d1_svc_helper_end(c, c->go);
}

static void d1_svc_sem(struct d1_svc_ctx *c)
{
    if (!d1_svc_helper_start(c, d1_svc_sem_helper))
    {
        return;
    }
    while (d1_svc_more(c) && c->helper_alive)
    {
        c->start = d1_time_now();
        rt_sem_release(c->sem);
    }
    d1_svc_helper_end(c, c->sem);
}

static void d1_svc_child(void *param)
{
    struct d1_svc_ctx *c = (struct d1_svc_ctx *)param;

    c->stamp = d1_time_now();
    rt_sem_release(c->sem);
}

static void d1_svc_create(struct d1_svc_ctx *c, bool join)
{
    while (d1_svc_more(c))
    {
        rt_thread_t th;
        rt_err_t r;
        uint64_t stop;

        c->stamp = 0u;
        c->start = d1_time_now();
        th = rt_thread_create("d1svct", d1_svc_child, c, D1_SVC_STACK, D1_SVC_HI_PRIO, 10);
        if (th == RT_NULL)
        {
            (void)d1_svc_fail(&c->run);
            continue;
        }
        rt_thread_startup(th);
        r = rt_sem_take(c->sem, c->wait);
        stop = d1_time_now();
        if (r != RT_EOK)
        {
            (void)d1_svc_fail(&c->run);
        }
        else
        {
            (void)d1_svc_sample(&c->run, c->start, join ? stop : c->stamp);
        }
        if (d1_svc_taken(c) % D1_SVC_REAP == 0u)
        {
            /* The idle thread frees the exited threads (stack and object)
             * while the creator sleeps a tick and the load's copy is held:
             * the heap stays as it was, and the next creation does not
             * search past the blocks of every earlier one. */
            d1_load_hold(true);
            rt_thread_mdelay(1); /* a tick */
            d1_load_hold(false);
        }
    }
}

static void d1_svc_driver(void *param)
{
    struct d1_svc_ctx *c = (struct d1_svc_ctx *)param;

    switch (c->run.what)
    {
    case D1_SVC_CLOCK_READ:
        d1_svc_clock(c);
        break;
    case D1_SVC_MUTEX_HANDOFF:
        d1_svc_mutex(c);
        break;
    case D1_SVC_SEM_HANDOFF:
        d1_svc_sem(c);
        break;
    case D1_SVC_THREAD_CREATE:
        d1_svc_create(c, false);
        break;
    default:
        d1_svc_create(c, true);
        break;
    }
    rt_sem_release(c->finished);
}

/* The objects of one measurement; false (none held) if one is missing. */
static bool d1_svc_objects(struct d1_svc_ctx *c, bool make)
{
    if (make)
    {
        c->mutex = rt_mutex_create("d1svcm", RT_IPC_FLAG_PRIO);
        c->sem = rt_sem_create("d1svcs", 0, RT_IPC_FLAG_PRIO);
        c->go = rt_sem_create("d1svcg", 0, RT_IPC_FLAG_PRIO);
        c->helper_done = rt_sem_create("d1svchd", 0, RT_IPC_FLAG_PRIO);
        c->finished = rt_sem_create("d1svcf", 0, RT_IPC_FLAG_PRIO);
        if (c->mutex != RT_NULL && c->sem != RT_NULL && c->go != RT_NULL &&
            c->helper_done != RT_NULL && c->finished != RT_NULL)
        {
            return true;
        }
    }
    if (c->mutex != RT_NULL)
    {
        rt_mutex_delete(c->mutex);
    }
    if (c->sem != RT_NULL)
    {
        rt_sem_delete(c->sem);
    }
    if (c->go != RT_NULL)
    {
        rt_sem_delete(c->go);
    }
    if (c->helper_done != RT_NULL)
    {
        rt_sem_delete(c->helper_done);
    }
    if (c->finished != RT_NULL)
    {
        rt_sem_delete(c->finished);
    }
    return false;
}

/* Waits for the driver while it takes samples; false if it stalled for
 * D1_SVC_STALL_MS and did not end within D1_SVC_WAIT_MS of being told to
 * (its memory is then left to it). */
static bool d1_svc_wait(struct d1_svc_ctx *c)
{
    uint32_t seen = d1_svc_taken(c);
    rt_int32_t still_ms = 0;

    while (rt_sem_take(c->finished, c->wait) != RT_EOK)
    {
        uint32_t now = d1_svc_taken(c);

        still_ms = now == seen ? still_ms + D1_SVC_WAIT_MS : 0;
        seen = now;
        if (still_ms >= D1_SVC_STALL_MS)
        {
            rt_kprintf("d1svc: %s: no sample for %d ms after %u of %u: stopped\n",
                       d1_svc_name(c->run.what), (int)still_ms, (unsigned)now,
                       (unsigned)c->run.want);
            c->abort = true;
            return rt_sem_take(c->finished, c->wait) == RT_EOK;
        }
    }
    return true;
}

static const char *d1_svc_wake(enum d1_svc what)
{
    switch (what)
    {
    case D1_SVC_MUTEX_HANDOFF:
        return "rt_mutex";
    case D1_SVC_SEM_HANDOFF:
        return "rt_sem";
    case D1_SVC_THREAD_CREATE:
        return "rt_thread_create";
    case D1_SVC_THREAD_JOIN:
        return "rt_thread_create, rt_sem at exit";
    default:
        return "rt_tick_get";
    }
}

/* One measurement, run and reported; 0 or a negative RT-Thread error. */
static int d1_svc_one(struct d1_svc_ctx *c, enum d1_svc what, bool loaded)
{
    static char wake[64];
    rt_thread_t th;
    bool ended;
    const struct d1_lat_meta meta =
    {
#ifdef RT_USING_SMART
        .os = "rtsmart",
#else
        .os = "rtthread",
#endif
        .board = "allwinner-d1",
        .load = loaded ? "memcpy+uart" : "idle",
        .period_ns = 0u,
        .measurement = d1_svc_name(what),
        .wake = wake,
    };

    struct d1_lat *lat = c->lat;

    rt_memset(c, 0, sizeof(*c));
    c->lat = lat;
    c->wait = (rt_int32_t)rt_tick_from_millisecond(D1_SVC_WAIT_MS);
    if (d1_svc_init(&c->run, what, c->lat) != D1_OK || !d1_svc_objects(c, true))
    {
        rt_kprintf("d1svc: %s: out of memory\n", d1_svc_name(what));
        return -RT_ENOMEM;
    }
    if (loaded && !d1_load_start())
    {
        rt_kprintf("d1svc: the load threads did not start\n");
        (void)d1_svc_objects(c, false);
        return -RT_ENOMEM;
    }
    if (loaded)
    {
        /* The load runs alone first: below every bench thread, it gets the
         * CPU only when they all block, which a hand-off never does. */
        rt_thread_mdelay(D1_SVC_LOAD_LEAD_MS);
    }
    th = rt_thread_create("d1svc", d1_svc_driver, c, D1_SVC_THREAD_STACK, D1_SVC_LO_PRIO, 10);
    if (th == RT_NULL)
    {
        ended = true; /* nothing ran: every sample fails below */
    }
    else
    {
        rt_thread_startup(th);
        ended = d1_svc_wait(c);
    }
    if (loaded)
    {
        d1_load_end(); /* includes 100 ms for the console and the idle thread */
    }
    else
    {
        rt_thread_mdelay(100); /* the idle thread frees exited threads */
    }
    if (!ended)
    {
        rt_kprintf("d1svc: %s: the driver thread did not end: its memory kept\n",
                   d1_svc_name(what));
        return -RT_ETIMEOUT;
    }
    while (d1_svc_fail(&c->run))
    {
        /* samples the run could not take are failed, never dropped */
    }
    (void)d1_svc_objects(c, false);
    if (what == D1_SVC_CLOCK_READ)
    {
        /* as every OS's bench prints it (docs/comparison.md); RT-Thread has
         * no getres for the tick: its nominal resolution is one tick */
        unsigned step_ns = (unsigned)c->step * (1000000000u / RT_TICK_PER_SECOND);

        rt_kprintf("d1svc: clock-read resolution: getres %u ns (1 tick, RT_TICK_PER_SECOND "
                   "%u), observed step %u ns (%d steps, %u ns apart by the time CSR)\n",
                   (unsigned)(1000000000u / RT_TICK_PER_SECOND), (unsigned)RT_TICK_PER_SECOND,
                   step_ns, c->steps,
                   (unsigned)(c->period_counts * 1000u / (D1_TIME_HZ / 1000000u)));
        rt_snprintf(wake, sizeof(wake), "rt_tick_get, step %u ns", step_ns);
    }
    else
    {
        rt_snprintf(wake, sizeof(wake), "%s", d1_svc_wake(what));
    }
    rt_kprintf("d1svc: %s: %u samples, %u failed\n", d1_svc_name(what),
               (unsigned)c->run.taken, (unsigned)c->run.failed);
    d1_rt_report(c->lat, &meta);
    return 0;
}

static int d1svc(int argc, char **argv)
{
    struct d1_svc_ctx *c;
    bool loaded = argc == 2 && strcmp(argv[1], "load") == 0;
    int ret = 0;

    if (argc > 2 || (argc == 2 && !loaded))
    {
        rt_kprintf("usage: d1svc [load]\n");
        return -RT_EINVAL;
    }
    if (d1_svc_busy)
    {
        rt_kprintf("d1svc: a run is in progress\n");
        return -RT_EBUSY;
    }
    c = (struct d1_svc_ctx *)rt_malloc(sizeof(*c) + sizeof(struct d1_lat));
    if (c == RT_NULL)
    {
        rt_kprintf("d1svc: out of memory\n");
        return -RT_ENOMEM;
    }
    d1_svc_busy = true;
    rt_kprintf("d1svc: %d measurements, kernel threads at priority %d/%d, load %s\n",
               (int)D1_SVC_COUNT, D1_SVC_HI_PRIO, D1_SVC_LO_PRIO,
               loaded ? "memcpy+uart" : "idle");
    rt_thread_mdelay(100); /* let the console drain */
    for (int w = 0; w < (int)D1_SVC_COUNT && ret == 0; w++)
    {
        c->lat = (struct d1_lat *)(void *)(c + 1);
        ret = d1_svc_one(c, (enum d1_svc)w, loaded);
    }
    if (ret != -RT_ETIMEOUT)
    {
        rt_free(c);
        d1_svc_busy = false;
    }
    return ret;
}
MSH_CMD_EXPORT(d1svc, d1drivers OS-service measurements: d1svc [load]);

#endif /* BSP_USING_D1_BENCH && RT_USING_FINSH */
