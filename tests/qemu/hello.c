/* SPDX-License-Identifier: Apache-2.0 */
/* Smoke image: boots, reports the firmware, checks the time base, exits. */
#include "bm.h"
#include "bm_csr.h"
#include "bm_sbi.h"
#include "d1/port.h"

int bm_main(uint64_t a0, uint64_t a1)
{
	bm_sbi_init();
	bm_printf("hello: hart %lu dtb %lx sbi %u.%u impl %ld ver %lx time=%d srst=%d\n",
	          (unsigned long)a0, (unsigned long)a1, bm_sbi_spec_version() >> 24,
	          bm_sbi_spec_version() & 0xFFFFFFu, bm_sbi_impl_id(), bm_sbi_impl_version(),
	          bm_sbi_has_time(), bm_sbi_has_srst());
	uint64_t t0 = bm_rdtime();
	uint64_t i0 = bm_rdinstret();
	d1_port_delay_us(1000);
	uint64_t dt = bm_rdtime() - t0;
	bm_printf("delay_us(1000): %lu ticks, %lu instret\n", (unsigned long)dt,
	          (unsigned long)(bm_rdinstret() - i0));
	/* Calibration of the instret figures: two adjacent reads differ by 1
	 * when instret counts instructions (QEMU -icount shift=0). */
	uint64_t r0 = bm_rdinstret();
	uint64_t r1 = bm_rdinstret();
	bm_printf("instret: adjacent reads differ by %lu\n", (unsigned long)(r1 - r0));
	if (dt < BM_TIMEBASE_HZ / 1000u) {
		bm_puts("FAIL delay too short\n");
		return 1;
	}
#ifdef HELLO_FORCE_FAIL
	/* Negative control: the exit path must carry a failure to the host. */
	bm_puts("FAIL hello (forced)\n");
	return HELLO_FORCE_FAIL;
#else
	bm_puts("PASS hello\n");
	return 0;
#endif
}
