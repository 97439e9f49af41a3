/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NuttX's interrupt side for the host tests of the Timer glue
 * (test_nuttx_tick, test_nuttx_oneshot, test_nuttx_d1bench): one Timer
 * channel of the model wired to one PLIC line, NuttX's interrupt calls
 * (irq_attach(), up_enable_irq(), up_irq_save(), ...) recorded, and model
 * time that moves with the handler run `lat` ticks after the model raises
 * the line, unless interrupts are off, the line is held or dead.
 */
#ifndef D1_TEST_NX_LINE_HOST_H
#define D1_TEST_NX_LINE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include <nuttx/irq.h>

#include "timer_model.h"

struct nx_line {
	/* wiring */
	struct timer_model *tm;
	unsigned ch; /* Timer channel */
	int irq;     /* its NuttX irq (RISCV_IRQ_SEXT + PLIC source) */
	/* what NuttX was asked */
	xcpt_t isr;
	void *arg;
	int attach_ret; /* irq_attach()'s answer (0: attach) */
	unsigned attaches, detaches;
	bool enabled;         /* up_enable_irq(irq) */
	bool stimer_disabled; /* up_disable_irq(RISCV_IRQ_STIMER) */
	unsigned depth;       /* up_irq_save() nesting */
	/* delivery */
	uint64_t lat;                   /* line high -> handler, ticks */
	uint32_t lat_seed;              /* non-zero: lat drawn 0..lat_span-1 per rise */
	uint64_t lat_span;              /* see lat_seed */
	uint64_t hold_from, hold_until; /* no delivery in [from, until) */
	bool dead;                      /* the line never reaches the hart */
	bool high;
	uint64_t since;
	unsigned isr_calls;
	void (*after_isr)(void); /* the test's hook after each handler run */
};

extern struct nx_line nx_line;

/* Forget everything; wire channel @p ch of @p tm to NuttX irq @p irq. */
void nx_line_reset(struct timer_model *tm, unsigned ch, int irq);

/* @p n ticks of model time, then the handler if the line is up, enabled,
 * interrupts are on, the line is not held or dead and its latency is
 * over. */
void nx_line_step(uint64_t n);

/* @p ticks of model time: while the line is down and the channel counts,
 * straight to two ticks before its next boundary
 * (timer_model_ticks_to_boundary()), else one tick at a time. */
void nx_line_run_for(uint64_t ticks);

#endif
