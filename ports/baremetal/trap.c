/* SPDX-License-Identifier: Apache-2.0 */
/*
 * S-mode trap dispatch. scause (Privileged Spec 4.1.9): bit 63 = interrupt;
 * code 9 = supervisor external (the PLIC's context-1 output, SEIP),
 * 5 = supervisor timer (STIP, driven by SBI set_timer / stimecmp).
 */
#include <stddef.h>

#include "bm.h"
#include "bm_csr.h"

static bm_timer_hook_t timer_hook;
static bm_ext_hook_t ext_hook;
static uint64_t spurious;

void bm_set_timer_hook(bm_timer_hook_t hook)
{
	timer_hook = hook;
}

void bm_set_ext_hook(bm_ext_hook_t hook)
{
	ext_hook = hook;
}

uint64_t bm_spurious_traps(void)
{
	return spurious;
}

uint64_t bm_trap(uint64_t scause, uint64_t sepc, uint64_t stval)
{
	if ((scause & BM_SCAUSE_INT) != 0u) {
		uint64_t code = scause & ~BM_SCAUSE_INT;
		if (code == BM_IRQ_S_EXT && ext_hook != NULL) {
			ext_hook();
			return sepc;
		}
		if (code == BM_IRQ_S_TIMER && timer_hook != NULL) {
			timer_hook();
			return sepc;
		}
		/* Nobody owns it: mask it so it cannot storm, and count it. */
		BM_CSR_CLEAR(sie, 1ull << (code & 63u));
		spurious++;
		return sepc;
	}
	/* The fault-safe probe of d1_port_probe32() (port.c): resume after it. */
	if (bm_probe_fixup(scause, &sepc)) {
		return sepc;
	}
	/* Any other exception is a bug in the image: say where and stop. */
	bm_printf("\nFATAL: exception scause=%llx sepc=%llx stval=%llx\n",
	          (unsigned long long)scause, (unsigned long long)sepc, (unsigned long long)stval);
	bm_puts("FAIL exception\n");
	bm_exit(2);
}
