/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * UART ring mode: caller-provided RX and TX rings served by d1_uart_isr()
 * (docs/uart-and-plic.md "Interrupt mode"). The rings are single producer
 * / single consumer with free-running volatile indices; on the single D1
 * hart a compiler barrier orders ring data against indices. The bytes go
 * through the one RX path and the one TX path (uart_priv.h).
 */
#include "d1/uart.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"
/* this object's register paths are 32-bit (uart_priv.h) */
#define UART_PATH_W32 1
#include "uart_priv.h"

static bool is_pow2(uint32_t v)
{
	return v != 0u && (v & (v - 1u)) == 0u;
}

/* The rings are written later, by the ISR (RX) and d1_uart_write() (TX):
 * non-const, though this function only stores the pointers. */
// NOLINTNEXTLINE(readability-non-const-parameter): stored for later writes
d1_err_t d1_uart_irq_start(struct d1_uart *u, uint8_t *rx_buf, uint32_t rx_size, uint8_t *tx_buf,
                           uint32_t tx_size)
{
	/* Each ring: a power-of-two buffer of at least 2 bytes, or none. */
	bool bad = (rx_size != 0u && (rx_buf == NULL || rx_size < 2u || !is_pow2(rx_size))) ||
	           (rx_size == 0u && rx_buf != NULL) ||
	           (tx_size != 0u && (tx_buf == NULL || tx_size < 2u || !is_pow2(tx_size))) ||
	           (tx_size == 0u && tx_buf != NULL);
	d1_err_t err = bad ? D1_EINVAL : d1_uartp_check_io(u);

	if (err == D1_OK && u->irq_mode) {
		err = D1_EBUSY;
	}
	if (err != D1_OK) {
		return err;
	}
	u->rx = (struct d1_uart_ring){.buf = rx_buf, .size = rx_size};
	u->tx = (struct d1_uart_ring){.buf = tx_buf, .size = tx_size};
	u->tx_irq = false;
	u->ier = D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS;
	u->irq_mode = true;
	uart_wr(u, D1_UART_IER, u->ier);
	return D1_OK;
}

d1_err_t d1_uart_irq_stop(struct d1_uart *u)
{
	uintptr_t s;

	if (u == NULL || u->base == 0u) {
		return D1_EINVAL;
	}
	if (!u->irq_mode) {
		return D1_ESTATE;
	}
	s = d1_port_critical_enter();
	u->ier = 0u;
	uart_wr(u, D1_UART_IER, 0u);
	u->tx_irq = false;
	u->irq_mode = false;
	d1_port_critical_exit(s);
	return D1_OK;
}

uint32_t d1_uart_write(struct d1_uart *u, const uint8_t *data, uint32_t len)
{
	struct d1_uart_ring *r;
	uint32_t head;
	uint32_t room;
	uint32_t n;

	if (u == NULL || data == NULL || !u->irq_mode || u->tx.size == 0u) {
		return 0u;
	}
	r = &u->tx;
	head = r->head;
	room = r->size - (head - r->tail);
	n = len < room ? len : room;
	for (uint32_t i = 0; i < n; i++) {
		r->buf[(head + i) & (r->size - 1u)] = data[i];
	}
	uart_barrier(); /* data before the index the ISR reads */
	r->head = head + n;
	if (n != 0u && !u->tx_irq) {
		/* The ISR clears ETBEI when the ring runs dry; re-check inside
		 * the critical section so the two cannot cross. Enabling ETBEI
		 * with THR empty raises the THRE interrupt at once (16550). */
		uintptr_t s = d1_port_critical_enter();
		if (!u->tx_irq && u->irq_mode) {
			u->ier = (uint8_t)(u->ier | D1_UART_IER_ETBEI_BITS);
			uart_wr(u, D1_UART_IER, u->ier);
			u->tx_irq = true;
		}
		d1_port_critical_exit(s);
	}
	return n;
}

uint32_t d1_uart_read(struct d1_uart *u, uint8_t *data, uint32_t len)
{
	struct d1_uart_ring *r;
	uint32_t tail;
	uint32_t avail;
	uint32_t n;

	if (u == NULL || data == NULL || u->rx.size == 0u) {
		return 0u;
	}
	r = &u->rx;
	tail = r->tail;
	avail = r->head - tail;
	uart_barrier(); /* index before the data it covers */
	n = len < avail ? len : avail;
	for (uint32_t i = 0; i < n; i++) {
		data[i] = r->buf[(tail + i) & (r->size - 1u)];
	}
	uart_barrier();
	r->tail = tail + n;
	return n;
}

/* TX refill on THRE: the FIFO is empty (PTIME is left off), so up to
 * tx_burst bytes fit, written by the TX path. ETBEI goes off as soon as
 * the ring is drained. */
static uint32_t tx_refill(struct d1_uart *u)
{
	struct d1_uart_ring *r = &u->tx;
	uint32_t tail = r->tail;
	uint32_t avail = r->head - tail;
	bool drains = avail <= u->tx_burst; /* this refill empties the ring */
	uint32_t n = drains ? avail : u->tx_burst;

	uart_barrier(); /* index before the data it covers */
	uart_tx(u, r->buf, tail, (size_t)r->size - 1u, n);
	uart_barrier();
	r->tail = tail + n;
	if (drains) {
		u->ier = (uint8_t)(u->ier & ~D1_UART_IER_ETBEI_BITS);
		uart_wr(u, D1_UART_IER, u->ier);
		u->tx_irq = false;
	}
	return D1_UART_EV_TX;
}

/* THRE, busy detect and modem status, looped on IIR (at most
 * D1_UART_ISR_ROUNDS identities) until it says none; an RX identity met
 * there is left pending for the next call (the line stays asserted). */
uint32_t d1_uartp_isr_other(struct d1_uart *u, uint32_t iid)
{
	uint32_t ev = 0u;

	/* A cause still pending after the bound keeps the (level) interrupt
	 * line high, so the trap simply re-enters. */
	for (unsigned i = 0; i < D1_UART_ISR_ROUNDS; i++) {
		switch (iid) {
		case D1_UART_IID_THRE: /* reading IIR already cleared it */
			/* ring mode: refill from the ring; byte mode
			 * (d1_uart_irq_poll()): the OS writes */
			ev |= u->irq_mode ? tx_refill(u) : D1_UART_EV_TX;
			break;
		case D1_UART_IID_BUSY:
			(void)uart_rd(u, D1_UART_USR); /* clears busy detect */
			u->stats.busy_detect++;
			ev |= D1_UART_EV_BUSY;
			break;
		case D1_UART_IID_MODEM:
			(void)uart_rd(u, D1_UART_MSR); /* clears modem status */
			break;
		default: /* NONE, an RX identity (left pending for the next
		          * call, the line stays asserted), or one this UART
		          * does not define */
			return ev;
		}
		iid = uart_rd(u, D1_UART_IIR) & D1_UART_IIR_IID_BITS;
	}
	return ev;
}

/* The ring-mode interrupt body and its RX slow half, 32-bit registers (the
 * 8-bit instances are in uart_16550.c). */
uint32_t d1_uartp_rx_ring_slow_w32(struct d1_uart *u, uint32_t iid, uint32_t n, uint32_t raw)
{
	return uart_rx_slow(u, true, UART_RX_RING, iid, n, raw, NULL, 0u, NULL);
}

uint32_t d1_uartp_isr_w32(struct d1_uart *u)
{
	return uart_irq_body(u, true);
}

uint32_t d1_uart_isr(struct d1_uart *u)
{
	if (u == NULL) {
		return 0u;
	}
	return UART_IS_W32(u) ? d1_uartp_isr_w32(u) : UART_W8(d1_uartp_isr_w8(u));
}

uint32_t d1_uart_tx_pending(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->tx.head - u->tx.tail;
}

uint32_t d1_uart_rx_available(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->rx.head - u->rx.tail;
}
