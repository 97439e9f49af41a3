/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU virt: no watchdog, no CCU; the bench ends with SBI system reset. */
#include "bm.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"

void bm_platform_early(void)
{
}

void bm_platform_report(void)
{
	bm_puts("platform: QEMU virt, S-mode payload under the bundled OpenSBI\n");
}

void bm_platform_run_begin(void)
{
}

void bm_platform_run_sample(uint64_t samples, uint64_t missed, uint64_t boundaries)
{
	(void)samples;
	(void)missed;
	(void)boundaries;
}

void bm_platform_run_end(void)
{
}

void bm_platform_idle(uint64_t samples)
{
	(void)samples;
}

int bm_platform_finish(void)
{
	return 0; /* bm_main's return value goes to bm_exit() -> SBI SRST shutdown */
}

/* QEMU virt's platform has no interrupt of its own (its wake-up is the SBI
 * timer). */
void bm_platform_set_irq_attach(bm_irq_attach_t attach)
{
	(void)attach;
}

/* The wake-up only ends a WFI: the caller looks at the time. */
static void wake(void)
{
	bm_sbi_set_timer(UINT64_MAX); /* clears STIP (SBI spec 6.1) */
}

void bm_platform_wake_at(uint64_t when)
{
	bm_set_timer_hook(wake);
	bm_sbi_set_timer(when);
	if (when == UINT64_MAX) {
		BM_CSR_CLEAR(sie, BM_SIE_STIE);
	} else {
		BM_CSR_SET(sie, BM_SIE_STIE);
	}
}
