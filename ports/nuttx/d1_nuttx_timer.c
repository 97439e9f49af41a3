/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NuttX timers on the library's d1_timer driver.
 *
 *  - up_timer_initialize(): the system tick on Timer1 (PLIC source 76),
 *    replacing the chip's allwinner_d1_timerisr.c. The period is exactly
 *    USEC_PER_TICK; the driver programs P - 1 for a period of P clocks
 *    (the counter includes zero, docs/hardware-facts.md) and spreads a
 *    fractional period drift-free (include/d1/timer.h).
 *  - A timer lower-half on Timer0 (PLIC source 75) for /dev/timerN, whose
 *    TCIOC_GETSTATUS timeleft is CUR + 1 clocks converted exactly.
 *
 * PLIC numbers: include/d1/memmap.h (sun20i-d1s.dtsi); NuttX external
 * interrupt n is RISCV_IRQ_SEXT + n (arch/risc-v/include/allwinner-d1/irq.h).
 */
#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/irq.h>
#include <nuttx/timers/timer.h>

#include "d1/memmap.h"
#include "d1/timer.h"
#include "d1_nuttx.h"

#ifdef CONFIG_SCHED_TICKLESS
#error "d1_nuttx_timer.c drives a periodic tick; tickless mode is not supported"
#endif

#define D1_NX_IRQ_TIMER0 (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER0)
#define D1_NX_IRQ_TIMER1 (RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER1)

#if defined(ALLWINNER_D1_PLIC_TIMER1) && (ALLWINNER_D1_PLIC_TIMER1 != 76)
#error "PLIC source of Timer1 disagrees with the chip header"
#endif

/* ---- System tick (Timer1) ---------------------------------------------- */

/* The tick handle lives for the whole run; NuttX calls
 * up_timer_initialize() once, before interrupts are enabled. */
static struct d1_timer g_d1_tick;

/* Interrupt-entry latency of the last tick, in 24 MHz clocks (debug aid;
 * read it from a debugger or export it later). */
volatile uint32_t g_d1_tick_latency_clocks;

static int d1_nx_tick_isr(int irq, void *context, void *arg)
{
	uint32_t sample;

	(void)irq;
	(void)context;
	(void)arg;

	/* Acknowledge (W1C of this channel only), sample, and queue the next
	 * interval of a fractional schedule; then run the scheduler tick. */
	sample = d1_timer_isr(&g_d1_tick);
	/* No pending bit: counted by the driver, not a tick. */
	if (sample == D1_TIMER_ISR_SPURIOUS)
		return OK;
	g_d1_tick_latency_clocks = sample;
	nxsched_process_timer();
	return OK;
}

void up_timer_initialize(void)
{
	d1_err_t err;

	err = d1_timer_init(&g_d1_tick, D1_TIMER_BASE, 1u, D1_OSC24M_HZ, D1_LOSC_HZ);
	if (err == D1_OK)
		err = d1_timer_set_clock(&g_d1_tick, D1_TIMER_SRC_OSC24M, 0u);
	if (err == D1_OK)
		err = d1_timer_set_period_ns(&g_d1_tick, (uint64_t)USEC_PER_TICK * 1000u, NULL);
	if (err != D1_OK) {
		PANIC();
	}

	/* Firmware may have left Timer1 running: stop it (bounded sync wait).
	 * d1_timer_start() clears a stale status bit itself. */
	(void)d1_timer_stop(&g_d1_tick);

	if (irq_attach(D1_NX_IRQ_TIMER1, d1_nx_tick_isr, NULL) < 0) {
		PANIC();
	}

	/* The tick comes from Timer1, not from the SBI supervisor timer. */
	up_disable_irq(RISCV_IRQ_STIMER);
	up_enable_irq(D1_NX_IRQ_TIMER1);

	if (d1_timer_start(&g_d1_tick, D1_TIMER_PERIODIC) != D1_OK ||
	    d1_timer_irq_enable(&g_d1_tick, true) != D1_OK) {
		PANIC();
	}
}

/* ---- Timer lower-half (Timer0) ----------------------------------------- */

struct d1_nx_timer_lower {
	const struct timer_ops_s *ops; /* Must be first (struct timer_lowerhalf_s). */
	struct d1_timer t;
	tccb_t callback;
	void *arg;
	uint32_t timeout_us;
	bool started;
};

static struct d1_nx_timer_lower g_d1_timer0;

/* Program a period of timeout_us and start periodic counting. Caller holds
 * the critical section. */
static int d1_nx_timer_arm(struct d1_nx_timer_lower *lo)
{
	d1_err_t err;

	(void)d1_timer_stop(&lo->t);
	err = d1_timer_set_clock(&lo->t, D1_TIMER_SRC_AUTO, 0u);
	if (err == D1_OK)
		err = d1_timer_set_period_ns(&lo->t, (uint64_t)lo->timeout_us * 1000u, NULL);
	if (err == D1_OK)
		err = d1_timer_start(&lo->t, D1_TIMER_PERIODIC); /* clears a stale bit */
	if (err == D1_OK)
		err = d1_timer_irq_enable(&lo->t, true);
	if (err != D1_OK) {
		lo->started = false;
		return d1_nuttx_errno(err);
	}
	lo->started = true;
	return OK;
}

static void d1_nx_timer_halt(struct d1_nx_timer_lower *lo)
{
	(void)d1_timer_irq_enable(&lo->t, false);
	(void)d1_timer_stop(&lo->t);
	d1_timer_irq_ack(&lo->t);
	lo->started = false;
}

static int d1_nx_timer_isr(int irq, void *context, void *arg)
{
	struct d1_nx_timer_lower *lo = arg;
	uint32_t next;

	(void)irq;
	(void)context;

	if (d1_timer_isr(&lo->t) == D1_TIMER_ISR_SPURIOUS)
		return OK; /* nothing pending: counted by the driver */
	next = lo->timeout_us;
	if (lo->callback != NULL && lo->callback(&next, lo->arg)) {
		if (next != lo->timeout_us && next != 0u) {
			lo->timeout_us = next;
			if (d1_nx_timer_arm(lo) < 0)
				d1_nx_timer_halt(lo);
		}
	} else {
		d1_nx_timer_halt(lo);
	}
	return OK;
}

static int d1_nx_timer_start(struct timer_lowerhalf_s *lower)
{
	struct d1_nx_timer_lower *lo = (struct d1_nx_timer_lower *)lower;
	irqstate_t flags;
	int ret;

	if (lo->started)
		return -EBUSY;
	if (lo->timeout_us == 0u)
		return -EPERM;
	flags = enter_critical_section();
	ret = d1_nx_timer_arm(lo);
	leave_critical_section(flags);
	return ret;
}

static int d1_nx_timer_stop(struct timer_lowerhalf_s *lower)
{
	struct d1_nx_timer_lower *lo = (struct d1_nx_timer_lower *)lower;
	irqstate_t flags;

	flags = enter_critical_section();
	d1_nx_timer_halt(lo);
	leave_critical_section(flags);
	return OK;
}

static int d1_nx_timer_getstatus(struct timer_lowerhalf_s *lower, struct timer_status_s *status)
{
	struct d1_nx_timer_lower *lo = (struct d1_nx_timer_lower *)lower;
	irqstate_t flags;
	uint64_t ns;

	flags = enter_critical_section();
	status->flags = 0;
	if (lo->started)
		status->flags |= TCFLAGS_ACTIVE;
	if (lo->callback != NULL)
		status->flags |= TCFLAGS_HANDLER;
	status->timeout = lo->timeout_us;
	status->timeleft = 0;
	if (lo->started) {
		/* d1_timer_remaining() is CUR + 1 clocks: the down-counter
		 * includes zero, so CUR = 0 still has one clock to go. The
		 * conversion is exact for 24 MHz and its prescaled rates. */
		ns = d1_timer_clocks_to_ns(&lo->t, d1_timer_remaining(&lo->t));
		status->timeleft = (uint32_t)(ns / 1000u);
	}
	leave_critical_section(flags);
	return OK;
}

static int d1_nx_timer_settimeout(struct timer_lowerhalf_s *lower, uint32_t timeout)
{
	struct d1_nx_timer_lower *lo = (struct d1_nx_timer_lower *)lower;
	irqstate_t flags;
	int ret = OK;

	if (timeout == 0u)
		return -EINVAL;
	flags = enter_critical_section();
	lo->timeout_us = timeout;
	if (lo->started)
		ret = d1_nx_timer_arm(lo);
	leave_critical_section(flags);
	return ret;
}

static void d1_nx_timer_setcallback(struct timer_lowerhalf_s *lower, tccb_t callback, void *arg)
{
	struct d1_nx_timer_lower *lo = (struct d1_nx_timer_lower *)lower;
	irqstate_t flags;

	flags = enter_critical_section();
	lo->callback = callback;
	lo->arg = arg;
	leave_critical_section(flags);
}

static int d1_nx_timer_ioctl(struct timer_lowerhalf_s *lower, int cmd, unsigned long arg)
{
	(void)lower;
	(void)cmd;
	(void)arg;
	return -ENOTTY;
}

static int d1_nx_timer_maxtimeout(struct timer_lowerhalf_s *lower, uint32_t *maxtimeout)
{
	(void)lower;
	/* Every 1..UINT32_MAX us is an exact period: 24 clocks per us at
	 * OSC24M /1 up to 2^32 clocks (178 s), and the AUTO choice moves to a
	 * prescaler (/32 reaches 5726 s) beyond that. */
	*maxtimeout = UINT32_MAX;
	return OK;
}

static const struct timer_ops_s g_d1_timer_ops = {
        .start = d1_nx_timer_start,
        .stop = d1_nx_timer_stop,
        .getstatus = d1_nx_timer_getstatus,
        .settimeout = d1_nx_timer_settimeout,
        .setcallback = d1_nx_timer_setcallback,
        .ioctl = d1_nx_timer_ioctl,
        .maxtimeout = d1_nx_timer_maxtimeout,
};

int d1_nuttx_timer0_register(const char *path)
{
	struct d1_nx_timer_lower *lo = &g_d1_timer0;
	d1_err_t err;
	int ret;

	lo->ops = &g_d1_timer_ops;
	lo->callback = NULL;
	lo->arg = NULL;
	lo->timeout_us = 0u;
	lo->started = false;
	err = d1_timer_init(&lo->t, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ);
	if (err != D1_OK)
		return d1_nuttx_errno(err);
	d1_nx_timer_halt(lo);

	ret = irq_attach(D1_NX_IRQ_TIMER0, d1_nx_timer_isr, lo);
	if (ret < 0)
		return ret;
	up_enable_irq(D1_NX_IRQ_TIMER0);

	if (timer_register(path, (struct timer_lowerhalf_s *)lo) == NULL) {
		up_disable_irq(D1_NX_IRQ_TIMER0);
		irq_detach(D1_NX_IRQ_TIMER0);
		return -EEXIST;
	}
	return OK;
}
