/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 UART driver (Synopsys DW APB UART; plain 16550 on QEMU virt). Hardware
 * facts with their sources: docs/uart-and-plic.md; each place that depends
 * on one says so.
 */
#include "d1/uart.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"

#define PPM     1000000u
#define POLL_US 1u
/* Bits per character used for wait budgets while the setting is unknown:
 * start + 8 data + parity + 2 stop, the longest frame. */
#define FALLBACK_CHAR_BITS 12u

#define LSR_CHAR_ERR (D1_UART_LSR_PE_BITS | D1_UART_LSR_FE_BITS | D1_UART_LSR_BI_BITS)
/* Error bits kept in the handle until the character they belong to is read. */
#define LSR_KEEP (LSR_CHAR_ERR | D1_UART_LSR_FIFOERR_BITS)

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* D1_UART_DW_ONLY: the DW APB UART with 32-bit registers at reg-shift 2 is
 * the only kind of instance, so the flavour and width tests fold away. */
#ifdef D1_UART_DW_ONLY
#define IS_DW(u)  ((void)(u), true)
#define IS_W32(u) ((void)(u), true)
#define SHIFT(u)  ((void)(u), 2u)
#else
#define IS_DW(u)  ((u)->flavour == D1_UART_FLAVOUR_DW_APB)
#define IS_W32(u) ((u)->io_width == 4u)
#define SHIFT(u)  ((u)->reg_shift)
#endif

/* Compiler barrier: orders ring data against ring indices. The D1 has one
 * hart and the ring's other side is an ISR on the same hart, so program
 * order is all that is needed. */
static inline void barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

static ALWAYS_INLINE uintptr_t reg(const struct d1_uart *u, unsigned idx)
{
	return u->base + ((uintptr_t)idx << SHIFT(u));
}

/* D1: reg-io-width = 4 (dtsi); QEMU virt ns16550a: byte registers. The
 * always-inline form is for the ISR; elsewhere the compiler chooses. */
static ALWAYS_INLINE uint32_t rd_fast(const struct d1_uart *u, unsigned idx)
{
	if (IS_W32(u)) {
		return d1_mmio_read32(reg(u, idx));
	}
	return d1_mmio_read8(reg(u, idx));
}

static inline uint32_t rd(const struct d1_uart *u, unsigned idx)
{
	return rd_fast(u, idx);
}

static ALWAYS_INLINE void wr_fast(const struct d1_uart *u, unsigned idx, uint32_t v)
{
	if (IS_W32(u)) {
		d1_mmio_write32(reg(u, idx), v);
	} else {
		d1_mmio_write8(reg(u, idx), (uint8_t)v);
	}
}

static inline void wr(const struct d1_uart *u, unsigned idx, uint32_t v)
{
	wr_fast(u, idx, v);
}

/* What to keep of @p lsr until its character is read: PE/FE/BI (the
 * character at the FIFO top) and FIFOERR; nothing when DR is clear (no
 * character for them to belong to). */
static inline uint8_t lsr_keep(uint32_t lsr)
{
	return (uint8_t)((lsr & D1_UART_LSR_DR_BITS) != 0u ? lsr & LSR_KEEP : 0u);
}

/*
 * The one LSR reader outside the ISR. Reading LSR clears OE/PE/FE/BI
 * (docs/uart-and-plic.md), so: OE is counted at once, PE/FE/BI/FIFOERR are
 * OR-ed into u->lsr_err and returned with every later read until their
 * character leaves RBR (u->lsr_err = 0 there) or the RX FIFO is reset; the
 * ISR merges u->lsr_err before it trusts its own LSR value. The read and the
 * shadow update are one critical section, so the ISR can never run between
 * them (test_putc_isr_race_keeps_line_error).
 */
static uint32_t lsr_read(struct d1_uart *u)
{
	uintptr_t s = d1_port_critical_enter();
	uint32_t lsr = rd(u, D1_UART_LSR);

	if ((lsr & D1_UART_LSR_OE_BITS) != 0u) {
		u->stats.overrun++;
	}
	lsr |= u->lsr_err;
	u->lsr_err = lsr_keep(lsr);
	d1_port_critical_exit(s);
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
		uint32_t lsr = lsr_read(u);
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
			if ((lsr_read(u) & D1_UART_LSR_DR_BITS) == 0u) {
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

/* Common checks of the polled calls. */
/* The handle, and a usable line (uart.h "Unusable line"): before the first
 * configure, DLAB left set by firmware makes offsets 0 and 1 the divisor
 * latch; LCR is only read. A caller with other arguments checks them
 * first: bad input is answered before this read (docs/reliability.md
 * "Bad input"; test_bad_input_before_configure_reads_nothing). */
static d1_err_t check_io(const struct d1_uart *u)
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

/* FIFOs on (FCR.FIFOE as last written): a THRE means a whole FIFO of room,
 * and on the DW UART RFL/TFL count the FIFO levels. */
static bool fifo_on(const struct d1_uart *u)
{
	return (u->fcr & D1_UART_FCR_FIFOE_BITS) != 0u;
}

/* Room for one byte in THR/the TX FIFO; the caller holds the critical
 * section. DW with FIFOs on: USR.TFNF, which leaves LSR to its one reader;
 * otherwise LSR.THRE through lsr_read(). */
static bool tx_room(struct d1_uart *u)
{
	if (IS_DW(u) && fifo_on(u)) {
		return (rd(u, D1_UART_USR) & D1_UART_USR_TFNF_BITS) != 0u;
	}
	return (lsr_read(u) & D1_UART_LSR_THRE_BITS) != 0u;
}

d1_err_t d1_uart_putc(struct d1_uart *u, uint8_t c)
{
	d1_err_t err = check_io(u);
	uint32_t budget = UINT32_MAX; /* set at the first wait */

	for (uint32_t waited = 0; err == D1_OK; waited += POLL_US) {
		/* Space check and THR write in one critical section, so the
		 * ISR's TX refill cannot fill the FIFO in between
		 * (test_putc_isr_race_no_tx_loss); a byte given up on is counted
		 * in the same one (the loop then ends after one more poll
		 * interval). */
		uintptr_t s = d1_port_critical_enter();

		if (tx_room(u)) {
			wr(u, D1_UART_THR, c);
			u->stats.tx_bytes++;
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
	d1_err_t err = check_io(u);
	uint32_t budget;

	if (err != D1_OK) {
		return err;
	}
	budget = wait_budget_us(u);
	for (uint32_t waited = 0;; waited += POLL_US) {
		if ((lsr_read(u) & D1_UART_LSR_TEMT_BITS) != 0u) {
			return D1_OK;
		}
		if (waited >= budget) {
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(POLL_US);
	}
}

/* Count the character errors of one LSR value; true if its character is
 * bad. A break also shows as a framing error: counted once, as a break. */
static ALWAYS_INLINE bool count_lsr(struct d1_uart *u, uint32_t lsr)
{
	if ((lsr & LSR_CHAR_ERR) == 0u) {
		return false;
	}
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
	d1_err_t err = c == NULL ? D1_EINVAL : check_io(u);
	uint32_t lsr;
	uint32_t v;
	uintptr_t s;
	bool bad;

	if (err == D1_OK && u->irq_mode) {
		err = D1_ESTATE;
	}
	if (err != D1_OK) {
		return err;
	}
	/* One critical section from the LSR read to the clear of the saved
	 * errors: a handler that reads LSR (tx_ready(), putc() on a 16550 or
	 * with FIFOs off) after the RBR read sees the NEXT character's errors,
	 * which the clear must not wipe. */
	s = d1_port_critical_enter();
	lsr = lsr_read(u);
	if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
		d1_port_critical_exit(s);
		return D1_EAGAIN;
	}
	v = rd(u, D1_UART_RBR);
	u->lsr_err = 0u; /* consumed with its character */
	bad = count_lsr(u, lsr);
	if (!bad) {
		u->stats.rx_bytes++;
	}
	d1_port_critical_exit(s);
	if (bad) {
		return D1_EAGAIN;
	}
	*c = (uint8_t)v;
	return D1_OK;
}

/* ---- byte mode: the OS's upper half keeps the buffers ---- */

/* Checks of the byte-mode calls: an initialised, usable handle that the
 * ring-mode ISR does not own. */
static d1_err_t check_byte_mode(const struct d1_uart *u, bool bad_arg)
{
	d1_err_t err = bad_arg ? D1_EINVAL : check_io(u);

	if (err == D1_OK && u->irq_mode) {
		err = D1_ESTATE;
	}
	return err;
}

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

/* IIR identities served by the RX drain. */
#define RX_IIDS ((1u << D1_UART_IID_RLS) | (1u << D1_UART_IID_RDA) | (1u << D1_UART_IID_TIMEOUT))

static uint32_t isr_other(struct d1_uart *u, uint32_t iid);

d1_err_t d1_uart_irq_poll(struct d1_uart *u, uint32_t *ev)
{
	d1_err_t err = check_byte_mode(u, ev == NULL);
	uint32_t iid;
	uint32_t lsr;

	if (err != D1_OK) {
		return err;
	}
	*ev = 0u;
	iid = rd(u, D1_UART_IIR) & D1_UART_IIR_IID_BITS;
	if (iid == D1_UART_IID_NONE) {
		u->stats.isr_idle++;
		return D1_OK;
	}
	if (((1u << iid) & RX_IIDS) == 0u) {
		/* THRE (reported: the OS writes), busy detect, modem status:
		 * the ring ISR's bounded loop. */
		*ev = isr_other(u, iid);
		return D1_OK;
	}
	/* RX: the LSR read clears a line-status identity (OE counted there,
	 * the character errors kept for d1_uart_rx_ready()). An RX identity
	 * stays pending until the FIFO is read below its trigger: the OS
	 * reads now, and the level interrupt re-enters for what follows. */
	lsr = lsr_read(u);
	if ((lsr & (D1_UART_LSR_OE_BITS | LSR_CHAR_ERR)) != 0u) {
		*ev = D1_UART_EV_ERR;
	}
	if (iid == D1_UART_IID_TIMEOUT &&
	    (lsr & (D1_UART_LSR_DR_BITS | D1_UART_LSR_BI_BITS)) == 0u) {
		/* DW: a timeout identity with neither DR nor BI needs one dummy
		 * RBR read (Linux 8250_dw.c; docs/uart-and-plic.md). */
		(void)rd(u, D1_UART_RBR);
		u->stats.rx_timeout_empty++;
	} else if ((lsr & D1_UART_LSR_DR_BITS) != 0u) {
		*ev |= D1_UART_EV_RX;
	}
	return D1_OK;
}

d1_err_t d1_uart_rx_ready(struct d1_uart *u, bool *ready)
{
	d1_err_t err = check_byte_mode(u, ready == NULL);

	if (err != D1_OK) {
		return err;
	}
	*ready = false;
	for (uint32_t k = 0; k <= u->fifo_depth; k++) {
		uint32_t lsr = lsr_read(u);
		uintptr_t s;

		if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
			break;
		}
		if ((lsr & LSR_CHAR_ERR) == 0u) {
			*ready = true;
			break;
		}
		/* A bad character at the top: read, count, discard. */
		s = d1_port_critical_enter();
		(void)rd(u, D1_UART_RBR);
		u->lsr_err = 0u; /* consumed with its character */
		(void)count_lsr(u, lsr);
		d1_port_critical_exit(s);
	}
	return D1_OK;
}

d1_err_t d1_uart_tx_ready(struct d1_uart *u, bool *room)
{
	d1_err_t err = room == NULL ? D1_EINVAL : check_io(u);
	uintptr_t s;

	if (err != D1_OK) {
		return err;
	}
	s = d1_port_critical_enter();
	*room = tx_room(u);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_uart_getn(struct d1_uart *u, uint8_t *buf, uint32_t len, uint32_t *got)
{
	d1_err_t err = check_byte_mode(u, got == NULL || (buf == NULL && len != 0u));
	uint32_t kept = 0u;
	uint32_t lsr;
	uint32_t n = 0u;
	uintptr_t s;

	if (err != D1_OK) {
		return err;
	}
	*got = 0u;
	if (len == 0u) {
		return D1_OK;
	}
	/* One critical section, as d1_uart_getc(): the errors lsr_read() keeps
	 * belong to the character at the FIFO top until it is read. */
	s = d1_port_critical_enter();
	if (IS_DW(u) && fifo_on(u)) {
		n = rd(u, D1_UART_RFL) & D1_UART_RFL_RFL_BITS; /* before LSR: FIFOERR covers them */
	}
	lsr = lsr_read(u);
	if (n != 0u && (lsr & LSR_KEEP) == 0u) {
		/* No error anywhere in the FIFO: n good bytes, RBR reads only. */
		n = n < len ? n : len;
		n = n < u->fifo_depth ? n : u->fifo_depth;
		for (; kept < n; kept++) {
			buf[kept] = (uint8_t)rd(u, D1_UART_RBR);
		}
	} else {
		/* LSR then RBR per character, each error charged to its own
		 * character (read, counted, discarded), as d1_uart_getc(). */
		for (uint32_t k = 0; k <= u->fifo_depth; k++) {
			uint8_t c;

			if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
				break;
			}
			c = (uint8_t)rd(u, D1_UART_RBR);
			u->lsr_err = 0u; /* consumed with its character */
			if (!count_lsr(u, lsr)) {
				buf[kept++] = c;
			}
			if (kept == len) {
				break;
			}
			lsr = lsr_read(u);
		}
	}
	u->stats.rx_bytes += kept;
	d1_port_critical_exit(s);
	*got = kept;
	return D1_OK;
}

d1_err_t d1_uart_putn(struct d1_uart *u, const uint8_t *buf, uint32_t len, uint32_t *put)
{
	d1_err_t err = put == NULL || (buf == NULL && len != 0u) ? D1_EINVAL : check_io(u);
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
	if (IS_DW(u) && fifo_on(u)) {
		uint32_t level = rd(u, D1_UART_TFL) & D1_UART_TFL_TFL_BITS;

		room = level < u->fifo_depth ? u->fifo_depth - level : 0u;
	} else if ((lsr_read(u) & D1_UART_LSR_THRE_BITS) != 0u) {
		room = fifo_on(u) ? u->fifo_depth : 1u; /* THRE with FIFOs: FIFO empty */
	} else {
		room = 0u;
	}
	room = room < len ? room : len;
	for (uint32_t i = 0; i < room; i++) {
		wr(u, D1_UART_THR, buf[i]);
	}
	u->stats.tx_bytes += room;
	d1_port_critical_exit(s);
	*put = room;
	return D1_OK;
}

/* The rings are written later, by the ISR (RX) and d1_uart_write() (TX):
 * non-const, though this function only stores the pointers. */
// NOLINTNEXTLINE(readability-non-const-parameter): stored for later writes
d1_err_t d1_uart_irq_start(struct d1_uart *u, uint8_t *rx_buf, uint32_t rx_size, uint8_t *tx_buf,
                           uint32_t tx_size)
{
	/* Each ring: a power-of-two buffer of at least 2 bytes, or none. */
	bool bad = (rx_size != 0u && (rx_buf == NULL || rx_size < 2u || !is_pow2(rx_size))) ||
	           (rx_size == 0u && rx_buf != NULL) ||
	           (tx_size != 0u && (tx_buf == NULL || tx_size < 2u || !is_pow2(tx_size))) ||
	           (tx_size == 0u && tx_buf != NULL);
	d1_err_t err = bad ? D1_EINVAL : check_io(u);

	if (err == D1_OK && u->irq_mode) {
		err = D1_EBUSY;
	}
	if (err != D1_OK) {
		return err;
	}
	u->rx = (struct d1_uart_ring){.buf = rx_buf, .size = rx_size};
	u->tx = (struct d1_uart_ring){.buf = tx_buf, .size = tx_size};
	u->tx_irq = false;
	u->ier = D1_UART_IER_ERBFI_BITS | D1_UART_IER_ELSI_BITS;
	u->irq_mode = true;
	wr(u, D1_UART_IER, u->ier);
	return D1_OK;
}

d1_err_t d1_uart_irq_stop(struct d1_uart *u)
{
	uintptr_t s;

	if (u == NULL || u->base == 0u) {
		return D1_EINVAL;
	}
	if (!u->irq_mode) {
		return D1_ESTATE;
	}
	s = d1_port_critical_enter();
	u->ier = 0u;
	wr(u, D1_UART_IER, 0u);
	u->tx_irq = false;
	u->irq_mode = false;
	d1_port_critical_exit(s);
	return D1_OK;
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

/*
 * The ISR's register accesses. Base and shift are copied into locals once
 * per call (the fences' "memory" clobber would otherwise reload them from
 * the handle after every access) and the access width is a compile-time
 * constant in each of the two copies of the RX path.
 */
struct isr_io {
	uintptr_t base;
	unsigned shift;
};

static ALWAYS_INLINE uint32_t io_rd(struct isr_io io, unsigned idx, bool w32)
{
	uintptr_t a = io.base + ((uintptr_t)idx << io.shift);

	return w32 ? d1_mmio_read32(a) : d1_mmio_read8(a);
}

/* Read @p n bytes of RBR into @p buf + @p at: on rv64 at -Os the loop is
 * load, fence, store, increment, compare-and-branch (plus a zero-extension
 * on the byte path). The pointer is formed only when there is a byte to
 * store: without an RX ring @p buf is NULL, and NULL + 0 is undefined in C
 * (found by tests/fuzz, corpus uart/null-rx-ring). */
static ALWAYS_INLINE void rbr_copy(uintptr_t rbr, uint8_t *buf, size_t at, size_t n, bool w32)
{
	if (n != 0u) {
		uint8_t *p = buf + at;
		uint8_t *const end = p + n;

		do {
			*p++ = (uint8_t)(w32 ? d1_mmio_read32(rbr) : d1_mmio_read8(rbr));
		} while (p != end);
	}
}

/*
 * RX drain, slow path: LSR then RBR per byte, so every error is charged to
 * its own character (a character with PE/FE is counted and discarded, a
 * break counted once as a break), OE counted, a byte with no room in the
 * ring counted as dropped, and an empty RX timeout given its dummy read.
 * Entered with @p lsr already read (and merged with u->lsr_err); one copy
 * for both widths (it runs only on errors, timeouts and ring-full).
 */
static __attribute__((noinline)) uint32_t rx_slow(struct d1_uart *u, uint32_t iid, uint32_t lsr,
                                                  uint32_t n)
{
	const struct isr_io io = {u->base, SHIFT(u)};
	const bool w32 = IS_W32(u);
	uint8_t *const buf = u->rx.buf;
	const size_t size = u->rx.size;
	const size_t head = u->rx.head;
	const size_t room = size - (uint32_t)(head - u->rx.tail);
	size_t kept = 0u;
	uint32_t dropped = 0u;
	uint32_t ev = 0u;
	uint32_t k;

	if (iid == D1_UART_IID_TIMEOUT && n == 0u &&
	    (lsr & (D1_UART_LSR_DR_BITS | D1_UART_LSR_BI_BITS)) == 0u) {
		/* DW: a timeout identity with neither DR nor BI needs one dummy
		 * RBR read (Linux 8250_dw.c; docs/uart-and-plic.md). */
		(void)io_rd(io, D1_UART_RBR, w32);
		u->stats.rx_timeout_empty++;
	}
	for (k = 0; k <= u->fifo_depth; k++) {
		uint8_t c;

		if ((lsr & D1_UART_LSR_OE_BITS) != 0u) {
			u->stats.overrun++;
			ev = D1_UART_EV_ERR;
		}
		if ((lsr & D1_UART_LSR_DR_BITS) == 0u) {
			break;
		}
		c = (uint8_t)io_rd(io, D1_UART_RBR, w32);
		if (count_lsr(u, lsr)) {
			ev = D1_UART_EV_ERR;
		} else if (kept < room) {
			buf[(head + kept) & (size - 1u)] = c;
			kept++;
		} else {
			dropped++;
		}
		lsr = io_rd(io, D1_UART_LSR, w32);
	}
	if (k > u->fifo_depth && (lsr & D1_UART_LSR_OE_BITS) != 0u) {
		/* The bound ended the loop after an LSR read whose OE (cleared
		 * by that read) the loop did not look at. */
		u->stats.overrun++;
		ev = D1_UART_EV_ERR;
	}
	/* DR clear: nothing kept. Loop bound reached: the errors of the
	 * character left at the top are kept for the next read. */
	u->lsr_err = lsr_keep(lsr);
	barrier(); /* data before the index the reader sees */
	u->rx.head = (uint32_t)(head + kept);
	u->stats.rx_bytes += kept;
	u->stats.rx_dropped += dropped;
	return ev | (kept != 0u ? D1_UART_EV_RX : 0u);
}

/*
 * RX drain, the benchmarked path (docs/benchmarks.md). The ring's consumer cannot run
 * while the ISR does (one hart), so head and room are read once and head
 * written once.
 *
 * When LSR (with what lsr_read() kept) shows no error anywhere in the FIFO
 * (OE, PE, FE, BI, FIFOERR clear), a known number of bytes is read with RBR
 * reads only, into at most two contiguous ring runs: on the DW UART the RFL
 * level read BEFORE that LSR (so FIFOERR covers every byte counted), on a
 * plain 16550 the trigger level an RDA identity guarantees. More bytes, if
 * any, show in the next IIR: on the DW UART as RDA/timeout, on a 16550 as
 * RDA at the trigger level or as the character timeout for fewer (16550
 * data sheet, FIFO mode). Anything else goes to rx_slow().
 */
static ALWAYS_INLINE uint32_t rx_drain(struct d1_uart *u, uint32_t iid, struct isr_io io, bool w32)
{
	const uintptr_t rbr = io.base + ((uintptr_t)D1_UART_RBR << io.shift);
	uint8_t *const buf = u->rx.buf;
	/* size_t arithmetic: no 32 -> 64-bit extensions on rv64 */
	const size_t size = u->rx.size;
	const size_t head = u->rx.head;
	const size_t room = size - (uint32_t)(head - u->rx.tail);
	size_t n;
	size_t kept;
	size_t dropped;
	size_t at;
	size_t first;
	uint32_t lsr;

	if (IS_DW(u)) {
		n = io_rd(io, D1_UART_RFL, w32) & D1_UART_RFL_RFL_BITS;
		lsr = io_rd(io, D1_UART_LSR, w32);
	} else {
		lsr = io_rd(io, D1_UART_LSR, w32);
		n = iid == D1_UART_IID_RDA ? u->rx_level : 0u;
	}
	lsr |= u->lsr_err;
	if (((lsr & (LSR_KEEP | D1_UART_LSR_OE_BITS)) | (n == 0u ? 1u : 0u)) != 0u) {
		return rx_slow(u, iid, lsr, (uint32_t)n);
	}
	at = head & (size - 1u);
	first = size - at;
	kept = n < room ? n : room;
	dropped = n - kept;
	if (kept <= first) {
		rbr_copy(rbr, buf, at, kept, w32);
	} else {
		rbr_copy(rbr, buf, at, first, w32);
		rbr_copy(rbr, buf, 0u, kept - first, w32);
	}
	for (size_t i = 0; i < dropped; i++) {
		(void)io_rd(io, D1_UART_RBR, w32);
	}
	u->lsr_err = 0u;
	barrier(); /* data before the index the reader sees */
	u->rx.head = (uint32_t)(head + kept);
	u->stats.rx_bytes += kept;
	if (dropped != 0u) {
		u->stats.rx_dropped += dropped;
	}
	return kept != 0u ? D1_UART_EV_RX : 0u;
}

/* TX refill on THRE: the FIFO is empty (PTIME is left off), so up to
 * tx_burst bytes fit. ETBEI goes off as soon as the ring is drained. */
static uint32_t tx_fill(struct d1_uart *u)
{
	struct d1_uart_ring *r = &u->tx;
	uint32_t tail = r->tail;
	uint32_t avail = r->head - tail;
	bool drains = avail <= u->tx_burst; /* this refill empties the ring */
	uint32_t n = drains ? avail : u->tx_burst;

	barrier();
	for (uint32_t i = 0; i < n; i++) {
		wr(u, D1_UART_THR, r->buf[(tail + i) & (r->size - 1u)]);
	}
	barrier();
	r->tail = tail + n;
	u->stats.tx_bytes += n;
	if (drains) {
		u->ier = (uint8_t)(u->ier & ~D1_UART_IER_ETBEI_BITS);
		wr(u, D1_UART_IER, u->ier);
		u->tx_irq = false;
	}
	return D1_UART_EV_TX;
}

/*
 * The ISR body for one access width. An RX identity is served and the call
 * returns: the drain ends with the FIFO read out, and a cause raised
 * meanwhile keeps the level interrupt asserted, so the PLIC claims it again
 * (a second IIR read here would only move that work and leave the PLIC a
 * claim that finds nothing). The idle and RX paths need no call.
 */
static ALWAYS_INLINE uint32_t isr_body(struct d1_uart *u, bool w32)
{
	const struct isr_io io = {u->base, SHIFT(u)};
	uint32_t iid = io_rd(io, D1_UART_IIR, w32) & D1_UART_IIR_IID_BITS;

	if (((1u << iid) & RX_IIDS) != 0u) {
		return rx_drain(u, iid, io, w32);
	}
	if (iid == D1_UART_IID_NONE) {
		u->stats.isr_idle++;
		return 0u;
	}
	return isr_other(u, iid);
}

static __attribute__((noinline)) uint32_t isr32(struct d1_uart *u)
{
	return isr_body(u, true);
}

#ifndef D1_UART_DW_ONLY
static __attribute__((noinline)) uint32_t isr8(struct d1_uart *u)
{
	return isr_body(u, false);
}
#endif

/* THRE, busy detect and modem status, looped on IIR (at most D1_UART_ISR_ROUNDS
 * identities) until it says none; an RX identity met there is handed to
 * the RX path (which reads IIR again). */
static __attribute__((noinline)) uint32_t isr_other(struct d1_uart *u, uint32_t iid)
{
	uint32_t ev = 0u;

	/* A cause still pending after the bound keeps the (level) interrupt
	 * line high, so the trap simply re-enters. */
	for (unsigned i = 0; i < D1_UART_ISR_ROUNDS; i++) {
		switch (iid) {
		case D1_UART_IID_THRE: /* reading IIR already cleared it */
			/* ring mode: refill from the ring; byte mode
			 * (d1_uart_irq_poll()): the OS writes */
			ev |= u->irq_mode ? tx_fill(u) : D1_UART_EV_TX;
			break;
		case D1_UART_IID_BUSY:
			(void)rd(u, D1_UART_USR); /* clears busy detect */
			u->stats.busy_detect++;
			ev |= D1_UART_EV_BUSY;
			break;
		case D1_UART_IID_MODEM:
			(void)rd(u, D1_UART_MSR); /* clears modem status */
			break;
		default: /* NONE, an RX identity (left pending for the next
		          * call, the line stays asserted), or one this UART
		          * does not define */
			return ev;
		}
		iid = rd(u, D1_UART_IIR) & D1_UART_IIR_IID_BITS;
	}
	return ev;
}

uint32_t d1_uart_isr(struct d1_uart *u)
{
	if (u == NULL) {
		return 0u;
	}
#ifdef D1_UART_DW_ONLY
	return isr32(u);
#else
	return IS_W32(u) ? isr32(u) : isr8(u);
#endif
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

uint32_t d1_uart_tx_pending(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->tx.head - u->tx.tail;
}

uint32_t d1_uart_rx_available(const struct d1_uart *u)
{
	return u == NULL ? 0u : u->rx.head - u->rx.tail;
}
