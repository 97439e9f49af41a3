/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 UART driver (Synopsys DW APB UART; plain 16550 on QEMU virt): init,
 * baud, line setup, the polled and byte-mode calls. Ring mode is in
 * uart_ring.c, every byte-wide register access in uart_16550.c, and the
 * one RX path and one TX path they all call in uart_priv.h. Hardware facts
 * with their sources: docs/uart-and-plic.md; each place that depends on
 * one says so.
 */
#include "d1/uart.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"
/* this object's register paths are 32-bit (uart_priv.h) */
#define UART_PATH_W32 1
#include "uart_priv.h"

#define PPM     1000000u
#define POLL_US 1u
/* Bits per character used for wait budgets while the setting is unknown:
 * start + 8 data + parity + 2 stop, the longest frame. */
#define FALLBACK_CHAR_BITS 12u

#define IS_DW(u) UART_IS_DW(u)

static inline uint32_t rd(const struct d1_uart *u, unsigned idx)
{
	return uart_rd(u, idx);
}

static inline void wr(const struct d1_uart *u, unsigned idx, uint32_t v)
{
	uart_wr(u, idx, v);
}

/*
 * The LSR reader outside the RX path (uart_priv.h): the idle wait, drain,
 * the FIFOE change and the TX path's LSR.THRE test (nested in putc's
 * critical section there).
 */
uint32_t d1_uartp_lsr_read(struct d1_uart *u)
{
	uintptr_t s = d1_port_critical_enter();
	uint32_t raw = rd(u, D1_UART_LSR);
	uint32_t lsr = raw | u->lsr_err;

	if ((raw & D1_UART_LSR_OE_BITS) != 0u) {
		u->stats.overrun++;
	}
	u->lsr_err = uart_lsr_keep(lsr);
	d1_port_critical_exit(s);
	return lsr;
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
#ifdef D1_UART_DW_ONLY
	if (flavour != D1_UART_FLAVOUR_DW_APB || io_width != 4u) {
		return D1_ENOTSUP;
	}
#endif
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
	/* baud = clk / (16 * divisor); nearest divisor (docs/uart-and-plic.md
	 * "Hardware facts relied on"). */
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

/* Bits per character of an LCR value, times 2 (start, data, parity, stop;
 * STOP with 5 data bits means 1.5 stop bits). */
static uint32_t lcr_half_bits(uint32_t lcr)
{
	uint32_t data = 5u + (lcr & D1_UART_LCR_DLS_BITS);
	uint32_t stop_half = (lcr & D1_UART_LCR_STOP_BITS) == 0u ? 2u : (data == 5u ? 3u : 4u);

	return 2u * (1u + data + ((lcr & D1_UART_LCR_PEN_BITS) != 0u ? 1u : 0u)) + stop_half;
}

/* Microseconds for @p chars characters of @p half_bits / 2 bits at
 * clk / (16 * div) baud, rounded up; the fallback rate when div is 0. */
static uint32_t line_us(uint32_t clk_hz, uint32_t div, uint32_t half_bits, uint32_t chars)
{
	uint64_t us;

	if (div == 0u) {
		const uint64_t den = 2u * (uint64_t)D1_UART_FALLBACK_BAUD;

		/* 2050 * 24 * 1e6 fits easily */
		us = ((uint64_t)chars * 2u * FALLBACK_CHAR_BITS * PPM + den - 1u) / den;
	} else {
		/* chars * half_bits / 2 * 16 * div / clk s; < 2050 * 24 * 8 * 65535 * 1e6 < 2^55 */
		us = ((uint64_t)chars * half_bits * 8u * div * PPM + clk_hz - 1u) / clk_hz;
	}
	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* Microseconds for @p chars characters at the setting in force. */
static uint32_t chars_us(const struct d1_uart *u, uint32_t chars)
{
	return line_us(u->clk_hz, u->divisor, u->char_bits, chars);
}

/*
 * Divisor in force, read back: on the DW UART through
 * DBG_DLL/DBG_DLH, which need no DLAB (so no LCR write while BUSY); on a
 * plain 16550, which is never BUSY, through DLAB. 0 when unknown.
 */
static uint32_t read_divisor(struct d1_uart *u, uint32_t lcr)
{
	uint32_t div;

	if (IS_DW(u)) {
		return (rd(u, D1_UART_DBG_DLL) & 0xFFu) | (rd(u, D1_UART_DBG_DLH) & 0xFFu) << 8;
	}
	if ((lcr & D1_UART_LCR_DLAB_BITS) == 0u) {
		wr(u, D1_UART_LCR, lcr | D1_UART_LCR_DLAB_BITS);
	}
	div = (rd(u, D1_UART_DLL) & 0xFFu) | (rd(u, D1_UART_DLH) & 0xFFu) << 8;
	if ((lcr & D1_UART_LCR_DLAB_BITS) == 0u) {
		wr(u, D1_UART_LCR, lcr);
	}
	return div;
}

/* The wait budget of putc and drain. Before the first configure the handle
 * knows no setting: on the DW UART the one firmware left is read back
 * (read_divisor() and LCR: reads only there); a 16550 would need DLAB
 * writes, so it gets the fallback rate (uart.h D1_UART_FALLBACK_BAUD). */
static uint32_t wait_budget_us(struct d1_uart *u)
{
	const uint32_t chars = D1_UART_WAIT_CHARS(u->fifo_depth);
	uint32_t lcr;

	if (u->divisor != 0u || !IS_DW(u)) {
		return chars_us(u, chars);
	}
	lcr = rd(u, D1_UART_LCR);
	return line_us(u->clk_hz, read_divisor(u, lcr), lcr_half_bits(lcr), chars);
}

/* Take @p n bytes out of RBR and count them as discarded. */
static void discard_rx(struct d1_uart *u, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		(void)rd(u, D1_UART_RBR);
	}
	u->lsr_err = 0u; /* their errors went with them */
	u->stats.rx_discarded += n;
}

/*
 * Bounded wait until LCR/DLL/DLH may be written: the transmitter is empty
 * (no character is cut) and, on the DW UART, USR.BUSY = 0. BUSY also stays
 * set while the RX FIFO holds data, so on the DW UART the bytes RFL says are
 * there are taken out and counted once each: read from RBR, or — while DLAB
 * is set, when offset 0 is DLL — dropped with one RX FIFO reset (FCR is
 * writable while BUSY), once the transmitter is empty so no TX byte goes
 * with it. That FCR write keeps the triggers in force (u->fcr), so a
 * configure that then fails leaves them as they were (FIFOE is set for the
 * reset: a UART configured without FIFOs keeps them on, at the same
 * one-character trigger, until the next configure). LSR.DR is not trusted
 * for this: a data-ready with RFL = 0 is no byte
 * (test_wait_idle_stuck_dr_no_reset_storm).
 * Reading USR also clears a busy-detect interrupt.
 */
static d1_err_t wait_idle(struct d1_uart *u, uint32_t budget_us)
{
	for (uint32_t waited = 0;; waited += POLL_US) {
		uint32_t lsr = d1_uartp_lsr_read(u);
		bool temt = (lsr & D1_UART_LSR_TEMT_BITS) != 0u;

		if (IS_DW(u)) {
			uint32_t n = rd(u, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;

			if (n > u->fifo_depth) {
				n = u->fifo_depth;
			}
			if (n != 0u) {
				if ((rd(u, D1_UART_LCR) & D1_UART_LCR_DLAB_BITS) == 0u) {
					discard_rx(u, n);
				} else if (temt) {
					wr(u, D1_UART_FCR,
					   u->fcr | D1_UART_FCR_FIFOE_BITS |
					           D1_UART_FCR_RFIFOR_BITS);
					u->lsr_err = 0u;
					u->stats.rx_discarded += n;
				}
			} else if (temt && (rd(u, D1_UART_USR) & D1_UART_USR_BUSY_BITS) == 0u) {
				return D1_OK;
			}
		} else if (temt) {
			return D1_OK; /* a plain 16550 is never BUSY */
		}
		if (waited >= budget_us) {
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(POLL_US);
	}
}

/* One write of LCR/DLL/DLH, verified by read-back (BUSY/LCR and busy detect:
 * docs/uart-and-plic.md). A miss on a plain 16550 (never BUSY) is counted as
 * verify_miss. */
static bool wr_verify(struct d1_uart *u, unsigned idx, uint32_t v)
{
	wr(u, idx, v);
	if ((rd(u, idx) & 0xFFu) == v) {
		return true;
	}
	if (IS_DW(u)) {
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
 * so the IIR read clears no interrupt. DW: RFL bytes; 16550: while LSR.DR,
 * at most FIFO depth + 1 reads. A character completing between the last
 * read and the FCR write is still lost uncounted (a window of one access).
 */
static void drain_before_fcr(struct d1_uart *u, uint32_t fcr)
{
	bool on = (rd(u, D1_UART_IIR) & D1_UART_IIR_FEFLAG_BITS) == D1_UART_IIR_FEFLAG_BITS;

	if (on == ((fcr & D1_UART_FCR_FIFOE_BITS) != 0u)) {
		return; /* FIFOE unchanged: nothing is cleared, keep the bytes */
	}
	if (IS_DW(u)) {
		uint32_t n = rd(u, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;

		discard_rx(u, n < u->fifo_depth ? n : u->fifo_depth);
	} else {
		for (uint32_t k = 0; k <= u->fifo_depth; k++) {
			if ((d1_uartp_lsr_read(u) & D1_UART_LSR_DR_BITS) == 0u) {
				break;
			}
			discard_rx(u, 1u);
		}
	}
	u->lsr_err = 0u; /* the FIFO is cleared by the FCR write */
}

/* Verified LCR|DLAB, DLL, DLH, LCR sequence, each attempt after an idle
 * wait. *dl_changed is set once a DLL or DLH write took. */
static d1_err_t set_line(struct d1_uart *u, uint32_t lcr, uint32_t div, uint32_t budget_us,
                         bool *dl_changed)
{
	for (unsigned attempt = 0; attempt < D1_UART_LCR_ATTEMPTS; attempt++) {
		d1_err_t err;
		bool ok;

		if (attempt != 0u) {
			u->stats.lcr_retries++;
		}
		err = wait_idle(u, budget_us);
		if (err != D1_OK) {
			return err;
		}
		/* Each write may be the one a new start bit makes BUSY: verify
		 * each, and start over (with a fresh idle wait) on a miss. */
		ok = wr_verify(u, D1_UART_LCR, lcr | D1_UART_LCR_DLAB_BITS);
		if (ok) {
			ok = wr_verify(u, D1_UART_DLL, div & 0xFFu);
			*dl_changed = *dl_changed || ok;
		}
		if (ok) {
			ok = wr_verify(u, D1_UART_DLH, (div >> 8) & 0xFFu);
			*dl_changed = *dl_changed || ok;
		}
		if (ok && wr_verify(u, D1_UART_LCR, lcr)) {
			return D1_OK;
		}
	}
	return D1_ETIMEDOUT;
}

/*
 * After a failed set_line(): put back the LCR (DLAB clear) and, if a DLL/DLH
 * write took, the divisor found at entry
 * (test_configure_dlab_set_restores_divisor). When even that
 * fails the UART may be left with DLAB set, where a THR write would land in
 * DLL: the handle then refuses I/O (line_lost) until a configure succeeds.
 */
static void restore_line(struct d1_uart *u, uint32_t old_lcr, uint32_t old_div, uint32_t budget_us,
                         bool dl_changed)
{
	bool ok = false;

	old_lcr &= ~D1_UART_LCR_DLAB_BITS & 0xFFu;
	if (dl_changed) {
		bool again = false;

		ok = old_div != 0u && set_line(u, old_lcr, old_div, budget_us, &again) == D1_OK;
	} else if ((rd(u, D1_UART_LCR) & 0xFFu) == old_lcr) {
		ok = true; /* nothing was changed */
	} else {
		for (unsigned k = 0; k < D1_UART_LCR_ATTEMPTS && !ok; k++) {
			/* A repeated verified write, counted as set_line() does. */
			if (k != 0u) {
				u->stats.lcr_retries++;
			}
			ok = wait_idle(u, budget_us) == D1_OK && wr_verify(u, D1_UART_LCR, old_lcr);
		}
	}
	u->line_lost = !ok;
}

/* RX trigger level in bytes for FCR.RT (DW databook and 16550: 1, 1/4,
 * 1/2, full - 2; 16-deep: 1, 4, 8, 14). */
static uint32_t rx_trigger_level(unsigned rt, uint32_t depth)
{
	uint32_t lvl = rt == 0u ? 1u : rt == 3u ? depth - 2u : depth >> (3u - rt);

	return lvl != 0u && lvl <= depth ? lvl : 1u;
}

/* MCR.AFCE + RTS on (rtscts) or AFCE off (uart_regs.h); D1_ENOTSUP with MCR
 * restored when AFCE does not stick (instance without auto flow control). */
static d1_err_t set_flow(struct d1_uart *u, bool rtscts)
{
	uint32_t mcr = rd(u, D1_UART_MCR) & 0xFFu;
	uint32_t want = rtscts ? mcr | D1_UART_MCR_AFCE_BITS | D1_UART_MCR_RTS_BITS
	                       : mcr & ~D1_UART_MCR_AFCE_BITS;

	if (want == mcr) {
		return D1_OK;
	}
	wr(u, D1_UART_MCR, want);
	if (rtscts && (rd(u, D1_UART_MCR) & D1_UART_MCR_AFCE_BITS) == 0u) {
		wr(u, D1_UART_MCR, mcr);
		return D1_ENOTSUP;
	}
	return D1_OK;
}

d1_err_t d1_uart_configure(struct d1_uart *u, const struct d1_uart_config *cfg,
                           uint32_t *achieved_baud)
{
	struct d1_uart_baud b;
	d1_err_t err;
	uint32_t lcr;
	uint32_t fcr = 0u;
	uint32_t old_lcr;
	uint32_t old_div;
	uint32_t budget;
	bool dl_changed = false;
	bool dlab;

	if (u == NULL || u->base == 0u || cfg == NULL || cfg->data_bits < 5u ||
	    cfg->data_bits > 8u || (unsigned)cfg->parity > (unsigned)D1_UART_PARITY_EVEN ||
	    cfg->stop_bits < 1u || cfg->stop_bits > 2u || cfg->rx_trigger > 3u ||
	    cfg->tx_trigger > 3u || cfg->baud == 0u || (cfg->rtscts && !cfg->fifo)) {
		return D1_EINVAL;
	}
	err = d1_uart_calc_baud(u->clk_hz, cfg->baud, &b);
	if (err != D1_OK) {
		return err;
	}
	if (u->irq_mode) {
		return D1_EBUSY;
	}
	if (cfg->rtscts && !IS_DW(u)) {
		return D1_ENOTSUP; /* a plain 16550 has no AFCE (uart_regs.h) */
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

	/* Budget: drain a full TX FIFO plus the shifter at the setting the UART
	 * is actually in, read back
	 * (test_first_configure_budget_from_programmed_divisor). */
	old_lcr = rd(u, D1_UART_LCR) & 0xFFu;
	old_div = read_divisor(u, old_lcr);
	budget = line_us(u->clk_hz, old_div, lcr_half_bits(old_lcr),
	                 D1_UART_WAIT_CHARS(u->fifo_depth));
	/* IER is not protected by BUSY, but while DLAB is set (left by
	 * firmware, or by a configure that lost the line) offset 1 is DLH: the
	 * write would change the divisor this call must restore on failure (a
	 * blind divisor-latch write while BUSY). Then IER is written once a
	 * verified LCR write has cleared DLAB (found by tests/fuzz). */
	dlab = (old_lcr & D1_UART_LCR_DLAB_BITS) != 0u;
	if (!dlab) {
		wr(u, D1_UART_IER, 0u);
	}
	u->ier = 0u;
	u->tx_irq = false;
	err = set_line(u, lcr, b.divisor, budget, &dl_changed);
	if (err != D1_OK) {
		restore_line(u, old_lcr, old_div, budget, dl_changed);
		if (dlab && !u->line_lost) {
			wr(u, D1_UART_IER, 0u); /* DLAB is clear again */
		}
		if (u->line_lost || dl_changed) {
			u->configured = false;
		}
		return err;
	}
	if (dlab) {
		wr(u, D1_UART_IER, 0u); /* set_line() ended with DLAB clear */
	}
	u->line_lost = false;
	/* FIFO enable and triggers, no reset bits. If FIFOE changes the UART
	 * clears its FIFOs itself: drain (and count) the RX FIFO first. */
	drain_before_fcr(u, fcr);
	wr(u, D1_UART_FCR, fcr);
	u->fcr = (uint8_t)fcr;
	u->lcr = (uint8_t)lcr;
	u->baud = b.achieved;
	u->divisor = b.divisor;
	u->baud_err_ppm = b.err_ppm;
	u->char_bits = lcr_half_bits(lcr);
	u->tx_burst = cfg->fifo ? u->fifo_depth : 1u;
	u->rx_level = cfg->fifo ? rx_trigger_level(cfg->rx_trigger, u->fifo_depth) : 1u;
	u->configured = true;
	if (achieved_baud != NULL) {
		*achieved_baud = b.achieved;
	}
	return IS_DW(u) ? set_flow(u, cfg->rtscts) : D1_OK;
}

/* Common checks of the I/O calls. The handle, and a usable line (uart.h "Unusable line"): before
 * the first configure, DLAB left set by firmware makes offsets 0 and 1 the divisor latch; LCR is
 * only read. A caller with other arguments checks them first: bad input is answered before this
 * read (docs/reliability.md "Bad input"; test_bad_input_before_configure_reads_nothing). */
d1_err_t d1_uartp_check_io(const struct d1_uart *u)
{
	if (u == NULL || u->base == 0u) {
		return D1_EINVAL;
	}
	if (u->line_lost ||
	    (!u->configured && (rd(u, D1_UART_LCR) & D1_UART_LCR_DLAB_BITS) != 0u)) {
		return D1_ESTATE;
	}
	return D1_OK;
}

/* Room for one byte (one copy for putc and tx_ready); the caller holds
 * the critical section. */
static bool tx_room1(struct d1_uart *u)
{
	return uart_tx_room_any(u, false) != 0u;
}

d1_err_t d1_uart_putc(struct d1_uart *u, uint8_t c)
{
	d1_err_t err = d1_uartp_check_io(u);
	uint32_t budget = UINT32_MAX; /* set at the first wait */

	for (uint32_t waited = 0; err == D1_OK; waited += POLL_US) {
		/* Space check and THR write in one critical section, so the
		 * ISR's TX refill cannot fill the FIFO in between
		 * (test_putc_isr_race_no_tx_loss); a byte given up on is counted
		 * in the same one (the loop then ends after one more poll
		 * interval). */
		uintptr_t s = d1_port_critical_enter();

		if (tx_room1(u)) {
			uart_tx(u, &c, 0u, SIZE_MAX, 1u);
			d1_port_critical_exit(s);
			return D1_OK;
		}
		if (waited >= budget) {
			u->stats.tx_timeouts++;
			err = D1_ETIMEDOUT;
		}
		d1_port_critical_exit(s);
		if (waited == 0u) {
			budget = wait_budget_us(u); /* only when there is a wait */
		}
		d1_port_delay_us(POLL_US);
	}
	return err;
}

d1_err_t d1_uart_drain(struct d1_uart *u)
{
	d1_err_t err = d1_uartp_check_io(u);
	uint32_t budget;

	if (err != D1_OK) {
		return err;
	}
	budget = wait_budget_us(u);
	for (uint32_t waited = 0;; waited += POLL_US) {
		if ((d1_uartp_lsr_read(u) & D1_UART_LSR_TEMT_BITS) != 0u) {
			return D1_OK;
		}
		if (waited >= budget) {
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(POLL_US);
	}
}

/* Checks of the RX calls that the ring-mode ISR excludes (getc and the
 * byte mode): an initialised, usable handle not in ring mode. */
static d1_err_t check_byte_mode(const struct d1_uart *u, bool bad_arg)
{
	d1_err_t err = bad_arg ? D1_EINVAL : d1_uartp_check_io(u);

	if (err == D1_OK && u->irq_mode) {
		err = D1_ESTATE;
	}
	return err;
}

/* One character (getc) or a peek (rx_ready) through the RX path, in one
 * critical section, as d1_uart_getn():
 * the errors an LSR read keeps belong to the character at the FIFO top
 * until it is read, so a handler that reads LSR (tx_ready(), putc() on a
 * 16550 or with FIFOs off) must not run between that read and the clear. */
static uint32_t rx_locked(struct d1_uart *u, unsigned mode, uint8_t *buf, uint32_t len,
                          uint32_t *got)
{
	uintptr_t s = d1_port_critical_enter();
	uint32_t ev = uart_rx_char(u, mode, buf, len, got);

	d1_port_critical_exit(s);
	return ev;
}

d1_err_t d1_uart_getc(struct d1_uart *u, uint8_t *c)
{
	d1_err_t err = check_byte_mode(u, c == NULL);
	uint32_t got = 0u;

	if (err != D1_OK) {
		return err;
	}
	/* one character: a bad one is read, counted and discarded */
	(void)rx_locked(u, UART_RX_ONE, c, 1u, &got);
	return got != 0u ? D1_OK : D1_EAGAIN;
}

/* ---- byte mode: the OS's upper half keeps the buffers ---- */

d1_err_t d1_uart_irq_set(struct d1_uart *u, uint32_t ev)
{
	d1_err_t err = check_byte_mode(u, (ev & ~(D1_UART_EV_RX | D1_UART_EV_TX)) != 0u);
	uintptr_t s;
	uint8_t ier = 0u;

	if (err != D1_OK) {
		return err;
	}
	if ((ev & D1_UART_EV_RX) != 0u) {
		ier |= D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS;
	}
	if ((ev & D1_UART_EV_TX) != 0u) {
		ier |= D1_UART_IER_ETBEI_BITS;
	}
	/* IER shares its address with DLH: as d1_uart_irq_start(), this
	 * takes DLAB clear, as d1_uart_configure() leaves it (a configure
	 * that could not is refused above: line_lost). */
	s = d1_port_critical_enter();
	u->ier = ier;
	wr(u, D1_UART_IER, ier);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_uart_irq_poll(struct d1_uart *u, uint32_t *ev)
{
	d1_err_t err = check_byte_mode(u, ev == NULL);

	if (err != D1_OK) {
		return err;
	}
	/* The interrupt body with the RX path in UART_RX_POLL: an RX identity
	 * gets its LSR read (overrun counted, the character errors kept for
	 * d1_uart_rx_ready()) and stays pending until the FIFO is read below
	 * its trigger: the OS reads now, and the level interrupt re-enters for
	 * what follows. Other identities: the ring ISR's bounded loop, THRE
	 * reported (the OS writes). */
	*ev = UART_IS_W32(u) ? uart_irq_body(u, false) : UART_W8(d1_uartp_poll_w8(u));
	return D1_OK;
}

d1_err_t d1_uart_rx_ready(struct d1_uart *u, bool *ready)
{
	d1_err_t err = check_byte_mode(u, ready == NULL);

	if (err != D1_OK) {
		return err;
	}
	*ready = (rx_locked(u, UART_RX_PEEK, NULL, 0u, NULL) & UART_RX_READY) != 0u;
	return D1_OK;
}

d1_err_t d1_uart_tx_ready(struct d1_uart *u, bool *room)
{
	d1_err_t err = room == NULL ? D1_EINVAL : d1_uartp_check_io(u);
	uintptr_t s;

	if (err != D1_OK) {
		return err;
	}
	s = d1_port_critical_enter();
	*room = tx_room1(u);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_uart_getn(struct d1_uart *u, uint8_t *buf, uint32_t len, uint32_t *got)
{
	d1_err_t err = check_byte_mode(u, got == NULL || (buf == NULL && len != 0u));

	if (err != D1_OK) {
		return err;
	}
	*got = 0u;
	if (len != 0u) {
		/* one critical section, as rx_locked() */
		uintptr_t s = d1_port_critical_enter();

		(void)uart_rx_getn(u, buf, len, got);
		d1_port_critical_exit(s);
	}
	return D1_OK;
}

d1_err_t d1_uart_putn(struct d1_uart *u, const uint8_t *buf, uint32_t len, uint32_t *put)
{
	d1_err_t err = put == NULL || (buf == NULL && len != 0u) ? D1_EINVAL : d1_uartp_check_io(u);
	uint32_t room;
	uintptr_t s;

	if (err != D1_OK) {
		return err;
	}
	*put = 0u;
	if (len == 0u) {
		return D1_OK;
	}
	/* Space check and THR writes in one critical section, as
	 * d1_uart_putc(): the ring ISR's refill cannot fill the FIFO between. */
	s = d1_port_critical_enter();
	room = uart_tx_room_any(u, true);
	room = room < len ? room : len;
	uart_tx(u, buf, 0u, SIZE_MAX, room);
	*put = room;
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_uart_get_stats(const struct d1_uart *u, struct d1_uart_stats *out)
{
	uintptr_t s;

	if (u == NULL || out == NULL) {
		return D1_EINVAL;
	}
	s = d1_port_critical_enter();
	*out = u->stats;
	d1_port_critical_exit(s);
	return D1_OK;
}

/* The slow half of the RX path for the calls that keep no ring, 32-bit
 * registers (the 8-bit instance: uart_16550.c). */
uint32_t d1_uartp_rx_slow_w32(struct d1_uart *u, unsigned mode, uint32_t iid, uint32_t n,
                              uint32_t raw, uint8_t *buf, uint32_t len, uint32_t *got)
{
	return uart_rx_slow(u, false, mode, iid, n, raw, buf, len, got);
}
