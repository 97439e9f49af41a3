/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU virt: no watchdog, no CCU; the bench ends with SBI system reset. */
#include "bm.h"
#include "bm_platform.h"

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
