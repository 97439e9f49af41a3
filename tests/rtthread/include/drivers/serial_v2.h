/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/drivers/include/drivers/serial_v2.h. */
#ifndef __SERIAL_V2_H__
#define __SERIAL_V2_H__

#include <rtthread.h>

#include "ipc/ringbuffer.h"

#define BAUD_RATE_115200 115200

#define DATA_BITS_5 5
#define DATA_BITS_8 8

#define STOP_BITS_1 0
#define STOP_BITS_2 1

#define PARITY_NONE 0
#define PARITY_ODD  1
#define PARITY_EVEN 2

#define BIT_ORDER_LSB 0
#define NRZ_NORMAL    0

#define RT_DEVICE_FLAG_RX_BLOCKING     0x1000
#define RT_DEVICE_FLAG_RX_NON_BLOCKING 0x2000
#define RT_DEVICE_FLAG_TX_BLOCKING     0x4000
#define RT_DEVICE_FLAG_TX_NON_BLOCKING 0x8000

#define RT_SERIAL_RX_BLOCKING     RT_DEVICE_FLAG_RX_BLOCKING
#define RT_SERIAL_RX_NON_BLOCKING RT_DEVICE_FLAG_RX_NON_BLOCKING
#define RT_SERIAL_TX_BLOCKING     RT_DEVICE_FLAG_TX_BLOCKING
#define RT_SERIAL_TX_NON_BLOCKING RT_DEVICE_FLAG_TX_NON_BLOCKING

#define RT_DEVICE_CHECK_OPTMODE 0x20

#define RT_SERIAL_EVENT_RX_IND  0x01
#define RT_SERIAL_EVENT_TX_DONE 0x02

#define RT_SERIAL_RX_MINBUFSZ 64
#define RT_SERIAL_TX_MINBUFSZ 64

#define RT_SERIAL_TX_BLOCKING_BUFFER    1
#define RT_SERIAL_TX_BLOCKING_NO_BUFFER 0

#define RT_SERIAL_FLOWCONTROL_NONE 0

#define RT_SERIAL_CONFIG_DEFAULT                                                                   \
	{                                                                                          \
		BAUD_RATE_115200, DATA_BITS_8, STOP_BITS_1, PARITY_NONE, BIT_ORDER_LSB,            \
		        NRZ_NORMAL, RT_SERIAL_RX_MINBUFSZ, RT_SERIAL_TX_MINBUFSZ,                  \
		        RT_SERIAL_FLOWCONTROL_NONE, 0                                              \
	}

struct serial_configure {
	rt_uint32_t baud_rate;
	rt_uint32_t data_bits : 4;
	rt_uint32_t stop_bits : 2;
	rt_uint32_t parity : 2;
	rt_uint32_t bit_order : 1;
	rt_uint32_t invert : 1;
	rt_uint32_t rx_bufsz : 16;
	rt_uint32_t tx_bufsz : 16;
	rt_uint32_t flowcontrol : 1;
	rt_uint32_t reserved : 5;
};

struct rt_serial_rx_fifo {
	struct rt_ringbuffer rb;
	/* (the completion and index that follow are not used by the glue) */
};

struct rt_serial_tx_fifo {
	struct rt_ringbuffer rb;
	rt_size_t put_size;
	rt_bool_t activated;
	/* (the completion and storage that follow are not used by the glue) */
};

struct rt_serial_device {
	struct rt_device parent;
	const struct rt_uart_ops *ops;
	struct serial_configure config;
	void *serial_rx;
	void *serial_tx;
};

struct rt_uart_ops {
	rt_err_t (*configure)(struct rt_serial_device *serial, struct serial_configure *cfg);
	rt_err_t (*control)(struct rt_serial_device *serial, int cmd, void *arg);
	int (*putc)(struct rt_serial_device *serial, char c);
	int (*getc)(struct rt_serial_device *serial);
	rt_size_t (*transmit)(struct rt_serial_device *serial, rt_uint8_t *buf, rt_size_t size,
	                      rt_uint32_t tx_flag);
};

void rt_hw_serial_isr(struct rt_serial_device *serial, int event);
rt_err_t rt_hw_serial_register(struct rt_serial_device *serial, const char *name, rt_uint32_t flag,
                               void *data);

#endif
