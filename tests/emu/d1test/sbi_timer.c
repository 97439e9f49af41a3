/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test sbi_timer: does the firmware's SBI timer ever interrupt? On the
 * board it does not: the D1 device trees describe no CLINT, so OpenSBI has
 * no timer device, still advertises the TIME extension, and set_timer
 * succeeds without a supervisor timer interrupt ever following
 * (docs/hardware-facts.md "Why SBI set_timer never interrupts on the
 * board"). Every D1 image here must
 * therefore wake itself with a D1 timer, never with set_timer.
 *
 * The image arms set_timer 1 ms ahead with sie.STIE and interrupts on,
 * then waits WAIT_MS of the `time` CSR (the wait is bounded by that CSR
 * alone) and prints
 *   "SBITIMER time_ext=<0|1> armed=<t> waited=<counts> fired=<n>"
 * which tests/emu/d1test_sbi_timer.py asserts (fired=0 on the machine as
 * the board is; fired>=1 with the machine property sbi-timer=on, the
 * negative control that shows the image sees a timer that fires).
 */
#include <stdint.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/time.h"

#define LEAD_US 1000u /* set_timer deadline, ahead of "now" */
#define WAIT_MS 20u   /* how long the image looks for the interrupt */

static volatile uint32_t fired;

static void sti(void)
{
	fired++;
	bm_sbi_set_timer(UINT64_MAX); /* clears STIP (SBI spec 6.1) */
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early(); /* the watchdog's takeover, as every image */
	bm_board_console_init(0u);
	bm_platform_report();

	bm_set_timer_hook(sti);
	uint64_t armed = d1_time_now() + (uint64_t)LEAD_US * (BM_TIMEBASE_HZ / 1000000u);
	bm_sbi_set_timer(armed);
	BM_CSR_SET(sie, BM_SIE_STIE);
	bm_irq_enable();
	uint64_t t0 = d1_time_now();
	const uint64_t wait = (uint64_t)WAIT_MS * (BM_TIMEBASE_HZ / 1000u);
	while (d1_time_now() - t0 < wait) {
		/* busy: a WFI could sleep for ever here on the board */
	}
	uint64_t waited = d1_time_now() - t0;
	bm_irq_disable();
	BM_CSR_CLEAR(sie, BM_SIE_STIE);
	bm_printf("SBITIMER time_ext=%u armed=%llu waited=%llu fired=%u\n",
	          bm_sbi_has_time() ? 1u : 0u, (unsigned long long)armed,
	          (unsigned long long)waited, (unsigned)fired);
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
