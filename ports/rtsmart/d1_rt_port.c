/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    port contract of the library (d1/port.h)
 */

/*
 * d1_port_delay_us() is time-based: it spins on the RISC-V `time` CSR,
 * which counts the 24 MHz OSC24M on the D1 (../shared/reference/d1-hardware.md,
 * Timer block; libcpu c906 tick.h TIMER_CLK_FREQ agrees), so a
 * bounded wait of the library lasts what it says whatever the CPU clock.
 * It never sleeps: usable with interrupts off and from an ISR.
 * The critical section is rt_hw_interrupt_disable()/enable(), which nest
 * (the saved level travels in the uintptr_t). The D1 has one hart.
 */

#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/time.h"

#include "d1_rt.h"

#if defined(__riscv)
static inline uint64_t d1_rt_time_now(void)
{
    uint64_t t;

    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}
#else
/* Host tests (tests/rtthread) supply the 24 MHz clock. */
uint64_t d1_rt_host_time_now(void);
#define d1_rt_time_now d1_rt_host_time_now
#endif

volatile uint32_t d1_rt_delay_stalls;

void d1_port_delay_us(uint32_t us)
{
    /* 24 clocks per microsecond; +1 so a wait never ends early because it
     * started just before a `time` increment. */
    uint64_t ticks = (uint64_t)us * (D1_OSC24M_HZ / 1000000u) + 1u;
    uint64_t start = d1_rt_time_now();
    uint64_t prev = start;
    uint64_t now;
    uint32_t same = 0;

    while ((now = d1_rt_time_now()) - start < ticks)
    {
        /* A `time` that stands still would hold every bounded wait of the
         * library for ever: give up after D1_TIME_STALL_READS equal
         * readings, as the library's reference delay does, and count it
         * (d1/port.h). */
        if (now != prev)
        {
            prev = now;
            same = 0;
        }
        else if (++same >= D1_TIME_STALL_READS)
        {
            d1_rt_delay_stalls++;
            return;
        }
    }
}

uintptr_t d1_port_critical_enter(void)
{
    return (uintptr_t)rt_hw_interrupt_disable();
}

void d1_port_critical_exit(uintptr_t state)
{
    rt_hw_interrupt_enable((rt_base_t)state);
}
