/* SPDX-License-Identifier: Apache-2.0 */
#include "bm_board.h"

#include <stddef.h>

#include "bm.h"
#include "bm_csr.h"
#include "bm_platform.h"
#include "bm_stack.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic_regs.h"

struct d1_uart bm_uart;
struct d1_plic bm_plic;
struct d1_plic_stats bm_plic_stats;

/*
 * Handler table indexed by source id (0 unused), sized to the highest source
 * an image attaches (77 entries on the D1 instead of 176: 1,848 B of .bss
 * instead of 4,224). d1_plic_isr() treats an id beyond the table as
 * unhandled (completed, masked, counted: d1/plic.h), so a source outside it
 * can never run a stale handler; bm_board_irq_attach() refuses it.
 */
#if defined(BM_PLATFORM_QEMU_VIRT)
#define BM_IRQ_TABLE_LEN ((BM_UART_IRQ > BM_RTC_IRQ ? BM_UART_IRQ : BM_RTC_IRQ) + 1u)
#else
#define BM_IRQ_TABLE_LEN ((BM_UART_IRQ > D1_IRQ_TIMER1 ? BM_UART_IRQ : D1_IRQ_TIMER1) + 1u)
#endif
static struct d1_plic_entry irq_table[BM_IRQ_TABLE_LEN];

unsigned bm_plic_prio_max(void)
{
	return BM_PLIC_PRIO_MAX;
}

void bm_board_putc(char c)
{
	/* A timeout here has nowhere to be reported: it is bounded, and the
	 * byte is counted in bm_uart's stats (tx_timeouts). */
	(void)d1_uart_putc(&bm_uart, (uint8_t)c);
}

void bm_board_console_flush(void)
{
	/* D1_EINVAL (no MMIO) before the console is up, D1_ETIMEDOUT bounded. */
	(void)d1_uart_drain(&bm_uart);
}

void bm_board_console_init(uint8_t rx_trigger)
{
	uint32_t clk_hz;
	unsigned fifo;
#if defined(BM_PLATFORM_QEMU_VIRT)
	clk_hz = BM_UART_CLK_HZ;
	fifo = 16u; /* QEMU serial.c UART_FIFO_LENGTH */
#else
	clk_hz = bm_d1_uart_clock_init();
	fifo = D1_UART_FIFO_DEPTH;
#endif
	bm_check(d1_uart_init(&bm_uart, BM_UART_BASE, BM_UART_REG_SHIFT, clk_hz, fifo),
	         "d1_uart_init");
	const struct d1_uart_config cfg = {
	        .baud = 115200u,
	        .data_bits = 8u,
	        .parity = D1_UART_PARITY_NONE,
	        .stop_bits = 1u,
	        .fifo = true,
	        .rx_trigger = rx_trigger,
	        .tx_trigger = 0u,
	};
	bm_check(d1_uart_configure(&bm_uart, &cfg, NULL), "d1_uart_configure");
	bm_console_set(bm_board_putc, bm_board_console_flush);
}

void bm_board_dispatch(void)
{
	(void)d1_plic_isr(&bm_plic, irq_table, BM_IRQ_TABLE_LEN, &bm_plic_stats);
}

uint32_t bm_board_plic_fw_threshold;

void bm_board_plic_init(unsigned threshold)
{
	/* What the firmware left (OpenSBI: 7), for the boot report. */
	bm_check(d1_plic_read_threshold(BM_PLIC_BASE, BM_PLIC_CONTEXT, &bm_board_plic_fw_threshold),
	         "d1_plic_read_threshold");
	d1_err_t err = d1_plic_init_ex(&bm_plic, BM_PLIC_BASE, BM_PLIC_CONTEXT, BM_PLIC_NSOURCES,
	                               threshold, bm_plic_prio_max());
	if (err == D1_ENODELEG) {
		bm_puts("FAIL PLIC not delegated to S-mode (PLIC_CTRL.S_PER = 0?)\n");
		bm_exit(1);
	}
	bm_check(err, "d1_plic_init_ex");
	bm_set_ext_hook(bm_board_dispatch);
	BM_CSR_SET(sie, BM_SIE_SEIE);
	bm_platform_set_irq_attach(bm_board_irq_attach);
}

void bm_board_irq_attach(unsigned source, d1_plic_handler_t fn, void *arg, unsigned prio)
{
	if (source == 0u || source > BM_PLIC_NSOURCES || source >= BM_IRQ_TABLE_LEN) {
		bm_check(D1_EINVAL, "bm_board_irq_attach");
		return;
	}
	irq_table[source] = (struct d1_plic_entry){.fn = fn, .arg = arg, .edge = false};
	bm_check(d1_plic_set_priority(&bm_plic, source, prio), "d1_plic_set_priority");
	bm_check(d1_plic_enable(&bm_plic, source), "d1_plic_enable");
}

void bm_stack_report(void)
{
	/* The stack's bounds, from the linker script (ld/common.ld). */
	extern const uint64_t __stack_bottom[]; // NOLINT(bugprone-reserved-identifier): ld symbol
	extern const uint64_t __stack_top[];    // NOLINT(bugprone-reserved-identifier): ld symbol
	/* Two symbols are two objects to C: compare addresses, not pointers. */
	const uintptr_t top = (uintptr_t)__stack_top;
	const uint64_t *p = __stack_bottom;

	while ((uintptr_t)p < top && *p == BM_STACK_PAINT) {
		p++;
	}
	bm_printf("stack: %lu of %lu bytes used (high-water mark of the painted stack)\n",
	          (unsigned long)(top - (uintptr_t)p),
	          (unsigned long)(top - (uintptr_t)__stack_bottom));
}
