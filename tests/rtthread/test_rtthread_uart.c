/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/rtsmart/drv_d1_uart.c (serial V2 glue) on the CCU and UART models:
 * gate/reset and clock from the CCU driver, the baud the UART model
 * measures, polled transmit, interrupt receive into the framework's ring,
 * and every lost byte counted (line errors, framework ring full).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu_regs.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/uart.h"
#include "d1_rt.h"
#include "rtt_host.h"
#include "sim.h"
#include "uart_model.h"

#define IRQ ((int)D1_IRQ_UART(0))

static struct ccu_model cm;
static struct uart_model um;
static struct rt_serial_device *ser;
static struct {
	struct rt_serial_rx_fifo fifo;
	rt_uint8_t buf[512];
} rx;

static int setup(void **state)
{
	uint64_t apb1;

	(void)state;
	sim_reset();
	rtt_host_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	apb1 = ccu_model_apb1_hz(&cm);
	uart_model_init(&um, D1_UART0_BASE, 2, true, (uint32_t)apb1, 64);
	assert_int_equal(d1_rt_uart_init(), RT_EOK);
	ser = (struct rt_serial_device *)rt_device_find(BSP_D1_UART_NAME);
	assert_non_null(ser);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	uart_model_free(&um);
	return 0;
}

static void run_until_quiet(uint64_t ticks)
{
	for (uint64_t t = 0; t < ticks; t += 240) {
		sim_advance(240);
		if (uart_model_irq(&um))
			(void)rtt_host_irq_raise(IRQ);
	}
}

static void open_rx(rt_int32_t size)
{
	rt_ringbuffer_init(&rx.fifo.rb, rx.buf, size);
	ser->serial_rx = &rx.fifo;
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CONFIG,
	                                   (void *)(rt_ubase_t)RT_SERIAL_RX_NON_BLOCKING),
	                 RT_EOK);
	assert_true(rtt_host_irqs[IRQ].enabled);
}

/* Init: the gate is opened and the reset released by the CCU driver in
 * the right order (the model counts order violations), 115200 8N1 from the
 * APB1 clock, console set. */
static void test_init(void **state)
{
	uint32_t bgr;

	(void)state;
	/* start from UART0 gated and held in reset */
	sim_reset();
	rtt_host_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	ccu_model_poke(&cm, D1_CCU_UART_BGR_OFFSET, 0u);
	uart_model_free(&um);
	uart_model_init(&um, D1_UART0_BASE, 2, true, (uint32_t)ccu_model_apb1_hz(&cm), 64);
	assert_int_equal(d1_rt_uart_init(), RT_EOK);
	bgr = ccu_model_peek(&cm, D1_CCU_UART_BGR_OFFSET);
	assert_true(bgr & D1_CCU_UART_BGR_GATING_BITS(0));
	assert_true(bgr & D1_CCU_UART_BGR_RST_BITS(0));
	assert_int_equal(cm.bgr_order_violations, 0);
	assert_string_equal(rtt_host_console(), BSP_D1_UART_NAME);
	assert_int_equal(um.lcr & 0x3Fu, 0x03u); /* 8N1 */
	assert_true(um.dll | um.dlh);
}

/* Transmit: bytes on the model's TX line at the configured divisor. */
static void test_tx(void **state)
{
	uint16_t div = (uint16_t)(um.dll | um.dlh << 8);

	(void)state;
	assert_int_equal(ser->ops->putc(ser, 'O'), 1);
	assert_int_equal(ser->ops->transmit(ser, (rt_uint8_t *)"K\n", 2, RT_SERIAL_TX_BLOCKING), 2);
	run_until_quiet(uart_model_char_ticks(&um) * 4);
	assert_int_equal(um.cap_count, 3);
	assert_int_equal(um.cap[0].byte, 'O');
	assert_int_equal(um.cap[1].byte, 'K');
	assert_int_equal(um.cap[2].divisor, div);
	assert_int_equal(rtt_host_serial_events[RT_SERIAL_EVENT_TX_DONE], 1);
}

/* Receive: interrupt mode fills the framework's ring and tells it; a
 * framing error is counted and not delivered. */
static void test_rx_and_errors(void **state)
{
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;
	rt_uint8_t b;
	const char *msg = "hello";

	(void)state;
	open_rx(64);
	for (const char *p = msg; *p; p++)
		uart_model_rx_send(&um, (uint8_t)*p, 0);
	uart_model_rx_send(&um, 'X', UART_RX_FE);
	uart_model_rx_send(&um, '!', 0);
	run_until_quiet(uart_model_char_ticks(&um) * 20);
	assert_int_equal(rt_ringbuffer_data_len(&rx.fifo.rb), 6);
	for (const char *p = "hello!"; *p; p++) {
		assert_int_equal(rt_ringbuffer_getchar(&rx.fifo.rb, &b), 1);
		assert_int_equal(b, (rt_uint8_t)*p);
	}
	assert_true(rtt_host_serial_events[RT_SERIAL_EVENT_RX_IND] >= 1);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(st.framing, 1);
	assert_int_equal(fw, 0);
}

/* The framework's ring full: the excess is counted, not silently lost. */
static void test_fw_ring_full(void **state)
{
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;

	(void)state;
	open_rx(4);
	for (int i = 0; i < 10; i++)
		uart_model_rx_send(&um, (uint8_t)('0' + i), 0);
	run_until_quiet(uart_model_char_ticks(&um) * 20);
	assert_int_equal(rt_ringbuffer_data_len(&rx.fifo.rb), 4);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(fw, 6);
	assert_int_equal(st.rx_bytes, 10);
	/* closing the RX side masks the IRQ and leaves interrupt mode */
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CLR_INT,
	                                   (void *)(rt_ubase_t)RT_SERIAL_RX_NON_BLOCKING),
	                 RT_EOK);
	assert_false(rtt_host_irqs[IRQ].enabled);
}

/* Closing the RX side: the V2 framework (rt_serial_rx_disable) sends
 * RT_DEVICE_CTRL_CLR_INT with its RX ring still attached and frees the
 * ring right after, unread. Bytes the hardware FIFO still holds then never
 * reach a reader: they must be counted (fw_dropped), not moved into the
 * ring that is about to go. */
static void test_close_rx_counts_fifo(void **state)
{
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;

	(void)state;
	open_rx(64);
	for (int i = 0; i < 3; i++)
		uart_model_rx_send(&um, (uint8_t)('a' + i), 0);
	/* they arrive but no IRQ is taken: they wait in the hardware FIFO */
	sim_advance(uart_model_char_ticks(&um) * 8);
	assert_int_equal(um.rx_count, 3);
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CLR_INT,
	                                   (void *)(rt_ubase_t)RT_SERIAL_RX_NON_BLOCKING),
	                 RT_EOK);
	assert_false(rtt_host_irqs[IRQ].enabled);
	ser->serial_rx = RT_NULL; /* rt_free(rx_fifo) */
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CLOSE, RT_NULL), RT_EOK);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(st.rx_bytes, 3);
	assert_int_equal(fw, 3);
	assert_int_equal(rtt_host_serial_events[RT_SERIAL_EVENT_RX_IND], 0);
}

/* An application's own CLR_INT then SET_INT (rt_device_control() passes
 * both to the driver) with the ring kept: bytes already in the hardware
 * FIFO (their interrupt not yet taken) and bytes that arrive meanwhile
 * reach the ring once the interrupt is back; none is dropped or counted as
 * lost (only the close, CLOSE after the ring is freed, counts them). */
static void test_clr_set_int_keeps_fifo(void **state)
{
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;
	rt_uint8_t b;

	(void)state;
	open_rx(64);
	uart_model_rx_send(&um, 'w', 0);
	sim_advance(uart_model_char_ticks(&um) * 3); /* no IRQ taken */
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CLR_INT,
	                                   (void *)(rt_ubase_t)RT_SERIAL_RX_NON_BLOCKING),
	                 RT_EOK);
	for (int i = 0; i < 3; i++)
		uart_model_rx_send(&um, (uint8_t)('x' + i), 0);
	run_until_quiet(uart_model_char_ticks(&um) * 8);
	assert_int_equal(um.rx_count + rt_ringbuffer_data_len(&rx.fifo.rb), 4);
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_SET_INT,
	                                   (void *)(rt_ubase_t)RT_SERIAL_RX_NON_BLOCKING),
	                 RT_EOK);
	run_until_quiet(uart_model_char_ticks(&um) * 8);
	assert_int_equal(rt_ringbuffer_data_len(&rx.fifo.rb), 4);
	for (const char *p = "wxyz"; *p; p++) {
		assert_int_equal(rt_ringbuffer_getchar(&rx.fifo.rb, &b), 1);
		assert_int_equal(b, (rt_uint8_t)*p);
	}
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(fw, 0);
	assert_int_equal(st.rx_bytes, 4);
}

/* Reconfiguring while receiving: what the hardware FIFO holds reaches
 * the framework's ring before configure resets the FIFO; none is lost. */
static void test_reconfigure_keeps_rx(void **state)
{
	struct serial_configure c = RT_SERIAL_CONFIG_DEFAULT;
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;

	(void)state;
	open_rx(64);
	for (int i = 0; i < 3; i++)
		uart_model_rx_send(&um, (uint8_t)('a' + i), 0);
	/* let them arrive but deliver no IRQ: they wait in the hardware FIFO */
	sim_advance(uart_model_char_ticks(&um) * 8);
	assert_int_equal(rt_ringbuffer_data_len(&rx.fifo.rb), 0);
	assert_int_equal(um.rx_count, 3);
	c.baud_rate = 57600;
	assert_int_equal(ser->ops->configure(ser, &c), RT_EOK);
	assert_int_equal(rt_ringbuffer_data_len(&rx.fifo.rb), 3);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(fw, 0);
	assert_int_equal(st.rx_discarded, 0);
	assert_true(rtt_host_irqs[IRQ].enabled); /* back in interrupt mode */
	assert_int_equal(um.ier, D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS);
}

/* Transmit in TX_NON_BLOCKING mode, which control() accepts
 * (RT_DEVICE_CTRL_CONFIG with RT_SERIAL_TX_NON_BLOCKING: "transmit is
 * polled"). The V2 framework (_serial_fifo_tx_nonblocking) first copies
 * the bytes into its TX ring, then calls transmit(); the driver must take
 * them out of that ring, because RT_SERIAL_EVENT_TX_DONE calls transmit()
 * again for as long as the ring holds data. "hi\n" must reach the line
 * once, the ring must end empty and the transfer must end (activated
 * cleared), with no transmit() re-entered from TX_DONE. */
static void test_tx_nonblocking_drains_ring(void **state)
{
	static struct {
		struct rt_serial_tx_fifo fifo;
		rt_uint8_t buf[64];
	} tx;
	const char *msg = "hi\n";

	(void)state;
	rt_ringbuffer_init(&tx.fifo.rb, tx.buf, sizeof(tx.buf));
	ser->serial_tx = &tx.fifo;
	ser->parent.open_flag |= RT_SERIAL_TX_NON_BLOCKING;
	assert_int_equal(ser->ops->control(ser, RT_DEVICE_CTRL_CONFIG,
	                                   (void *)(rt_ubase_t)RT_SERIAL_TX_NON_BLOCKING),
	                 RT_EOK);
	/* what _serial_fifo_tx_nonblocking() does for a write of 3 bytes */
	for (const char *p = msg; *p; p++)
		assert_int_equal(rt_ringbuffer_putchar(&tx.fifo.rb, (rt_uint8_t)*p), 1);
	tx.fifo.activated = RT_TRUE;
	(void)ser->ops->transmit(ser, tx.buf, 3, RT_SERIAL_TX_NON_BLOCKING);
	run_until_quiet(uart_model_char_ticks(&um) * 64);
	assert_int_equal(um.cap_count, 3);
	assert_int_equal(rtt_host_serial_tx_runaway, 0);
	assert_int_equal(rt_ringbuffer_data_len(&tx.fifo.rb), 0);
	assert_false(tx.fifo.activated);
}

/* TX_NON_BLOCKING with two writers. The framework's write
 * (_serial_fifo_tx_nonblocking) only queues into the TX ring while a
 * transfer is active (activated, tested with interrupts off) and starts
 * transmit() itself otherwise; TX_DONE (rt_hw_serial_isr, written for
 * interrupt context) checks the ring empty, then clears activated. The
 * port raises TX_DONE from thread context: a second writer switched in
 * between the two must not leave its bytes in the ring with no transfer
 * running. */
static struct {
	struct rt_serial_tx_fifo fifo;
	rt_uint8_t buf[64];
} tx2;

static void second_writer(void)
{
	rt_base_t level = rt_hw_interrupt_disable();

	if (tx2.fifo.activated) {
		(void)rt_ringbuffer_putchar(&tx2.fifo.rb, 'Z');
		rt_hw_interrupt_enable(level);
		return;
	}
	tx2.fifo.activated = RT_TRUE;
	(void)rt_ringbuffer_putchar(&tx2.fifo.rb, 'Z');
	rt_hw_interrupt_enable(level);
	(void)ser->ops->transmit(ser, tx2.buf, 1, RT_SERIAL_TX_NON_BLOCKING);
}

static void test_tx_nonblocking_second_writer(void **state)
{
	(void)state;
	rt_ringbuffer_init(&tx2.fifo.rb, tx2.buf, sizeof(tx2.buf));
	ser->serial_tx = &tx2.fifo;
	ser->parent.open_flag |= RT_SERIAL_TX_NON_BLOCKING;
	(void)rt_ringbuffer_putchar(&tx2.fifo.rb, 'a');
	tx2.fifo.activated = RT_TRUE;
	rtt_host_serial_tx_done_preempt = second_writer;
	(void)ser->ops->transmit(ser, tx2.buf, 1, RT_SERIAL_TX_NON_BLOCKING);
	run_until_quiet(uart_model_char_ticks(&um) * 8);
	assert_null(rtt_host_serial_tx_done_preempt); /* the switch happened */
	assert_int_equal(rt_ringbuffer_data_len(&tx2.fifo.rb), 0);
	assert_false(tx2.fifo.activated);
	assert_int_equal(um.cap_count, 2);
	assert_int_equal(um.cap[1].byte, 'Z');
}

/* The same with a transmitter that never empties: putc gives up after its
 * bound, and every byte of the ring is counted in tx_dropped rather than
 * retried; the ring ends empty and the transfer ends. In TX_BLOCKING mode
 * the bytes of buf that could not go are counted the same way. */
static void test_tx_stuck_counted_not_retried(void **state)
{
	static struct {
		struct rt_serial_tx_fifo fifo;
		rt_uint8_t buf[64];
	} tx;
	struct d1_uart_stats st;
	rt_uint32_t fw, txd;
	rt_uint8_t two[2] = {'o', 'k'};

	(void)state;
	rt_ringbuffer_init(&tx.fifo.rb, tx.buf, sizeof(tx.buf));
	ser->serial_tx = &tx.fifo;
	ser->parent.open_flag |= RT_SERIAL_TX_NON_BLOCKING;
	um.tx_stuck = true;
	for (int i = 0; i < 65; i++) /* the shifter and a full TX FIFO that never drain */
		d1_mmio_write32(D1_UART0_BASE + D1_UART_THR_OFFSET, 'x');
	for (const char *p = "abc"; *p; p++)
		assert_int_equal(rt_ringbuffer_putchar(&tx.fifo.rb, (rt_uint8_t)*p), 1);
	tx.fifo.activated = RT_TRUE;
	(void)ser->ops->transmit(ser, tx.buf, 3, RT_SERIAL_TX_NON_BLOCKING);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(txd, 3);
	assert_int_equal(rtt_host_serial_tx_runaway, 0);
	assert_int_equal(rt_ringbuffer_data_len(&tx.fifo.rb), 0);
	assert_false(tx.fifo.activated);
	ser->serial_tx = RT_NULL;
	ser->parent.open_flag &= (rt_uint16_t)~RT_SERIAL_TX_NON_BLOCKING;
	assert_int_equal(ser->ops->transmit(ser, two, 2, RT_SERIAL_TX_BLOCKING), 0);
	d1_rt_uart_stats(&st, &fw, &txd);
	assert_int_equal(txd, 5);
	assert_int_equal(um.cap_count, 0);
}

/* A stuck LSR.DR (the library's own fault model, tests/test_bounded_waits.c
 * uart_isr_dr_stuck): one interrupt must end within a bounded number of bus
 * accesses, as d1_uart_isr() and d1_uart_rx_ready() do (uart.h: a cause
 * still pending keeps the level line high, the next interrupt serves the
 * rest). The trace rescues the test after 100,000 accesses by un-sticking
 * DR, so a loop with no bound ends and the count shows it. */
static uint64_t dr_accesses;

static void dr_rescue(void *arg, bool write, uintptr_t addr, uint32_t value)
{
	(void)arg;
	(void)write;
	(void)addr;
	(void)value;
	if (++dr_accesses >= 100000u)
		um.dr_stuck = false;
}

static void test_isr_bounded_on_stuck_dr(void **state)
{
	(void)state;
	open_rx(64);
	uart_model_rx_put(&um, 'a', 0);
	sim_advance(uart_model_char_ticks(&um) * 8); /* RX timeout identity */
	assert_true(uart_model_irq(&um));
	um.dr_stuck = true;
	dr_accesses = 0;
	sim_set_trace(dr_rescue, NULL);
	assert_int_equal(rtt_host_irq_raise(IRQ), 1);
	sim_set_trace(NULL, NULL);
	/* 64 + 1 reads of a FIFO at most, each an LSR and an RBR access or so */
	assert_in_range(dr_accesses, 1, 8u * (64u + 2u));
}

/* Framing the library cannot do is refused with nothing written. */
static void test_bad_config(void **state)
{
	struct serial_configure c = RT_SERIAL_CONFIG_DEFAULT;

	(void)state;
	c.flowcontrol = 1;
	SIM_EXPECT_NO_WRITE(ser->ops->configure(ser, &c), -RT_EINVAL);
	c = (struct serial_configure)RT_SERIAL_CONFIG_DEFAULT;
	c.data_bits = 9;
	SIM_EXPECT_NO_WRITE(ser->ops->configure(ser, &c), -RT_EINVAL);
	c = (struct serial_configure)RT_SERIAL_CONFIG_DEFAULT;
	c.baud_rate = 1;
	SIM_EXPECT_NO_WRITE(ser->ops->configure(ser, &c), -RT_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_init, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_tx, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_rx_and_errors, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_fw_ring_full, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_close_rx_counts_fifo, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_clr_set_int_keeps_fifo, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_reconfigure_keeps_rx, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_tx_nonblocking_drains_ring, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_tx_nonblocking_second_writer, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_tx_stuck_counted_not_retried, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_bad_config, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_isr_bounded_on_stuck_dr, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
