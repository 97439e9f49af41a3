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
 * d1_port_delay_us() is time-based: the library's d1_time_delay_us() spins
 * on the RISC-V `time` CSR, which counts the 24 MHz OSC24M on the D1
 * (docs/hardware-facts.md "The `time` CSR"; libcpu c906 tick.h
 * TIMER_CLK_FREQ agrees), so a bounded wait of the library lasts what it
 * says whatever the CPU clock.
 * It never sleeps: usable with interrupts off and from an ISR.
 * The critical section is rt_hw_interrupt_disable()/enable(), which nest
 * (the saved level travels in the uintptr_t). The D1 has one hart.
 */

#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/port.h"
#include "d1/time.h"

#include "d1_rt.h"

volatile uint32_t d1_rt_delay_stalls;

void d1_port_delay_us(uint32_t us)
{
    /* The library's reference delay on the `time` CSR (d1/time.h): never
     * early, and bounded on a counter that stands still, which is
     * counted here (d1/port.h). */
    if (d1_time_delay_us(us) != D1_OK)
    {
        d1_rt_delay_stalls++;
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
