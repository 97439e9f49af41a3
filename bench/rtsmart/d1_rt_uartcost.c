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
 * Counting: under QEMU's -icount, instret advances with virtual time,
 * idle included, so the serial path's instructions are what is left when
 * a spinner's are taken out. A thread at the lowest priority above idle
 * runs a loop of exactly D1_UCOST_SPIN instructions that stores its
 * iteration count; everything else retired in the window (the UART
 * interrupt, the serial framework, this thread's wake-ups, the tick) is
 * instret's advance less D1_UCOST_SPIN per iteration. The tick's share
 * is the same count over D1_UCOST_IDLE_MS with no traffic, scaled to the
 * window. Result line:
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

#include "d1_rt.h"

#if defined(BSP_USING_D1_UART_COST) && defined(RT_USING_FINSH)
#include <finsh.h>

#define D1_UCOST_MAX     8192u /* largest N */
#define D1_UCOST_IDLE_MS 100   /* the tick's window */
#define D1_UCOST_WAIT_MS 5000  /* longest wait for the next byte */
#define D1_UCOST_SPIN    4u    /* instructions per spinner iteration */

struct d1_ucost_mark
{
    rt_uint64_t instret; /* instret at the window's edge */
    rt_uint64_t spins;   /* spinner iterations at the same edge */
};

static rt_uint8_t d1_ucost_buf[D1_UCOST_MAX];
static volatile rt_uint64_t d1_ucost_spins;
static volatile int d1_ucost_stop;
static struct rt_semaphore d1_ucost_rx_sem;

static rt_uint64_t d1_ucost_instret(void)
{
    rt_uint64_t v;

    __asm__ volatile("csrr %0, instret" : "=r"(v));
    return v;
}

/* D1_UCOST_SPIN instructions per iteration, the count stored each time. */
static void d1_ucost_spinner(void *arg)
{
    (void)arg;
    __asm__ volatile("  li   t0, 0\n"
                     "1:  addi t0, t0, 1\n"
                     "  sd   t0, 0(%0)\n"
                     "  lw   t1, 0(%1)\n"
                     "  beqz t1, 1b\n"
                     :
                     : "r"(&d1_ucost_spins), "r"(&d1_ucost_stop)
                     : "t0", "t1", "memory");
}

static void d1_ucost_mark(struct d1_ucost_mark *m)
{
    m->instret = d1_ucost_instret();
    m->spins = d1_ucost_spins;
}

/* Instructions retired outside the spinner between two marks. */
static rt_uint64_t d1_ucost_other(const struct d1_ucost_mark *a, const struct d1_ucost_mark *b)
{
    rt_uint64_t all = b->instret - a->instret;
    rt_uint64_t spun = (b->spins - a->spins) * D1_UCOST_SPIN;

    return all > spun ? all - spun : 0u;
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
    struct d1_ucost_mark idle[2];
    struct d1_ucost_mark win[2];
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
    d1_ucost_stop = 0;
    d1_ucost_spins = 0u;
    th = rt_thread_create("d1uspin", d1_ucost_spinner, RT_NULL, 2048, RT_THREAD_PRIORITY_MAX - 2, 10);
    if (th == RT_NULL)
    {
        rt_kprintf("d1ucost: no memory for the spinner thread\n");
        return;
    }
    rt_sem_init(&d1_ucost_rx_sem, "d1ucost", 0, RT_IPC_FLAG_FIFO);
    rt_thread_startup(th);

    d1_ucost_mark(&idle[0]);
    rt_thread_mdelay(D1_UCOST_IDLE_MS);
    d1_ucost_mark(&idle[1]);

    saved = con->rx_indicate;
    rt_device_set_rx_indicate(con, d1_ucost_rx_ind);
    rt_kprintf("d1ucost: rx ready %lu\n", n);
    d1_ucost_mark(&win[0]);
    got = d1_ucost_read(con, (rt_size_t)n);
    d1_ucost_mark(&win[1]);
    rt_device_set_rx_indicate(con, saved);
    d1_ucost_stop = 1;
    rt_thread_mdelay(10); /* the spinner sees the flag and returns */
    rt_sem_detach(&d1_ucost_rx_sem);

    if (got != n)
    {
        rt_kprintf("d1ucost: rx FAIL: %lu of %lu bytes, then none for %d ms\n", (unsigned long)got,
                   n, D1_UCOST_WAIT_MS);
        return;
    }
    {
        rt_uint64_t iw = idle[1].instret - idle[0].instret;
        rt_uint64_t io = d1_ucost_other(&idle[0], &idle[1]);
        rt_uint64_t w = win[1].instret - win[0].instret;
        rt_uint64_t o = d1_ucost_other(&win[0], &win[1]);
        rt_uint64_t tick = iw != 0u ? io * w / iw : 0u;
        rt_uint64_t c = (o > tick ? o - tick : 0u) * 100u / n;

        rt_kprintf("d1ucost: rx bytes=%lu window=%lu other=%lu idle_other=%lu idle_window=%lu "
                   "per_byte=%lu.%02lu hash=%08x\n",
                   n, (unsigned long)w, (unsigned long)o, (unsigned long)io, (unsigned long)iw,
                   (unsigned long)(c / 100u), (unsigned long)(c % 100u),
                   (unsigned)d1_ucost_fnv1a(d1_ucost_buf, n));
    }
}
MSH_CMD_EXPORT(d1ucost, d1drivers: d1ucost N: instructions per byte received on the console);

#endif /* BSP_USING_D1_UART_COST && RT_USING_FINSH */
