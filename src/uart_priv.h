/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Internal (not installed): what the UART's objects share.
 *
 *   uart.c         init, baud, configure, the polled and byte-mode calls,
 *                  and their 32-bit instances of the paths below
 *   uart_ring.c    ring mode (caller's rings, d1_uart_isr()) and its
 *                  32-bit instance of the interrupt body
 *   uart_16550.c   every byte-wide (8-bit) register access: the 8-bit
 *                  instances of the paths below and the byte accessors of
 *                  the cold paths; empty in a D1_UART_DW_ONLY build
 *
 * The one RX path (the entries uart_rx_ring(), uart_rx_buf() and
 * uart_rx_chars() over uart_rx_slow(), the per-character loop) and the one
 * TX path (uart_tx_room(), uart_tx_write()) are written once, here. An
 * object holds one access width (UART_PATH_W32, defined before this header
 * is included): the width is chosen by the preprocessor, never per access.
 * The 32-bit objects inline the entries and the TX path into their
 * callers; the slow half has one out-of-line instance per width for the
 * ring ISR and one for the calls that keep no ring (mode an argument).
 * The 8-bit callers go through the instances in uart_16550.c: one width
 * test per call (uart_rx_getn(), uart_rx_char(), uart_tx_room_any(),
 * uart_tx()), none in a D1_UART_DW_ONLY build. The cold paths (configure,
 * the idle wait, drain) use uart_rd()/uart_wr(), which test the width per
 * access.
 * Hardware facts: docs/uart-and-plic.md.
 */
#ifndef D1_SRC_UART_PRIV_H
#define D1_SRC_UART_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d1/mmio.h"
#include "d1/uart.h"

#define UART_ALWAYS_INLINE inline __attribute__((always_inline))

#define UART_LSR_CHAR_ERR (D1_UART_LSR_PE_BITS | D1_UART_LSR_FE_BITS | D1_UART_LSR_BI_BITS)
/* Error bits kept in the handle until the character they belong to is read. */
#define UART_LSR_KEEP (UART_LSR_CHAR_ERR | D1_UART_LSR_FIFOERR_BITS)

/* IIR identities served by the RX path. */
#define UART_RX_IIDS                                                                               \
	((1u << D1_UART_IID_RLS) | (1u << D1_UART_IID_RDA) | (1u << D1_UART_IID_TIMEOUT))

/* D1_UART_DW_ONLY: the DW APB UART with 32-bit registers at reg-shift 2 is
 * the only kind of instance, so the flavour and width tests fold away and
 * uart_16550.c is empty. */
#ifdef D1_UART_DW_ONLY
#define UART_IS_DW(u)  ((void)(u), true)
#define UART_IS_W32(u) ((void)(u), true)
#define UART_SHIFT(u)  ((void)(u), 2u)
/* A call of an 8-bit instance, where UART_IS_W32() is always true: never
 * evaluated, and the instance does not exist. */
#define UART_W8(call) 0u
#else
#define UART_IS_DW(u)  ((u)->flavour == D1_UART_FLAVOUR_DW_APB)
#define UART_IS_W32(u) ((u)->io_width == 4u)
#define UART_SHIFT(u)  ((u)->reg_shift)
#define UART_W8(call)  (call)
#endif

/* Compiler barrier: orders ring data against ring indices. The D1 has one
 * hart and the ring's other side is an ISR on the same hart, so program
 * order is all that is needed. */
static inline void uart_barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

/* ---- register access ---- */

/* Base and shift in locals: the fences' "memory" clobber would otherwise
 * make the compiler reload them from the handle after every access. */
struct uart_io {
	uintptr_t base;
	unsigned shift;
};

static UART_ALWAYS_INLINE struct uart_io uart_io_of(const struct d1_uart *u)
{
	return (struct uart_io){u->base, UART_SHIFT(u)};
}

static UART_ALWAYS_INLINE uintptr_t uart_addr(struct uart_io io, unsigned idx)
{
	return io.base + ((uintptr_t)idx << io.shift);
}

/* The access width of the including file's paths: each object holds one
 * width only (uart.c, uart_ring.c: 32-bit; uart_16550.c: 8-bit). */
#ifndef UART_PATH_W32
#error "define UART_PATH_W32 (1: 32-bit registers, 0: byte registers) before uart_priv.h"
#endif

/* D1: reg-io-width = 4 (dtsi); QEMU virt ns16550a: byte registers (an
 * unaligned 32-bit access there faults). */
static UART_ALWAYS_INLINE uint32_t uart_io_rd(struct uart_io io, unsigned idx)
{
#if UART_PATH_W32
	return d1_mmio_read32(uart_addr(io, idx));
#else
	return d1_mmio_read8(uart_addr(io, idx));
#endif
}

static UART_ALWAYS_INLINE void uart_io_wr(struct uart_io io, unsigned idx, uint32_t v)
{
#if UART_PATH_W32
	d1_mmio_write32(uart_addr(io, idx), v);
#else
	d1_mmio_write8(uart_addr(io, idx), (uint8_t)v);
#endif
}

#ifndef D1_UART_DW_ONLY
/* The cold paths' byte accesses (uart_16550.c). */
uint32_t d1_uartp_rd8(const struct d1_uart *u, unsigned idx);
void d1_uartp_wr8(const struct d1_uart *u, unsigned idx, uint32_t v);
#endif

/* Cold-path access: the width is tested per access. */
static inline uint32_t uart_rd(const struct d1_uart *u, unsigned idx)
{
#ifndef D1_UART_DW_ONLY
	if (!UART_IS_W32(u)) {
		return d1_uartp_rd8(u, idx);
	}
#endif
	return d1_mmio_read32(uart_addr(uart_io_of(u), idx));
}

static inline void uart_wr(const struct d1_uart *u, unsigned idx, uint32_t v)
{
#ifndef D1_UART_DW_ONLY
	if (!UART_IS_W32(u)) {
		d1_uartp_wr8(u, idx, v);
		return;
	}
#endif
	d1_mmio_write32(uart_addr(uart_io_of(u), idx), v);
}

/* ---- handle state ---- */

/* FIFOs on (FCR.FIFOE as last written): a THRE means a whole FIFO of room,
 * and on the DW UART RFL/TFL count the FIFO levels. */
static inline bool uart_fifo_on(const struct d1_uart *u)
{
	return (u->fcr & D1_UART_FCR_FIFOE_BITS) != 0u;
}

/* ---- LSR: reading it clears OE/PE/FE/BI (docs/uart-and-plic.md) ---- */

/*
 * Reading LSR clears OE, PE, FE and BI, so every LSR value read is
 * accounted at once: OE counted in `overrun`, PE/FE/BI/FIFOERR (of the
 * character at the FIFO top, and "some character has an error") OR-ed
 * into u->lsr_err, which is returned with every later read until their
 * character leaves RBR, a read shows DR clear (no character for them to
 * belong to) or the RX FIFO is reset. Two readers do this: the RX path
 * (inline, in its caller's critical section or the ISR) and, for
 * everything else (the idle wait, drain, the TX path's LSR.THRE test),
 * d1_uartp_lsr_read() (uart.c): the read and the accounting in one
 * critical section, so the ISR cannot run between them
 * (test_putc_isr_race_keeps_line_error).
 */
uint32_t d1_uartp_lsr_read(struct d1_uart *u);

/* What u->lsr_err keeps of an LSR value: PE/FE/BI (the character at the
 * FIFO top) and FIFOERR; nothing when DR is clear. */
static inline uint8_t uart_lsr_keep(uint32_t lsr)
{
	return (uint8_t)((lsr & D1_UART_LSR_DR_BITS) != 0u ? lsr & UART_LSR_KEEP : 0u);
}

/* Count the character errors of one LSR value; true if its character is
 * bad. A break also shows as a framing error: counted once, as a break. */
static UART_ALWAYS_INLINE bool uart_count_lsr(struct d1_uart *u, uint32_t lsr)
{
	if ((lsr & UART_LSR_CHAR_ERR) == 0u) {
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

/* ---- the RX path ---- */

/* Where the RX path puts the good bytes it reads. */
enum uart_rx_mode {
	/* d1_uart_isr(): into the RX ring; a byte with no room is read and
	 * counted in rx_dropped (the FIFO is emptied: its level interrupt
	 * would otherwise stay asserted). */
	UART_RX_RING,
	/* d1_uart_getn(): into the caller's buffer; stops when it is full. */
	UART_RX_BUF,
	/* d1_uart_getc(): one character, good (stored) or bad (counted). */
	UART_RX_ONE,
	/* d1_uart_rx_ready(): bad characters at the FIFO top are read,
	 * counted and discarded; a good one is left there (UART_RX_READY). */
	UART_RX_PEEK,
	/* d1_uart_irq_poll(): no character is read; reports DR as
	 * D1_UART_EV_RX and a character error as D1_UART_EV_ERR. */
	UART_RX_POLL,
};

/* Returned by UART_RX_PEEK: a good character is at the FIFO top. */
#define UART_RX_READY 0x100u

/* Read @p n bytes of RBR into @p buf + @p at: on rv64 at -Os the loop is
 * load, fence, store, increment, compare-and-branch (plus a zero-extension
 * on the byte path). The pointer is formed only when there is a byte to
 * store: without an RX ring @p buf is NULL, and NULL + 0 is undefined in C
 * (found by tests/fuzz, corpus uart/null-rx-ring). */
static UART_ALWAYS_INLINE void uart_rbr_copy(uintptr_t rbr, uint8_t *buf, size_t at, size_t n)
{
	if (n != 0u) {
		uint8_t *p = buf + at;
		uint8_t *const end = p + n;

		do {
#if UART_PATH_W32
			*p++ = (uint8_t)d1_mmio_read32(rbr);
#else
			*p++ = d1_mmio_read8(rbr);
#endif
		} while (p != end);
	}
}

/*
 * RX, slow half: LSR then RBR per character, so every error is charged to
 * its own character (PE/FE counted and discarded, a break counted once as
 * a break), every OE counted at the read that shows it, a byte with no
 * room dropped and counted (ring) or left in the FIFO (caller's buffer),
 * and an empty RX timeout given its dummy read. Its LSR values are
 * accounted as d1_uartp_lsr_read() does, u->lsr_err written once at the
 * end (nothing else runs meanwhile: the caller holds the critical section
 * or is the ISR). At most fifo_depth + 1
 * characters; the bound is checked after the LSR read that follows a
 * character, so that read's OE is counted
 * (test_isr_slow_path_overrun_at_its_last_lsr_read). The single-character
 * modes (getc; getn once its buffer is full) end without that read.
 * @p ring (mode UART_RX_RING) is a constant, so that the instance of the
 * calls that keep no ring has no ring code.
 */
static UART_ALWAYS_INLINE uint32_t uart_rx_slow(struct d1_uart *u, bool ring, unsigned mode,
                                                uint32_t iid, uint32_t n, uint32_t raw,
                                                uint8_t *buf, uint32_t len, uint32_t *got)
{
	const struct uart_io io = uart_io_of(u);
	/* only the interrupt bodies report events */
	const uint32_t err_ev = ring || mode == UART_RX_POLL ? D1_UART_EV_ERR : 0u;
	uint32_t lsr = raw | u->lsr_err;
	uint32_t ev = 0u;
	uint8_t *dst = buf;
	size_t mask = SIZE_MAX; /* a caller's buffer never wraps */
	size_t head = 0u;
	size_t room = mode == UART_RX_BUF || mode == UART_RX_ONE ? len : 0u;
	size_t kept = 0u;
	uint32_t dropped = 0u;

	if (ring) {
		dst = u->rx.buf;
		mask = (size_t)u->rx.size - 1u;
		head = u->rx.head;
		room = u->rx.size - (uint32_t)(head - u->rx.tail);
	}
	if (iid == D1_UART_IID_TIMEOUT && n == 0u &&
	    (lsr & (D1_UART_LSR_DR_BITS | D1_UART_LSR_BI_BITS)) == 0u) {
		/* DW: a timeout identity with neither DR nor BI needs one dummy
		 * RBR read (Linux 8250_dw.c; docs/uart-and-plic.md). */
		(void)uart_io_rd(io, D1_UART_RBR);
		u->stats.rx_timeout_empty++;
	}
	for (uint32_t k = 0;; k++) {
		uint8_t c;

		if ((raw & D1_UART_LSR_OE_BITS) != 0u) {
			u->stats.overrun++; /* the read that showed it cleared it */
			ev |= err_ev;
		}
		if (mode == UART_RX_POLL || k > u->fifo_depth ||
		    (lsr & D1_UART_LSR_DR_BITS) == 0u) {
			break;
		}
		if (mode == UART_RX_PEEK && (lsr & UART_LSR_CHAR_ERR) == 0u) {
			ev |= UART_RX_READY;
			break;
		}
		c = (uint8_t)uart_io_rd(io, D1_UART_RBR);
		if (uart_count_lsr(u, lsr)) {
			ev |= err_ev;
		} else if (kept < room) {
			dst[(head + kept) & mask] = c;
			kept++;
		} else {
			dropped++; /* ring only: the other modes stop at room */
		}
		if (mode == UART_RX_ONE || (mode == UART_RX_BUF && kept == room)) {
			lsr = 0u; /* its errors went with it */
			break;
		}
		raw = uart_io_rd(io, D1_UART_LSR);
		lsr = raw;
	}
	if (mode == UART_RX_POLL) {
		/* nothing read: a character error is counted when
		 * d1_uart_rx_ready() reads its character */
		if ((lsr & UART_LSR_CHAR_ERR) != 0u) {
			ev |= D1_UART_EV_ERR;
		}
		if ((lsr & D1_UART_LSR_DR_BITS) != 0u) {
			ev |= D1_UART_EV_RX;
		}
	}
	/* DR clear: nothing kept. A good character left at the top (peek) or
	 * the bound reached: its errors are kept for the next read. */
	u->lsr_err = uart_lsr_keep(lsr);
	if (ring) {
		uart_barrier(); /* data before the index the reader sees */
		u->rx.head = (uint32_t)(head + kept);
		u->stats.rx_dropped += dropped;
	} else if (got != NULL) {
		*got = (uint32_t)kept;
	}
	u->stats.rx_bytes += kept;
	return ev | (kept != 0u ? D1_UART_EV_RX : 0u);
}

/*
 * The slow half, out of line, one instance per width (uart.c or
 * uart_ring.c, and uart_16550.c): the ring ISR's (mode UART_RX_RING, out
 * of line so that the ISR's fast path needs no stack frame) and the one
 * of the calls that keep no ring (getc, rx_ready, getn, irq_poll: the
 * mode an argument). @p raw is the LSR value read first, @p n the level
 * found before it (0: none).
 */
uint32_t d1_uartp_rx_ring_slow_w32(struct d1_uart *u, uint32_t iid, uint32_t n, uint32_t raw);
uint32_t d1_uartp_rx_ring_slow_w8(struct d1_uart *u, uint32_t iid, uint32_t n, uint32_t raw);
uint32_t d1_uartp_rx_slow_w32(struct d1_uart *u, unsigned mode, uint32_t iid, uint32_t n,
                              uint32_t raw, uint8_t *buf, uint32_t len, uint32_t *got);
uint32_t d1_uartp_rx_slow_w8(struct d1_uart *u, unsigned mode, uint32_t iid, uint32_t n,
                             uint32_t raw, uint8_t *buf, uint32_t len, uint32_t *got);

#if UART_PATH_W32
#define UART_RX_RING_SLOW d1_uartp_rx_ring_slow_w32
#define UART_RX_SLOW      d1_uartp_rx_slow_w32
#else
#define UART_RX_RING_SLOW d1_uartp_rx_ring_slow_w8
#define UART_RX_SLOW      d1_uartp_rx_slow_w8
#endif

/* The fast half's condition: LSR (with what earlier LSR reads kept) shows
 * no error anywhere in the FIFO (OE, PE, FE, BI, FIFOERR clear) and a
 * level is known. u->lsr_err holds only kept bits: clear here means 0. */
static UART_ALWAYS_INLINE bool uart_rx_clean(const struct d1_uart *u, uint32_t lsr, size_t n)
{
	return (((lsr | u->lsr_err) & (UART_LSR_KEEP | D1_UART_LSR_OE_BITS)) |
	        (n == 0u ? 1u : 0u)) == 0u;
}

/*
 * The RX path's fast half, for the two callers that take many bytes: the
 * ring ISR (uart_rx_ring()) and d1_uart_getn() (uart_rx_buf()). When
 * uart_rx_clean(), a known number of bytes is read with RBR reads only: on
 * the DW UART the RFL level, read BEFORE that LSR so FIFOERR covers every
 * byte counted (the ring ISR trusts RFL whenever the UART is DW, getn
 * only with the FIFOs on, as before this split); on a plain 16550 the
 * trigger level an RDA identity guarantees (docs/benchmarks.md "UART RX
 * path"). More bytes, if any, show in the next IIR: on the DW UART as
 * RDA/timeout, on a 16550 as RDA at the trigger level or as the character
 * timeout for fewer (16550 data sheet, FIFO mode). Everything else goes to
 * the slow half. @p io is uart_io_of(@p u), read before the caller's first
 * access.
 *
 * Ring: the ring's consumer cannot run while the ISR does (one hart), so
 * head and room are read once and head written once; the bytes go into at
 * most two contiguous runs, those with no room are read and counted.
 */
static UART_ALWAYS_INLINE uint32_t uart_rx_ring(struct d1_uart *u, struct uart_io io, uint32_t iid)
{
	const uintptr_t rbr = uart_addr(io, D1_UART_RBR);
	size_t n;
	uint32_t lsr;

	if (UART_IS_DW(u)) {
		n = uart_io_rd(io, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;
		lsr = uart_io_rd(io, D1_UART_LSR);
	} else {
		lsr = uart_io_rd(io, D1_UART_LSR);
		n = iid == D1_UART_IID_RDA ? u->rx_level : 0u;
	}
	if (!uart_rx_clean(u, lsr, n)) {
		return UART_RX_RING_SLOW(u, iid, (uint32_t)n, lsr);
	}
	{
		uint8_t *const rb = u->rx.buf;
		/* size_t arithmetic: no 32 -> 64-bit extensions on rv64 */
		const size_t size = u->rx.size;
		const size_t head = u->rx.head;
		const size_t room = size - (uint32_t)(head - u->rx.tail);
		const size_t at = head & (size - 1u);
		const size_t first = size - at;
		const size_t kept = n < room ? n : room;
		const size_t dropped = n - kept;

		if (kept <= first) {
			uart_rbr_copy(rbr, rb, at, kept);
		} else {
			uart_rbr_copy(rbr, rb, at, first);
			uart_rbr_copy(rbr, rb, 0u, kept - first);
		}
		for (size_t i = 0; i < dropped; i++) {
			(void)uart_io_rd(io, D1_UART_RBR);
		}
		uart_barrier(); /* data before the index the reader sees */
		u->rx.head = (uint32_t)(head + kept);
		u->stats.rx_bytes += kept;
		if (dropped != 0u) {
			u->stats.rx_dropped += dropped;
		}
		return kept != 0u ? D1_UART_EV_RX : 0u;
	}
}

/* d1_uart_getn(): at most min(@p len, fifo_depth) bytes into @p buf. */
static UART_ALWAYS_INLINE uint32_t uart_rx_buf(struct d1_uart *u, struct uart_io io, uint8_t *buf,
                                               uint32_t len, uint32_t *got)
{
	size_t n = 0u;
	uint32_t lsr;

	if (UART_IS_DW(u) && uart_fifo_on(u)) {
		n = uart_io_rd(io, D1_UART_RFL) & D1_UART_RFL_RFL_BITS;
	}
	lsr = uart_io_rd(io, D1_UART_LSR);
	if (!uart_rx_clean(u, lsr, n)) {
		return UART_RX_SLOW(u, UART_RX_BUF, D1_UART_IID_NONE, (uint32_t)n, lsr, buf, len,
		                    got);
	}
	n = n < len ? n : len;
	n = n < u->fifo_depth ? n : u->fifo_depth;
	uart_rbr_copy(uart_addr(io, D1_UART_RBR), buf, 0u, n);
	u->stats.rx_bytes += n;
	*got = (uint32_t)n;
	return D1_UART_EV_RX;
}

/* getc (UART_RX_ONE), rx_ready (UART_RX_PEEK), irq_poll (UART_RX_POLL):
 * no level to read, LSR and the slow half. */
static UART_ALWAYS_INLINE uint32_t uart_rx_chars(struct d1_uart *u, struct uart_io io,
                                                 unsigned mode, uint32_t iid, uint8_t *buf,
                                                 uint32_t len, uint32_t *got)
{
	return UART_RX_SLOW(u, mode, iid, 0u, uart_io_rd(io, D1_UART_LSR), buf, len, got);
}

/* The 8-bit instance of the byte-mode RX entries (uart_16550.c): mode
 * UART_RX_BUF, UART_RX_ONE or UART_RX_PEEK. */
uint32_t d1_uartp_rx_w8(struct d1_uart *u, unsigned mode, uint8_t *buf, uint32_t len,
                        uint32_t *got);

#if UART_PATH_W32
/* The byte-mode RX entries for a caller in a 32-bit object that holds the
 * critical section: inline for 32-bit registers, the 8-bit instance
 * otherwise. */
static UART_ALWAYS_INLINE uint32_t uart_rx_getn(struct d1_uart *u, uint8_t *buf, uint32_t len,
                                                uint32_t *got)
{
	return UART_IS_W32(u) ? uart_rx_buf(u, uart_io_of(u), buf, len, got)
	                      : UART_W8(d1_uartp_rx_w8(u, UART_RX_BUF, buf, len, got));
}

static UART_ALWAYS_INLINE uint32_t uart_rx_char(struct d1_uart *u, unsigned mode, uint8_t *buf,
                                                uint32_t len, uint32_t *got)
{
	return UART_IS_W32(u)
	               ? uart_rx_chars(u, uart_io_of(u), mode, D1_UART_IID_NONE, buf, len, got)
	               : UART_W8(d1_uartp_rx_w8(u, mode, buf, len, got));
}
#endif

/* ---- the TX path ---- */

/*
 * Room in the transmitter now; the caller holds the critical section (or
 * is the ISR), so the room found is still there for its writes
 * (test_putc_isr_race_no_tx_loss). @p fifo false (d1_uart_putc(),
 * d1_uart_tx_ready()): room for one byte? DW with FIFOs on: USR.TFNF (so a
 * burst fills the whole FIFO without reading LSR), otherwise LSR.THRE; 0
 * or 1. @p fifo true (d1_uart_putn()): DW with FIFOs on: fifo_depth - TFL;
 * otherwise LSR.THRE (with FIFOs on THRE means the FIFO is empty). After a
 * THRE identity the ring ISR needs no read: the FIFO is empty (PTIME is
 * left off), tx_burst bytes fit.
 */
static UART_ALWAYS_INLINE uint32_t uart_tx_room(struct d1_uart *u, bool fifo)
{
	const struct uart_io io = uart_io_of(u);

	if (UART_IS_DW(u) && uart_fifo_on(u)) {
		if (!fifo) {
			return (uart_io_rd(io, D1_UART_USR) & D1_UART_USR_TFNF_BITS) != 0u ? 1u
			                                                                   : 0u;
		}
		uint32_t level = uart_io_rd(io, D1_UART_TFL) & D1_UART_TFL_TFL_BITS;

		return level < u->fifo_depth ? u->fifo_depth - level : 0u;
	}
	if ((d1_uartp_lsr_read(u) & D1_UART_LSR_THRE_BITS) == 0u) {
		return 0u;
	}
	return fifo && uart_fifo_on(u) ? u->fifo_depth : 1u;
}

/* The TX path's writes: every byte written to THR is written here. @p n
 * bytes of @p buf, index (@p at + i) & @p mask (a ring, or a caller's
 * buffer with mask SIZE_MAX), counted in tx_bytes. */
static UART_ALWAYS_INLINE void uart_tx_write(struct d1_uart *u, const uint8_t *buf, size_t at,
                                             size_t mask, uint32_t n)
{
	const struct uart_io io = uart_io_of(u);

	for (uint32_t i = 0; i < n; i++) {
		uart_io_wr(io, D1_UART_THR, buf[(at + i) & mask]);
	}
	u->stats.tx_bytes += n;
}

/* The 8-bit instances (uart_16550.c). */
uint32_t d1_uartp_tx_room_w8(struct d1_uart *u, bool fifo);
void d1_uartp_tx_write_w8(struct d1_uart *u, const uint8_t *buf, size_t at, size_t mask,
                          uint32_t n);

#if UART_PATH_W32
/* @p u's TX room and writes, for a caller in a 32-bit object: inline for
 * 32-bit registers, the 8-bit instances otherwise. */
static UART_ALWAYS_INLINE uint32_t uart_tx_room_any(struct d1_uart *u, bool fifo)
{
	return UART_IS_W32(u) ? uart_tx_room(u, fifo) : UART_W8(d1_uartp_tx_room_w8(u, fifo));
}

static UART_ALWAYS_INLINE void uart_tx(struct d1_uart *u, const uint8_t *buf, size_t at,
                                       size_t mask, uint32_t n)
{
#ifndef D1_UART_DW_ONLY
	if (!UART_IS_W32(u)) {
		d1_uartp_tx_write_w8(u, buf, at, mask, n);
		return;
	}
#endif
	uart_tx_write(u, buf, at, mask, n);
}
#endif

/* ---- the interrupt body ---- */

/* THRE, busy detect and modem status (uart_ring.c): looped on IIR, at
 * most D1_UART_ISR_ROUNDS identities; THRE refills the FIFO from the TX
 * ring in ring mode and is reported (D1_UART_EV_TX) in byte mode. */
uint32_t d1_uartp_isr_other(struct d1_uart *u, uint32_t iid);

/*
 * The interrupt body for the including object's width, ring mode (@p ring:
 * d1_uart_isr()) or byte mode (d1_uart_irq_poll()). An RX identity is
 * served and the call returns: a cause raised meanwhile keeps the level
 * interrupt asserted, so the PLIC claims it again (a second IIR read here
 * would only move that work and leave the PLIC a claim that finds
 * nothing). The idle and RX fast paths make no call and, in the ring
 * instance, need no stack frame. The IIR read's fence would make a reload
 * of base and shift from the handle: io goes along to the RX path.
 */
static UART_ALWAYS_INLINE uint32_t uart_irq_body(struct d1_uart *u, bool ring)
{
	const struct uart_io io = uart_io_of(u);
	uint32_t iid = uart_io_rd(io, D1_UART_IIR) & D1_UART_IIR_IID_BITS;

	if (((1u << iid) & UART_RX_IIDS) != 0u) {
		return ring ? uart_rx_ring(u, io, iid)
		            : uart_rx_chars(u, io, UART_RX_POLL, iid, NULL, 0u, NULL);
	}
	if (iid == D1_UART_IID_NONE) {
		u->stats.isr_idle++;
		return 0u;
	}
	return d1_uartp_isr_other(u, iid);
}

/* Instances: ring (uart_ring.c, uart_16550.c); the byte mode's 8-bit one
 * (uart_16550.c: the 32-bit one is inline in d1_uart_irq_poll()). */
uint32_t d1_uartp_isr_w32(struct d1_uart *u);
uint32_t d1_uartp_isr_w8(struct d1_uart *u);
uint32_t d1_uartp_poll_w8(struct d1_uart *u);

/* Shared checks (uart.c): an initialised handle on a usable line. */
d1_err_t d1_uartp_check_io(const struct d1_uart *u);

#endif /* D1_SRC_UART_PRIV_H */
