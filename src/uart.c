/* SPDX-License-Identifier: Apache-2.0 */
/*
 * D1 UART driver (Synopsys DW APB UART; plain 16550 on QEMU virt). Hardware
 * semantics are listed in d1/uart.h and docs/uart-and-plic.md; each place
 * that depends on one says so.
 */
#include "d1/uart.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"

#define PPM     1000000u
#define POLL_US 1u
/* IIR identities served per d1_uart_isr() call. A cause still pending after
 * that keeps the (level) interrupt line high, so the trap simply re-enters. */
#define ISR_ROUNDS 8u
/* Bits per character used for wait budgets while the setting is unknown:
 * start + 8 data + parity + 2 stop, the longest frame. */
#define FALLBACK_CHAR_BITS 12u

#define LSR_CHAR_ERR (D1_UART_LSR_PE_BITS | D1_UART_LSR_FE_BITS | D1_UART_LSR_BI_BITS)
/* Error bits kept in the handle until the character they belong to is read. */
#define LSR_KEEP (LSR_CHAR_ERR | D1_UART_LSR_FIFOERR_BITS)

/* Compiler barrier: orders ring data against ring indices. The D1 has one
 * hart and the ring's other side is an ISR on the same hart, so program
 * order is all that is needed. */
static inline void barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

static inline uintptr_t reg(const struct d1_uart *u, unsigned idx)
{
	return u->base + ((uintptr_t)idx << u->reg_shift);
}

static inline uint32_t rd(const struct d1_uart *u, unsigned idx)
{
	/* D1: reg-io-width = 4 (dtsi); QEMU virt ns16550a: byte registers. */
	if (u->io_width == 4u) {
		return d1_mmio_read32(reg(u, idx));
	}
	return d1_mmio_read8(reg(u, idx));
}

static inline void wr(const struct d1_uart *u, unsigned idx, uint32_t v)
{
	if (u->io_width == 4u) {
		d1_mmio_write32(reg(u, idx), v);
	} else {
		d1_mmio_write8(reg(u, idx), (uint8_t)v);
	}
}

/*
 * Every LSR read of the driver goes through lsr_raw(). Reading LSR clears
 * OE, PE, FE and BI (16550 data sheet; d1/uart.h), so whoever reads it must
 * not lose them: OE (a character already lost) is counted here at once.
 * Used bare only where the character LSR describes is read from RBR next
 * (the ISR drain loop); everywhere else through lsr_read().
 */
static inline __attribute__((always_inline)) uint32_t lsr_raw(struct d1_uart *u)
{
	uint32_t lsr = rd(u, D1_UART_LSR);

	if ((lsr & D1_UART_LSR_OE_BITS) != 0u) {
		u->stats.overrun++;
	}
	return lsr;
}

/* What to keep of @p lsr until its character is read: PE/FE/BI (the
 * character at the FIFO top) and FIFOERR; nothing when DR is clear (no
 * character for them to belong to). */
static inline uint8_t lsr_keep(uint32_t lsr)
{
	return (uint8_t)((lsr & D1_UART_LSR_DR_BITS) != 0u ? lsr & LSR_KEEP : 0u);
}

/*
 * LSR read that loses nothing: OE counted (lsr_raw()); PE/FE/BI/FIFOERR
 * OR-ed into u->lsr_err and returned with every later read until that
 * character is taken out of RBR (u->lsr_err = 0 there) or the RX FIFO is
 * reset.
 */
static uint32_t lsr_read(struct d1_uart *u)
{
	uint32_t lsr = lsr_raw(u) | u->lsr_err;

	u->lsr_err = lsr_keep(lsr);
	return lsr;
}

static bool is_pow2(uint32_t v)
{
	return v != 0u && (v & (v - 1u)) == 0u;
}

d1_err_t d1_uart_init_ex(struct d1_uart *u, uintptr_t base, unsigned reg_shift, unsigned io_width,
                         uint32_t clk_hz, unsigned fifo_depth, enum d1_uart_flavour flavour)
{
	if (u == NULL || base == 0u || reg_shift > 2u || (io_width != 1u && io_width != 4u) ||
	    (io_width == 4u && (reg_shift != 2u || (base & 3u) != 0u)) || clk_hz == 0u ||
	    fifo_depth == 0u || fifo_depth > D1_UART_MAX_FIFO_DEPTH ||
	    (flavour != D1_UART_FLAVOUR_DW_APB && flavour != D1_UART_FLAVOUR_16550)) {
		return D1_EINVAL;
	}
	*u = (struct d1_uart){
	        .base = base,
	        .reg_shift = (uint8_t)reg_shift,
	        .io_width = (uint8_t)io_width,
	        .flavour = (uint8_t)flavour,
	        .clk_hz = clk_hz,
	        .fifo_depth = fifo_depth,
	        /* Until configure() the FIFO state is unknown: one byte per THRE
	         * and no blind RX reads are always safe. */
	        .tx_burst = 1u,
	        .rx_level = 1u,
	        .char_bits = 2u * FALLBACK_CHAR_BITS,
	};
	return D1_OK;
}

d1_err_t d1_uart_init(struct d1_uart *u, uintptr_t base, unsigned reg_shift, uint32_t clk_hz,
                      unsigned fifo_depth)
{
	bool dw = reg_shift == 2u;

	return d1_uart_init_ex(u, base, reg_shift, dw ? 4u : 1u, clk_hz, fifo_depth,
	                       dw ? D1_UART_FLAVOUR_DW_APB : D1_UART_FLAVOUR_16550);
}

d1_err_t d1_uart_calc_baud(uint32_t clk_hz, uint32_t baud, struct d1_uart_baud *out)
{
	uint64_t den;
	uint64_t div;
	uint64_t actual_x16; /* 16 * divisor * wanted baud: the clock the divisor "wants" */
	int64_t num;
	uint64_t mag;
	int64_t ppm;

	if (out == NULL || clk_hz == 0u || baud == 0u) {
		return D1_EINVAL;
	}
	/* baud = clk / (16 * divisor); nearest divisor (d1-hardware.md). */
	den = 16ull * baud;
	div = ((uint64_t)clk_hz + den / 2u) / den;
	if (div < 1u) {
		div = 1u;
	} else if (div > 0xFFFFu) {
		div = 0xFFFFu;
	}
	/* Error of achieved = clk / (16 div) against baud, exactly:
	 * (clk - 16 div baud) / (16 div baud). |num| < 2^37, so num * 1e6 fits. */
	actual_x16 = 16u * div * baud;
	num = (int64_t)clk_hz - (int64_t)actual_x16;
	mag = (uint64_t)(num < 0 ? -num : num);
	ppm = num * (int64_t)PPM / (int64_t)actual_x16;
	if (ppm > INT32_MAX) {
		ppm = INT32_MAX;
	}
	out->divisor = (uint32_t)div;
	out->achieved = (uint32_t)(((uint64_t)clk_hz + 8u * div) / (16u * div));
	out->err_ppm = (int32_t)ppm;
	if (mag * PPM > (uint64_t)D1_UART_BAUD_TOL_PPM * actual_x16) {
		return D1_ERANGE;
	}
	return D1_OK;
}

/* Microseconds for @p chars characters at the current setting, rounded up. */
static uint32_t chars_us(const struct d1_uart *u, uint32_t chars)
{
	uint64_t baud = u->baud != 0u ? u->baud : D1_UART_FALLBACK_BAUD;
	uint64_t half_bits = (uint64_t)chars * u->char_bits;

	return (uint32_t)((half_bits * PPM + 2u * baud - 1u) / (2u * baud));
}

/*
 * Bounded wait until LCR/DLL/DLH may be written: the transmitter is empty
 * (so no character is cut) and, on the DW UART, USR.BUSY = 0. On the DW
 * UART BUSY also stays set while the RX FIFO holds data (Linux 8250_dw.c
 * force-idle empties it for this reason), so received bytes are taken out
 * and counted as discarded: read from RBR, or — while DLAB is set, when
 * offset 0 is DLL — dropped with an RX FIFO reset (FCR is writable while
 * BUSY), once the transmitter is empty so no TX byte can be lost with it.
 * Reading USR also clears a pending busy-detect interrupt.
 */
static d1_err_t wait_idle(struct d1_uart *u, uint32_t fcr, uint32_t budget_us)
{
	bool dw = u->flavour == D1_UART_FLAVOUR_DW_APB;

	for (uint32_t waited = 0;; waited += POLL_US) {
		uint32_t lsr = lsr_read(u);

		if (dw && (lsr & D1_UART_LSR_DR_BITS) != 0u) {
			if ((rd(u, D1_UART_LCR) & D1_UART_LCR_DLAB_BITS) == 0u) {
				(void)rd(u, D1_UART_RBR);
				u->lsr_err = 0u; /* its errors went with it */
				u->stats.rx_discarded++;
			} else if ((lsr & D1_UART_LSR_TEMT_BITS) != 0u) {
				uint32_t n = rd(u, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;

				wr(u, D1_UART_FCR,
				   fcr | D1_UART_FCR_FIFOE_BITS | D1_UART_FCR_RFIFOR_BITS);
				u->lsr_err = 0u;
				u->stats.rx_discarded += n != 0u ? n : 1u;
			}
		} else if ((lsr & D1_UART_LSR_TEMT_BITS) != 0u) {
			if (!dw || (rd(u, D1_UART_USR) & D1_UART_USR_BUSY_BITS) == 0u) {
				return D1_OK;
			}
		}
		if (waited >= budget_us) {
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(POLL_US);
	}
}

/* One write of LCR/DLL/DLH, verified by read-back. A DW UART ignores the
 * write while BUSY and raises busy detect (IIR 0x7); reading USR clears it.
 * A plain 16550 is never BUSY: a miss there is counted as verify_miss. */
static bool wr_verify(struct d1_uart *u, unsigned idx, uint32_t v)
{
	wr(u, idx, v);
	if ((rd(u, idx) & 0xFFu) == v) {
		return true;
	}
	if (u->flavour == D1_UART_FLAVOUR_DW_APB) {
		u->stats.busy_detect++;
		(void)rd(u, D1_UART_USR);
	} else {
		u->stats.verify_miss++;
	}
	return false;
}

/*
 * Before an FCR write that changes FIFOE: both the 16550 and the DW UART
 * clear their FIFOs when FIFOE changes (16550 data sheet FCR0; DW databook
 * FCR.FIFOE), so take out (and count) what the RX FIFO holds first. The
 * current FIFOE is read from IIR.FEFLAG (FCR is write-only); IER is 0 here,
 * so the IIR read clears no interrupt. Bounded: FIFO depth + 1 reads. A
 * character completing between the last LSR read and the FCR write is still
 * lost uncounted (a window of a few accesses).
 */
static void drain_before_fcr(struct d1_uart *u, uint32_t fcr)
{
	bool on = (rd(u, D1_UART_IIR) & D1_UART_IIR_FEFLAG_BITS) == D1_UART_IIR_FEFLAG_BITS;

	if (on == ((fcr & D1_UART_FCR_FIFOE_BITS) != 0u)) {
		return; /* FIFOE unchanged: nothing is cleared, keep the bytes */
	}
	for (uint32_t k = 0; k <= u->fifo_depth; k++) {
		if ((lsr_read(u) & D1_UART_LSR_DR_BITS) == 0u) {
			break;
		}
		(void)rd(u, D1_UART_RBR);
		u->lsr_err = 0u;
		u->stats.rx_discarded++;
	}
	u->lsr_err = 0u; /* the FIFO is cleared by the FCR write */
}

static d1_err_t set_line(struct d1_uart *u, uint32_t lcr, uint32_t div, uint32_t fcr,
                         uint32_t budget_us)
{
	for (unsigned attempt = 0; attempt < D1_UART_LCR_ATTEMPTS; attempt++) {
		d1_err_t err;

		if (attempt != 0u) {
			u->stats.lcr_retries++;
		}
		err = wait_idle(u, fcr, budget_us);
		if (err != D1_OK) {
			return err;
		}
		/* Each write may be the one a new start bit makes BUSY: verify
		 * each, and start over (with a fresh idle wait) on a miss. */
		if (wr_verify(u, D1_UART_LCR, lcr | D1_UART_LCR_DLAB_BITS) &&
		    wr_verify(u, D1_UART_DLL, div & 0xFFu) &&
		    wr_verify(u, D1_UART_DLH, (div >> 8) & 0xFFu) &&
		    wr_verify(u, D1_UART_LCR, lcr)) {
			return D1_OK;
		}
	}
	return D1_ETIMEDOUT;
}

/* RX trigger level in bytes for FCR.RT (DW databook and 16550: 1, 1/4,
 * 1/2, full - 2; 16-deep: 1, 4, 8, 14). */
static uint32_t rx_trigger_level(unsigned rt, uint32_t depth)
{
	uint32_t lvl;

	switch (rt) {
	case 1u:
		lvl = depth / 4u;
		break;
	case 2u:
		lvl = depth / 2u;
		break;
	case 3u:
		lvl = depth > 2u ? depth - 2u : 1u;
		break;
	default:
		lvl = 1u;
		break;
	}
	return lvl != 0u ? lvl : 1u;
}

d1_err_t d1_uart_configure(struct d1_uart *u, const struct d1_uart_config *cfg,
                           uint32_t *achieved_baud)
{
	struct d1_uart_baud b;
	d1_err_t err;
	uint32_t lcr;
	uint32_t fcr = 0u;
	uint32_t budget;
	uint32_t stop_half;

	if (u == NULL || u->base == 0u || cfg == NULL || cfg->data_bits < 5u ||
	    cfg->data_bits > 8u || (unsigned)cfg->parity > (unsigned)D1_UART_PARITY_EVEN ||
	    cfg->stop_bits < 1u || cfg->stop_bits > 2u || cfg->rx_trigger > 3u ||
	    cfg->tx_trigger > 3u || cfg->baud == 0u) {
		return D1_EINVAL;
	}
	err = d1_uart_calc_baud(u->clk_hz, cfg->baud, &b);
	if (err != D1_OK) {
		return err;
	}
	if (u->irq_mode) {
		return D1_EBUSY;
	}
	lcr = (uint32_t)(cfg->data_bits - 5u) << D1_UART_LCR_DLS_LSB;
	if (cfg->stop_bits == 2u) {
		lcr |= D1_UART_LCR_STOP_BITS;
	}
	if (cfg->parity != D1_UART_PARITY_NONE) {
		lcr |= D1_UART_LCR_PEN_BITS;
	}
	if (cfg->parity == D1_UART_PARITY_EVEN) {
		lcr |= 1u << D1_UART_LCR_EPS_LSB;
	}
	if (cfg->fifo) {
		fcr = D1_UART_FCR_FIFOE_BITS | ((uint32_t)cfg->rx_trigger << D1_UART_FCR_RT_LSB) |
		      ((uint32_t)cfg->tx_trigger << D1_UART_FCR_TFT_LSB);
	}

	/* Budget: drain a full TX FIFO plus the shifter at the OLD setting. */
	budget = chars_us(u, u->fifo_depth + 2u);
	wr(u, D1_UART_IER, 0u); /* IER is not protected by BUSY */
	u->ier = 0u;
	u->tx_irq = false;
	u->configured = false;
	err = set_line(u, lcr, b.divisor, fcr, budget);
	if (err != D1_OK) {
		return err;
	}
	/* FIFO enable and triggers, no reset bits. If FIFOE changes the UART
	 * clears its FIFOs itself: drain (and count) the RX FIFO first. */
	drain_before_fcr(u, fcr);
	wr(u, D1_UART_FCR, fcr);
	u->fcr = (uint8_t)fcr;
	u->lcr = (uint8_t)lcr;
	u->baud = b.achieved;
	u->baud_err_ppm = b.err_ppm;
	/* 5 data bits with STOP = 1 means 1.5 stop bits. */
	stop_half = cfg->stop_bits == 1u ? 2u : (cfg->data_bits == 5u ? 3u : 4u);
	u->char_bits = 2u * (1u + cfg->data_bits + (cfg->parity != D1_UART_PARITY_NONE ? 1u : 0u)) +
	               stop_half;
	u->tx_burst = cfg->fifo ? u->fifo_depth : 1u;
	u->rx_level = cfg->fifo ? rx_trigger_level(cfg->rx_trigger, u->fifo_depth) : 1u;
	u->configured = true;
	if (achieved_baud != NULL) {
		*achieved_baud = b.achieved;
	}
	return D1_OK;
}

d1_err_t d1_uart_putc(struct d1_uart *u, uint8_t c)
{
	uint32_t budget;

	if (u == NULL || u->base == 0u) {
		return D1_EINVAL;
	}
	budget = chars_us(u, u->fifo_depth + 2u);
	for (uint32_t waited = 0;; waited += POLL_US) {
		if ((lsr_read(u) & D1_UART_LSR_THRE_BITS) != 0u) {
			wr(u, D1_UART_THR, c);
			u->stats.tx_bytes++;
			return D1_OK;
		}
		if (waited >= budget) {
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(POLL_US);
	}
}

/* Count the character errors of one LSR value (OE is counted by
 * lsr_raw()); true if its character is bad. */
static bool count_lsr(struct d1_uart *u, uint32_t lsr)
{
	if ((lsr & LSR_CHAR_ERR) == 0u) {
		return false;
	}
	/* A break also shows as a framing error: count it once, as a break. */
	if ((lsr & D1_UART_LSR_BI_BITS) != 0u) {
		u->stats.brk++;
	} else {
		if ((lsr & D1_UART_LSR_FE_BITS) != 0u) {
			u->stats.framing++;
		}
		if ((lsr & D1_UART_LSR_PE_BITS) != 0u) {
			u->stats.parity++;
		}
	}
	return true;
}

d1_err_t d1_uart_getc(struct d1_uart *u, uint8_t *c)
{
	uint32_t lsr;
	uint32_t v;

	if (u == NULL || u->base == 0u || c == NULL) {
		return D1_EINVAL;
	}
	if (u->irq_mode) {
		return D1_ESTATE;
	}
	lsr = lsr_read(u);
	if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
		return D1_EAGAIN;
	}
	v = rd(u, D1_UART_RBR);
	u->lsr_err = 0u; /* consumed with its character */
	if (count_lsr(u, lsr)) {
		return D1_EAGAIN;
	}
	*c = (uint8_t)v;
	u->stats.rx_bytes++;
	return D1_OK;
}

d1_err_t d1_uart_irq_start(struct d1_uart *u, uint8_t *rx_buf, uint32_t rx_size, uint8_t *tx_buf,
                           uint32_t tx_size)
{
	if (u == NULL || u->base == 0u || (rx_size != 0u && (rx_buf == NULL || rx_size < 2u)) ||
	    (rx_size == 0u && rx_buf != NULL) ||
	    (tx_size != 0u && (tx_buf == NULL || tx_size < 2u)) ||
	    (tx_size == 0u && tx_buf != NULL) || (rx_size != 0u && !is_pow2(rx_size)) ||
	    (tx_size != 0u && !is_pow2(tx_size))) {
		return D1_EINVAL;
	}
	if (u->irq_mode) {
		return D1_EBUSY;
	}
	u->rx = (struct d1_uart_ring){.buf = rx_buf, .size = rx_size};
	u->tx = (struct d1_uart_ring){.buf = tx_buf, .size = tx_size};
	u->tx_irq = false;
	u->ier = D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS;
	u->irq_mode = true;
	wr(u, D1_UART_IER, u->ier);
	return D1_OK;
}

void d1_uart_irq_stop(struct d1_uart *u)
{
	uintptr_t s;

	if (u == NULL || u->base == 0u) {
		return;
	}
	s = d1_port_critical_enter();
	u->ier = 0u;
	wr(u, D1_UART_IER, 0u);
	u->tx_irq = false;
	u->irq_mode = false;
	d1_port_critical_exit(s);
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
	barrier(); /* data before the index the ISR reads */
	r->head = head + n;
	if (n != 0u && !u->tx_irq) {
		/* The ISR clears ETBEI when the ring runs dry; re-check inside
		 * the critical section so the two cannot cross. Enabling ETBEI
		 * with THR empty raises the THRE interrupt at once (16550). */
		uintptr_t s = d1_port_critical_enter();
		if (!u->tx_irq && u->irq_mode) {
			u->ier = (uint8_t)(u->ier | D1_UART_IER_ETBEI_BITS);
			wr(u, D1_UART_IER, u->ier);
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
	barrier(); /* index before the data it covers */
	n = len < avail ? len : avail;
	for (uint32_t i = 0; i < n; i++) {
		data[i] = r->buf[(tail + i) & (r->size - 1u)];
	}
	barrier();
	r->tail = tail + n;
	return n;
}

/* Read @p n bytes from RBR into [p, p + n), choosing the access width once. */
static void rbr_copy(const struct d1_uart *u, uintptr_t rbr, uint8_t *p, uint32_t n)
{
	uint8_t *end = p + n;

	if (u->io_width == 4u) {
		while (p != end) {
			*p++ = (uint8_t)d1_mmio_read32(rbr);
		}
	} else {
		while (p != end) {
			*p++ = d1_mmio_read8(rbr);
		}
	}
}

/* @p keep RBR reads into the ring at @p head (as up to two contiguous
 * runs, so the per-byte loop has no index arithmetic), then @p drop reads
 * thrown away. */
static void blind_read(const struct d1_uart *u, struct d1_uart_ring *r, uint32_t head,
                       uint32_t keep, uint32_t drop)
{
	uintptr_t rbr = reg(u, D1_UART_RBR);

	if (keep != 0u) {
		uint32_t at = head & (r->size - 1u);
		uint32_t first = r->size - at < keep ? r->size - at : keep;

		rbr_copy(u, rbr, r->buf + at, first);
		rbr_copy(u, rbr, r->buf, keep - first);
	}
	for (uint32_t i = 0; i < drop; i++) {
		(void)rd(u, D1_UART_RBR);
	}
}

/*
 * RX drain, the benchmarked path. The ring's consumer cannot run while the
 * ISR does (one hart), so head and room are read once and head written once.
 *
 * Fast path, when LSR shows no error anywhere in the FIFO (OE, PE, FE, BI,
 * FIFOERR all clear): read a known number of bytes with RBR reads only —
 * on the DW UART the RFL level read BEFORE that LSR (so FIFOERR covers every
 * byte counted), on a plain 16550 the trigger level an RDA identity
 * guarantees. Otherwise, and for the rest on a 16550, one LSR per byte so
 * every error is attributed to its own character.
 */
static void rx_drain(struct d1_uart *u, uint32_t iid)
{
	struct d1_uart_ring *r = &u->rx;
	uint32_t head = r->head;
	uint32_t room = r->size - (head - r->tail);
	uint32_t mask = r->size - 1u;
	uint32_t got = 0u;
	uint32_t kept = 0u;
	uint32_t dropped = 0u;
	uint32_t n;
	uint32_t lsr;

	if (u->flavour == D1_UART_FLAVOUR_DW_APB) {
		n = rd(u, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;
		lsr = lsr_raw(u);
	} else {
		lsr = lsr_raw(u);
		n = iid == D1_UART_IID_RDA ? u->rx_level : 0u;
	}
	/* Merge what an earlier LSR read (putc, configure) kept; saved again
	 * at the end for a character left unread. No error bit means every
	 * byte counted is good (OE was counted by lsr_raw()). */
	lsr |= u->lsr_err;
	if ((lsr & LSR_KEEP) == 0u && n != 0u) {
		kept = n < room ? n : room;
		dropped = n - kept;
		blind_read(u, r, head, kept, dropped);
		got = n;
		if (u->flavour == D1_UART_FLAVOUR_DW_APB) {
			goto done; /* more bytes, if any, show in the next IIR */
		}
		lsr = lsr_raw(u);
	}
	for (uint32_t k = 0; k <= u->fifo_depth; k++) {
		uint8_t c;

		if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
			/* DW: a timeout identity with neither DR nor BI needs one
			 * dummy RBR read to clear (d1-hardware.md). */
			if (iid == D1_UART_IID_TIMEOUT && got == 0u &&
			    (lsr & D1_UART_LSR_BI_BITS) == 0u) {
				(void)rd(u, D1_UART_RBR);
				u->stats.rx_timeout_empty++;
			}
			break;
		}
		c = (uint8_t)rd(u, D1_UART_RBR);
		got++;
		if (!count_lsr(u, lsr)) {
			if (kept < room) {
				r->buf[(head + kept) & mask] = c;
				kept++;
			} else {
				dropped++;
			}
		}
		lsr = lsr_raw(u);
	}
done:
	/* DW fast path: lsr is clean, nothing kept. Loop bound reached: the
	 * errors of the character left at the top are kept for the next read. */
	u->lsr_err = lsr_keep(lsr);
	barrier(); /* data before the index the reader sees */
	r->head = head + kept;
	u->stats.rx_bytes += kept;
	u->stats.rx_dropped += dropped;
}

/* TX refill on THRE: the FIFO is empty (PTIME is left off), so up to
 * tx_burst bytes fit. ETBEI goes off as soon as the ring is drained. */
static void tx_fill(struct d1_uart *u)
{
	struct d1_uart_ring *r = &u->tx;
	uint32_t tail = r->tail;
	uint32_t avail = r->head - tail;
	uint32_t n = avail < u->tx_burst ? avail : u->tx_burst;

	barrier();
	for (uint32_t i = 0; i < n; i++) {
		wr(u, D1_UART_THR, r->buf[(tail + i) & (r->size - 1u)]);
	}
	barrier();
	r->tail = tail + n;
	u->stats.tx_bytes += n;
	if (n == avail) {
		u->ier = (uint8_t)(u->ier & ~D1_UART_IER_ETBEI_BITS);
		wr(u, D1_UART_IER, u->ier);
		u->tx_irq = false;
	}
}

void d1_uart_isr(struct d1_uart *u)
{
	for (unsigned i = 0; i < ISR_ROUNDS; i++) {
		uint32_t iid = rd(u, D1_UART_IIR) & D1_UART_IIR_IID_BITS;

		switch (iid) {
		case D1_UART_IID_RLS:
		case D1_UART_IID_RDA:
		case D1_UART_IID_TIMEOUT:
			rx_drain(u, iid);
			break;
		case D1_UART_IID_THRE:
			tx_fill(u); /* reading IIR already cleared THRE */
			break;
		case D1_UART_IID_BUSY:
			(void)rd(u, D1_UART_USR); /* clears busy detect */
			u->stats.busy_detect++;
			break;
		case D1_UART_IID_MODEM:
			(void)rd(u, D1_UART_MSR); /* clears modem status */
			break;
		default: /* NONE, or an identity this UART does not define */
			if (i == 0u) {
				u->stats.isr_idle++;
			}
			return;
		}
	}
}

void d1_uart_get_stats(const struct d1_uart *u, struct d1_uart_stats *out)
{
	uintptr_t s;

	if (u == NULL || out == NULL) {
		return;
	}
	s = d1_port_critical_enter();
	*out = u->stats;
	d1_port_critical_exit(s);
}

uint32_t d1_uart_tx_pending(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->tx.head - u->tx.tail;
}

uint32_t d1_uart_rx_available(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->rx.head - u->rx.tail;
}
