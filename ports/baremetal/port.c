/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's port contract (d1/port.h) for bare metal S-mode:
 * delays on the `time` CSR (the library's d1_time_delay_us()), critical
 * sections on sstatus.SIE.
 */
#include "d1/port.h"
#include "d1/time.h"

#include "bm.h"
#include "bm_csr.h"

/* The library's time base and the port's are one value (d1/time.h
 * D1_TIME_HZ, set per platform by src/CMakeLists.txt). */
_Static_assert(D1_TIME_HZ == BM_TIMEBASE_HZ, "D1_TIME_HZ must be the platform's time CSR rate");

void d1_port_delay_us(uint32_t us)
{
	d1_time_delay_us(us); /* the reference delay on the time CSR */
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
