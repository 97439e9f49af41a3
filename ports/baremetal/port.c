/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's port contract (d1/port.h) for bare metal S-mode:
 * delays on the `time` CSR, critical sections on sstatus.SIE.
 */
#include "d1/port.h"

#include "bm.h"
#include "bm_csr.h"

void d1_port_delay_us(uint32_t us)
{
	/* Round up so the wait is never shorter than asked; +1 tick covers the
	 * phase of the first reading. BM_TIMEBASE_HZ is a build-time constant. */
	uint64_t ticks = ((uint64_t)us * BM_TIMEBASE_HZ + 999999u) / 1000000u + 1u;
	uint64_t t0 = bm_rdtime();
	while (bm_rdtime() - t0 < ticks) {
	}
}

uintptr_t d1_port_critical_enter(void)
{
	uint64_t prev;
	__asm__ volatile("csrrci %0, sstatus, 2" : "=r"(prev)::"memory");
	return (uintptr_t)(prev & BM_SSTATUS_SIE);
}

void d1_port_critical_exit(uintptr_t state)
{
	if ((state & BM_SSTATUS_SIE) != 0u) {
		bm_irq_enable();
	}
}

uint64_t bm_time_to_us(uint64_t ticks)
{
	return ticks / (BM_TIMEBASE_HZ / 1000000u);
}
