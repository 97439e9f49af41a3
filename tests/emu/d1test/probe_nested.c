/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test probe_nested: d1_port_probe32() called from an interrupt handler
 * (the port contract allows it anywhere; d1_plic_check_delegation() is a
 * public call, and S_PER can be lost while an image runs,
 * docs/hardware-facts.md "PLIC"). Its access fault is a trap inside a trap: the hart writes sepc
 * and sstatus.SPP/SPIE again (RISC-V Privileged Spec 4.1.1, 4.1.7), so the
 * outer trap's return must not depend on what the CSRs hold when the
 * handler returns. The faulting address is one the machine does not decode
 * (QEMU answers a load access fault, scause 5, as the D1's PLIC does
 * without S_PER).
 *
 * Timer0 one-shot 1: its handler probes and records the result. The main
 * loop then checks that it resumed in its own code with interrupts on
 * (sstatus.SIE), and one-shot 2 (no probe) must reach its handler too.
 *   "PNEST result calls=<n> probe=<err> sie_after=<0|1> main_ok=<0|1>
 *    spurious_traps=<n>"
 * tests/emu/d1test_probe_nested.py asserts calls=2, probe=D1_ENODELEG
 * (as a number), sie_after=1, main_ok=1, spurious_traps=0.
 */
#include <stddef.h>
#include <stdint.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/time.h"
#include "d1/timer.h"

#define NO_DEVICE 0x08000000u /* decoded by nothing on the emulated D1 */

static struct d1_timer tmr;
static volatile uint32_t calls;
static volatile int32_t probe_err = 99;

static void timer0_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	if (d1_timer_isr(&tmr) == D1_TIMER_ISR_SPURIOUS) {
		return;
	}
	if (calls == 0u) {
		uint32_t v = 0;
		probe_err = (int32_t)d1_port_probe32(NO_DEVICE, false, &v);
	}
	calls = calls + 1u;
}

/* Wait (interrupts on) until @p n handler calls, at most 10 ms. */
static void wait_calls(uint32_t n)
{
	uint64_t t0 = d1_time_now();
	while (calls < n && d1_time_now() - t0 < (uint64_t)BM_TIMEBASE_HZ / 100u) {
	}
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(0u);
	bm_board_plic_init(0u);
	bm_check(d1_timer_init(&tmr, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ), "d1_timer_init");
	bm_board_irq_attach(D1_IRQ_TIMER0, timer0_irq, NULL, 1u);
	bm_check(d1_timer_irq_enable(&tmr, true), "d1_timer_irq_enable");
	bm_puts("PNEST start\n");
	(void)d1_uart_drain(&bm_uart);

	uint32_t main_ok = 0;
	bm_irq_enable();
	bm_check(d1_timer_oneshot_arm(&tmr, 2400u), "d1_timer_oneshot_arm 1"); /* 100 us */
	wait_calls(1u);
	/* Here only if the trap returned into this loop. */
	main_ok = calls == 1u ? 1u : 0u;
	uint32_t sie_after = (BM_CSR_READ(sstatus) & BM_SSTATUS_SIE) != 0u ? 1u : 0u;
	bm_check(d1_timer_oneshot_arm(&tmr, 2400u), "d1_timer_oneshot_arm 2");
	wait_calls(2u);
	bm_irq_disable();
	bm_printf("PNEST result calls=%u probe=%d sie_after=%u main_ok=%u spurious_traps=%llu\n",
	          (unsigned)calls, (int)probe_err, (unsigned)sie_after, (unsigned)main_ok,
	          (unsigned long long)bm_spurious_traps());
	(void)d1_uart_drain(&bm_uart);
	return 0;
}
