/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test wake: bm_platform_wake_at(), the D1 images' wake-up (Timer0
 * one-shot through the library; the firmware's SBI timer never fires on
 * the D1, docs/hardware-facts.md "CLINT"). For each case the hart sleeps in WFI
 * (interrupts masked around the check, so an expiry between the check and
 * the WFI still ends it) until the `time` CSR reaches the deadline, and
 * prints
 *   "WAKE <case> delta=<counts> late=<counts> wfis=<n>"
 * late = first `time` reading at or past the deadline minus the deadline,
 * wfis = WFIs that returned. Cases: 1 ms (one arm); 400 s, beyond one
 * arm's reach of 2^32 clocks (178.96 s: the interrupt re-arms twice, so 3
 * WFIs return); a deadline already past (the minimum lead). Then "WAKE
 * cancel expired=<0|1> pending=<0|1>": a wake-up armed 1 ms ahead and
 * cancelled has neither expired (Timer0's IRQ_STA) nor left an interrupt
 * pending in the PLIC 5 ms later. tests/emu/
 * d1test_wake.py asserts these under -icount shift=0,sleep=off, where the
 * 400 s pass in an instant of host time.
 */
#include <stdint.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic_regs.h"
#include "d1/time.h"
#include "d1/timer_regs.h"
#include "d1/uart.h"

static void sleep_until(const char *name, uint64_t delta)
{
	uint64_t now = d1_time_now();
	uint64_t when = now + delta;
	uint64_t wfis = 0;

	if (delta == 0u) {
		when = now - 1u; /* already past */
	}
	bm_platform_wake_at(when);
	bm_irq_disable();
	while ((now = d1_time_now()) < when) {
		bm_wfi();
		wfis++;
		bm_irq_enable(); /* the interrupt that ended the WFI is taken here */
		bm_irq_disable();
	}
	bm_irq_enable();
	bm_printf("WAKE %s delta=%llu late=%llu wfis=%llu\n", name, (unsigned long long)delta,
	          (unsigned long long)(now - when), (unsigned long long)wfis);
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early(); /* stops the watchdog the machine left running */
	bm_board_console_init(0u);
	bm_board_plic_init(0u);
	bm_platform_report();
	(void)d1_uart_drain(&bm_uart);
	bm_irq_enable();

	sleep_until("1ms", (uint64_t)BM_TIMEBASE_HZ / 1000u);
	sleep_until("400s", (uint64_t)BM_TIMEBASE_HZ * 400u);
	sleep_until("past", 0u);

	bm_irq_disable(); /* an expiry now stays in Timer0's IRQ_STA */
	bm_platform_wake_at(d1_time_now() + BM_TIMEBASE_HZ / 1000u);
	bm_platform_wake_at(UINT64_MAX);
	uint64_t t0 = d1_time_now();
	while (d1_time_now() - t0 < (uint64_t)BM_TIMEBASE_HZ / 200u) {
		/* 5 ms */
	}
	uint32_t sta = d1_mmio_read32(D1_TIMER_BASE + D1_TIMER_IRQ_STA_OFFSET) & 1u;
	uint32_t pend = d1_mmio_read32(BM_PLIC_BASE + D1_PLIC_PENDING_OFFSET(D1_IRQ_TIMER0 / 32u));
	bm_irq_enable();
	bm_printf("WAKE cancel expired=%u pending=%u spurious_traps=%llu\n", (unsigned)sta,
	          (unsigned)((pend >> (D1_IRQ_TIMER0 % 32u)) & 1u),
	          (unsigned long long)bm_spurious_traps());
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
