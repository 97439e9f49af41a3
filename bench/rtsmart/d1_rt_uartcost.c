/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-06     d1drivers    d1ucost: instructions per received byte
 */

/*
 * msh command "d1ucost N" (a measurement tool, BSP_USING_D1_UART_COST):
 * prints "d1ucost: rx ready N", reads N bytes from the console device
 * (the sender starts on that line), and prints the instructions the
 * hart retired per byte on the way and an FNV-1a hash of the bytes, so
 * that the sender can check every one.
 *
 * Counting: the bench core's background cost (include/d1/bench.h,
 * d1_bench_spin() and d1_bench_cost()): a thread at the lowest priority
 * above idle runs the core's spinner, so everything else retired in the
 * window (the UART interrupt, the serial framework, this thread's
 * wake-ups, the tick) is instret's advance less D1_BENCH_SPIN_INSNS per
 * iteration. The tick's share is the same count over D1_UCOST_IDLE_MS with
 * no traffic, scaled to the window. Result line:
 *
 *   d1ucost: rx bytes=N window=W other=O idle_other=I idle_window=J
 *            per_byte=P hash=H
 *
 * (one line; P = (O - I * W / J) / N, two decimals). Only receive is
 * measured: the port's transmit is polled, so its cost per byte is the
 * wait for the line. While it reads, the console's receive indication is
 * this command's (msh, which runs it, is not reading); it is restored at
 * the end.
 */

#include <stdint.h>
#include <stdlib.h>

#include <rtdevice.h>
#include <rtthread.h>

#include "d1/bench.h"
#include "d1_rt.h"

#if defined(BSP_USING_D1_UART_COST) && defined(RT_USING_FINSH)
#include <finsh.h>

#define D1_UCOST_MAX     8192u /* largest N */
#define D1_UCOST_IDLE_MS 100   /* the tick's window */
#define D1_UCOST_WAIT_MS 5000  /* longest wait for the next byte */

static rt_uint8_t d1_ucost_buf[D1_UCOST_MAX];
static struct d1_bench_spinner d1_ucost_spin;
static struct rt_semaphore d1_ucost_rx_sem;

/* The spinner thread: the bench core's loop until told to stop. */
static void d1_ucost_spinner(void *arg)
{
    (void)arg;
    d1_bench_spin(&d1_ucost_spin);
}

/* The printable pattern the sender uses: byte i is 33 + (7 i + 13) mod 94. */
static rt_uint32_t d1_ucost_fnv1a(const rt_uint8_t *p, rt_size_t n)
{
    rt_uint32_t h = 2166136261u;

    for (rt_size_t i = 0; i < n; i++)
    {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static rt_err_t d1_ucost_rx_ind(rt_device_t dev, rt_size_t size)
{
    (void)dev;
    (void)size;
    rt_sem_release(&d1_ucost_rx_sem);
    return RT_EOK;
}

/* Reads n bytes from @p dev; 0, or the bytes read before a silence of
 * D1_UCOST_WAIT_MS ended the read. */
static rt_size_t d1_ucost_read(rt_device_t dev, rt_size_t n)
{
    rt_size_t got = 0;

    while (got < n)
    {
        rt_size_t r = rt_device_read(dev, 0, d1_ucost_buf + got, n - got);

        if (r == 0u && rt_sem_take(&d1_ucost_rx_sem, rt_tick_from_millisecond(D1_UCOST_WAIT_MS)) !=
                               RT_EOK)
        {
            return got;
        }
        got += r;
    }
    return n;
}

static void d1ucost(int argc, char **argv)
{
    rt_device_t con = rt_console_get_device();
    rt_err_t (*saved)(rt_device_t dev, rt_size_t size);
    struct d1_bench_mark idle[2];
    struct d1_bench_mark win[2];
    rt_thread_t th;
    rt_size_t got;
    char *end = RT_NULL;
    unsigned long n = argc == 2 ? strtoul(argv[1], &end, 10) : 0u;

    if (argc != 2 || end == argv[1] || *end != '\0' || n == 0u || n > D1_UCOST_MAX)
    {
        rt_kprintf("usage: d1ucost N (1 <= N <= %u)\n", D1_UCOST_MAX);
        return;
    }
    if (con == RT_NULL)
    {
        rt_kprintf("d1ucost: no console device\n");
        return;
    }
    d1_ucost_spin.stop = 0u;
    d1_ucost_spin.spins = 0u;
    th = rt_thread_create("d1uspin", d1_ucost_spinner, RT_NULL, 2048, RT_THREAD_PRIORITY_MAX - 2, 10);
    if (th == RT_NULL)
    {
        rt_kprintf("d1ucost: no memory for the spinner thread\n");
        return;
    }
    rt_sem_init(&d1_ucost_rx_sem, "d1ucost", 0, RT_IPC_FLAG_FIFO);
    rt_thread_startup(th);

    d1_bench_mark(&d1_ucost_spin, &idle[0]);
    rt_thread_mdelay(D1_UCOST_IDLE_MS);
    d1_bench_mark(&d1_ucost_spin, &idle[1]);

    saved = con->rx_indicate;
    rt_device_set_rx_indicate(con, d1_ucost_rx_ind);
    rt_kprintf("d1ucost: rx ready %lu\n", n);
    d1_bench_mark(&d1_ucost_spin, &win[0]);
    got = d1_ucost_read(con, (rt_size_t)n);
    d1_bench_mark(&d1_ucost_spin, &win[1]);
    rt_device_set_rx_indicate(con, saved);
    d1_ucost_spin.stop = 1u;
    rt_thread_mdelay(10); /* the spinner sees the flag and returns */
    rt_sem_detach(&d1_ucost_rx_sem);

    if (got != n)
    {
        rt_kprintf("d1ucost: rx FAIL: %lu of %lu bytes, then none for %d ms\n", (unsigned long)got,
                   n, D1_UCOST_WAIT_MS);
        return;
    }
    {
        struct d1_bench_cost c;

        if (d1_bench_cost(idle, win, n, &c) != D1_OK)
        {
            rt_kprintf("d1ucost: rx: no figures (%lu bytes)\n", n);
            return;
        }
        rt_kprintf("d1ucost: rx bytes=%lu window=%lu other=%lu idle_other=%lu idle_window=%lu "
                   "per_byte=%lu.%02lu hash=%08x\n",
                   n, (unsigned long)c.window, (unsigned long)c.other, (unsigned long)c.idle_other,
                   (unsigned long)c.idle_window, (unsigned long)(c.hundredths / 100u),
                   (unsigned long)(c.hundredths % 100u), (unsigned)d1_ucost_fnv1a(d1_ucost_buf, n));
    }
}
MSH_CMD_EXPORT(d1ucost, d1drivers: d1ucost N: instructions per byte received on the console);

#endif /* BSP_USING_D1_UART_COST && RT_USING_FINSH */
