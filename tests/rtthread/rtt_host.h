/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host side of the RT-Thread glue tests: a small device core, an
 * interrupt table standing in for the BSP's PLIC layer, a kernel tick, and
 * the hwtimer / watchdog framework layers, each written here from
 * RT-Thread's documented behaviour (the sources it follows are cited in
 * rtt_host.c). The glue under test is the real ports/rtsmart code.
 */
#ifndef D1_TEST_RTT_HOST_H
#define D1_TEST_RTT_HOST_H

#include <stdint.h>

#include <rtdevice.h>
#include <rthw.h>
#include <rtthread.h>

#define RTT_HOST_IRQS 256

struct rtt_host_irq {
	rt_isr_handler_t handler;
	void *param;
	int enabled;    /* rt_hw_interrupt_umask()ed */
	unsigned calls; /* handler invocations by rtt_host_irq_raise() */
};

extern struct rtt_host_irq rtt_host_irqs[RTT_HOST_IRQS];

/* Forget every registered device, handler, message and tick. */
void rtt_host_reset(void);
/* Run the handler installed for vector (as the PLIC dispatch would).
 * Returns 0 if none is installed or the vector is masked. */
int rtt_host_irq_raise(int vector);
/* rt_hw_interrupt_disable()/enable() as the target has them: a test on
 * the simulated bus may route them to the sim's critical section
 * (d1_port_critical_enter/exit), so that an injected interrupt
 * (sim_irq_arm) is held while the glue has interrupts off. NULL (the
 * default, and after rtt_host_reset()): a plain nesting counter. */
extern uintptr_t (*rtt_host_irq_lock)(void);
extern void (*rtt_host_irq_unlock)(uintptr_t state);
/* Kernel tick used by rt_tick_get(). */
void rtt_host_set_tick(rt_tick_t t);
/* Last rt_kprintf() output (truncated to 255 bytes) and how many. */
const char *rtt_host_last_message(void);
unsigned rtt_host_messages(void);

/* Set a device's rx_indicate callback (rt_device_set_rx_indicate). */
void rt_device_set_rx_indicate_host(rt_device_t dev,
                                    rt_err_t (*fn)(rt_device_t dev, rt_size_t size));

/* Kernel timers made by rt_timer_create(): run the callback of the
 * first one that is started (returns 0 if none is). */
int rtt_host_timer_fire(void);
/* Period in ticks and flags of the first created timer (0 if none). */
rt_tick_t rtt_host_timer_period(void);
int rtt_host_timer_running(void);

/* Serial V2: events passed to rt_hw_serial_isr(), by event number, and
 * the name last given to rt_console_set_device(). */
extern unsigned rtt_host_serial_events[8];
/* TX_DONE events that found the TX ring still full at a transmit()
 * nesting depth of 4 (a driver that never drains the ring). */
extern unsigned rtt_host_serial_tx_runaway;
const char *rtt_host_console(void);
/* A thread switch inside rt_hw_serial_isr(TX_DONE) between its "ring
 * empty" check and clearing activated: the hook runs there if interrupts
 * are enabled (a driver calling it from thread context), else when
 * rt_hw_interrupt_enable() brings them back on. NULL: none. */
extern void (*rtt_host_serial_tx_done_preempt)(void);

/* The framework's count computation (rt_hwtimer write path), for tests
 * that want the count without a device. */
rt_uint32_t rtt_host_timeout_calc(rt_hwtimer_t *timer, const rt_hwtimerval_t *tv);

#endif
