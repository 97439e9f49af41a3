/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/serial/serial.h>: the serial upper half's types as
 * the glue (ports/nuttx/d1_nuttx_uart.c) names them, field for field the
 * ones it uses (NuttX 4ebc8a7291df), and the upper-half entry points that
 * tests/nuttx/nx_uart_host.c implements.
 */
#ifndef D1_TEST_NUTTX_SERIAL_H
#define D1_TEST_NUTTX_SERIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef int16_t sbuf_size_t;

struct file;
struct uart_dev_s;

struct uart_buffer_s {
	volatile sbuf_size_t head; /* index of the next byte in */
	volatile sbuf_size_t tail; /* index of the next byte out */
	sbuf_size_t size;
	char *buffer;
};

struct uart_ops_s {
	int (*setup)(struct uart_dev_s *dev);
	void (*shutdown)(struct uart_dev_s *dev);
	int (*attach)(struct uart_dev_s *dev);
	void (*detach)(struct uart_dev_s *dev);
	int (*ioctl)(struct file *filep, int cmd, unsigned long arg);
	int (*receive)(struct uart_dev_s *dev, unsigned int *status);
	void (*rxint)(struct uart_dev_s *dev, bool enable);
	bool (*rxavailable)(struct uart_dev_s *dev);
	void (*send)(struct uart_dev_s *dev, int ch);
	void (*txint)(struct uart_dev_s *dev, bool enable);
	bool (*txready)(struct uart_dev_s *dev);
	bool (*txempty)(struct uart_dev_s *dev);
	int (*release)(struct uart_dev_s *dev);
	ssize_t (*recvbuf)(struct uart_dev_s *dev, void *buf, size_t len);
	ssize_t (*sendbuf)(struct uart_dev_s *dev, const void *buf, size_t len);
};

struct uart_dev_s {
	bool isconsole;
	struct uart_buffer_s xmit;
	struct uart_buffer_s recv;
	const struct uart_ops_s *ops;
	void *priv;
};

typedef struct uart_dev_s uart_dev_t;

int uart_register(const char *path, uart_dev_t *dev);
void uart_recvchars(uart_dev_t *dev);
void uart_xmitchars(uart_dev_t *dev);

#endif
