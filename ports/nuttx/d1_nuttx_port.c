/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NuttX side of the library's OS contract (include/d1/port.h).
 *
 * The drivers need a bounded busy-wait and a nestable interrupt-disable.
 * lichee-rv-86-panel:nsh is FLAT and single-hart (no CONFIG_SMP), so
 * disabling local interrupts (sstatus.SIE in S-mode) is enough to exclude
 * every other context that may touch the same registers.
 */
#include <nuttx/config.h>

#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>

#include "d1/port.h"

#ifdef CONFIG_SMP
#error "d1_port_critical_enter() only masks the local hart; use spin locks for SMP"
#endif

void d1_port_delay_us(uint32_t us)
{
	/* up_udelay() is NuttX's calibrated busy loop
	 * (CONFIG_BOARD_LOOPSPERMSEC); it never sleeps, so it is safe with
	 * interrupts disabled and from the tick ISR. */
	up_udelay((useconds_t)us);
}

uintptr_t d1_port_critical_enter(void)
{
	return (uintptr_t)up_irq_save();
}

void d1_port_critical_exit(uintptr_t state)
{
	up_irq_restore((irqstate_t)state);
}

#include <errno.h>

#include "d1/error.h"
#include "d1_nuttx.h"

int d1_nuttx_errno(int err)
{
	switch (err) {
	case D1_OK:
		return 0;
	case D1_EINVAL:
		return -EINVAL;
	case D1_ERANGE:
		return -ERANGE;
	case D1_ETIMEDOUT:
		return -ETIMEDOUT;
	case D1_ENOTSUP:
		return -ENOTSUP;
	case D1_EBUSY:
		return -EBUSY;
	case D1_EAGAIN:
		return -EAGAIN;
	case D1_ENODELEG:
		return -EPERM;
	case D1_ESTATE:
	default:
		return -EIO;
	}
}
