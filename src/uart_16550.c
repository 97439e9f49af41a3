/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The UART's byte-wide register accesses: the plain 16550 of QEMU virt
 * (ns16550a, reg-shift 0, byte registers: an unaligned 32-bit access there
 * faults, docs/uart-and-plic.md) and any instance set up with io_width 1.
 * Here are the 8-bit instances of the RX path, the TX path and the
 * interrupt bodies (their 32-bit twins: uart.c, uart_ring.c) and the byte
 * accessors of the cold paths. A D1_UART_DW_ONLY build (the D1, whose
 * UARTs take 32-bit accesses only) compiles none of it.
 */
/* this object's register paths are byte-wide (uart_priv.h) */
#define UART_PATH_W32 0
#include "uart_priv.h"

#ifndef D1_UART_DW_ONLY

uint32_t d1_uartp_rd8(const struct d1_uart *u, unsigned idx)
{
	return uart_io_rd(uart_io_of(u), idx);
}

void d1_uartp_wr8(const struct d1_uart *u, unsigned idx, uint32_t v)
{
	uart_io_wr(uart_io_of(u), idx, v);
}

uint32_t d1_uartp_rx_ring_slow_w8(struct d1_uart *u, uint32_t iid, uint32_t n, uint32_t raw)
{
	return uart_rx_slow(u, true, UART_RX_RING, iid, n, raw, NULL, 0u, NULL);
}

uint32_t d1_uartp_rx_slow_w8(struct d1_uart *u, unsigned mode, uint32_t iid, uint32_t n,
                             uint32_t raw, uint8_t *buf, uint32_t len, uint32_t *got)
{
	return uart_rx_slow(u, false, mode, iid, n, raw, buf, len, got);
}

uint32_t d1_uartp_rx_w8(struct d1_uart *u, unsigned mode, uint8_t *buf, uint32_t len, uint32_t *got)
{
	if (mode == UART_RX_BUF) {
		return uart_rx_buf(u, uart_io_of(u), buf, len, got);
	}
	return uart_rx_chars(u, uart_io_of(u), mode, D1_UART_IID_NONE, buf, len, got);
}

uint32_t d1_uartp_tx_room_w8(struct d1_uart *u, bool fifo)
{
	return uart_tx_room(u, fifo);
}

void d1_uartp_tx_write_w8(struct d1_uart *u, const uint8_t *buf, size_t at, size_t mask, uint32_t n)
{
	uart_tx_write(u, buf, at, mask, n);
}

uint32_t d1_uartp_isr_w8(struct d1_uart *u)
{
	return uart_irq_body(u, true);
}

uint32_t d1_uartp_poll_w8(struct d1_uart *u)
{
	return uart_irq_body(u, false);
}

#else
/* ISO C: a translation unit holds at least one declaration. */
typedef int d1_uart_16550_not_built;
#endif
