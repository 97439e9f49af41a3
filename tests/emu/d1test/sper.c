/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test sper: the library's PLIC delegation check on the emulated D1, with
 * S_PER on and off (tests/emu/d1test_sper.py). The firmware decides S_PER: OpenSBI
 * sets it, the d1test M-mode shim (mshim.c) sets what it was built with.
 *
 * Without S_PER an S-mode access to a PLIC priority register is answered
 * with a bus error, a load access fault (openC906 plic_top.v /
 * plic_kid_busif.v; docs/uart-and-plic.md). d1_plic_check_delegation()
 * probes through d1_port_probe32() (ports/baremetal/port.c), so it must
 * report D1_ENODELEG and the image must go on; with S_PER it must report
 * D1_OK and an interrupt must then make the round trip through the PLIC.
 *
 * SPER_RAW_PROBE=1 builds the negative control: the same read done raw
 * (d1_mmio_read32, no fixup) must take the fault, so the test shows the
 * fault the probe protects against is real.
 *
 * Output lines (tests/emu/d1test.py parses them): "SPER key=value ...".
 */
#include <stdbool.h>
#include <stddef.h>

#include "bm.h"
#include "bm_board.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_sbi.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/plic_regs.h"
#include "d1/time.h"
#include "d1/timer.h"

#ifndef SPER_RAW_PROBE
#define SPER_RAW_PROBE 0
#endif

static const char *errname(d1_err_t e)
{
	switch (e) {
	case D1_OK:
		return "D1_OK";
	case D1_ENODELEG:
		return "D1_ENODELEG";
	case D1_ENOTSUP:
		return "D1_ENOTSUP";
	case D1_EINVAL:
		return "D1_EINVAL";
	default:
		return "other";
	}
}

static struct d1_timer tmr;
static volatile uint32_t irqs;
static volatile uint64_t irq_time;

static void timer0_irq(unsigned source, void *arg)
{
	(void)source;
	(void)arg;
	if (d1_timer_isr(&tmr) != D1_TIMER_ISR_SPURIOUS) {
		irq_time = d1_time_now();
		irqs++;
	}
}

/* With S_PER: one Timer0 deadline through the PLIC to the handler. */
static void irq_round_trip(void)
{
	bm_board_plic_init(0u);
	bm_check(d1_timer_init(&tmr, D1_TIMER_BASE, 0u, D1_OSC24M_HZ, D1_LOSC_HZ), "d1_timer_init");
	bm_board_irq_attach(D1_IRQ_TIMER0, timer0_irq, NULL, 1u);
	bm_check(d1_timer_irq_enable(&tmr, true), "d1_timer_irq_enable");
	bm_irq_enable();
	uint64_t t0 = d1_time_now();
	bm_check(d1_timer_oneshot_arm(&tmr, 2400u), "d1_timer_oneshot_arm");
	while (irqs == 0u && d1_time_now() - t0 < (uint64_t)24000u * 10u) {
		__asm__ volatile("wfi");
	}
	bm_printf("SPER irq_round_trip irqs=%u clocks=%llu plic_dispatched=%u\n", irqs,
	          (unsigned long long)(irqs ? irq_time - t0 : 0u), bm_plic_stats.dispatched);
}

int bm_main(uint64_t a0, uint64_t a1)
{
	(void)a0;
	(void)a1;
	bm_sbi_init();
	bm_platform_early();
	bm_board_console_init(1u);
	bm_printf("SPER start sbi_spec=%x\n", bm_sbi_spec_version());

	if (SPER_RAW_PROBE) {
		/* Deliberately provoke the hardware: no fixup armed. */
		bm_puts("SPER raw_read_now\n");
		uint32_t v = d1_mmio_read32(D1_PLIC_BASE + D1_PLIC_PRIO_OFFSET(D1_PLIC_NSOURCES));
		bm_printf("SPER raw_read_survived value=%u\n", v);
		(void)d1_uart_drain(&bm_uart);
		return 0;
	}

	struct d1_plic p;
	d1_err_t init = d1_plic_init_ex(&p, D1_PLIC_BASE, D1_PLIC_CTX_S, D1_PLIC_NSOURCES, 0u,
	                                D1_PLIC_PRIO_MAX);
	bm_printf("SPER init_ex=%s\n", errname(init));
	/* The check again, on the handle init filled: stable, and still safe. */
	unsigned same = 0;
	d1_err_t chk = D1_EINVAL;
	for (unsigned i = 0; i < 3u; i++) {
		chk = d1_plic_check_delegation(&p);
		same += chk == init;
	}
	bm_printf("SPER check=%s repeat_same=%u/3\n", errname(chk), same);
	/* Still alive: the console works, nothing unexpected trapped. */
	bm_printf("SPER survived spurious_traps=%llu\n", (unsigned long long)bm_spurious_traps());
	if (init == D1_OK) {
		irq_round_trip();
	}
	bm_puts("SPER end\n");
	(void)d1_uart_drain(&bm_uart); /* before SBI shutdown ends QEMU */
	return 0;
}
