/* SPDX-License-Identifier: Apache-2.0 */
#include "uart_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Register indices and bits (16550 data sheet, DW databook, d1 SVD). */
enum {
	RBR = 0,
	IER = 1,
	IIR = 2,
	LCR = 3,
	MCR = 4,
	LSR = 5,
	MSR = 6,
	SCR = 7,
	USR = 31,
	TFL = 32,
	RFL = 33,
	DBG_DLL = 44,
	DBG_DLH = 45
};
#define LCR_DLAB    0x80u
#define FCR_FIFOE   0x01u
#define FCR_RFIFOR  0x02u
#define FCR_XFIFOR  0x04u
#define IER_ERBFI   0x01u
#define IER_ETBEI   0x02u
#define IER_ELSI    0x04u
#define LSR_DR      0x01u
#define LSR_OE      0x02u
#define LSR_PE      0x04u
#define LSR_FE      0x08u
#define LSR_BI      0x10u
#define LSR_THRE    0x20u
#define LSR_TEMT    0x40u
#define LSR_FIFOERR 0x80u
#define MCR_RTS     0x02u
#define MCR_AFCE    0x20u
#define NEVER       UINT64_MAX

static bool fifo_on(const struct uart_model *m)
{
	return (m->fcr & FCR_FIFOE) != 0;
}

static unsigned eff_depth(const struct uart_model *m)
{
	return fifo_on(m) ? m->depth : 1u;
}

static unsigned divisor(const struct uart_model *m)
{
	return (unsigned)m->dll | ((unsigned)m->dlh << 8);
}

uint64_t uart_model_char_ticks(const struct uart_model *m)
{
	unsigned data = 5u + (m->lcr & 3u);
	unsigned half = 2u * (1u + data + ((m->lcr & 0x08u) != 0 ? 1u : 0u));
	uint64_t div = divisor(m);

	if ((m->lcr & 0x04u) == 0) {
		half += 2u;
	} else {
		half += data == 5u ? 3u : 4u;
	}
	if (div == 0) {
		return NEVER; /* divisor 0: no baud clock */
	}
	/* half bits * 16 * div / clk seconds, in SIM_HZ ticks, rounded up */
	return (half * 16u * div * SIM_HZ + 2u * m->clk_hz - 1u) / (2u * m->clk_hz);
}

bool uart_model_busy(const struct uart_model *m)
{
	return m->busy_stuck || m->shifting || m->tx_count > 0 || m->receiving || m->rx_count > 0;
}

unsigned uart_model_line_pending(const struct uart_model *m)
{
	return m->line_count + (m->receiving ? 1u : 0u);
}

static unsigned rx_trigger(const struct uart_model *m);

static bool afc_on(const struct uart_model *m)
{
	return m->dw && (m->mcr & MCR_AFCE) != 0 && fifo_on(m);
}

bool uart_model_rts(const struct uart_model *m)
{
	if ((m->mcr & MCR_RTS) == 0) {
		return false;
	}
	return !afc_on(m) || m->rx_count < rx_trigger(m);
}

static void latch_top(struct uart_model *m)
{
	if (m->rx_count > 0) {
		unsigned f = m->rxf[m->rx_head] >> 8;
		m->lsr_err = (uint8_t)(((f & UART_RX_PE) != 0 ? LSR_PE : 0u) |
		                       ((f & UART_RX_FE) != 0 ? LSR_FE : 0u) |
		                       ((f & UART_RX_BI) != 0 ? LSR_BI : 0u));
	}
}

static void rx_complete(struct uart_model *m, uint16_t ch, uint64_t t)
{
	m->last_rx_activity = t;
	if (m->rx_count >= eff_depth(m)) {
		m->oe = true; /* the character in the shift register is lost */
		m->rx_lost++;
		return;
	}
	m->rxf[(m->rx_head + m->rx_count) % UART_MODEL_MAX_FIFO] = ch;
	m->rx_count++;
	m->rx_received++;
	if (m->rx_count == 1) {
		latch_top(m);
	}
}

static void start_rx(struct uart_model *m, uint64_t t)
{
	if (m->receiving || m->line_count == 0) {
		return;
	}
	if (m->remote_rtscts && !uart_model_rts(m)) {
		return; /* the far end holds its next character */
	}
	m->rx_char = m->line[m->line_head];
	m->line_head = (m->line_head + 1) % UART_MODEL_LINE_MAX;
	m->line_count--;
	m->receiving = true;
	m->rx_end = t + uart_model_char_ticks(m);
}

static void start_tx(struct uart_model *m, uint64_t t)
{
	if (m->shifting || m->tx_count == 0) {
		return;
	}
	if (afc_on(m) && !m->cts) {
		return; /* auto-CTS: no new character while CTS is deasserted */
	}
	m->shift_byte = m->txf[m->tx_head];
	m->tx_head = (m->tx_head + 1) % UART_MODEL_MAX_FIFO;
	m->tx_count--;
	m->shifting = true;
	m->shift_end = m->tx_stuck ? NEVER : t + uart_model_char_ticks(m);
	if (m->tx_count == 0) {
		m->thre_int = true; /* THR/FIFO became empty */
	}
}

static void advance(void *ctx, uint64_t now)
{
	struct uart_model *m = ctx;

	for (;;) {
		uint64_t tx = m->shifting ? m->shift_end : NEVER;
		uint64_t rx = m->receiving ? m->rx_end : NEVER;

		if (tx <= rx && tx <= now) {
			if (m->cap_count < UART_MODEL_CAPTURE_MAX) {
				m->cap[m->cap_count++] = (struct uart_model_tx_char){
				        .byte = m->shift_byte,
				        .lcr = m->lcr,
				        .divisor = (uint16_t)divisor(m),
				        .t_end = tx,
				};
			}
			m->shifting = false;
			start_tx(m, tx);
		} else if (rx <= now) {
			m->receiving = false;
			rx_complete(m, m->rx_char, rx);
			start_rx(m, rx);
		} else {
			break;
		}
	}
	if (now != m->last_now) {
		m->usr_idle_seen = false; /* time moved: what USR said is stale */
	}
	m->last_now = now;
	start_rx(m, now); /* held by RTS until now */
}

static unsigned rx_trigger(const struct uart_model *m)
{
	unsigned d = m->depth;

	switch (m->fcr >> 6) {
	case 1:
		return d / 4u;
	case 2:
		return d / 2u;
	case 3:
		return d - 2u;
	default:
		return 1u;
	}
}

static bool timeout_pending(const struct uart_model *m)
{
	uint64_t ct = uart_model_char_ticks(m);

	if ((m->ier & IER_ERBFI) == 0) {
		return false;
	}
	if (m->timeout_empty) {
		return true;
	}
	return fifo_on(m) && m->rx_count > 0 && ct != NEVER &&
	       m->last_now - m->last_rx_activity >= 4u * ct;
}

unsigned uart_model_iid(const struct uart_model *m)
{
	if ((m->ier & IER_ELSI) != 0 && (m->oe || m->lsr_err != 0)) {
		return 0x6;
	}
	if ((m->ier & IER_ERBFI) != 0 && m->rx_count >= (fifo_on(m) ? rx_trigger(m) : 1u)) {
		return 0x4;
	}
	if (timeout_pending(m)) {
		return 0xC;
	}
	if ((m->ier & IER_ETBEI) != 0 && m->thre_int) {
		return 0x2;
	}
	if (m->dw && m->busy_detect) {
		return 0x7;
	}
	return 0x1;
}

bool uart_model_irq(const struct uart_model *m)
{
	return uart_model_iid(m) != 0x1;
}

static uint8_t lsr_value(const struct uart_model *m)
{
	uint8_t v = m->lsr_err;
	bool fifoerr = false;

	for (unsigned i = 0; i < m->rx_count; i++) {
		if ((m->rxf[(m->rx_head + i) % UART_MODEL_MAX_FIFO] >> 8) != 0) {
			fifoerr = true;
		}
	}
	if (m->rx_count > 0 || m->dr_stuck) {
		v |= LSR_DR;
	}
	if (m->oe) {
		v |= LSR_OE;
	}
	if (m->tx_count == 0) {
		v |= LSR_THRE;
		if (!m->shifting) {
			v |= LSR_TEMT;
		}
	}
	if (fifoerr && fifo_on(m)) {
		v |= LSR_FIFOERR;
	}
	return v;
}

static void start_race_char(struct uart_model *m)
{
	/* a start bit arrives now: the character is on the line at once */
	if (!m->receiving) {
		m->rx_char = m->race_byte;
		m->receiving = true;
		m->rx_end = m->last_now + uart_model_char_ticks(m);
	}
}

static unsigned decode(const struct uart_model *m, uint32_t off, bool *ok)
{
	unsigned idx;

	*ok = (off & ((1u << m->reg_shift) - 1u)) == 0;
	idx = off >> m->reg_shift;
	if (!m->dw) {
		idx &= 7u; /* QEMU serial: addr &= 7 */
	}
	return idx;
}

static uint32_t rd_reg(void *ctx, uint32_t off)
{
	struct uart_model *m = ctx;
	bool ok;
	unsigned idx = decode(m, off, &ok);
	uint32_t v;

	if (!ok) {
		return 0;
	}
	switch (idx) {
	case RBR:
		if ((m->lcr & LCR_DLAB) != 0) {
			return m->dll;
		}
		m->timeout_empty = false;
		m->last_rx_activity = m->last_now;
		if (m->rx_count == 0) {
			m->rbr_empty_reads++;
			return 0;
		}
		v = m->rxf[m->rx_head] & 0xFFu;
		m->rx_head = (m->rx_head + 1) % UART_MODEL_MAX_FIFO;
		m->rx_count--;
		m->rbr_pops++;
		m->lsr_err = 0;
		latch_top(m);
		start_rx(m, m->last_now); /* RTS may be asserted again */
		return v;
	case IER:
		return (m->lcr & LCR_DLAB) != 0 ? m->dlh : m->ier;
	case IIR:
		v = uart_model_iid(m);
		if (v == 0x2) {
			m->thre_int = false; /* reading an IIR that reports THRE clears it */
		}
		return v | (fifo_on(m) ? 0xC0u : 0u);
	case LCR:
		return m->lcr;
	case MCR:
		return m->mcr;
	case LSR:
		v = lsr_value(m);
		m->oe = false;
		m->lsr_err = 0;
		return v;
	case MSR:
		return 0;
	case SCR:
		return m->scr;
	case USR:
		m->usr_reads++;
		m->busy_detect = m->busy_detect_stuck; /* fault: never clears */
		v = (uart_model_busy(m) ? 1u : 0u) | (m->tx_count < eff_depth(m) ? 2u : 0u) |
		    (m->tx_count == 0 ? 4u : 0u) | (m->rx_count > 0 ? 8u : 0u) |
		    (m->rx_count >= eff_depth(m) ? 16u : 0u);
		m->usr_idle_seen = (v & 1u) == 0;
		if ((v & 1u) == 0 && m->race_after_usr > 0) {
			m->race_after_usr--;
			start_race_char(m);
		}
		return v;
	case TFL:
		return m->tx_count;
	case RFL:
		return m->rx_count;
	case DBG_DLL:
		return m->dw ? m->dll : 0u;
	case DBG_DLH:
		return m->dw ? m->dlh : 0u;
	default:
		return 0;
	}
}

static void clear_rx_fifo(struct uart_model *m)
{
	m->fifo_cleared += m->rx_count;
	m->rx_count = 0;
	m->lsr_err = 0;
}

/* A DLL/DLH write (DLAB set): ignored while BUSY (DW), or dropped by the
 * drop_dl_writes fault. */
static void dl_write(struct uart_model *m, bool busy, uint8_t *latch, uint8_t v)
{
	if (busy && !m->usr_idle_seen) {
		m->busy_blind_writes++;
	}
	if (busy) {
		m->dl_ignored++;
	} else if (m->drop_dl_writes > 0) {
		m->drop_dl_writes--;
	} else {
		*latch = v;
	}
}

static void wr_reg(void *ctx, uint32_t off, uint32_t value)
{
	struct uart_model *m = ctx;
	bool ok;
	unsigned idx = decode(m, off, &ok);
	uint8_t v = (uint8_t)value;
	bool busy = m->dw && uart_model_busy(m);

	if (!ok) {
		return;
	}
	switch (idx) {
	case RBR:
		if ((m->lcr & LCR_DLAB) != 0) {
			dl_write(m, busy, &m->dll, v);
			return;
		}
		if (m->tx_count >= eff_depth(m)) {
			m->tx_overflow++;
			return;
		}
		m->txf[(m->tx_head + m->tx_count) % UART_MODEL_MAX_FIFO] = v;
		m->tx_count++;
		m->usr_idle_seen = false; /* the driver made it BUSY itself */
		m->thre_int = false;
		start_tx(m, m->last_now);
		return;
	case IER:
		if ((m->lcr & LCR_DLAB) != 0) {
			dl_write(m, busy, &m->dlh, v);
			return;
		}
		if ((v & IER_ETBEI) != 0 && (m->ier & IER_ETBEI) == 0 && m->tx_count == 0) {
			m->thre_int = true;
		}
		m->ier = v & 0x8Fu;
		return;
	case IIR: /* FCR */
		m->fcr_writes++;
		if (((v ^ m->fcr) & FCR_FIFOE) != 0) {
			clear_rx_fifo(m);
			m->tx_count = 0;
		}
		if ((v & FCR_RFIFOR) != 0) {
			clear_rx_fifo(m);
		}
		if ((v & FCR_XFIFOR) != 0) {
			m->tx_count = 0;
		}
		m->fcr = v & 0xF9u;
		return;
	case LCR:
		m->lcr_writes++;
		if (busy && !m->usr_idle_seen) {
			m->busy_blind_writes++;
		}
		if (busy) {
			m->lcr_ignored++;
			m->busy_detect = true;
			m->busy_detects++;
			return;
		}
		if ((v & LCR_DLAB) != 0 && m->busy_after_dlab) {
			m->busy_after_dlab = false;
			m->busy_stuck = true;
		}
		if ((v & LCR_DLAB) != 0 && m->race_after_dlab > 0) {
			m->lcr = v;
			m->race_after_dlab--;
			start_race_char(m);
			return;
		}
		m->lcr = v;
		return;
	case MCR:
		m->mcr = (uint8_t)(v & (m->dw && m->afce_supported ? 0xFFu : 0x1Fu));
		start_tx(m, m->last_now);
		start_rx(m, m->last_now);
		return;
	case SCR:
		m->scr = v;
		return;
	default:
		return;
	}
}

/* After each access: the emulated interrupt, if one is due and unmasked. */
static void after_access(struct uart_model *m)
{
	m->accesses++;
	if (m->isr == NULL || (!m->isr_deferred && m->accesses != m->isr_at)) {
		return;
	}
	if (sim_critical_depth() != 0u) {
		m->isr_deferred = true; /* masked: taken after the critical section */
		return;
	}
	m->isr_deferred = false;
	m->isr_at = 0;
	m->isr_calls++;
	m->isr(m->isr_arg);
}

static uint32_t rd(void *ctx, uint32_t off)
{
	uint32_t v = rd_reg(ctx, off);

	after_access(ctx);
	return v;
}

static void wr(void *ctx, uint32_t off, uint32_t value)
{
	wr_reg(ctx, off, value);
	after_access(ctx);
}

void uart_model_irq_after(struct uart_model *m, unsigned after, void (*fn)(void *), void *arg)
{
	m->isr = fn;
	m->isr_arg = arg;
	m->isr_at = m->accesses + after;
	m->isr_deferred = false;
}

void uart_model_set_cts(struct uart_model *m, bool asserted)
{
	m->cts = asserted;
	start_tx(m, m->last_now);
}

void uart_model_init_with(struct uart_model *m, uintptr_t base, unsigned reg_shift, bool dw,
                          uint32_t clk_hz, unsigned depth, uint16_t *line,
                          struct uart_model_tx_char *cap)
{
	unsigned div = (clk_hz + 8u * 115200u) / (16u * 115200u);

	memset(m, 0, sizeof(*m));
	if (depth == 0 || depth > UART_MODEL_MAX_FIFO || line == NULL || cap == NULL) {
		fprintf(stderr, "uart_model: bad depth or storage\n");
		abort();
	}
	m->line = line;
	m->cap = cap;
	m->reg_shift = reg_shift;
	m->dw = dw;
	m->clk_hz = clk_hz;
	m->depth = depth;
	m->lcr = 0x03; /* 8N1 */
	m->dll = (uint8_t)div;
	m->dlh = (uint8_t)(div >> 8);
	m->race_byte = 0x55;
	m->cts = true;
	m->afce_supported = dw;
	m->last_now = sim_now();
	m->last_rx_activity = m->last_now;
	m->region = (struct sim_region){
	        .name = "uart",
	        .base = base,
	        .size = 0x400,
	        .read = rd,
	        .write = wr,
	        .advance = advance,
	        .ctx = m,
	};
	sim_map(&m->region);
}

void uart_model_init(struct uart_model *m, uintptr_t base, unsigned reg_shift, bool dw,
                     uint32_t clk_hz, unsigned depth)
{
	uint16_t *line = calloc(UART_MODEL_LINE_MAX, sizeof(*line));
	struct uart_model_tx_char *cap = calloc(UART_MODEL_CAPTURE_MAX, sizeof(*cap));

	if (line == NULL || cap == NULL) {
		abort();
	}
	uart_model_init_with(m, base, reg_shift, dw, clk_hz, depth, line, cap);
	m->own_storage = true;
}

void uart_model_free(struct uart_model *m)
{
	if (m->own_storage) {
		free(m->line);
		free(m->cap);
	}
	m->line = NULL;
	m->cap = NULL;
}

void uart_model_rx_send(struct uart_model *m, uint8_t byte, unsigned flags)
{
	if (m->line_count >= UART_MODEL_LINE_MAX) {
		fprintf(stderr, "uart_model: line queue full\n");
		abort();
	}
	m->line[(m->line_head + m->line_count) % UART_MODEL_LINE_MAX] =
	        (uint16_t)(byte | (flags << 8));
	m->line_count++;
	start_rx(m, m->last_now);
}

void uart_model_rx_put(struct uart_model *m, uint8_t byte, unsigned flags)
{
	rx_complete(m, (uint16_t)(byte | (flags << 8)), m->last_now);
}

void uart_model_force_timeout_empty(struct uart_model *m)
{
	m->timeout_empty = true;
}
