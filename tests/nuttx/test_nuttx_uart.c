/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports/nuttx/d1_nuttx_uart.c (the serial lower half on the library's byte
 * mode) on the CCU and UART models, with NuttX's upper-half loops from
 * nx_uart_host.c: the line the model measures, every good byte delivered
 * once and in order into the upper half's buffer with line errors counted
 * and never stored, TX through the TX-empty interrupt with the FIFO filled
 * and nothing lost, and what shutdown/detach leave behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <arch/irq.h>
#include <nuttx/arch.h>
#ifdef CONFIG_SERIAL_TERMIOS
#include <nuttx/fs/fs.h>
#include <nuttx/fs/ioctl.h>
#include <termios.h>
#endif

#include "ccu_model.h"
#include "d1/ccu_regs.h"
#include "d1/memmap.h"
#include "d1/uart.h"
#include "d1_nuttx.h"
#include "nx_uart_host.h"
#include "sim.h"
#include "uart_model.h"

static struct ccu_model cm;
static struct uart_model um;
static uart_dev_t *dev;
static char out[4096];
static unsigned nout;

/* The driver's handle is the lower half's priv; its first member. */
static const struct d1_uart *handle(void)
{
	return (const struct d1_uart *)dev->priv;
}

/* A boot as far as uart_open() of the console: the models as U-Boot leaves
 * them (with UART0 gated and in reset if @p gated), the board's
 * registration, then the upper half's attach (it calls no setup() for a
 * console). */
static void boot_and_open(bool gated)
{
	sim_reset();
	nx_uart_host_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	if (gated) {
		ccu_model_poke(&cm, D1_CCU_UART_BGR_OFFSET, 0u);
	}
	uart_model_init(&um, D1_UART0_BASE, 2, true, (uint32_t)ccu_model_apb1_hz(&cm),
	                D1_UART_FIFO_DEPTH);
	assert_int_equal(d1_nuttx_serial_register(), 0); /* configures the console */
	dev = nx_uart.dev;
	assert_non_null(dev);
	assert_int_equal(dev->ops->attach(dev), 0);
	nout = 0;
}

static int setup(void **state)
{
	(void)state;
	boot_and_open(true);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	uart_model_free(&um);
	return 0;
}

/* The PLIC: the handler runs while the (level) line is high. */
static void serve(void)
{
	unsigned k;

	for (k = 0; k < 64u && nx_uart.enabled && uart_model_irq(&um); k++) {
		assert_non_null(nx_uart.isr);
		assert_int_equal(nx_uart.isr(nx_uart.irq, NULL, nx_uart.isr_arg), 0);
	}
	assert_false(nx_uart.enabled && uart_model_irq(&um)); /* no storm */
}

/* The reader task: empty the upper half's receive buffer. */
static void read_recv(void)
{
	struct uart_buffer_s *rb = &dev->recv;

	while (rb->tail != rb->head && nout < sizeof(out)) {
		out[nout++] = rb->buffer[rb->tail];
		rb->tail = (sbuf_size_t)((rb->tail + 1) % rb->size);
	}
}

/* Registered as the console and ttyS0; the CCU opened the gate before
 * releasing the reset; 8N1 at the divisor of the APB1 clock the CCU
 * reports; the UART interrupt attached and enabled, IER 0 until the upper
 * half asks. */
static void test_setup_and_line(void **state)
{
	uint32_t bgr = ccu_model_peek(&cm, D1_CCU_UART_BGR_OFFSET);
	uint32_t want = (uint32_t)((ccu_model_apb1_hz(&cm) + 8u * 115200u) / (16u * 115200u));

	(void)state;
	assert_int_equal(nx_uart.registered, 2);
	assert_string_equal(nx_uart.paths[0], "/dev/console");
	assert_string_equal(nx_uart.paths[1], "/dev/ttyS0");
	assert_true(dev->isconsole);
	assert_true((bgr & D1_CCU_UART_BGR_GATING_BITS(0)) != 0u);
	assert_true((bgr & D1_CCU_UART_BGR_RST_BITS(0)) != 0u);
	assert_int_equal(cm.bgr_order_violations, 0);
	assert_int_equal(um.lcr, 0x03);
	assert_int_equal((uint32_t)um.dll | (uint32_t)um.dlh << 8, want);
	assert_int_equal(nx_uart.irq, RISCV_IRQ_SEXT + (int)D1_IRQ_UART(0));
	assert_true(nx_uart.enabled);
	assert_int_equal(um.ier, 0);
}

/* 1,500 characters at line rate with parity and framing errors and breaks
 * among them: the reader gets every good one once, in order; the bad ones
 * are counted by kind and never reach the buffer (receive() never reports
 * a failed read); nothing is lost in hardware. */
static void test_rx_stream(void **state)
{
	char want[1500];
	unsigned ngood = 0, npe = 0, nfe = 0, nbi = 0;
	struct d1_uart_stats st;

	(void)state;
	dev->ops->rxint(dev, true);
	assert_int_equal(um.ier, D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS);
	for (unsigned i = 0; i < 1500u; i++) {
		uint8_t b = (uint8_t)('!' + i % 90u);
		unsigned f = 0;

		if (i % 53u == 7u) {
			f = UART_RX_PE, npe++;
		} else if (i % 101u == 11u) {
			f = UART_RX_FE, nfe++;
		} else if (i % 307u == 5u) {
			f = UART_RX_BI, nbi++, b = 0;
		} else {
			want[ngood++] = (char)b;
		}
		uart_model_rx_send(&um, b, f);
	}
	for (unsigned k = 0; k < 3000u && uart_model_line_pending(&um) != 0u; k++) {
		sim_advance(6u * uart_model_char_ticks(&um));
		serve();
		read_recv();
	}
	sim_advance(5u * uart_model_char_ticks(&um)); /* the RX timeout */
	serve();
	read_recv();
	assert_int_equal(uart_model_line_pending(&um), 0);
	assert_int_equal(nout, ngood);
	assert_memory_equal(out, want, ngood);
	assert_int_equal(d1_uart_get_stats(handle(), &st), D1_OK);
	assert_int_equal(st.rx_bytes, ngood);
	assert_int_equal(st.parity, npe);
	assert_int_equal(st.framing, nfe);
	assert_int_equal(st.brk, nbi);
	assert_int_equal(st.overrun, 0);
	assert_int_equal(um.rx_lost, 0);
	assert_int_equal(nx_uart.bad_status, 0);
	assert_true(nx_uart.recvchars_calls > 0u);
}

/* The upper half queues 200 bytes and turns TX on: the FIFO is filled at
 * once, the TX-empty interrupts send the rest, every byte reaches the line
 * once and in order, and TX is off again when the buffer is empty. */
static void test_tx_through_interrupt(void **state)
{
	struct uart_buffer_s *xb = &dev->xmit;
	char want[200];
	struct d1_uart_stats st;

	(void)state;
	dev->ops->rxint(dev, true);
	for (unsigned i = 0; i < sizeof(want); i++) {
		want[i] = (char)('A' + i % 26u);
		xb->buffer[xb->head] = want[i];
		xb->head = (sbuf_size_t)((xb->head + 1) % xb->size);
	}
	dev->ops->txint(dev, true);
	assert_true(xb->tail != 0); /* the FIFO took a first burst at once */
	assert_true(dev->ops->txempty(dev) || um.tx_count != 0u);
	for (unsigned k = 0; k < 50u && (xb->head != xb->tail || um.tx_count != 0u); k++) {
		sim_advance((uint64_t)D1_UART_FIFO_DEPTH * uart_model_char_ticks(&um));
		serve();
	}
	sim_advance(4u * uart_model_char_ticks(&um));
	assert_int_equal(xb->head, xb->tail);
	assert_int_equal(um.cap_count, sizeof(want));
	for (unsigned i = 0; i < sizeof(want); i++) {
		assert_int_equal(um.cap[i].byte, (uint8_t)want[i]);
	}
	assert_int_equal(um.tx_overflow, 0);
	assert_int_equal(um.ier & D1_UART_IER_ETBEI_BITS, 0); /* TX off, RX still on */
	assert_int_equal(um.ier & D1_UART_IER_ERBFI_BITS, D1_UART_IER_ERBFI_BITS);
	assert_true(dev->ops->txempty(dev));
	assert_int_equal(d1_uart_get_stats(handle(), &st), D1_OK);
	assert_int_equal(st.tx_bytes, sizeof(want));
	assert_false(uart_model_irq(&um));
}

/* Shutdown leaves IER 0; detach masks and forgets the interrupt; up_putc()
 * still writes (polled), as the console does from a panic. */
static void test_shutdown_detach_putc(void **state)
{
	(void)state;
	dev->ops->rxint(dev, true);
	dev->ops->txint(dev, true);
	dev->ops->shutdown(dev);
	assert_int_equal(um.ier, 0);
	dev->ops->detach(dev);
	assert_false(nx_uart.enabled);
	assert_null(nx_uart.isr);
	up_putc('Z');
	sim_advance(2u * uart_model_char_ticks(&um));
	assert_int_equal(um.cap_count, 1);
	assert_int_equal(um.cap[0].byte, 'Z');
}

/* The console as NuttX opens it (drivers/serial/serial.c uart_open(): for
 * dev->isconsole it skips uart_setup(), "the UART has already been
 * initialized", then uart_attach() and uart_enablerxint()), with no
 * up_putc() before it and UART0 as U-Boot leaves it (gate open, 8N1,
 * FIFOs off). The lower half must have configured the console itself by
 * then (as NuttX's own 16550 driver does in u16550_earlyserialinit()):
 * FIFOs on (setup's configuration), RX interrupts on, and a byte typed on
 * the console reaches the upper half's receive buffer. */
static int setup_console_open(void **state)
{
	(void)state;
	boot_and_open(false);
	assert_true(dev->isconsole);
	dev->ops->rxint(dev, true); /* uart_open(): uart_enablerxint() */
	return 0;
}

static void test_console_open_without_setup(void **state)
{
	(void)state;
	assert_int_equal(um.fcr & D1_UART_FCR_FIFOE_BITS, D1_UART_FCR_FIFOE_BITS);
	assert_int_equal(um.ier, D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS);
	uart_model_rx_send(&um, 'o', 0u);
	uart_model_rx_send(&um, 'k', 0u);
	for (unsigned k = 0; k < 8u; k++) {
		sim_advance(6u * uart_model_char_ticks(&um));
		serve();
		read_recv();
	}
	assert_int_equal(nout, 2);
	assert_memory_equal(out, "ok", 2);
}

#ifdef CONFIG_SERIAL_TERMIOS
/* The upper half's ioctl() path to the lower half: filep->f_inode->
 * i_private is the uart_dev_t (drivers/serial/serial.c). */
static int tty_ioctl(int cmd, void *arg)
{
	struct inode ino = {.i_private = dev};
	struct file f = {.f_inode = &ino};

	return dev->ops->ioctl(&f, cmd, (unsigned long)(uintptr_t)arg);
}

/* TCGETS reports the line in force: setup's 115200 8N1, no flow control. */
static void test_termios_get(void **state)
{
	struct termios t;

	(void)state;
	memset(&t, 0xA5, sizeof(t));
	assert_int_equal(tty_ioctl(TCGETS, &t), 0);
	assert_int_equal(cfgetispeed(&t), 115200);
	assert_int_equal(t.c_cflag & CSIZE, CS8);
	assert_int_equal(t.c_cflag & (PARENB | PARODD | CSTOPB | CRTSCTS), 0);
}

/* TCSETS 9600 7E2 (tcsetattr() after tcgetattr()): the model measures the
 * new line (LCR, the divisor of the APB1 clock the CCU reports), a byte
 * written afterwards goes out with that divisor, the interrupts on before
 * are on after (the library's configure leaves IER 0), and TCGETS reports
 * the new setting. */
static void test_termios_set_line(void **state)
{
	struct termios t;
	uint32_t want = (uint32_t)((ccu_model_apb1_hz(&cm) + 8u * 9600u) / (16u * 9600u));

	(void)state;
	dev->ops->rxint(dev, true);
	assert_int_equal(tty_ioctl(TCGETS, &t), 0);
	t.c_cflag = (t.c_cflag & ~(tcflag_t)(CSIZE | PARODD)) | CS7 | PARENB | CSTOPB;
	cfsetispeed(&t, 9600);
	assert_int_equal(tty_ioctl(TCSETS, &t), 0);
	assert_int_equal(um.lcr, 0x02 | 0x04 | 0x08 | 0x10); /* 7 bits, 2 stop, even parity */
	assert_int_equal((uint32_t)um.dll | (uint32_t)um.dlh << 8, want);
	assert_int_equal(um.ier, D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS);
	up_putc('x');
	sim_advance(2u * uart_model_char_ticks(&um));
	assert_int_equal(um.cap_count, 1);
	assert_int_equal(um.cap[0].byte, 'x');
	assert_int_equal(um.cap[0].divisor, want);
	memset(&t, 0, sizeof(t));
	assert_int_equal(tty_ioctl(TCGETS, &t), 0);
	assert_int_equal(cfgetispeed(&t), 9600);
	assert_int_equal(t.c_cflag & (CSIZE | PARENB | PARODD | CSTOPB | CRTSCTS),
	                 CS7 | PARENB | CSTOPB);
}

/* What the line cannot do is refused with -EINVAL before any register
 * write, and the line stays as it was: rate 0, a rate no divisor reaches
 * within 2 % (10 baud needs 150,000), one direction of flow control only
 * (the DW UART's auto flow control is both: MCR.AFCE), no termios. Other
 * commands are the upper half's (-ENOTTY). */
static void test_termios_bad_input(void **state)
{
	struct termios t;
	struct termios bad;
	uint64_t w0;

	(void)state;
	assert_int_equal(tty_ioctl(TCGETS, &t), 0);
	w0 = sim_writes();
	bad = t;
	cfsetispeed(&bad, 0);
	assert_int_equal(tty_ioctl(TCSETS, &bad), -EINVAL);
	bad = t;
	cfsetispeed(&bad, 10);
	assert_int_equal(tty_ioctl(TCSETS, &bad), -EINVAL);
	bad = t;
	bad.c_cflag |= CCTS_OFLOW;
	assert_int_equal(tty_ioctl(TCSETS, &bad), -EINVAL);
	bad = t;
	bad.c_cflag |= CRTS_IFLOW;
	assert_int_equal(tty_ioctl(TCSETS, &bad), -EINVAL);
	assert_int_equal(tty_ioctl(TCSETS, NULL), -EINVAL);
	assert_int_equal(tty_ioctl(TCGETS, NULL), -EINVAL);
	assert_int_equal(tty_ioctl(0x7777, &t), -ENOTTY);
	assert_int_equal(sim_writes(), w0);
	assert_int_equal(um.lcr, 0x03);
	memset(&bad, 0, sizeof(bad));
	assert_int_equal(tty_ioctl(TCGETS, &bad), 0);
	assert_int_equal(cfgetispeed(&bad), 115200);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	        /* first: a fresh boot, the glue's handle never used */
	        cmocka_unit_test_setup_teardown(test_console_open_without_setup, setup_console_open,
	                                        teardown),
	        cmocka_unit_test_setup_teardown(test_setup_and_line, setup, teardown),
#ifdef CONFIG_SERIAL_TERMIOS
	        cmocka_unit_test_setup_teardown(test_termios_get, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_termios_set_line, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_termios_bad_input, setup, teardown),
#endif
	        cmocka_unit_test_setup_teardown(test_rx_stream, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_tx_through_interrupt, setup, teardown),
	        cmocka_unit_test_setup_teardown(test_shutdown_detach_putc, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
