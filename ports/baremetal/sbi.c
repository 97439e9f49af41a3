/* SPDX-License-Identifier: Apache-2.0 */
/* SBI calls: `ecall` from S-mode, a7 = extension, a6 = function (SBI spec 3). */
#include "bm_sbi.h"

#include "bm_csr.h"

/* Probed once at boot, before interrupts are enabled; read-only afterwards. */
static struct {
	uint32_t spec;
	long impl_id;
	long impl_ver;
	bool time;
	bool srst;
} sbi_info;

struct bm_sbiret bm_sbi_call(uint32_t eid, uint32_t fid, uint64_t a0, uint64_t a1, uint64_t a2)
{
	register uint64_t r_a0 __asm__("a0") = a0;
	register uint64_t r_a1 __asm__("a1") = a1;
	register uint64_t r_a2 __asm__("a2") = a2;
	register uint64_t r_a6 __asm__("a6") = fid;
	register uint64_t r_a7 __asm__("a7") = eid;
	__asm__ volatile("ecall"
	                 : "+r"(r_a0), "+r"(r_a1)
	                 : "r"(r_a2), "r"(r_a6), "r"(r_a7)
	                 : "memory");
	return (struct bm_sbiret){.error = (long)r_a0, .value = (long)r_a1};
}

static bool probe(uint32_t eid)
{
	struct bm_sbiret r = bm_sbi_call(BM_SBI_EXT_BASE, 3u, eid, 0, 0); /* probe_extension */
	return r.error == 0 && r.value != 0;
}

void bm_sbi_init(void)
{
	struct bm_sbiret r = bm_sbi_call(BM_SBI_EXT_BASE, 0u, 0, 0, 0); /* get_spec_version */
	if (r.error != 0) {
		return; /* v0.1 firmware: legacy calls only */
	}
	sbi_info.spec = (uint32_t)r.value;
	sbi_info.impl_id = bm_sbi_call(BM_SBI_EXT_BASE, 1u, 0, 0, 0).value;
	sbi_info.impl_ver = bm_sbi_call(BM_SBI_EXT_BASE, 2u, 0, 0, 0).value;
	sbi_info.time = probe(BM_SBI_EXT_TIME);
	sbi_info.srst = probe(BM_SBI_EXT_SRST);
}

uint32_t bm_sbi_spec_version(void)
{
	return sbi_info.spec;
}

long bm_sbi_impl_id(void)
{
	return sbi_info.impl_id;
}

long bm_sbi_impl_version(void)
{
	return sbi_info.impl_ver;
}

bool bm_sbi_has_time(void)
{
	return sbi_info.time;
}

bool bm_sbi_has_srst(void)
{
	return sbi_info.srst;
}

void bm_sbi_set_timer(uint64_t when)
{
	if (sbi_info.time) {
		(void)bm_sbi_call(BM_SBI_EXT_TIME, 0u, when, 0, 0);
	} else {
		(void)bm_sbi_call(BM_SBI_EXT_LEGACY_SET_TIMER, 0u, when, 0, 0);
	}
}

void bm_sbi_putchar(int ch)
{
	(void)bm_sbi_call(BM_SBI_EXT_LEGACY_PUTCHAR, 0u, (uint64_t)(unsigned char)ch, 0, 0);
}

static __attribute__((noreturn)) void srst(uint32_t type, uint32_t reason)
{
	bm_irq_disable();
	if (sbi_info.srst) {
		(void)bm_sbi_call(BM_SBI_EXT_SRST, 0u, type, reason, 0);
	}
	if (type == BM_SBI_SRST_SHUTDOWN) {
		(void)bm_sbi_call(BM_SBI_EXT_LEGACY_SHUTDOWN, 0u, 0, 0, 0);
	}
	for (;;) {
		bm_wfi(); /* the firmware refused: park the hart */
	}
}

void bm_sbi_shutdown(bool failure)
{
	srst(BM_SBI_SRST_SHUTDOWN, failure ? BM_SBI_SRST_REASON_FAILURE : BM_SBI_SRST_REASON_NONE);
}

void bm_sbi_reboot(void)
{
	srst(BM_SBI_SRST_COLD_REBOOT, BM_SBI_SRST_REASON_NONE);
}
