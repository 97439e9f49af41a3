/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What NuttX does around the serial glue (ports/nuttx/d1_nuttx_uart.c), for
 * its host test: interrupt masking on the simulator's model
 * (tests/model/sim.h), irq_attach() and the PLIC line, and the serial upper
 * half's two interrupt-side loops, written from their documented contract
 * (NuttX drivers/serial/serial.c: uart_recvchars() stores bytes while
 * rxavailable() and the buffer has room; uart_xmitchars() sends while the
 * buffer holds bytes and txready(), and turns TX interrupts off when it is
 * empty).
 */
#include "nx_uart_host.h"

#include <assert.h>
#include <string.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#ifdef CONFIG_SERIAL_TERMIOS
#include <termios.h>
#endif

#include "d1/port.h"

struct nx_uart_host nx_uart;

void nx_uart_host_reset(void)
{
	memset(&nx_uart, 0, sizeof(nx_uart));
}

irqstate_t up_irq_save(void)
{
	return d1_port_critical_enter();
}

void up_irq_restore(irqstate_t flags)
{
	d1_port_critical_exit(flags);
}

irqstate_t enter_critical_section(void)
{
	return d1_port_critical_enter();
}

void leave_critical_section(irqstate_t flags)
{
	d1_port_critical_exit(flags);
}

int irq_attach(int irq, xcpt_t isr, void *arg)
{
	nx_uart.irq = irq;
	nx_uart.isr = isr;
	nx_uart.isr_arg = arg;
	return 0;
}

int irq_detach(int irq)
{
	if (irq == nx_uart.irq) {
		nx_uart.isr = NULL;
	}
	return 0;
}

void up_enable_irq(int irq)
{
	if (irq == nx_uart.irq) {
		nx_uart.enabled = true;
	}
}

void up_disable_irq(int irq)
{
	if (irq == nx_uart.irq) {
		nx_uart.enabled = false;
	}
}

int uart_register(const char *path, uart_dev_t *dev)
{
	if (nx_uart.registered < 4u) {
		nx_uart.paths[nx_uart.registered++] = path;
	}
	nx_uart.dev = dev;
	return 0;
}

static sbuf_size_t next(const struct uart_buffer_s *b, sbuf_size_t i)
{
	return (sbuf_size_t)((i + 1) % b->size);
}

/* Room for the next contiguous run of bytes at the head of @p b (one slot
 * stays free: head == tail means empty). */
static sbuf_size_t run_in(const struct uart_buffer_s *b)
{
	if (b->tail > b->head) {
		return (sbuf_size_t)(b->tail - b->head - 1);
	}
	return (sbuf_size_t)(b->size - b->head - (b->tail == 0 ? 1 : 0));
}

/* With recvbuf (the lower half moves bursts), one call per contiguous run
 * of free buffer while rxavailable(); otherwise one receive() per byte.
 * A byte with no room is read and dropped, as NuttX's loop does. */
void uart_recvchars(uart_dev_t *dev)
{
	struct uart_buffer_s *rb = &dev->recv;
	unsigned int status;

	nx_uart.recvchars_calls++;
	for (unsigned k = 0; k < 4096u && dev->ops->rxavailable(dev); k++) {
		bool full = next(rb, rb->head) == rb->tail;

		if (dev->ops->recvbuf != NULL) {
			char dump;
			sbuf_size_t n = full ? 1 : run_in(rb);
			ssize_t got = dev->ops->recvbuf(dev, full ? &dump : &rb->buffer[rb->head],
			                                (size_t)n);

			assert(got >= 0 && got <= n);
			if (full) {
				nx_uart.rx_dropped += (unsigned)got;
			} else {
				rb->head = (sbuf_size_t)((rb->head + got) % rb->size);
			}
			continue;
		}
		int ch = dev->ops->receive(dev, &status);

		nx_uart.bad_status += status != 0u ? 1u : 0u;
		if (full) {
			nx_uart.rx_dropped++;
			continue;
		}
		rb->buffer[rb->head] = (char)ch;
		rb->head = next(rb, rb->head);
	}
}

/* With sendbuf, one call per contiguous run of queued bytes while
 * txready(); otherwise one send() per byte. */
void uart_xmitchars(uart_dev_t *dev)
{
	struct uart_buffer_s *xb = &dev->xmit;

	nx_uart.xmitchars_calls++;
	while (xb->head != xb->tail && dev->ops->txready(dev)) {
		if (dev->ops->sendbuf != NULL) {
			sbuf_size_t n = xb->tail < xb->head ? (sbuf_size_t)(xb->head - xb->tail)
			                                    : (sbuf_size_t)(xb->size - xb->tail);
			ssize_t put = dev->ops->sendbuf(dev, &xb->buffer[xb->tail], (size_t)n);

			assert(put >= 0 && put <= n);
			xb->tail = (sbuf_size_t)((xb->tail + put) % xb->size);
			continue;
		}
		dev->ops->send(dev, (unsigned char)xb->buffer[xb->tail]);
		xb->tail = next(xb, xb->tail);
	}
	if (xb->head == xb->tail) {
		dev->ops->txint(dev, false);
	}
}

#ifdef CONFIG_SERIAL_TERMIOS
/* NuttX's libc pair for a rate given in bits per second (its table of B*
 * codes is not needed here: the glue and the tests pass rates). */
speed_t cfgetspeed(const struct termios *termiosp)
{
	return termiosp->c_speed;
}

int cfsetspeed(struct termios *termiosp, speed_t speed)
{
	termiosp->c_speed = speed;
	return 0;
}
#endif
