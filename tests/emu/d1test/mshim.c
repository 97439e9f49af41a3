/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test M-mode shim (mshim_start.S): what the firmware leaves before the
 * S-mode payload starts.
 *   - PLIC_CTRL.S_PER = MSHIM_S_PER, through the library's M-mode-only
 *     d1_plic_set_s_per() (include/d1/plic.h; openC906 plic_ctrl.v: bit 0,
 *     reset 0, M-mode access only). OpenSBI sets it to 1 for a
 *     thead,c900-plic; 0 is what a firmware that does not know the D1 (or a
 *     CPU power-down that loses it) leaves.
 *   - PMP entry 0 = the whole address space RWX for S/U (RISC-V Privileged
 *     Spec 3.7: with PMP implemented and no entry matching, S-mode accesses
 *     fail), as OpenSBI's root domain does.
 *   - medeleg: every exception S-mode can handle (causes 0-8, 12, 13, 15;
 *     not 9 = ecall from S, which is ours); mideleg: SSI, STI, SEI (1, 5,
 *     9). So the payload's load access fault from the PLIC reaches its own
 *     trap handler, as under OpenSBI, which redirects it there.
 *   - mcounteren CY|TM|IR: the time CSR readable from S-mode.
 */
#include <stdint.h>

#include "d1/memmap.h"
#include "d1/plic.h"

#ifndef MSHIM_S_PER
#error "define MSHIM_S_PER 0 or 1"
#endif

#define CSRW(name, v) __asm__ volatile("csrw " #name ", %0" ::"r"((uint64_t)(v)) : "memory")

/* Result of the S_PER write, for a debugger (the payload cannot read it). */
volatile int32_t mshim_s_per_err;

void mshim_main(void);

void mshim_main(void)
{
	mshim_s_per_err = (int32_t)d1_plic_set_s_per(D1_PLIC_BASE, MSHIM_S_PER != 0);
	CSRW(pmpaddr0, ~0ull >> 10); /* NAPOT, all of it */
	CSRW(pmpcfg0, 0x1fu);        /* A = NAPOT, X, W, R */
	CSRW(medeleg, 0xb1ffu);
	CSRW(mideleg, 0x222u);
	CSRW(mcounteren, 7u);
}

/* The library's port contract, M-mode side: only what plic.c links in. */
#include "d1/port.h"

void d1_port_delay_us(uint32_t us)
{
	(void)us;
}

uintptr_t d1_port_critical_enter(void)
{
	return 0u; /* MIE is off throughout the shim */
}

void d1_port_critical_exit(uintptr_t state)
{
	(void)state;
}
