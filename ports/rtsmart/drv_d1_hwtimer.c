/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rt_hwtimer device "timer0" on D1 Timer0 (PLIC source 75) via d1_timer.
 *
 * The framework asks for a period of `cnt` counter clocks; the D1 counter
 * includes zero, so an interval of cnt gives cnt + 1 clocks. The driver's
 * d1_timer_set_period_clocks(cnt) programs cnt - 1, so the period is
 * exactly cnt clocks (docs/hardware-facts.md, docs/rtsmart.md).
 *
 * Count frequencies: 24 MHz / 2^k, k = 0..7 (prescaler); any other
 * HWTIMER_CTRL_FREQ_SET value is refused with -RT_EINVAL rather than
 * silently rounded.
 *
 * count_get returns CUR + 1 (clocks left, 1..cnt): the framework's
 * down-count arithmetic (period - count) then yields the exact clocks
 * elapsed in the period, 0..cnt-1.
 */
#include <stdbool.h>
#include <stdint.h>

#include <rtdevice.h>
#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_HWTIMER

#define D1_RT_TIMER_MAP_SIZE  0x400u
#define D1_RT_HWTIMER_MAXFREQ 24000000
#define D1_RT_HWTIMER_MINFREQ (24000000 >> D1_TIMER_PRESCALE_MAX) /* 187500 Hz */

struct d1_rt_hwtimer {
	rt_hwtimer_t parent; /* Must be first: ops get &parent. */
	struct d1_timer t;
	bool running;
	bool oneshot; /* Hardware mode of the last start (the framework may
	               * run a one-shot request as periodic cycles). */
};

static struct d1_rt_hwtimer g_d1_rt_hwtimer0;

static const struct rt_hwtimer_info g_d1_rt_hwtimer_info = {
        .maxfreq = D1_RT_HWTIMER_MAXFREQ,
        .minfreq = D1_RT_HWTIMER_MINFREQ,
        .maxcnt = 0xFFFFFFFFu,
        .cntmode = HWTIMER_CNTMODE_DW,
};

/* 24 MHz / 2^k == freq for some k in 0..7, else -1. */
static int d1_rt_hwtimer_prescale(rt_uint32_t freq)
{
	unsigned k;

	for (k = 0u; k <= D1_TIMER_PRESCALE_MAX; k++) {
		if (((uint32_t)D1_RT_HWTIMER_MAXFREQ >> k) == freq)
			return (int)k;
	}
	return -1;
}

static void d1_rt_hwtimer_stop(rt_hwtimer_t *timer)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;

	(void)d1_timer_stop(&h->t);
	h->running = false;
}

static void d1_rt_hwtimer_ops_init(rt_hwtimer_t *timer, rt_uint32_t state)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;

	/* state 1: open, 0: close. The handle was set up at registration. */
	d1_rt_hwtimer_stop(timer);
	d1_timer_irq_ack(&h->t);
	(void)d1_timer_irq_enable(&h->t, state != 0u);
}

static rt_err_t d1_rt_hwtimer_start(rt_hwtimer_t *timer, rt_uint32_t cnt, rt_hwtimer_mode_t mode)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;
	enum d1_timer_mode m =
	        (mode == HWTIMER_MODE_ONESHOT) ? D1_TIMER_ONESHOT : D1_TIMER_PERIODIC;
	d1_err_t err;

	if (h->running)
		d1_rt_hwtimer_stop(timer);
	/* Period of exactly cnt clocks: the driver programs cnt - 1. */
	err = d1_timer_set_period_clocks(&h->t, (uint64_t)cnt, RT_NULL);
	if (err == D1_OK)
		err = d1_timer_start(&h->t, m);
	if (err == D1_OK) {
		h->running = true;
		h->oneshot = (m == D1_TIMER_ONESHOT);
	}
	return d1_rt_err(err);
}

static rt_uint32_t d1_rt_hwtimer_count_get(rt_hwtimer_t *timer)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;

	/* CUR + 1 <= 0xFFFFFFFF because cnt <= maxcnt (interval <= 0xFFFFFFFE). */
	return (rt_uint32_t)d1_timer_remaining(&h->t);
}

static rt_err_t d1_rt_hwtimer_control(rt_hwtimer_t *timer, rt_uint32_t cmd, void *args)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)timer;
	int k;

	switch (cmd) {
	case HWTIMER_CTRL_FREQ_SET:
		if (args == RT_NULL)
			return -RT_EINVAL;
		k = d1_rt_hwtimer_prescale(*(rt_uint32_t *)args);
		if (k < 0)
			return -RT_EINVAL;
		return d1_rt_err(d1_timer_set_clock(&h->t, D1_TIMER_SRC_OSC24M, (unsigned)k));
	case HWTIMER_CTRL_STOP:
		d1_rt_hwtimer_stop(timer);
		return RT_EOK;
	case HWTIMER_CTRL_INFO_GET:
		if (args == RT_NULL)
			return -RT_EINVAL;
		*(struct rt_hwtimer_info *)args = g_d1_rt_hwtimer_info;
		return RT_EOK;
	default:
		return -RT_ENOSYS;
	}
}

static const struct rt_hwtimer_ops g_d1_rt_hwtimer_ops = {
        .init = d1_rt_hwtimer_ops_init,
        .start = d1_rt_hwtimer_start,
        .stop = d1_rt_hwtimer_stop,
        .count_get = d1_rt_hwtimer_count_get,
        .control = d1_rt_hwtimer_control,
};

static void d1_rt_hwtimer_isr(int vector, void *param)
{
	struct d1_rt_hwtimer *h = (struct d1_rt_hwtimer *)param;

	(void)vector;
	/* W1C this channel's status bit; nothing pending: counted, no event. */
	if (d1_timer_isr(&h->t) == D1_TIMER_ISR_SPURIOUS)
		return;
	/* A one-shot period has ended in hardware: bring the driver's state in
	 * step so the next start is accepted (d1_timer_stop waits >= 3 clocks). */
	if (h->oneshot)
		d1_rt_hwtimer_stop(&h->parent);
	rt_device_hwtimer_isr(&h->parent);
}

int d1_rt_hwtimer_init(void)
{
	struct d1_rt_hwtimer *h = &g_d1_rt_hwtimer0;
	uintptr_t base = d1_rt_map(D1_TIMER_BASE, D1_RT_TIMER_MAP_SIZE);
	rt_err_t ret;
	d1_err_t err;

	if (base == 0u)
		return -RT_ENOMEM;
	err = d1_timer_init(&h->t, base, 0u, D1_OSC24M_HZ, D1_LOSC_HZ);
	if (err == D1_OK)
		err = d1_timer_set_clock(&h->t, D1_TIMER_SRC_OSC24M, 0u);
	if (err != D1_OK)
		return (int)d1_rt_err(err);
	(void)d1_timer_stop(&h->t);
	d1_timer_irq_ack(&h->t);
	h->running = false;
	h->oneshot = false;

	h->parent.ops = &g_d1_rt_hwtimer_ops;
	h->parent.info = &g_d1_rt_hwtimer_info;
	ret = rt_device_hwtimer_register(&h->parent, "timer0", h);
	if (ret != RT_EOK)
		return (int)ret;
	rt_hw_interrupt_install((int)D1_IRQ_TIMER0, d1_rt_hwtimer_isr, h, "timer0");
	rt_hw_interrupt_umask((int)D1_IRQ_TIMER0);
	return RT_EOK;
}

INIT_DEVICE_EXPORT(d1_rt_hwtimer_init);

#endif /* BSP_USING_D1_HWTIMER */
