/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NuttX's interrupt side for the host tests of the Timer glue: see
 * nx_line_host.h. The calls are NuttX's (include/nuttx/irq.h,
 * include/nuttx/arch.h), written here from their contract: irq_attach()
 * installs the handler and its argument, up_enable_irq()/up_disable_irq()
 * gate the line, up_irq_save()/up_irq_restore() nest.
 */
#include "nx_line_host.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <arch/irq.h>
#include <nuttx/arch.h>

#include "sim.h"

struct nx_line nx_line;

void nx_line_reset(struct timer_model *tm, unsigned ch, int irq)
{
	memset(&nx_line, 0, sizeof(nx_line));
	nx_line.tm = tm;
	nx_line.ch = ch;
	nx_line.irq = irq;
}

void nx_panic(const char *file, int line)
{
	fail_msg("PANIC() at %s:%d", file, line);
}

irqstate_t up_irq_save(void)
{
	return (irqstate_t)nx_line.depth++;
}

void up_irq_restore(irqstate_t flags)
{
	assert_true(nx_line.depth > 0u);
	nx_line.depth--;
	assert_int_equal(nx_line.depth, flags);
}

irqstate_t enter_critical_section(void)
{
	return up_irq_save();
}

void leave_critical_section(irqstate_t flags)
{
	up_irq_restore(flags);
}

int irq_attach(int irq, xcpt_t isr, void *arg)
{
	assert_int_equal(irq, nx_line.irq);
	nx_line.attaches++;
	if (nx_line.attach_ret != 0) {
		return nx_line.attach_ret;
	}
	nx_line.isr = isr;
	nx_line.arg = arg;
	return 0;
}

int irq_detach(int irq)
{
	assert_int_equal(irq, nx_line.irq);
	nx_line.detaches++;
	nx_line.isr = NULL;
	return 0;
}

void up_enable_irq(int irq)
{
	assert_int_equal(irq, nx_line.irq);
	nx_line.enabled = true;
}

void up_disable_irq(int irq)
{
	if (irq == RISCV_IRQ_STIMER) {
		nx_line.stimer_disabled = true;
		return;
	}
	assert_int_equal(irq, nx_line.irq);
	nx_line.enabled = false;
}

void nx_line_step(uint64_t n)
{
	struct nx_line *l = &nx_line;
	uint64_t now;

	sim_advance(n);
	now = sim_now();
	if (l->isr == NULL || !l->enabled || !timer_model_irq(l->tm, l->ch)) {
		l->high = false;
		return;
	}
	if (!l->high) {
		l->high = true;
		l->since = now;
		if (l->lat_seed != 0u) {
			l->lat_seed = l->lat_seed * 1103515245u + 12345u;
			l->lat = (l->lat_seed >> 16) % l->lat_span;
		}
	}
	if (l->depth != 0u || l->dead || (now >= l->hold_from && now < l->hold_until) ||
	    now - l->since < l->lat) {
		return;
	}
	l->high = false;
	l->isr_calls++;
	assert_int_equal(l->isr(l->irq, NULL, l->arg), 0);
	if (l->after_isr != NULL) {
		l->after_isr();
	}
}

void nx_line_run_for(uint64_t ticks)
{
	uint64_t end = sim_now() + ticks;

	while (sim_now() < end) {
		uint64_t to = timer_model_ticks_to_boundary(nx_line.tm, nx_line.ch);
		uint64_t n = end - sim_now();

		if (!nx_line.high && to > 4u && !timer_model_irq(nx_line.tm, nx_line.ch)) {
			if (n > to - 2u) {
				n = to - 2u;
			}
			sim_advance(n);
			continue;
		}
		nx_line_step(1u);
	}
}
