/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Implementations behind the stand-in NuttX headers: interrupt masking that
 * counts its nesting, and the model time CSR behind d1_time_now().
 */
#include "nx_standin.h"

#include <string.h>

#include <nuttx/irq.h>

#include "d1/time.h"

struct nx_standin_clock nx_clock;
unsigned nx_irq_depth;
uint64_t nx_irq_saves;

void nx_standin_reset(void)
{
	memset(&nx_clock, 0, sizeof(nx_clock));
	nx_clock.step_ps = 1000u;
	nx_irq_depth = 0;
	nx_irq_saves = 0;
}

/* The time CSR of the hooked library build (include/d1/time.h). */
uint64_t d1_time_hook_now(void)
{
	uint64_t v;

	/* 24 MHz: one count per 1e6 / 24 ps, computed without rounding. */
	v = nx_clock.csr_base + (nx_clock.t_ps + nx_clock.phase_ps) * 24u / 1000000u;
	nx_clock.last_read_ps = nx_clock.t_ps;
	nx_clock.t_ps += nx_clock.step_ps;
	nx_clock.reads++;
	return v;
}

irqstate_t up_irq_save(void)
{
	nx_irq_saves++;
	return (irqstate_t)(nx_irq_depth++ == 0 ? 0x2u : 0x0u); /* SIE was set at depth 0 */
}

void up_irq_restore(irqstate_t flags)
{
	if (nx_irq_depth > 0) {
		nx_irq_depth--;
	}
	(void)flags;
}

irqstate_t enter_critical_section(void)
{
	return up_irq_save();
}

void leave_critical_section(irqstate_t flags)
{
	up_irq_restore(flags);
}
