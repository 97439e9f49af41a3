/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    system tick on D1 Timer1
 */

/*
 * RT-Thread system tick on D1 Timer1 (PLIC source 76) through d1_timer.
 *
 * The period is exactly 1 / RT_TICK_PER_SECOND of the 24 MHz OSC24M: the
 * driver programs P - 1 for a period of P clocks (the counter includes
 * zero, docs/hardware-facts.md) and spreads a fractional period so the
 * tick never drifts (include/d1/timer.h).
 *
 * Replacing the SBI tick, exclusively, without editing board.c: the BSP's
 * rt_hw_board_init() calls libcpu's rt_hw_tick_init() (SBI set_timer,
 * sie.STIE set; libcpu/risc-v/t-head/c906/tick.c) and then
 * rt_components_board_init(), which runs this INIT_BOARD_EXPORT hook.
 * Interrupts are still off (primary_cpu_entry disables them; the
 * scheduler enables them later), so no SBI tick can have run. The hook
 * clears sie.STIE, the only enable of the supervisor timer interrupt, and
 * parks the SBI timer at the far future; from then on only Timer1 calls
 * rt_tick_increase().
 *
 * Vector numbering: on libcpu/risc-v/t-head/c906 the vector passed to
 * rt_hw_interrupt_install()/umask() is the PLIC source ID (docs/rtsmart.md).
 */

#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_TICK

#define D1_RT_TIMER_MAP_SIZE 0x400u /* Timer block incl. its WDT (memmap.h) */
#define D1_RT_SIE_STIE       (1ul << 5) /* sie.STIE, RISC-V privileged spec */

/* libcpu/risc-v/t-head/c906/sbi.h */
extern void sbi_set_timer(uint64_t val);

/* Lives for the whole run; d1_rt_tick_init() runs once, IRQs off. */
static struct d1_timer d1_tick;

/* Interrupt-entry latency of the last tick, 24 MHz clocks, and ticks. */
volatile rt_uint32_t d1_rt_tick_latency_clocks;
volatile rt_uint32_t d1_rt_tick_count;

static void d1_rt_tick_isr(int vector, void *param)
{
    (void)vector;
    /* Acknowledge this channel (W1C), sample, queue the next interval of a
     * fractional schedule; then the kernel tick. */
    rt_uint32_t clocks = d1_timer_isr((struct d1_timer *)param);

    if (clocks == D1_TIMER_ISR_SPURIOUS)
    {
        return; /* no boundary: counted by the library, no kernel tick */
    }
    d1_rt_tick_latency_clocks = clocks;
    d1_rt_tick_count++;
    rt_tick_increase();
}

#if !defined(__riscv) || defined(D1_MMIO_HOOKED)
/* Host tests (tests/rtthread): sie is a variable of the test. */
void d1_rt_host_sie_clear(unsigned long bits);
#endif

static void d1_rt_sbi_tick_off(void)
{
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
    __asm__ volatile("csrc sie, %0" : : "r"(D1_RT_SIE_STIE) : "memory");
#else
    d1_rt_host_sie_clear(D1_RT_SIE_STIE);
#endif
    sbi_set_timer(UINT64_MAX);
}

int d1_rt_tick_init(void)
{
    struct d1_timer *t = &d1_tick;
    uintptr_t base = d1_rt_map(D1_TIMER_BASE, D1_RT_TIMER_MAP_SIZE);
    d1_err_t err;

    if (base == 0u)
    {
        return -RT_ENOMEM;
    }
    err = d1_timer_init(t, base, 1u, D1_OSC24M_HZ, D1_LOSC_HZ);
    if (err == D1_OK)
    {
        err = d1_timer_set_clock(t, D1_TIMER_SRC_OSC24M, 0u);
    }
    if (err == D1_OK)
    {
        err = d1_timer_set_period_hz(t, (uint32_t)RT_TICK_PER_SECOND, RT_NULL);
    }
    if (err != D1_OK)
    {
        /* The SBI tick stays: the system keeps a tick. */
        rt_kprintf("d1 tick: Timer1 setup failed (%d), SBI tick kept\n", (int)err);
        return (int)d1_rt_err(err);
    }

    /* Firmware may have left Timer1 running: stop it and drop a stale
     * status bit before the handler is attached. */
    (void)d1_timer_stop(t);
    d1_timer_irq_ack(t);

    rt_hw_interrupt_install((int)D1_IRQ_TIMER1, d1_rt_tick_isr, t, "d1tick");
    err = d1_timer_irq_enable(t, true);
    if (err == D1_OK)
    {
        err = d1_timer_start(t, D1_TIMER_PERIODIC);
    }
    if (err != D1_OK)
    {
        rt_kprintf("d1 tick: Timer1 start failed (%d), SBI tick kept\n", (int)err);
        return (int)d1_rt_err(err);
    }
    /* Interrupts are off: switching now cannot give a double tick. */
    d1_rt_sbi_tick_off();
    rt_hw_interrupt_umask((int)D1_IRQ_TIMER1);
    return RT_EOK;
}
INIT_BOARD_EXPORT(d1_rt_tick_init);

#endif /* BSP_USING_D1_TICK */
