/* SPDX-License-Identifier: Apache-2.0 */
/*
 * State behind nx_uart_host.c (the NuttX side of the serial glue's host
 * test).
 */
#ifndef D1_TEST_NX_UART_HOST_H
#define D1_TEST_NX_UART_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include <nuttx/irq.h>
#include <nuttx/serial/serial.h>

struct nx_uart_host {
	int irq;    /* attached interrupt */
	xcpt_t isr; /* its handler (NULL: detached) */
	void *isr_arg;
	bool enabled; /* up_enable_irq() */
	unsigned registered;
	const char *paths[4];
	uart_dev_t *dev;
	unsigned recvchars_calls, xmitchars_calls;
	unsigned bad_status; /* receive() calls with status != 0 */
	unsigned rx_dropped; /* bytes read with the receive buffer full (dropped, as NuttX does) */
};

extern struct nx_uart_host nx_uart;

void nx_uart_host_reset(void);

#endif
