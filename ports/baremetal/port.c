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

volatile uint32_t bm_delay_stalls;

void d1_port_delay_us(uint32_t us)
{
	/* The reference delay on the time CSR; a stopped CSR ends it early
	 * (d1/port.h): counted, and reported by the bench. */
	if (d1_time_delay_us(us) != D1_OK) {
		bm_delay_stalls++;
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

/*
 * Fault-safe probe (d1/port.h d1_port_probe32()): one lw or sw of fixed
 * 4-byte length (.option norvc) with probe_armed set. A load/store access
 * fault taken on it (scause 5 / 7, RISC-V Privileged Spec 4.1.9) reaches
 * bm_probe_fixup() from the trap handler, which records it and resumes after
 * the instruction. On the D1 an S-mode access to a PLIC priority register
 * without PLIC_CTRL.S_PER is answered with PSLVERR, i.e. such a fault
 * (docs/uart-and-plic.md). The PLIC check reads first, and a load fault is
 * precise; a store is only tried after a read succeeded.
 */
static volatile bool probe_armed;
static volatile bool probe_faulted;

d1_err_t d1_port_probe32(uintptr_t addr, bool write, uint32_t *value)
{
	uint32_t v = write ? *value : 0u;

	probe_faulted = false;
	probe_armed = true;
	if (write) {
		__asm__ volatile(".option push\n\t.option norvc\n\t"
		                 "fence w,o\n\tsw %0, 0(%1)\n\t"
		                 ".option pop" ::"r"(v),
		                 "r"(addr)
		                 : "memory");
	} else {
		__asm__ volatile(".option push\n\t.option norvc\n\t"
		                 "lw %0, 0(%1)\n\t"
		                 ".option pop\n\tfence i,r"
		                 : "+r"(v)
		                 : "r"(addr)
		                 : "memory");
	}
	probe_armed = false;
	if (probe_faulted) {
		return D1_ENODELEG;
	}
	if (!write) {
		*value = v;
	}
	return D1_OK;
}

bool bm_probe_fixup(uint64_t scause, uint64_t *sepc)
{
	if (!probe_armed || (scause != BM_EXC_LOAD_FAULT && scause != BM_EXC_STORE_FAULT)) {
		return false;
	}
	probe_faulted = true;
	probe_armed = false;
	*sepc += 4u; /* skip the (uncompressed) lw / sw: start.S resumes there */
	return true;
}
