/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-06     d1drivers    the d1bench device's protocol
 */

/*
 * The protocol between the d1bench device (d1_rt_bench.c, RT-Smart only)
 * and a user process measuring its own wake-up latency (user/d1ubench.c).
 * Plain C types only: the user program includes it without RT-Thread.
 *
 *   1. open D1_UBENCH_PATH read-write (one process at a time);
 *   2. write one struct d1_ubench_start: the device sets the run up as the
 *      msh command d1bench does, raises the calling thread to
 *      BSP_D1_BENCH_PRIO for the run and starts the Timer;
 *   3. read 8 bytes: blocks until the next period boundary's interrupt
 *      (at most 1 s + 100 periods) and returns the boundaries accounted
 *      before it (uint64_t; the kernel accounts a boundary at the
 *      wake-up's write); 0 bytes once the run's last boundary is accounted;
 *      a negative error after a timeout;
 *   4. read the `time` CSR (rdtime: the device's init sets scounteren.TM)
 *      and write it, 8 bytes: the task wake-up sample, accounted by the
 *      library's bench core (d1_bench_wake());
 *   5. close: the Timer stops and the device prints the run line and the
 *      task-wakeup report (text and JSON, wake "read, user process").
 *
 * Any other size, or a request with a bad magic, load or range, is
 * -RT_EINVAL and changes nothing.
 */

#ifndef __D1_RT_UBENCH_H__
/* NOLINTNEXTLINE(bugprone-reserved-identifier): RT-Thread guard style */
#define __D1_RT_UBENCH_H__

#include <stdint.h>

#define D1_UBENCH_PATH  "/dev/d1bench"
#define D1_UBENCH_NAME  "d1bench"
#define D1_UBENCH_MAGIC 0x42553144u /* "D1UB", little-endian */
#define D1_UBENCH_WAKE  "read, user process"

struct d1_ubench_start
{
    uint32_t magic;     /* D1_UBENCH_MAGIC */
    uint32_t periods;   /* 1.. */
    uint32_t period_us; /* 1..100000 */
    uint32_t load;      /* 0 idle, 1 the comparison's memcpy+uart load */
};

#endif /* __D1_RT_UBENCH_H__ */
