/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RT-Thread system tick on D1 Timer1 (PLIC source 76) via d1_timer.
 *
 * The period is exactly 1 / RT_TICK_PER_SECOND on the 24 MHz OSC24M: the
 * driver programs P - 1 for a period of P clocks (the counter includes
 * zero, docs/hardware-facts.md) and spreads a fractional period so the
 * tick never drifts (include/d1/timer.h).
 *
 * Vector numbering: on libcpu/risc-v/t-head/c906 the vector passed to
 * rt_hw_interrupt_install()/umask() IS the PLIC source ID (interrupt.c
 * indexes isr_table[IRQ_OFFSET + vector], plic.c enables bit `vector` and
 * dispatches the claimed ID to isr_table[IRQ_OFFSET + id] with
 * handler(id, param)). See docs/rtsmart.md.
 *
 * This replaces the libcpu's SBI-timer tick: do not also call the c906
 * rt_hw_tick_init() (docs/rtsmart.md).
 */
#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_TICK

#define D1_RT_TIMER_MAP_SIZE 0x400u /* Timer block incl. its WDT (memmap.h). */

/* Lives for the whole run; d1_rt_tick_init() runs once, IRQs off. */
static struct d1_timer g_d1_rt_tick;

/* Interrupt-entry latency of the last tick, 24 MHz clocks (debug aid). */
volatile rt_uint32_t g_d1_rt_tick_latency_clocks;

static void d1_rt_tick_isr(int vector, void *param)
{
	rt_uint32_t sample;

	(void)vector;
	/* Acknowledge this channel (W1C), sample, queue the next interval of a
	 * fractional schedule; then the kernel tick. */
	sample = d1_timer_isr((struct d1_timer *)param);
	/* No pending bit: counted by the driver, not a tick. */
	if (sample == D1_TIMER_ISR_SPURIOUS)
		return;
	g_d1_rt_tick_latency_clocks = sample;
	rt_tick_increase();
}

int d1_rt_tick_init(void)
{
	struct d1_timer *t = &g_d1_rt_tick;
	uintptr_t base = d1_rt_map(D1_TIMER_BASE, D1_RT_TIMER_MAP_SIZE);
	d1_err_t err;

	if (base == 0u)
		return -RT_ENOMEM;
	err = d1_timer_init(t, base, 1u, D1_OSC24M_HZ, D1_LOSC_HZ);
	if (err == D1_OK)
		err = d1_timer_set_clock(t, D1_TIMER_SRC_OSC24M, 0u);
	if (err == D1_OK)
		err = d1_timer_set_period_hz(t, (uint32_t)RT_TICK_PER_SECOND, RT_NULL);
	if (err != D1_OK)
		return (int)d1_rt_err(err);

	/* Firmware may have left Timer1 running: stop it. d1_timer_start()
	 * clears a stale status bit itself. */
	(void)d1_timer_stop(t);

	rt_hw_interrupt_install((int)D1_IRQ_TIMER1, d1_rt_tick_isr, t, "tick");
	err = d1_timer_start(t, D1_TIMER_PERIODIC);
	if (err == D1_OK)
		err = d1_timer_irq_enable(t, true);
	if (err != D1_OK)
		return (int)d1_rt_err(err);
	rt_hw_interrupt_umask((int)D1_IRQ_TIMER1);
	return RT_EOK;
}

#endif /* BSP_USING_D1_TICK */
