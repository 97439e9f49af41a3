/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interrupt interleaving (docs/reliability.md "Interrupt
 * interleaving"). For every thread-side call that shares state with an
 * interrupt handler — the UART rings, counters and IER shadow, Timer
 * IRQ_EN/IRQ_STA, the PLIC enable words, the CCU *_BGR words — the call is
 * run once to count its events (bus accesses and port calls, sim.h), then
 * once per injection point (just before and just after each event) from the
 * same fresh state with the interrupt raised there. The sim takes it at once,
 * or, inside a critical section, at the exit of the outermost one; the
 * handler is the library's own ISR path, re-entrant through the bus. After
 * the call the system runs until it is quiet, and what the models measured
 * is checked: nothing lost, duplicated or corrupted.
 *
 * Output: one line per case, "interleave: <case>: <n> events, <m>
 * injection points, <d> held by a critical section, <v>
 * lost/duplicated/corrupted", and a total line that
 * scripts/gates/interleave.sh turns into build/gates/interleave.summary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/plic.h"
#include "d1/port.h"
#include "d1/timer.h"
#include "d1/uart.h"
#include "plic_model.h"
#include "sim.h"
#include "timer_model.h"
#include "uart_model.h"

/* ------------------------------------------------------------------ */
/* The runner                                                          */
/* ------------------------------------------------------------------ */

struct icase {
	const char *name;
	void (*setup)(void);   /* fresh models and driver state, up to the call */
	void (*call)(void);    /* the thread-side call under test */
	sim_isr_fn isr;        /* the interrupt raised at the injection point */
	void (*check)(void);   /* run until quiet, then check what the models measured */
	void (*release)(void); /* free model storage (may be NULL) */
	unsigned param;        /* timer cases: the channel; CCU cases: the pair */
};

static const struct icase *cur;
static uint64_t cur_point; /* SIM_IRQ_NEVER: the dry run */
static bool point_bad;
static unsigned case_msgs;

static unsigned total_cases;
static uint64_t total_points;
static uint64_t total_bad;

static void violation(int line, const char *what, bool vals, unsigned long long a,
                      unsigned long long b)
{
	point_bad = true;
	if (case_msgs++ >= 12u) {
		return;
	}
	if (cur_point == SIM_IRQ_NEVER) {
		printf("interleave: %s: dry run: line %d: %s", cur->name, line, what);
	} else {
		printf("interleave: %s: interrupt %s event %llu: line %d: %s", cur->name,
		       (cur_point & 1u) != 0u ? "after" : "before",
		       (unsigned long long)(cur_point / 2u), line, what);
	}
	if (vals) {
		printf(" (%llu vs %llu)", a, b);
	}
	printf("\n");
}

#define EXPECT(c)                                                                                  \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			violation(__LINE__, #c, false, 0, 0);                                      \
		}                                                                                  \
	} while (0)
#define EXPECT_EQ(a, b)                                                                            \
	do {                                                                                       \
		unsigned long long a_ = (unsigned long long)(a);                                   \
		unsigned long long b_ = (unsigned long long)(b);                                   \
		if (a_ != b_) {                                                                    \
			violation(__LINE__, #a " == " #b, true, a_, b_);                           \
		}                                                                                  \
	} while (0)

static void run_case(void **state)
{
	const struct icase *c = *state;
	uint64_t events;
	uint64_t points = 0;
	uint64_t held = 0;
	uint64_t bad = 0;

	cur = c;
	case_msgs = 0;

	/* Dry run: count the events; the invariants hold without interrupt. */
	cur_point = SIM_IRQ_NEVER;
	point_bad = false;
	c->setup();
	sim_irq_arm(SIM_IRQ_NEVER, NULL, NULL);
	c->call();
	events = sim_irq_events();
	sim_irq_disarm();
	c->check();
	if (c->release != NULL) {
		c->release();
	}
	bad += point_bad ? 1u : 0u;

	for (uint64_t p = 0; p < 2u * events; p++) {
		cur_point = p;
		point_bad = false;
		c->setup();
		sim_irq_arm(p, c->isr, NULL);
		c->call();
		/* Up to point p the run is the dry run (the setup is
		 * deterministic), so p is reached; the interrupt raised there is
		 * taken exactly once before the call returns (one still held
		 * would mean the call returned inside a critical section). */
		EXPECT(sim_irq_raised());
		EXPECT_EQ(sim_irq_taken(), 1);
		EXPECT_EQ(sim_critical_depth(), 0);
		points++;
		held += sim_irq_was_deferred() ? 1u : 0u;
		sim_irq_disarm();
		c->check();
		if (c->release != NULL) {
			c->release();
		}
		bad += point_bad ? 1u : 0u;
	}
	printf("interleave: %s: %llu events, %llu injection points, %llu held by a critical "
	       "section, %llu lost/duplicated/corrupted\n",
	       c->name, (unsigned long long)events, (unsigned long long)points,
	       (unsigned long long)held, (unsigned long long)bad);
	total_cases++;
	total_points += points;
	total_bad += bad;
	assert_true(events > 0u);
	assert_true(points > 0u);
	assert_int_equal(bad, 0);
}

/* ------------------------------------------------------------------ */
/* UART: rings, counters, IER shadow, the LSR error latch              */
/* ------------------------------------------------------------------ */

#define UBASE D1_UART0_BASE
#define UCLK  24000000u
#define QBASE 0x10000000u
#define QCLK  3686400u
#define RING  256u

static struct uart_model um;
static struct d1_uart u;
static uint8_t rxbuf[RING];
static uint8_t txbuf[RING];

/* What was sent where, in order. Ring bytes are 0x00..0x7F, putc bytes
 * 0x80..0xFF (each putc value used once per run). */
static uint8_t tx_want[1024];
static unsigned n_tx_want;
static unsigned tx_seq;
static unsigned putc_want[256];
static unsigned putc_seq;
static d1_err_t putc_err;

struct rx_char {
	uint8_t b;
	uint8_t f;
};
static struct rx_char rx_sent[1024];
static unsigned n_rx_sent;
static unsigned rx_seq;
static uint8_t rx_got[2048];
static unsigned n_rx_got;

static d1_err_t u_err;
static struct d1_uart_stats snap, isr_before, isr_after;

static void uart_release(void)
{
	uart_model_free(&um);
}

/* The RX script: a PE, FE or BI character now and then (a break reads 0). */
static struct rx_char rx_script(unsigned i)
{
	static const uint8_t fl[8] = {0, UART_RX_PE, 0, 0, UART_RX_FE, 0, UART_RX_BI, 0};
	struct rx_char c = {.b = (uint8_t)('a' + i % 26u), .f = fl[i % 8u]};

	if (c.f == UART_RX_BI) {
		c.b = 0;
	}
	return c;
}

static bool rx_room(void)
{
	return um.rx_count < ((um.fcr & 1u) != 0u ? um.depth : 1u);
}

/* A character completes at the UART (if its FIFO has room: no overrun). */
static void rx_in(void)
{
	struct rx_char c = rx_script(rx_seq++);

	if (!rx_room() || n_rx_sent >= 1024u) {
		return;
	}
	uart_model_rx_put(&um, c.b, c.f);
	rx_sent[n_rx_sent++] = c;
}

static void read_ring(void)
{
	n_rx_got += d1_uart_read(&u, rx_got + n_rx_got, (uint32_t)(sizeof(rx_got) - n_rx_got));
}

/* Serve the (level) interrupt line as a PLIC would, bounded. */
static void serve(void)
{
	unsigned k;

	for (k = 0; k < 64u && uart_model_irq(&um); k++) {
		(void)d1_uart_isr(&u);
	}
	EXPECT(!uart_model_irq(&um)); /* an interrupt storm */
}

static void write_rec(unsigned n)
{
	uint8_t b[256];
	uint32_t k;

	for (unsigned i = 0; i < n; i++) {
		b[i] = (uint8_t)(tx_seq++ & 0x7Fu);
	}
	k = d1_uart_write(&u, b, n);
	memcpy(tx_want + n_tx_want, b, k);
	n_tx_want += k;
}

static void putc_rec(void)
{
	uint8_t c = (uint8_t)(0x80u | (putc_seq++ & 0x7Fu));

	putc_err = d1_uart_putc(&u, c);
	if (putc_err == D1_OK) {
		putc_want[c]++;
	}
}

static void uart_records_reset(void)
{
	n_tx_want = 0;
	tx_seq = 0;
	memset(putc_want, 0, sizeof(putc_want));
	putc_seq = 0;
	putc_err = D1_OK;
	n_rx_sent = 0;
	rx_seq = 1; /* the first character has a parity error */
	n_rx_got = 0;
	u_err = D1_OK;
}

static void uart_start(bool dw, bool fifo)
{
	struct d1_uart_config cfg = {
	        .baud = dw ? 1500000u : 230400u, /* exact: divisor 1 */
	        .data_bits = 8,
	        .parity = D1_UART_PARITY_NONE,
	        .stop_bits = 1,
	        .fifo = fifo,
	        .rx_trigger = 0, /* 1 byte: an arriving character interrupts */
	        .tx_trigger = 0,
	};

	sim_reset();
	if (dw) {
		uart_model_init(&um, UBASE, 2, true, UCLK, D1_UART_FIFO_DEPTH);
		assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	} else {
		uart_model_init(&um, QBASE, 0, false, QCLK, 16);
		assert_int_equal(d1_uart_init(&u, QBASE, 0, QCLK, 16), D1_OK);
	}
	assert_int_equal(d1_uart_configure(&u, &cfg, NULL), D1_OK);
	assert_int_equal(d1_uart_irq_start(&u, rxbuf, RING, txbuf, RING), D1_OK);
	uart_records_reset();
}

/* The UART interrupt: a character arrives (RX trigger level 1: that alone
 * raises it), so the handler reads the RX FIFO — the character at its top
 * may be the one whose error bit the thread's LSR read just cleared — and
 * serves THRE if the TX FIFO ran empty; a quarter character time passes
 * (a character still shifting out stays there, so a full refill meets a
 * busy shifter). The handler runs as the OS would call it: at least once,
 * then while the line is high. The counters are recorded around it for
 * the get_stats case. */
static void uart_irq(void *arg)
{
	(void)arg;
	rx_in();
	sim_advance(uart_model_char_ticks(&um) / 4u);
	isr_before = u.stats;
	(void)d1_uart_isr(&u);
	serve();
	isr_after = u.stats;
}

/* Run until the line is quiet: everything queued is out, every character
 * received is delivered (the RX timeout included). */
static void uart_run_dry(unsigned max_rounds, bool until_idle)
{
	unsigned idle = 0;

	for (unsigned i = 0; i < max_rounds; i++) {
		sim_advance(uart_model_char_ticks(&um));
		serve();
		read_ring();
		if (!until_idle) {
			continue;
		}
		if (um.tx_count == 0u && !um.shifting && d1_uart_tx_pending(&u) == 0u &&
		    um.rx_count == 0u && !uart_model_irq(&um)) {
			if (++idle > 6u) {
				return;
			}
		} else {
			idle = 0;
		}
	}
	EXPECT(!until_idle); /* never went quiet: something is stuck */
}

/* TX: the ring bytes come out in order, each once; each putc byte once;
 * nothing else; the counters agree with the transmitter. @p ring_out is
 * set to the number of ring bytes seen. */
static void check_tx(unsigned *ring_out)
{
	unsigned seen[256] = {0};
	unsigned j = 0;

	EXPECT_EQ(um.tx_overflow, 0);
	for (unsigned i = 0; i < um.cap_count; i++) {
		uint8_t b = um.cap[i].byte;

		if (b < 0x80u) {
			if (j >= n_tx_want || tx_want[j] != b) {
				EXPECT(j < n_tx_want && tx_want[j] == b); /* out of order/extra */
				break;
			}
			j++;
		} else {
			seen[b]++;
		}
	}
	for (unsigned b = 0x80u; b < 256u; b++) {
		EXPECT_EQ(seen[b], putc_want[b]);
	}
	EXPECT_EQ(u.stats.tx_bytes, um.cap_count);
	*ring_out = j;
}

/* RX: the good characters delivered in order, each once; every error
 * character counted once as what it was, and discarded. */
static void check_rx(unsigned delivered_limit)
{
	unsigned pe = 0, fe = 0, bi = 0, good = 0;
	unsigned upto = n_rx_sent < delivered_limit ? n_rx_sent : delivered_limit;

	for (unsigned i = 0; i < upto; i++) {
		const struct rx_char *c = &rx_sent[i];

		if (c->f == UART_RX_PE) {
			pe++;
		} else if (c->f == UART_RX_FE) {
			fe++;
		} else if (c->f == UART_RX_BI) {
			bi++;
		} else {
			if (good < n_rx_got && rx_got[good] != c->b) {
				EXPECT_EQ(rx_got[good], c->b); /* wrong byte delivered */
			}
			good++;
		}
	}
	EXPECT_EQ(n_rx_got, good);
	EXPECT_EQ(u.stats.rx_bytes, good);
	EXPECT_EQ(u.stats.parity, pe);
	EXPECT_EQ(u.stats.framing, fe);
	EXPECT_EQ(u.stats.brk, bi);
	EXPECT_EQ(u.stats.rx_dropped, 0);
	EXPECT_EQ(u.stats.overrun, 0);
	EXPECT_EQ(um.rx_lost, 0);
	EXPECT_EQ(um.rx_received, n_rx_sent);
}

/* The end of every UART case, once the line is quiet: calls succeeded,
 * TX and RX as sent, the IER shadow is the register, and ETBEI is off with
 * nothing left to send. */
static void uart_check_quiet(void)
{
	unsigned ring_out;

	EXPECT_EQ(u_err, D1_OK);
	EXPECT_EQ(putc_err, D1_OK);
	check_tx(&ring_out);
	EXPECT_EQ(ring_out, n_tx_want);
	check_rx(UINT32_MAX);
	EXPECT_EQ(u.ier, um.ier);
	EXPECT_EQ(um.ier & D1_UART_IER_ETBEI_BITS, 0);
	EXPECT_EQ(u.lsr_err, 0);
	EXPECT_EQ(sim_unmapped(), 0);
}

static void uart_check(void)
{
	uart_run_dry(4000, true);
	uart_check_quiet();
	EXPECT(!u.tx_irq);
}

/* d1_uart_write() with ETBEI off (ring empty, TX FIFO still busy): the one
 * path that touches IER from the thread. */
static void u_write_setup(void)
{
	uart_start(true, true);
	write_rec(10);
	serve(); /* THRE: 10 bytes to the FIFO, ring dry, ETBEI off */
	rx_in();
	rx_in();
	assert_false(u.tx_irq);
}

static void u_write_call(void)
{
	write_rec(20);
}

/* d1_uart_putc() (USR.TFNF path) with a full TX FIFO while the ring is
 * being sent by the ISR: the space check and the THR write against the
 * ISR's refill. */
static void u_putc_fifo_setup(void)
{
	uart_start(true, true);
	write_rec(100);
	serve(); /* 64 bytes out of the ring into the FIFO */
	rx_in();
	rx_in();
	putc_rec(); /* FIFO full */
	assert_int_equal(putc_err, D1_OK);
	assert_int_equal(um.tx_count, D1_UART_FIFO_DEPTH);
}

static void u_putc_call(void)
{
	putc_rec();
}

/* putc with THRE pending: the FIFO just ran empty while the ring holds
 * data, so the handler refills the whole FIFO; between putc's TFNF check
 * and its THR write that would overflow it. */
static void u_putc_thre_setup_for(bool dw)
{
	uart_start(dw, true);
	putc_rec(); /* shifting, FIFO empty */
	assert_int_equal(putc_err, D1_OK);
	write_rec(100); /* ETBEI on with the FIFO empty: THRE pending */
	rx_in();
	rx_in();
	assert_true(uart_model_irq(&um));
}

static void u_putc_thre_setup(void)
{
	u_putc_thre_setup_for(true);
}

static void q_putc_thre_setup(void)
{
	u_putc_thre_setup_for(false);
}

/* FIFOs off: putc reads LSR (THRE), the second LSR reader beside the ISR,
 * with a parity-error character waiting in RBR. */
static void u_putc_nofifo_setup(void)
{
	uart_start(true, false);
	write_rec(10);
	serve();
	rx_in();
	assert_true(um.tx_count != 0u);
}

/* d1_uart_drain() in interrupt mode: an LSR reader, polling until TEMT,
 * with a parity-error character at the RX FIFO top. */
static void u_drain_setup(void)
{
	uart_start(true, true);
	write_rec(3);
	serve();
	rx_in();
	rx_in();
}

static void u_drain_call(void)
{
	u_err = d1_uart_drain(&u);
}

/* d1_uart_get_stats(): the copy is the counters of one instant. */
static void u_stats_setup(void)
{
	u_drain_setup();
	sim_advance(5u * uart_model_char_ticks(&um)); /* TX done, RX interrupt pending */
	memset(&snap, 0, sizeof(snap));
	isr_before = isr_after = u.stats;
}

static void u_stats_call(void)
{
	u_err = d1_uart_get_stats(&u, &snap);
}

static bool stats_eq(const struct d1_uart_stats *a, const struct d1_uart_stats *b)
{
	return a->overrun == b->overrun && a->framing == b->framing && a->parity == b->parity &&
	       a->brk == b->brk && a->rx_dropped == b->rx_dropped &&
	       a->busy_detect == b->busy_detect && a->rx_timeout_empty == b->rx_timeout_empty &&
	       a->rx_bytes == b->rx_bytes && a->tx_bytes == b->tx_bytes &&
	       a->rx_discarded == b->rx_discarded && a->lcr_retries == b->lcr_retries &&
	       a->isr_idle == b->isr_idle && a->verify_miss == b->verify_miss;
}

static void u_stats_check(void)
{
	if (sim_irq_taken() == 0u) {
		EXPECT(stats_eq(&snap, &u.stats));
	} else {
		/* before the handler or after it, never a mix */
		EXPECT(stats_eq(&snap, &isr_before) || stats_eq(&snap, &isr_after));
	}
	uart_check();
}

/* d1_uart_irq_stop() while the ring is being sent: afterwards IER stays 0
 * (no handler re-enables anything), the unsent bytes stay in the ring. */
static void u_stop_setup(void)
{
	uart_start(true, true);
	write_rec(100);
	serve();
	rx_in();
	rx_in();
}

static void u_stop_call(void)
{
	u_err = d1_uart_irq_stop(&u);
}

static void u_stop_check(void)
{
	unsigned ring_out;

	uart_run_dry(200, false);
	EXPECT_EQ(u_err, D1_OK);
	EXPECT_EQ(um.ier, 0);
	EXPECT_EQ(u.ier, 0);
	EXPECT(!u.irq_mode);
	EXPECT(!u.tx_irq);
	EXPECT(um.tx_count == 0u && !um.shifting);
	check_tx(&ring_out);
	/* what did not go out is still queued, in order */
	EXPECT_EQ(ring_out + d1_uart_tx_pending(&u), n_tx_want);
	/* what the ISR delivered before the stop is correct; the rest waits in
	 * the FIFO (nothing was lost or counted twice) */
	EXPECT_EQ(um.rx_received, n_rx_sent);
	EXPECT_EQ(u.stats.rx_dropped, 0);
	EXPECT_EQ(u.stats.overrun, 0);
	check_rx(n_rx_sent - um.rx_count);
}

/* QEMU virt's byte-wide ns16550a (no USR: putc waits for LSR.THRE). */
static void q_putc_setup(void)
{
	uart_start(false, true);
	write_rec(4);
	serve();
	rx_in();
	rx_in();
	assert_true(um.tx_count != 0u);
}

static void q_write_setup(void)
{
	uart_start(false, true);
	write_rec(6);
	serve();
	rx_in();
	rx_in();
	assert_false(u.tx_irq);
}

/* ---- byte mode: the OS's upper half keeps the buffers ---- */

/* The OS's TX buffer: bytes 0x00..0x7F, recorded in tx_want as queued. */
static unsigned b_at;
static uint32_t b_ev; /* the interrupts the OS has on (its own state) */

static void b_queue(unsigned n)
{
	for (unsigned i = 0; i < n && n_tx_want < sizeof(tx_want); i++) {
		tx_want[n_tx_want++] = (uint8_t)(tx_seq++ & 0x7Fu);
	}
}

/* One byte-mode interrupt as NuttX's upper half serves it: poll, read
 * every good byte, write while there is room, TX off when the buffer is
 * empty. */
static void b_isr_once(void)
{
	uint32_t ev = 0;
	bool ok = false;
	uint8_t c;

	EXPECT_EQ(d1_uart_irq_poll(&u, &ev), D1_OK);
	if ((ev & D1_UART_EV_RX) != 0u) {
		for (unsigned k = 0; k <= D1_UART_FIFO_DEPTH; k++) {
			if (d1_uart_rx_ready(&u, &ok) != D1_OK || !ok) {
				break;
			}
			EXPECT_EQ(d1_uart_getc(&u, &c), D1_OK);
			if (n_rx_got < sizeof(rx_got)) {
				rx_got[n_rx_got++] = c;
			}
		}
	}
	if ((ev & D1_UART_EV_TX) != 0u) {
		while (b_at < n_tx_want && d1_uart_tx_ready(&u, &ok) == D1_OK && ok) {
			EXPECT_EQ(d1_uart_putc(&u, tx_want[b_at]), D1_OK);
			b_at++;
		}
		if (b_at == n_tx_want) {
			b_ev &= ~D1_UART_EV_TX;
			EXPECT_EQ(d1_uart_irq_set(&u, b_ev), D1_OK);
		}
	}
}

static void b_serve(void)
{
	unsigned k;

	for (k = 0; k < 64u && uart_model_irq(&um); k++) {
		b_isr_once();
	}
	EXPECT(!uart_model_irq(&um)); /* an interrupt storm */
}

static void b_irq(void *arg)
{
	(void)arg;
	rx_in();
	sim_advance(uart_model_char_ticks(&um) / 4u);
	b_isr_once();
	b_serve();
}

static void b_start(void)
{
	uart_start(true, true);
	assert_int_equal(d1_uart_irq_stop(&u), D1_OK); /* byte mode, not rings */
	b_at = 0;
	b_ev = D1_UART_EV_RX;
	assert_int_equal(d1_uart_irq_set(&u, b_ev), D1_OK);
}

/* Thread putc (0x80..0xFF) against the interrupt's refill from the OS
 * buffer, the FIFO full. */
static void b_putc_setup(void)
{
	b_start();
	b_queue(100);
	b_ev |= D1_UART_EV_TX;
	assert_int_equal(d1_uart_irq_set(&u, b_ev), D1_OK);
	b_serve(); /* one FIFO's worth out of the buffer */
	rx_in();
	rx_in();
	putc_rec();
	assert_int_equal(putc_err, D1_OK);
}

/* Thread turns TX on (NuttX txint(true), after queueing) while the
 * interrupt may turn it off. */
static void b_set_setup(void)
{
	b_start();
	b_queue(10);
	b_ev |= D1_UART_EV_TX;
	assert_int_equal(d1_uart_irq_set(&u, b_ev), D1_OK);
	b_serve(); /* the buffer sent, TX off again */
	rx_in();
	rx_in();
	b_queue(30);
}

static void b_set_call(void)
{
	uintptr_t s = d1_port_critical_enter(); /* the OS's own state */

	b_ev |= D1_UART_EV_TX;
	u_err = d1_uart_irq_set(&u, b_ev);
	d1_port_critical_exit(s);
}

static void b_check(void)
{
	unsigned idle = 0;

	for (unsigned i = 0; i < 4000u && idle <= 6u; i++) {
		sim_advance(uart_model_char_ticks(&um));
		b_serve();
		idle = (b_at == n_tx_want && um.tx_count == 0u && !um.shifting &&
		        um.rx_count == 0u && !uart_model_irq(&um))
		               ? idle + 1u
		               : 0u;
	}
	EXPECT(idle > 6u); /* never went quiet */
	uart_check_quiet();
}

/* Thread getc (RX polled, as RT-Thread allows with interrupt TX) against
 * the TX interrupt: on a 16550, or a DW UART with FIFOs off, the
 * handler's tx_ready()/putc() read LSR, so they see the line errors of
 * the character under RBR. The interrupt brings a character with an error
 * (the 4th of the script, FE) behind the good one getc is reading: its
 * error must stay with it, whenever the handler runs. */
static void g_getc_rec(void)
{
	uint8_t c = 0;
	d1_err_t e = d1_uart_getc(&u, &c);

	if (e == D1_OK && n_rx_got < sizeof(rx_got)) {
		rx_got[n_rx_got++] = c;
	} else if (e != D1_OK && e != D1_EAGAIN) {
		u_err = e;
	}
}

static void g_setup(bool dw)
{
	uart_start(dw, !dw);
	assert_int_equal(d1_uart_irq_stop(&u), D1_OK); /* byte mode, not rings */
	b_at = 0;
	b_queue(20);
	b_ev = D1_UART_EV_TX;
	assert_int_equal(d1_uart_irq_set(&u, b_ev), D1_OK);
	if (dw) {             /* FIFO off: one character at a time */
		rx_in();      /* 1: PE */
		g_getc_rec(); /* counted, discarded */
		rx_in();      /* 2 */
		g_getc_rec();
		rx_in(); /* 3: the one the call reads */
	} else {
		rx_in(); /* 1: PE */
		rx_in(); /* 2 */
		rx_in(); /* 3: the one the call reads */
		g_getc_rec();
		g_getc_rec();
	}
	assert_int_equal(n_rx_got, 1);
}

static void g_q_setup(void)
{
	g_setup(false);
}

static void g_dw_setup(void)
{
	g_setup(true);
}

static void g_check(void)
{
	for (unsigned k = 0; k < 64u && um.rx_count != 0u; k++) {
		g_getc_rec();
	}
	b_check();
}

/* ------------------------------------------------------------------ */
/* Timer: IRQ_EN (shared RMW), IRQ_STA (W1C), the handle of a channel   */
/* ------------------------------------------------------------------ */

#define T_OTHER_PERIOD 240u   /* 10 us: the other channel, OSC24M / 1 */
#define T_SELF_PERIOD  2400u  /* 100 us */
#define T_FRAC_HZ      70000u /* 342 6/7 clocks */
#define T_STEP         60u
#define T_HALF_HZ      25600u   /* 937 1/2 clocks: den = 2 */
#define T_HALF_CEIL    938u     /* that period rounded up */
#define T_THIRD_HZ     72000u   /* 333 1/3 clocks: den = 3 */
#define T_SHORT_HZ     1100000u /* 21 9/11 clocks: shorter than start's RELOAD poll */

static struct timer_model tm;
static struct d1_timer tt[2];
static unsigned ts; /* the thread's channel */
static unsigned to; /* the other channel */
static bool want_en[2];
static unsigned acked[2];
static unsigned spurious[2];
static unsigned bad_sample[2];
static uint64_t bound0[2];  /* model boundaries at the spacing reference */
static uint64_t per_num[2]; /* period num / den for the spacing check (0: none) */
static uint64_t per_den[2];
static uint64_t slack_k[2]; /* boundaries 1..slack_k may be up to 2 clocks late */
static unsigned bad_spacing[2];
static bool oneshot[2];
static d1_err_t t_err;
static bool t_en_after;
static uint64_t t_step; /* serving step, < half the shortest period */

static uint64_t last_bclk[2]; /* input clock of the channel's latest boundary */

static void on_boundary(void *arg, unsigned ch, uint64_t in_clocks)
{
	uint64_t k = tm.ch[ch].boundaries - bound0[ch];

	uint64_t late_max = k <= slack_k[ch] ? 2u : 1u;

	(void)arg;
	last_bclk[ch] = in_clocks;
	if (per_num[ch] == 0u) {
		return;
	}
	/* boundary k at k * num / den input clocks after the load, never
	 * early, late by less than one clock (the fraction still in the
	 * accumulator; docs/design.md "Timer") */
	if (!(k * per_num[ch] >= in_clocks * per_den[ch] &&
	      k * per_num[ch] - in_clocks * per_den[ch] < late_max * per_den[ch])) {
		bad_spacing[ch]++;
	}
}

/* d1_timer_isr() as the OS calls it, with its result checked. */
static void timer_isr(unsigned c)
{
	uint32_t r = d1_timer_isr(&tt[c]);

	if (r == D1_TIMER_ISR_SPURIOUS) {
		spurious[c]++;
		return;
	}
	acked[c]++;
	if (oneshot[c] ? r != 0u
	               : per_num[c] != 0u && r >= (per_num[c] + per_den[c] - 1u) / per_den[c]) {
		bad_sample[c]++; /* a one-shot expiry is 0; a tick sample is < one period */
	}
}

/* Let @p ticks pass, serving both channels' IRQ_STA bits as they come
 * (polled: also with IRQ_EN off, so a bit cleared by the wrong side shows
 * as a lost tick). */
static void timer_advance(uint64_t ticks)
{
	for (uint64_t t = 0; t < ticks; t += t_step) {
		sim_advance(ticks - t < t_step ? ticks - t : t_step);
		for (unsigned c = 0; c < 2u; c++) {
			if ((tm.irq_sta & (1u << c)) != 0u) {
				timer_isr(c);
			}
		}
	}
}

/* Run 3 of the thread channel's periods. */
static void timer_run_dry(void)
{
	timer_advance(3u * T_SELF_PERIOD);
}

static void timer_fresh(unsigned self)
{
	sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	ts = self;
	to = 1u - self;
	t_step = T_STEP;
	for (unsigned c = 0; c < 2u; c++) {
		assert_int_equal(d1_timer_init(&tt[c], D1_TIMER_BASE, c, D1_OSC24M_HZ, D1_LOSC_HZ),
		                 D1_OK);
		want_en[c] = false;
		acked[c] = 0;
		spurious[c] = 0;
		bad_sample[c] = 0;
		bound0[c] = 0;
		per_num[c] = 0;
		per_den[c] = 1;
		slack_k[c] = 0;
		bad_spacing[c] = 0;
		oneshot[c] = false;
		last_bclk[c] = 0;
	}
	t_err = D1_OK;
}

static void timer_irq_on(unsigned c, bool on)
{
	want_en[c] = on;
	assert_int_equal(d1_timer_irq_enable(&tt[c], on), D1_OK);
}

static void timer_periodic(unsigned c, uint64_t clocks)
{
	assert_int_equal(d1_timer_set_period_clocks(&tt[c], clocks, NULL), D1_OK);
	bound0[c] = tm.ch[c].boundaries;
	per_num[c] = clocks;
	per_den[c] = 1;
	assert_int_equal(d1_timer_start(&tt[c], D1_TIMER_PERIODIC), D1_OK);
}

/* The other channel runs a 10 us period with its interrupt on. */
static void timer_cross_setup(unsigned self)
{
	timer_fresh(self);
	timer_periodic(to, T_OTHER_PERIOD);
	timer_irq_on(to, true);
	timer_advance(T_OTHER_PERIOD / 3u);
}

/* The other channel's interrupt: its boundary comes (unless one is already
 * pending: then the interrupt is that one's), its handler acks it (IRQ_STA
 * W1C), then flips its own IRQ_EN bit as an OS handler might
 * (d1_timer_irq_enable(): a read-modify-write of the word the thread's
 * channel shares). */
static void timer_other_irq(void *arg)
{
	const struct timer_model_ch *c = &tm.ch[to];

	(void)arg;
	if ((tm.irq_sta & (1u << to)) == 0u && (c->ctrl & 1u) != 0u && c->loaded) {
		sim_advance((uint64_t)c->cur + 1u);
	}
	timer_isr(to);
	want_en[to] = !want_en[to];
	(void)d1_timer_irq_enable(&tt[to], want_en[to]);
}

/* The thread's own channel's interrupt: its next boundary (or expiry)
 * comes, unless one is already pending, and its handler runs. */
static void timer_self_irq(void *arg)
{
	const struct timer_model_ch *c = &tm.ch[ts];

	(void)arg;
	if ((tm.irq_sta & (1u << ts)) == 0u && (c->ctrl & 1u) != 0u) {
		if (c->reload_req) {
			sim_advance(1u + (uint64_t)c->intv + 1u); /* the load, then a period */
		} else if (c->loaded && !c->stopped) {
			sim_advance((uint64_t)c->cur + 1u);
		}
	}
	timer_isr(ts);
}

/* The thread's own channel's interrupt taken so late that two of its
 * boundaries are handled in it (an interrupt of a higher priority, or a
 * long critical section elsewhere, delaying the handler's return): the
 * next boundary comes and is handled, then the one after it. On a
 * schedule of den = 2 the accumulator is then back at the value it had
 * before them, which d1_timer_start() cannot tell from "not handled yet"
 * (src/timer.c queue_second()); t_twice_same_acc counts the points where
 * that happened, so the case is known to reach it. */
static uint64_t t_twice_same_acc;

static void timer_self_irq2(void *arg)
{
	const struct timer_model_ch *c = &tm.ch[ts];
	uint64_t acc = tt[ts].acc;
	unsigned n = acked[ts];

	timer_self_irq(arg);
	if ((tm.irq_sta & (1u << ts)) == 0u && (c->ctrl & 1u) != 0u && c->loaded && !c->stopped) {
		sim_advance((uint64_t)c->cur + 1u);
	}
	timer_isr(ts);
	if (acked[ts] == n + 2u && tt[ts].acc == acc && tt[ts].den == 2u) {
		t_twice_same_acc++;
	}
}

static void timer_check(void)
{
	EXPECT_EQ(t_err, D1_OK);
	timer_run_dry();
	for (unsigned c = 0; c < 2u; c++) {
		/* every boundary acknowledged exactly once: none lost, none twice */
		EXPECT_EQ(acked[c], tm.ch[c].boundaries);
		EXPECT_EQ(bad_sample[c], 0);
		EXPECT_EQ(bad_spacing[c], 0);
		EXPECT_EQ(tm.ch[c].sync_violations, 0);
	}
	/* IRQ_EN: each channel's bit as its owner left it */
	EXPECT_EQ(tm.irq_en, (want_en[0] ? 1u : 0u) | (want_en[1] ? 2u : 0u));
	EXPECT_EQ(tm.irq_sta, 0);
	EXPECT_EQ(sim_unmapped(), 0);
}

static unsigned tparam(void)
{
	return cur->param;
}

static void t_start_setup(void)
{
	timer_cross_setup(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_clocks(&tt[ts], T_SELF_PERIOD, NULL), D1_OK);
	bound0[ts] = 0;
	per_num[ts] = T_SELF_PERIOD;
}

static void t_start_call(void)
{
	t_err = d1_timer_start(&tt[ts], D1_TIMER_PERIODIC);
	t_en_after = (tm.ch[ts].ctrl & 1u) != 0u;
}

static void t_start_check(void)
{
	EXPECT(t_en_after);
	timer_check();
	EXPECT(tm.ch[ts].boundaries >= 2u);
}

static void t_frac_setup(void)
{
	timer_cross_setup(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_hz(&tt[ts], T_FRAC_HZ, NULL), D1_OK);
	bound0[ts] = 0;
	per_num[ts] = D1_OSC24M_HZ / 10000u; /* 24e6 / 70000 = 2400 / 7 */
	per_den[ts] = T_FRAC_HZ / 10000u;
}

static void t_stop_setup(void)
{
	timer_cross_setup(tparam());
	timer_irq_on(ts, true);
	timer_periodic(ts, T_SELF_PERIOD);
	timer_advance(T_SELF_PERIOD / 2u);
}

static void t_stop_call(void)
{
	t_err = d1_timer_stop(&tt[ts]);
	t_en_after = (tm.ch[ts].ctrl & 1u) != 0u;
}

static void t_stop_check(void)
{
	uint64_t b = tm.ch[ts].boundaries;

	EXPECT(!t_en_after);
	timer_check();
	EXPECT_EQ(tm.ch[ts].boundaries, b); /* stopped: no boundary afterwards */
}

static void t_irq_on_setup(void)
{
	t_stop_setup();
	timer_irq_on(ts, false);
}

static void t_irq_on_call(void)
{
	want_en[ts] = true;
	t_err = d1_timer_irq_enable(&tt[ts], true);
}

static void t_irq_off_setup(void)
{
	t_stop_setup();
}

static void t_irq_off_call(void)
{
	want_en[ts] = false;
	t_err = d1_timer_irq_enable(&tt[ts], false);
}

static void t_ack_call(void)
{
	t_err = d1_timer_irq_ack(&tt[ts]);
}

static void t_arm_setup(void)
{
	timer_cross_setup(tparam());
	timer_irq_on(ts, true);
	oneshot[ts] = true;
}

static void t_arm_call(void)
{
	t_err = d1_timer_oneshot_arm(&tt[ts], 2u * T_SELF_PERIOD);
	t_en_after = (tm.ch[ts].ctrl & 1u) != 0u;
}

static void t_arm_check(void)
{
	uint64_t left = 1;

	EXPECT(t_en_after);
	timer_check();
	EXPECT_EQ(tm.ch[ts].boundaries, 1); /* the deadline expired once */
	EXPECT_EQ(d1_timer_oneshot_remaining(&tt[ts], &left), D1_OK);
	EXPECT_EQ(left, 0); /* and the handle knows */
}

static void t_cancel_setup(void)
{
	t_arm_setup();
	assert_int_equal(d1_timer_oneshot_arm(&tt[ts], 10u * T_SELF_PERIOD), D1_OK);
	timer_advance(T_SELF_PERIOD);
}

static void t_cancel_call(void)
{
	t_err = d1_timer_oneshot_cancel(&tt[ts]);
	t_en_after = (tm.ch[ts].ctrl & 1u) != 0u;
}

static void t_cancel_check(void)
{
	uint64_t left = 0;

	EXPECT(!t_en_after);
	timer_check();
	EXPECT_EQ(tm.ch[ts].boundaries, 0);
	EXPECT_EQ(d1_timer_oneshot_remaining(&tt[ts], &left), D1_ESTATE);
}

/* The same channel's own interrupt during its re-arm, start or cancel
 * (IRQ_STA W1C by the thread against the handler; the handle's state). */
static void s_rearm_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	oneshot[ts] = true;
	assert_int_equal(d1_timer_oneshot_arm(&tt[ts], 10u * T_SELF_PERIOD), D1_OK);
	timer_advance(T_SELF_PERIOD);
}

static void s_rearm_call(void)
{
	t_err = d1_timer_oneshot_arm(&tt[ts], T_SELF_PERIOD / 5u);
}

static void s_oneshot_check(void)
{
	uint64_t left = 1;

	timer_check();
	/* the last deadline expired and was reported: nothing left */
	EXPECT(tm.ch[ts].boundaries >= 1u);
	EXPECT_EQ(d1_timer_oneshot_remaining(&tt[ts], &left), D1_OK);
	EXPECT_EQ(left, 0);
	EXPECT_EQ(d1_timer_remaining(&tt[ts]), 0);
}

static void s_start_oneshot_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	oneshot[ts] = true;
	assert_int_equal(d1_timer_set_period_clocks(&tt[ts], T_SELF_PERIOD / 5u, NULL), D1_OK);
}

static void s_start_oneshot_call(void)
{
	t_err = d1_timer_start(&tt[ts], D1_TIMER_ONESHOT);
}

static void s_start_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_clocks(&tt[ts], T_SELF_PERIOD / 5u, NULL), D1_OK);
	per_num[ts] = T_SELF_PERIOD / 5u;
}

static void s_start_frac_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_hz(&tt[ts], T_FRAC_HZ, NULL), D1_OK);
	per_num[ts] = D1_OSC24M_HZ / 10000u;
	per_den[ts] = T_FRAC_HZ / 10000u;
	/* When the first boundary comes before d1_timer_start() returns, the
	 * counter has already latched period one again for period two (no
	 * code can change that): boundary 2 may then be up to 2 clocks late,
	 * and the accumulator pays that back within den - 1 periods (6 here),
	 * after which every boundary is back within one clock. */
	slack_k[ts] = 1u + per_den[ts];
}

/* A fractional period shorter than start's own RELOAD poll: the first
 * boundary has passed (IRQ_STA set, handler not run yet) when start comes
 * to queue period two, with or without an interrupt. */
static void s_start_short_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	t_step = 5;
	assert_int_equal(d1_timer_set_period_hz(&tt[ts], T_SHORT_HZ, NULL), D1_OK);
	per_num[ts] = D1_OSC24M_HZ / 100000u; /* 240 / 11 */
	per_den[ts] = T_SHORT_HZ / 100000u;
	slack_k[ts] = 1u + per_den[ts];
}

/* A period of 937 1/2 clocks (den = 2). With timer_self_irq2 the two
 * boundaries handled before start queues period two bring the accumulator
 * back to its value at the load; start then queues period two as if no
 * boundary had passed (over the interval the second handler queued). That
 * is exact: the interval it replaces was the schedule's first step again
 * (acc 0 -> rem, no carry), the same as the period the counter repeated,
 * so handle and counter agree and the phase is back within one clock from
 * boundary 3. Counting the handled boundaries instead (start then only
 * adds rem) leaves acc = den: boundary 4 one whole clock late, which this
 * case catches (measured: 12 of 28 injection points). */
static void s_start_half_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_hz(&tt[ts], T_HALF_HZ, NULL), D1_OK);
	assert_int_equal(tt[ts].den, 2);
	per_num[ts] = 2u * D1_OSC24M_HZ / T_HALF_HZ; /* 1875 / 2 */
	per_den[ts] = 2u;
	slack_k[ts] = 1u + per_den[ts];
}

/* 333 1/3 clocks (den = 3): two boundaries handled before start queues
 * period two move the accumulator, and start takes the "already ran"
 * path. */
static void s_start_third_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	assert_int_equal(d1_timer_set_period_hz(&tt[ts], T_THIRD_HZ, NULL), D1_OK);
	assert_int_equal(tt[ts].den, 3);
	per_num[ts] = 3u * D1_OSC24M_HZ / T_THIRD_HZ; /* 1000 / 3 */
	per_den[ts] = 3u;
	slack_k[ts] = 1u + per_den[ts];
}

static void s_cancel_setup(void)
{
	timer_fresh(tparam());
	timer_irq_on(ts, true);
	oneshot[ts] = true;
	assert_int_equal(d1_timer_oneshot_arm(&tt[ts], T_SELF_PERIOD / 5u), D1_OK);
}

static void s_cancel_check(void)
{
	uint64_t left = 0;
	uint64_t b = tm.ch[ts].boundaries;

	timer_check();
	EXPECT_EQ(tm.ch[ts].boundaries, b); /* cancelled: no expiry afterwards */
	EXPECT(b <= 1u);
	EXPECT_EQ(d1_timer_oneshot_remaining(&tt[ts], &left), D1_ESTATE);
}

/* d1_timer_elapsed() on a fractional schedule (937 1/2 clocks, den = 2,
 * where the interval after a boundary differs from the one before it)
 * against its own channel's handler, which queues the next interval. The
 * answer must be the clocks since the latest boundary as the model counted
 * them at some instant of the call: before or after the handler ran (the
 * handler's boundary may come inside the call), never a mix of the two
 * (one clock off, or 2^32 - 1 for "0 - 1"). Two starting points: a
 * boundary just passed and its handler not run yet, and mid-period. */
static uint32_t e_res;
static uint32_t e_before; /* the truth when the call starts */
static uint32_t e_after;  /* and when it returns */

static uint32_t elapsed_truth(void)
{
	return (uint32_t)(tm.ch[ts].in_clocks - last_bclk[ts]);
}

/* The 937 1/2-clock schedule of s_start_half_setup(), started and run
 * for three boundaries, each handled. Also the start of the stop cases:
 * a boundary handled inside stop's sync wait must not write INTV then (a
 * sync violation), and nothing may come after the stop. */
static void e_setup_common(void)
{
	s_start_half_setup();
	assert_int_equal(d1_timer_start(&tt[ts], D1_TIMER_PERIODIC), D1_OK);
	timer_advance(3u * T_HALF_CEIL);
}

static void e_pending_setup(void)
{
	e_setup_common();
	/* to the next boundary, its handler not run */
	sim_advance(timer_model_ticks_to_boundary(&tm, ts));
	assert_true((tm.irq_sta & (1u << ts)) != 0u);
}

static void e_mid_setup(void)
{
	e_setup_common();
	sim_advance(timer_model_ticks_to_boundary(&tm, ts) / 2u);
}

static void e_call(void)
{
	e_before = elapsed_truth();
	e_res = d1_timer_elapsed(&tt[ts]);
	e_after = elapsed_truth();
}

static void e_check(void)
{
	EXPECT(e_res == e_before || e_res == e_after);
	EXPECT(e_res < T_HALF_CEIL);
	timer_check();
}

/* ------------------------------------------------------------------ */
/* PLIC: enable words shared by 32 sources; claim/complete in dispatch  */
/* ------------------------------------------------------------------ */

#define PSRC_A 18u /* the thread's source */
#define PSRC_B 20u /* the one the handler enables/disables, same word */
#define PSRC_C 25u /* the one that interrupts, same word */

static struct plic_model pm;
static struct d1_plic pl;
static struct d1_plic_entry ptab[D1_PLIC_NSOURCES + 1u];
static struct d1_plic_stats pst;
static bool pwant[D1_PLIC_NSOURCES + 1u];
static unsigned pcalls[D1_PLIC_NSOURCES + 1u];
static unsigned pprio_a;
static d1_err_t p_err;

static void p_set(unsigned src, bool on)
{
	pwant[src] = on;
	(void)(on ? d1_plic_enable(&pl, src) : d1_plic_disable(&pl, src));
}

/* Level handlers: the device drops its line; C's handler also flips B's
 * enable bit (a read-modify-write of the word A lives in). */
static void p_handler(unsigned src, void *arg)
{
	(void)arg;
	pcalls[src]++;
	plic_model_set_level(&pm, src, false);
	if (src == PSRC_C) {
		p_set(PSRC_B, !pwant[PSRC_B]);
	}
}

static void plic_setup_base(bool a_on)
{
	sim_reset();
	plic_model_init(&pm, D1_PLIC_BASE, D1_PLIC_NSOURCES, 5, true);
	assert_int_equal(d1_plic_init(&pl, D1_PLIC_BASE, D1_PLIC_CTX_M, D1_PLIC_NSOURCES, 0),
	                 D1_OK);
	memset(ptab, 0, sizeof(ptab));
	memset(pwant, 0, sizeof(pwant));
	memset(pcalls, 0, sizeof(pcalls));
	pst = (struct d1_plic_stats){0};
	p_err = D1_OK;
	pprio_a = 1;
	ptab[PSRC_A] = (struct d1_plic_entry){.fn = p_handler};
	ptab[PSRC_B] = (struct d1_plic_entry){.fn = p_handler};
	ptab[PSRC_C] = (struct d1_plic_entry){.fn = p_handler};
	assert_int_equal(d1_plic_set_priority(&pl, PSRC_A, 1), D1_OK);
	assert_int_equal(d1_plic_set_priority(&pl, PSRC_B, 2), D1_OK);
	assert_int_equal(d1_plic_set_priority(&pl, PSRC_C, 3), D1_OK);
	p_set(PSRC_C, true);
	p_set(PSRC_A, a_on);
}

/* The interrupt: C (and B) raise their lines, the dispatcher runs. */
static void plic_irq(void *arg)
{
	(void)arg;
	plic_model_set_level(&pm, PSRC_C, true);
	plic_model_set_level(&pm, PSRC_B, true);
	(void)d1_plic_isr(&pl, ptab, D1_PLIC_NSOURCES + 1u, &pst);
}

static void plic_check(void)
{
	uint32_t w0 = 0;

	EXPECT_EQ(p_err, D1_OK);
	/* a dispatch for whatever is still pending and enabled */
	(void)d1_plic_isr(&pl, ptab, D1_PLIC_NSOURCES + 1u, &pst);
	for (unsigned s = 1; s < 32u; s++) {
		w0 |= pwant[s] ? 1u << s : 0u;
	}
	/* every enable bit exactly as its owner left it */
	EXPECT_EQ(pm.enable[0][0], w0);
	for (unsigned w = 1; w < 32u; w++) {
		EXPECT_EQ(pm.enable[0][w], 0);
		EXPECT_EQ(pm.enable[1][w], 0);
	}
	EXPECT_EQ(pm.enable[1][0], 0);
	/* claims and completions paired: nothing left in service, no
	 * completion dropped, each claim handled once */
	for (unsigned s = 1; s <= D1_PLIC_NSOURCES; s++) {
		EXPECT_EQ(pm.claimed_by[s], -1);
		EXPECT_EQ(pcalls[s], pm.delivered[s]);
	}
	EXPECT_EQ(pm.completes_dropped_masked, 0);
	EXPECT_EQ(pm.completes_unclaimed, 0);
	EXPECT_EQ(pst.unhandled, 0);
	EXPECT_EQ(pst.foreign, 0);
	EXPECT_EQ(pst.dispatched, pcalls[PSRC_B] + pcalls[PSRC_C]);
	EXPECT_EQ(pm.prio[PSRC_A], pprio_a);
	EXPECT_EQ(pm.prio[PSRC_B], 2);
	EXPECT_EQ(pm.prio[PSRC_C], 3);
	/* an enabled source's line was served */
	EXPECT(!pwant[PSRC_C] || !pm.level[PSRC_C]);
	EXPECT(!pwant[PSRC_B] || !pm.level[PSRC_B]);
	EXPECT_EQ(sim_unmapped(), 0);
}

static void p_enable_setup(void)
{
	plic_setup_base(false);
}

static void p_enable_call(void)
{
	pwant[PSRC_A] = true;
	p_err = d1_plic_enable(&pl, PSRC_A);
}

static void p_disable_setup(void)
{
	plic_setup_base(true);
}

static void p_disable_call(void)
{
	pwant[PSRC_A] = false;
	p_err = d1_plic_disable(&pl, PSRC_A);
}

/* The thread masks the very source that interrupts. */
static void p_disable_c_call(void)
{
	pwant[PSRC_C] = false;
	p_err = d1_plic_disable(&pl, PSRC_C);
}

static void p_prio_call(void)
{
	pprio_a = 7;
	p_err = d1_plic_set_priority(&pl, PSRC_A, 7);
}

/* ------------------------------------------------------------------ */
/* CCU: *_BGR words holding several blocks' gate and reset bits          */
/* ------------------------------------------------------------------ */

static struct ccu_model cm;
static struct d1_ccu ccu;
static uint32_t bgr_want[0x1000 / 4];
static bool bgr_touched[0x1000 / 4];
static d1_err_t c_err;

struct ccu_pair {
	enum d1_ccu_bus thread_bus;
	bool thread_on;
	enum d1_ccu_bus isr_bus;
};

static const struct ccu_pair ccu_pairs[] = {
        {D1_CCU_BUS_UART0, true, D1_CCU_BUS_UART2},
        {D1_CCU_BUS_UART1, false, D1_CCU_BUS_UART2},
        {D1_CCU_BUS_SMHC0, true, D1_CCU_BUS_SMHC1},
        {D1_CCU_BUS_DSP, true, D1_CCU_BUS_DSP_DBG}, /* reset-only rows, one register */
};

struct bus_row {
	uint16_t off;
	uint8_t gate;
	uint8_t rst;
};
#define ROW_(name, svd, off, gf, gate, rf, rst) {(off), (gate), (rst)},
static const struct bus_row bus_rows[] = {D1_CCU_BUS_LIST(ROW_)};
#undef ROW_

static uint32_t bus_mask(enum d1_ccu_bus b)
{
	const struct bus_row *r = &bus_rows[b];

	return (r->gate == D1_CCU_BUS_NO_BIT ? 0u : 1u << r->gate) |
	       (r->rst == D1_CCU_BUS_NO_BIT ? 0u : 1u << r->rst);
}

/* Set what a block's bits should end up as. */
static void bus_want(enum d1_ccu_bus b, bool on)
{
	unsigned i = bus_rows[b].off / 4u;

	bgr_touched[i] = true;
	bgr_want[i] = on ? bgr_want[i] | bus_mask(b) : bgr_want[i] & ~bus_mask(b);
}

static const struct ccu_pair *cpair(void)
{
	return &ccu_pairs[cur->param];
}

static bool isr_on;

static void ccu_setup(void)
{
	const struct ccu_pair *pr = cpair();

	sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE);
	ccu_model_preset_uboot(&cm);
	assert_int_equal(d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ), D1_OK);
	for (unsigned i = 0; i < 0x1000u / 4u; i++) {
		bgr_want[i] = ccu_model_peek(&cm, i * 4u);
		bgr_touched[i] = false;
	}
	/* the thread's block starts in the other state, the ISR's block on */
	bus_want(pr->thread_bus, !pr->thread_on);
	assert_int_equal(pr->thread_on ? d1_ccu_bus_disable(&ccu, pr->thread_bus)
	                               : d1_ccu_bus_enable(&ccu, pr->thread_bus),
	                 D1_OK);
	isr_on = true;
	bus_want(pr->isr_bus, true);
	assert_int_equal(d1_ccu_bus_enable(&ccu, pr->isr_bus), D1_OK);
	c_err = D1_OK;
}

static void ccu_call(void)
{
	const struct ccu_pair *pr = cpair();

	bus_want(pr->thread_bus, pr->thread_on);
	c_err = pr->thread_on ? d1_ccu_bus_enable(&ccu, pr->thread_bus)
	                      : d1_ccu_bus_disable(&ccu, pr->thread_bus);
}

/* An OS handler gating another block of the same register off/on. */
static void ccu_irq(void *arg)
{
	const struct ccu_pair *pr = cpair();

	(void)arg;
	isr_on = !isr_on;
	bus_want(pr->isr_bus, isr_on);
	(void)(isr_on ? d1_ccu_bus_enable(&ccu, pr->isr_bus)
	              : d1_ccu_bus_disable(&ccu, pr->isr_bus));
}

static void ccu_check(void)
{
	EXPECT_EQ(c_err, D1_OK);
	for (unsigned i = 0; i < 0x1000u / 4u; i++) {
		if (bgr_touched[i]) {
			EXPECT_EQ(ccu_model_peek(&cm, i * 4u), bgr_want[i]);
		}
	}
	EXPECT_EQ(cm.bgr_order_violations, 0);
	EXPECT_EQ(cm.bgr_reserved_changes, 0);
	EXPECT_EQ(sim_unmapped(), 0);
}

/* ------------------------------------------------------------------ */
/* The cases                                                           */
/* ------------------------------------------------------------------ */

#define UCASE(n, s, c, k)                                                                          \
	{                                                                                          \
		n, s, c, uart_irq, k, uart_release, 0                                              \
	}
#define BCASE(n, s, c)                                                                             \
	{                                                                                          \
		n, s, c, b_irq, b_check, uart_release, 0                                           \
	}
#define TCASE(n, s, c, i, k, ch)                                                                   \
	{                                                                                          \
		n, s, c, i, k, NULL, ch                                                            \
	}

static const struct icase cases[] = {
        UCASE("uart_write_etbei_off", u_write_setup, u_write_call, uart_check),
        UCASE("uart_putc_fifo_full", u_putc_fifo_setup, u_putc_call, uart_check),
        UCASE("uart_putc_thre_pending", u_putc_thre_setup, u_putc_call, uart_check),
        UCASE("uart_putc_fifo_off_lsr", u_putc_nofifo_setup, u_putc_call, uart_check),
        UCASE("uart_drain_lsr", u_drain_setup, u_drain_call, uart_check),
        UCASE("uart_get_stats", u_stats_setup, u_stats_call, u_stats_check),
        UCASE("uart_irq_stop", u_stop_setup, u_stop_call, u_stop_check),
        UCASE("uart16550_putc", q_putc_setup, u_putc_call, uart_check),
        UCASE("uart16550_putc_thre_pending", q_putc_thre_setup, u_putc_call, uart_check),
        UCASE("uart16550_write_etbei_off", q_write_setup, u_write_call, uart_check),
        BCASE("uart_byte_putc_vs_poll", b_putc_setup, u_putc_call),
        BCASE("uart_byte_irq_set_vs_poll", b_set_setup, b_set_call),
        {"uart16550_byte_getc_vs_tx_isr", g_q_setup, g_getc_rec, b_irq, g_check, uart_release, 0},
        {"uart_byte_getc_fifo_off_vs_tx_isr", g_dw_setup, g_getc_rec, b_irq, g_check, uart_release,
         0},
        TCASE("timer0_start_vs_timer1_isr", t_start_setup, t_start_call, timer_other_irq,
              t_start_check, 0),
        TCASE("timer1_start_vs_timer0_isr", t_start_setup, t_start_call, timer_other_irq,
              t_start_check, 1),
        TCASE("timer0_start_fractional_vs_timer1_isr", t_frac_setup, t_start_call, timer_other_irq,
              t_start_check, 0),
        TCASE("timer1_start_fractional_vs_timer0_isr", t_frac_setup, t_start_call, timer_other_irq,
              t_start_check, 1),
        TCASE("timer0_stop_vs_timer1_isr", t_stop_setup, t_stop_call, timer_other_irq, t_stop_check,
              0),
        TCASE("timer1_stop_vs_timer0_isr", t_stop_setup, t_stop_call, timer_other_irq, t_stop_check,
              1),
        TCASE("timer0_irq_enable_vs_timer1_isr", t_irq_on_setup, t_irq_on_call, timer_other_irq,
              timer_check, 0),
        TCASE("timer1_irq_enable_vs_timer0_isr", t_irq_on_setup, t_irq_on_call, timer_other_irq,
              timer_check, 1),
        TCASE("timer0_irq_disable_vs_timer1_isr", t_irq_off_setup, t_irq_off_call, timer_other_irq,
              timer_check, 0),
        TCASE("timer1_irq_disable_vs_timer0_isr", t_irq_off_setup, t_irq_off_call, timer_other_irq,
              timer_check, 1),
        TCASE("timer0_irq_ack_vs_timer1_isr", t_stop_setup, t_ack_call, timer_other_irq,
              timer_check, 0),
        TCASE("timer1_irq_ack_vs_timer0_isr", t_stop_setup, t_ack_call, timer_other_irq,
              timer_check, 1),
        TCASE("timer0_oneshot_arm_vs_timer1_isr", t_arm_setup, t_arm_call, timer_other_irq,
              t_arm_check, 0),
        TCASE("timer1_oneshot_arm_vs_timer0_isr", t_arm_setup, t_arm_call, timer_other_irq,
              t_arm_check, 1),
        TCASE("timer0_oneshot_cancel_vs_timer1_isr", t_cancel_setup, t_cancel_call, timer_other_irq,
              t_cancel_check, 0),
        TCASE("timer1_oneshot_cancel_vs_timer0_isr", t_cancel_setup, t_cancel_call, timer_other_irq,
              t_cancel_check, 1),
        TCASE("timer0_oneshot_rearm_vs_own_isr", s_rearm_setup, s_rearm_call, timer_self_irq,
              s_oneshot_check, 0),
        TCASE("timer1_oneshot_rearm_vs_own_isr", s_rearm_setup, s_rearm_call, timer_self_irq,
              s_oneshot_check, 1),
        TCASE("timer0_start_oneshot_vs_own_isr", s_start_oneshot_setup, s_start_oneshot_call,
              timer_self_irq, s_oneshot_check, 0),
        TCASE("timer0_start_periodic_vs_own_isr", s_start_setup, t_start_call, timer_self_irq,
              timer_check, 0),
        TCASE("timer0_start_fractional_vs_own_isr", s_start_frac_setup, t_start_call,
              timer_self_irq, timer_check, 0),
        TCASE("timer0_start_fractional_short_vs_own_isr", s_start_short_setup, t_start_call,
              timer_self_irq, timer_check, 0),
        TCASE("timer0_start_fractional_third_vs_own_isr_twice", s_start_third_setup, t_start_call,
              timer_self_irq2, timer_check, 0),
        TCASE("timer0_start_fractional_half_vs_own_isr", s_start_half_setup, t_start_call,
              timer_self_irq, timer_check, 0),
        TCASE("timer0_start_fractional_half_vs_own_isr_twice", s_start_half_setup, t_start_call,
              timer_self_irq2, timer_check, 0),
        TCASE("timer0_oneshot_cancel_vs_own_isr", s_cancel_setup, t_cancel_call, timer_self_irq,
              s_cancel_check, 0),
        TCASE("timer0_stop_fractional_vs_own_isr", e_setup_common, t_stop_call, timer_self_irq,
              t_stop_check, 0),
        TCASE("timer0_stop_fractional_boundary_pending_vs_own_isr", e_pending_setup, t_stop_call,
              timer_self_irq, t_stop_check, 0),
        TCASE("timer0_elapsed_fractional_boundary_pending_vs_own_isr", e_pending_setup, e_call,
              timer_self_irq, e_check, 0),
        TCASE("timer1_elapsed_fractional_mid_period_vs_own_isr", e_mid_setup, e_call,
              timer_self_irq, e_check, 1),
        {"plic_enable_vs_dispatch", p_enable_setup, p_enable_call, plic_irq, plic_check, NULL, 0},
        {"plic_disable_vs_dispatch", p_disable_setup, p_disable_call, plic_irq, plic_check, NULL,
         0},
        {"plic_disable_dispatched_source", p_disable_setup, p_disable_c_call, plic_irq, plic_check,
         NULL, 0},
        {"plic_set_priority_vs_dispatch", p_disable_setup, p_prio_call, plic_irq, plic_check, NULL,
         0},
        {"ccu_uart0_enable_vs_uart2_isr", ccu_setup, ccu_call, ccu_irq, ccu_check, NULL, 0},
        {"ccu_uart1_disable_vs_uart2_isr", ccu_setup, ccu_call, ccu_irq, ccu_check, NULL, 1},
        {"ccu_smhc0_enable_vs_smhc1_isr", ccu_setup, ccu_call, ccu_irq, ccu_check, NULL, 2},
        {"ccu_dsp_reset_vs_dsp_dbg_isr", ccu_setup, ccu_call, ccu_irq, ccu_check, NULL, 3},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ------------------------------------------------------------------ */
/* The injection facility itself (sim.h)                               */
/* ------------------------------------------------------------------ */

static unsigned probe_calls;
static unsigned probe_depth_seen;
static uint64_t probe_events_seen;

/* A handler that opens its own critical section (as d1_plic_enable() from
 * a handler does): it must nest without unmasking, and its port calls are
 * not thread events. */
static void probe_isr(void *arg)
{
	uintptr_t s;

	(void)arg;
	probe_calls++;
	probe_depth_seen = sim_critical_depth();
	probe_events_seen = sim_irq_events();
	assert_true(sim_in_isr());
	s = d1_port_critical_enter();
	d1_port_critical_exit(s);
	d1_port_delay_us(1);
	assert_int_equal(sim_irq_events(), probe_events_seen);
}

/* The thread side of the probe: event 0 enter, 1 enter (nested), 2 delay,
 * 3 exit (inner), 4 exit (outer), 5 delay. */
static void probe_thread(void)
{
	uintptr_t a = d1_port_critical_enter();
	uintptr_t b = d1_port_critical_enter();

	d1_port_delay_us(1);
	d1_port_critical_exit(b);
	d1_port_critical_exit(a);
	d1_port_delay_us(1);
}

static void test_sim_injection(void **state)
{
	/* point -> thread events completed when the handler ran (point 2e + 1,
	 * "after event e", runs before e is counted as done) */
	static const uint64_t ran_after[12] = {0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5};

	(void)state;
	sim_reset();
	sim_irq_arm(SIM_IRQ_NEVER, NULL, NULL);
	probe_thread();
	assert_int_equal(sim_irq_events(), 6);
	for (uint64_t p = 0; p < 12u; p++) {
		sim_reset();
		probe_calls = 0;
		sim_irq_arm(p, probe_isr, NULL);
		probe_thread();
		assert_true(sim_irq_raised());
		assert_int_equal(sim_irq_taken(), 1);
		assert_int_equal(probe_calls, 1);
		/* taken at once outside a section, else at the outer exit */
		assert_int_equal(probe_events_seen, ran_after[p]);
		assert_int_equal(probe_depth_seen, 0);
		assert_int_equal(sim_irq_was_deferred(), p >= 1u && p <= 8u);
		assert_int_equal(sim_critical_depth(), 0);
		assert_int_equal(sim_irq_events(), 6);
	}
	/* A point past the end is never raised. */
	sim_reset();
	sim_irq_arm(12, probe_isr, NULL);
	probe_thread();
	assert_false(sim_irq_raised());
	assert_int_equal(sim_irq_taken(), 0);
}

static void test_summary(void **state)
{
	(void)state;
	printf("interleave: total: %u cases, %llu injection points, %llu "
	       "lost/duplicated/corrupted\n",
	       total_cases, (unsigned long long)total_points, (unsigned long long)total_bad);
	assert_int_equal(total_cases, NCASES);
	assert_true(total_points > 0u);
	assert_int_equal(total_bad, 0);
	/* timer0_start_fractional_half_vs_own_isr_twice reached its case */
	assert_true(t_twice_same_acc > 0u);
}

int main(void)
{
	struct CMUnitTest tests[NCASES + 2u];

	setvbuf(stdout, NULL, _IOLBF, 0);
	tests[0] = (struct CMUnitTest){"sim_injection", test_sim_injection, NULL, NULL, NULL};
	for (unsigned i = 0; i < NCASES; i++) {
		tests[1u + i] = (struct CMUnitTest){cases[i].name, run_case, NULL, NULL,
		                                    (void *)(uintptr_t)&cases[i]};
	}
	tests[NCASES + 1u] = (struct CMUnitTest){"summary", test_summary, NULL, NULL, NULL};
	return _cmocka_run_group_tests("interleave", tests, NCASES + 2u, NULL, NULL);
}
