// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
/*
 * The d1drivers port contract (d1/port.h) with Linux primitives.
 *
 * d1_port_critical_enter/exit: the library's critical sections guard a
 * read-modify-write of a register two handles share (the Timer block's
 * IRQ_EN) and a handle against its own channel's d1_timer_isr(). Interrupts
 * off on this CPU, plus one raw spinlock against the other CPUs (a raw
 * lock: the handler runs in hard interrupt context, PREEMPT_RT included).
 * The contract asks that sections nest; a spinlock does not, so the owner
 * CPU and a depth are kept, read only with interrupts off on that CPU.
 *
 * d1_port_delay_us: udelay() (the library asks for < 20 ms; riscv's
 * udelay() counts the time CSR for any length).
 *
 * d1_port_probe32 (optional) is not supplied: the module compiles none of
 * the library code that uses it.
 */
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "d1/port.h"

static DEFINE_RAW_SPINLOCK(d1_port_lock);
static int d1_port_owner = -1;
static unsigned int d1_port_depth;

uintptr_t d1_port_critical_enter(void)
{
	unsigned long flags;
	int cpu;

	local_irq_save(flags);
	cpu = raw_smp_processor_id();
	if (READ_ONCE(d1_port_owner) != cpu) {
		raw_spin_lock(&d1_port_lock);
		WRITE_ONCE(d1_port_owner, cpu);
	}
	d1_port_depth++;
	return flags;
}

void d1_port_critical_exit(uintptr_t state)
{
	if (--d1_port_depth == 0) {
		WRITE_ONCE(d1_port_owner, -1);
		raw_spin_unlock(&d1_port_lock);
	}
	local_irq_restore((unsigned long)state);
}

void d1_port_delay_us(uint32_t us)
{
	udelay(us);
}
