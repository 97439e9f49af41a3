/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file uart.h
 * @brief D1 UART driver (Synopsys DW APB UART); also drives the plain
 *        ns16550a of QEMU `virt` unless built with `D1_UART_DW_ONLY`.
 *
 * Hardware facts (BUSY/LCR, busy detect, LSR error bits, USR, flow control)
 * with their sources: docs/uart-and-plic.md. Polled use: putc/getc/drain.
 * Interrupt use, ring mode: d1_uart_irq_start(), then
 * d1_uart_write()/d1_uart_read() from one thread context each and
 * d1_uart_isr() from the interrupt (rings are single-producer
 * single-consumer). Byte mode, for an OS upper half with buffers of its own:
 * d1_uart_irq_set(), d1_uart_irq_poll() from the interrupt, and the byte
 * calls d1_uart_rx_ready()/d1_uart_getc(), d1_uart_tx_ready()/d1_uart_putc().
 * Every byte not delivered is counted in struct d1_uart_stats.
 *
 * Unusable line: the I/O calls refuse with D1_ESTATE and write nothing
 * after a configure failure that could not restore the line, and, before
 * the first configure, while the UART has LCR.DLAB set (as firmware may
 * leave it: offset 0 is then DLL and offset 1 DLH, so a THR or IER write
 * would change the divisor). A configure that succeeds ends both.
 */
#ifndef D1_UART_H
#define D1_UART_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/uart_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_uart UART driver
 * @{ */

/** Largest accepted baud error, ppm (2 %; why: docs/uart-and-plic.md). */
#define D1_UART_BAUD_TOL_PPM 20000u
/** Largest FIFO depth accepted by d1_uart_init() (DW APB maximum). */
#define D1_UART_MAX_FIFO_DEPTH 2048u
/** Baud assumed for wait budgets before the first d1_uart_configure() when
 *  the programmed divisor cannot be read back. */
#define D1_UART_FALLBACK_BAUD 9600u
/** Attempts at a verified LCR/DLL/DLH write sequence before D1_ETIMEDOUT. */
#define D1_UART_LCR_ATTEMPTS 8u
/** Characters (at the line setting in force) that bound each wait: a full
 *  TX FIFO plus the shift register plus one. */
#define D1_UART_WAIT_CHARS(fifo_depth) ((fifo_depth) + 2u)
/** IIR identities d1_uart_isr() serves per call outside the RX path (THRE,
 *  busy detect, modem status); a cause still pending keeps the line high. */
#define D1_UART_ISR_ROUNDS 8u

/** @name d1_uart_isr() event mask
 * @{ */
#define D1_UART_EV_RX   0x1u /**< Bytes were put in the RX ring. */
#define D1_UART_EV_TX   0x2u /**< TX ring space was freed (or the ring ran dry). */
#define D1_UART_EV_ERR  0x4u /**< A line error was counted (overrun, parity, framing, break). */
#define D1_UART_EV_BUSY 0x8u /**< A DW busy-detect interrupt was cleared. */
/** @} */

/** Parity setting. */
enum d1_uart_parity {
	D1_UART_PARITY_NONE, /**< No parity bit. */
	D1_UART_PARITY_ODD,  /**< Odd parity. */
	D1_UART_PARITY_EVEN, /**< Even parity. */
};

/** Register-file flavour of the instance. */
enum d1_uart_flavour {
	/** Synopsys DW APB UART (D1): has USR (BUSY), RFL, busy detect. */
	D1_UART_FLAVOUR_DW_APB,
	/** Plain 16550 (QEMU `virt` ns16550a): no USR/RFL; never BUSY. */
	D1_UART_FLAVOUR_16550,
};

/** Line setting requested from d1_uart_configure(). */
struct d1_uart_config {
	uint32_t baud;              /**< Bits per second, > 0. */
	uint8_t data_bits;          /**< 5..8. */
	enum d1_uart_parity parity; /**< Parity. */
	uint8_t stop_bits;          /**< 1 or 2 (2 means 1.5 with 5 data bits). */
	bool fifo;                  /**< Enable the FIFOs. */
	uint8_t rx_trigger;         /**< 0..3: FCR RT (1 char, 1/4, 1/2, full - 2). */
	uint8_t tx_trigger;         /**< 0..3: FCR TFT (DW only; a 16550 ignores it). */
	bool rtscts; /**< Auto RTS/CTS flow control (DW MCR.AFCE + RTS); needs @c fifo. */
};

/** Single-producer single-consumer byte ring; indices run freely. */
struct d1_uart_ring {
	uint8_t *buf;           /**< Storage, size bytes. */
	uint32_t size;          /**< Power of two (0 = no ring). */
	volatile uint32_t head; /**< Producer index (next write). */
	volatile uint32_t tail; /**< Consumer index (next read). */
};

/** Counters of everything that did not go as bytes in = bytes out. */
struct d1_uart_stats {
	uint32_t overrun; /**< LSR.OE seen: the hardware FIFO overflowed (>= 1 byte lost each). */
	uint32_t framing; /**< Characters with a framing error, discarded. */
	uint32_t parity;  /**< Characters with a parity error, discarded. */
	uint32_t brk;     /**< Break conditions (their NUL character is discarded). */
	uint64_t rx_dropped;  /**< Good bytes dropped because the RX ring was full (64-bit: a
	                         stalled reader at 1.5 Mbaud would wrap 32 bits in 8 h). */
	uint32_t busy_detect; /**< DW only: busy-detect events (IIR 0x7, or an LCR/DLL/DLH write
	                         that did not take). */
	uint32_t rx_timeout_empty; /**< RX timeouts with no data (dummy read done). */
	uint64_t rx_bytes;         /**< Bytes delivered into the RX ring (or by d1_uart_getc()). */
	uint64_t tx_bytes;         /**< Bytes written to THR by the ISR or d1_uart_putc(). */
	uint32_t tx_timeouts;      /**< d1_uart_putc() calls that gave up (D1_ETIMEDOUT): the byte
	                              was not sent (a console that ignores the error still has it
	                              counted here). */
	uint32_t
	        rx_discarded; /**< Bytes read and discarded by d1_uart_configure() to reach idle. */
	uint32_t lcr_retries; /**< Verified-write sequences that had to be repeated. */
	uint32_t isr_idle;    /**< d1_uart_isr() calls that found no interrupt pending. */
	uint32_t verify_miss; /**< Plain 16550 only (never BUSY): an LCR/DLL/DLH write whose
	                         read-back differed (the sequence is repeated). */
};

/**
 * @brief One UART instance. Owned by the caller; fields are private to the
 *        driver (use the functions below).
 */
struct d1_uart {
	uintptr_t base;    /**< Register base (physical or mapped). */
	uint8_t reg_shift; /**< Register i is at base + (i << reg_shift). */
	uint8_t io_width;  /**< Access width in bytes: 4 or 1. */
	uint8_t flavour;   /**< enum d1_uart_flavour. */
	uint8_t lcr;       /**< Line setting in force (DLAB clear). */
	uint8_t fcr;       /**< Last FCR written (FCR is write-only). */
	uint8_t ier;       /**< IER shadow. */
	uint8_t lsr_err;   /**< LSR PE/FE/BI/FIFOERR seen by an LSR read but not yet consumed with
	                      their character (reading LSR clears them in hardware). */
	bool configured;   /**< d1_uart_configure() succeeded. */
	bool line_lost;    /**< A failed configure could not restore the line (DLAB may be set). */
	bool irq_mode;     /**< Between d1_uart_irq_start() and d1_uart_irq_stop(). */
	volatile bool tx_irq; /**< ETBEI currently enabled. */
	uint32_t clk_hz;      /**< UART input clock, Hz. */
	uint32_t fifo_depth;  /**< Hardware FIFO depth (64 on D1, 16 on QEMU virt). */
	uint32_t tx_burst; /**< Bytes the ISR may write per THRE (FIFO depth, or 1 without FIFO). */
	uint32_t rx_level; /**< Bytes guaranteed present on an RDA identity (RX trigger level). */
	uint32_t baud;     /**< Achieved baud (0 = unknown). */
	uint32_t divisor;  /**< Divisor in force (0 = unknown). */
	int32_t baud_err_ppm;       /**< Achieved baud error, ppm (achieved - wanted). */
	uint32_t char_bits;         /**< Bits per character incl. start/parity/stop, times 2. */
	struct d1_uart_ring rx;     /**< RX ring (ISR produces). */
	struct d1_uart_ring tx;     /**< TX ring (ISR consumes). */
	struct d1_uart_stats stats; /**< Counters. */
};

/** Result of d1_uart_calc_baud(). */
struct d1_uart_baud {
	uint32_t divisor;  /**< DLH:DLL value, 1..65535. */
	uint32_t achieved; /**< clk / (16 * divisor), rounded to nearest, baud. */
	int32_t err_ppm;   /**< (exact achieved - wanted) / wanted, ppm, rounded toward zero. */
};

/**
 * @brief Initialise a handle: reg_shift 2 is a DW APB UART with 32-bit
 *        accesses (D1), 0 or 1 a byte-wide plain 16550 (QEMU virt); other
 *        combinations: d1_uart_init_ex(). Touches no register.
 * @param u          Handle to fill.
 * @param base       Register base, non-zero.
 * @param reg_shift  0..2.
 * @param clk_hz     UART input clock in Hz (APB1, from the CCU driver on the
 *                   D1; 3686400 on QEMU virt), non-zero.
 * @param fifo_depth FIFO depth, 1..#D1_UART_MAX_FIFO_DEPTH (64 on D1).
 * @return D1_OK; D1_EINVAL for a NULL handle or an argument out of range;
 *         D1_ENOTSUP for reg_shift 0/1 in a `D1_UART_DW_ONLY` build.
 */
d1_err_t d1_uart_init(struct d1_uart *u, uintptr_t base, unsigned reg_shift, uint32_t clk_hz,
                      unsigned fifo_depth);

/**
 * @brief Initialise a handle with explicit access width and flavour.
 *        Touches no register.
 * @param u          Handle to fill.
 * @param base       Register base, non-zero, aligned to @p io_width.
 * @param reg_shift  0..2; must be >= 2 when @p io_width is 4.
 * @param io_width   Access width in bytes: 1 or 4.
 * @param clk_hz     UART input clock in Hz, non-zero.
 * @param fifo_depth FIFO depth, 1..#D1_UART_MAX_FIFO_DEPTH.
 * @param flavour    enum d1_uart_flavour.
 * @return D1_OK; D1_EINVAL; D1_ENOTSUP for the 16550 flavour or 1-byte
 *         access in a `D1_UART_DW_ONLY` build.
 */
d1_err_t d1_uart_init_ex(struct d1_uart *u, uintptr_t base, unsigned reg_shift, unsigned io_width,
                         uint32_t clk_hz, unsigned fifo_depth, enum d1_uart_flavour flavour);

/**
 * @brief Compute the divisor for a baud rate (nearest), the achieved baud and
 *        its error. Pure arithmetic, touches no register.
 * @param clk_hz Input clock, Hz, non-zero.
 * @param baud   Wanted baud, non-zero.
 * @param out    Result (always filled on D1_OK and on D1_ERANGE when a
 *               divisor exists).
 * @return D1_OK; D1_EINVAL for NULL @p out or a zero argument; D1_ERANGE when
 *         no divisor 1..65535 gets within #D1_UART_BAUD_TOL_PPM.
 */
d1_err_t d1_uart_calc_baud(uint32_t clk_hz, uint32_t baud, struct d1_uart_baud *out);

/**
 * @brief Set baud, framing, FIFOs and flow control (polled mode only): waits
 *        (bounded) for idle, discarding and counting received bytes
 *        (d1_uart_stats::rx_discarded), then writes the line setting
 *        verified by read-back, at most #D1_UART_LCR_ATTEMPTS times
 *        (sequence and budgets: docs/uart-and-plic.md "UART design").
 *        Bound: at most 2 x #D1_UART_LCR_ATTEMPTS idle waits (the attempts,
 *        then the restore after a failure), each of
 *        D1_UART_WAIT_CHARS(fifo_depth) characters at the setting found in
 *        the UART (#D1_UART_FALLBACK_BAUD, 12-bit frames, when its divisor
 *        reads 0).
 * @param u             Initialised handle, not in interrupt mode.
 * @param cfg           Requested setting.
 * @param achieved_baud Optional: the achieved baud.
 * @return D1_OK; D1_EINVAL for NULL, an invalid field, or @c rtscts without
 *         @c fifo; D1_ERANGE when no divisor gets within
 *         #D1_UART_BAUD_TOL_PPM; D1_ENOTSUP for @c rtscts on a UART without
 *         AFCE (plain 16550 — nothing written — or a DW instance whose
 *         MCR.AFCE does not stick, MCR then restored); D1_EBUSY in interrupt
 *         mode; D1_ETIMEDOUT when BUSY never cleared or the verified writes
 *         kept failing. Nothing is written on D1_EINVAL/D1_ERANGE/D1_EBUSY
 *         or a 16550's D1_ENOTSUP. After D1_ETIMEDOUT IER is 0, the
 *         previous LCR and divisor are restored and the FIFO triggers are
 *         those in force before the call; if even that fails the
 *         handle refuses I/O with D1_ESTATE until a configure succeeds.
 *         Entered with DLAB set (offset 1 is then DLH), IER is written only
 *         once DLAB is clear again: if the restore fails too (D1_ESTATE
 *         afterwards), IER is left as found, not 0 (writing it would be a
 *         blind DLH write).
 */
d1_err_t d1_uart_configure(struct d1_uart *u, const struct d1_uart_config *cfg,
                           uint32_t *achieved_baud);

/**
 * @brief Polled transmit of one byte, bypassing the TX ring (also usable from
 *        a panic path in interrupt mode). Waits (bounded:
 *        D1_UART_WAIT_CHARS(fifo_depth) characters at the line setting in
 *        force) for TX space; the check and the THR write are one critical
 *        section against d1_uart_isr().
 * @param u Initialised handle.
 * @param c Byte.
 * @return D1_OK; D1_EINVAL for a NULL/uninitialised handle; D1_ESTATE when
 *         the line is unusable (file comment: nothing written);
 *         D1_ETIMEDOUT if no space came (nothing written).
 */
d1_err_t d1_uart_putc(struct d1_uart *u, uint8_t c);

/**
 * @brief Polled, non-blocking receive of one byte. A character with a
 *        parity/framing error or a break is read, counted and discarded.
 * @param u Initialised handle, not in interrupt mode.
 * @param c Where to store the byte.
 * @return D1_OK with *c set; D1_EAGAIN when no (good) byte was available;
 *         D1_EINVAL for NULL; D1_ESTATE in interrupt mode (the ISR owns RX)
 *         or when the line is unusable (file comment).
 */
d1_err_t d1_uart_getc(struct d1_uart *u, uint8_t *c);

/**
 * @brief Wait until the transmitter is empty (LSR.TEMT: FIFO and shift
 *        register), bounded by D1_UART_WAIT_CHARS(fifo_depth) characters at
 *        the line setting in force. Bytes still in the TX ring are not waited for
 *        (d1_uart_tx_pending()).
 * @param u Initialised handle.
 * @return D1_OK; D1_EINVAL for NULL/uninitialised; D1_ESTATE when the line
 *         is unusable (file comment); D1_ETIMEDOUT. Writes nothing.
 */
d1_err_t d1_uart_drain(struct d1_uart *u);

/**
 * @brief Enter interrupt mode over caller-provided rings: IER = ERBFI |
 *        ELSI; ETBEI only while the TX ring holds data. Either ring may be
 *        absent (NULL buffer with size 0).
 * @param u       Initialised handle, not already in interrupt mode.
 * @param rx_buf  RX storage, or NULL when @p rx_size is 0.
 * @param rx_size Power of two (>= 2), or 0.
 * @param tx_buf  TX storage, or NULL when @p tx_size is 0.
 * @param tx_size Power of two (>= 2), or 0.
 * @return D1_OK; D1_EINVAL for a bad handle/buffer/size; D1_EBUSY if
 *         already in interrupt mode; D1_ESTATE when the line is unusable
 *         (file comment). Nothing written on error.
 */
d1_err_t d1_uart_irq_start(struct d1_uart *u, uint8_t *rx_buf, uint32_t rx_size, uint8_t *tx_buf,
                           uint32_t tx_size);

/**
 * @brief Leave interrupt mode: IER = 0. Bytes still in the TX ring stay
 *        there unsent (d1_uart_tx_pending()); the RX ring stays readable.
 * @param u Handle in interrupt mode.
 * @return D1_OK; D1_EINVAL for NULL/uninitialised; D1_ESTATE when not in
 *         interrupt mode (nothing written).
 */
d1_err_t d1_uart_irq_stop(struct d1_uart *u);

/**
 * @brief Byte mode, for an OS whose serial upper half keeps the buffers
 *        (NuttX uart_dev_s, RT-Thread rt_serial): set which interrupts the
 *        UART raises. No ring is involved: the OS reads with
 *        d1_uart_rx_ready() and d1_uart_getc(), writes with
 *        d1_uart_tx_ready() and d1_uart_putc(), and calls
 *        d1_uart_irq_poll() from the interrupt.
 * @param u  Initialised handle, not in ring mode (d1_uart_irq_start()).
 * @param ev Mask of #D1_UART_EV_RX (data, timeout and line status: IER ERBFI
 *           | ELSI) and #D1_UART_EV_TX (TX holding/FIFO empty: ETBEI); 0
 *           turns both off. One IER write.
 * @return D1_OK; D1_EINVAL for a NULL/uninitialised handle or a bit other
 *         than RX and TX; D1_ESTATE in ring mode or when the line is
 *         unusable (file comment). Nothing written on error.
 */
d1_err_t d1_uart_irq_set(struct d1_uart *u, uint32_t ev);

/**
 * @brief Byte mode interrupt body: read IIR and serve what needs no buffer
 *        — busy detect cleared (USR read) and counted, modem status
 *        cleared, a line-status identity's LSR read (overrun counted, the
 *        character errors kept for d1_uart_rx_ready()), an empty RX timeout
 *        given its dummy read and counted — and report what the OS must do.
 *
 * Bounded: at most #D1_UART_ISR_ROUNDS identities. An RX identity ends the
 * call (it stays pending until the FIFO is read below its trigger, so the
 * level interrupt re-enters for what follows it).
 * @param u  Initialised handle, not in ring mode.
 * @param ev Receives a mask of #D1_UART_EV_RX (read bytes now),
 *           #D1_UART_EV_TX (the FIFO took the TX-empty identity: write
 *           now), #D1_UART_EV_ERR, #D1_UART_EV_BUSY; 0 when nothing was
 *           pending (counted in d1_uart_stats::isr_idle).
 * @return D1_OK; D1_EINVAL for NULL or an uninitialised handle; D1_ESTATE in
 *         ring mode (d1_uart_isr() serves it) or when the line is unusable
 *         (file comment). Nothing read on error.
 */
d1_err_t d1_uart_irq_poll(struct d1_uart *u, uint32_t *ev);

/**
 * @brief Is a good received byte waiting? Characters at the FIFO top with a
 *        parity or framing error or a break are read, counted and discarded
 *        first (at most fifo_depth + 1 of them per call), so that true means
 *        the next d1_uart_getc() returns D1_OK.
 * @param u     Initialised handle, not in ring mode.
 * @param ready Receives the answer.
 * @return D1_OK; D1_EINVAL for NULL arguments or an uninitialised handle;
 *         D1_ESTATE in ring mode or when the line is unusable (file comment).
 */
d1_err_t d1_uart_rx_ready(struct d1_uart *u, bool *ready);

/**
 * @brief Is there room for one byte? With the DW FIFOs on, USR.TFNF (so a
 *        burst fills the whole FIFO); otherwise LSR.THRE. A true answer
 *        means the next d1_uart_putc() writes at once.
 * @param u    Initialised handle.
 * @param room Receives the answer.
 * @return D1_OK; D1_EINVAL for NULL arguments or an uninitialised handle;
 *         D1_ESTATE when the line is unusable (file comment).
 */
d1_err_t d1_uart_tx_ready(struct d1_uart *u, bool *room);

/**
 * @brief Byte mode, bulk receive: take up to @p len good received bytes now,
 *        never waiting. On the DW UART with FIFOs on and no line error
 *        anywhere in the RX FIFO: one RFL read, one LSR read, then one RBR
 *        read per byte (at most fifo_depth). Otherwise, as d1_uart_getc()
 *        per character: LSR then RBR, a character with a parity or framing
 *        error or a break read, counted and discarded (at most
 *        fifo_depth + 1 characters per call). One critical section.
 * @param u   Initialised handle, not in ring mode.
 * @param buf Destination; NULL only with @p len 0.
 * @param len Room in @p buf; 0 reads no register.
 * @param got Receives the number of bytes stored, 0..len (0: none waiting).
 * @return D1_OK; D1_EINVAL for NULL arguments or an uninitialised handle;
 *         D1_ESTATE in ring mode or when the line is unusable (file
 *         comment). Nothing read on error.
 */
d1_err_t d1_uart_getn(struct d1_uart *u, uint8_t *buf, uint32_t len, uint32_t *got);

/**
 * @brief Bulk transmit, never waiting: write as many of @p len bytes as the
 *        transmitter has room for now. DW UART with FIFOs on: one TFL read,
 *        room = fifo_depth - TFL; otherwise LSR.THRE (with FIFOs on, THRE
 *        means the FIFO is empty: fifo_depth bytes; FIFOs off: one byte).
 *        Then one THR write per byte. The room check and the writes are one
 *        critical section against d1_uart_isr(), as d1_uart_putc().
 * @param u   Initialised handle (either mode, as d1_uart_putc()).
 * @param buf Bytes; NULL only with @p len 0.
 * @param len Number of bytes; 0 touches no register.
 * @param put Receives the number written, 0..len.
 * @return D1_OK; D1_EINVAL for NULL arguments or an uninitialised handle;
 *         D1_ESTATE when the line is unusable (file comment). Nothing
 *         written on error.
 */
d1_err_t d1_uart_putn(struct d1_uart *u, const uint8_t *buf, uint32_t len, uint32_t *put);

/**
 * @brief Queue bytes for interrupt-driven transmission. Never blocks.
 *
 * Copies as many bytes as fit into the TX ring and, if the TX-empty
 * interrupt was off, enables it (one IER write inside a critical section).
 * @param u    Handle in interrupt mode.
 * @param data Bytes.
 * @param len  Number of bytes.
 * @return Bytes accepted, 0..len (0 also for NULL arguments or outside
 *         interrupt mode).
 */
uint32_t d1_uart_write(struct d1_uart *u, const uint8_t *data, uint32_t len);

/**
 * @brief Take received bytes from the RX ring. Never blocks; touches no
 *        register.
 * @param u    Handle.
 * @param data Destination.
 * @param len  Room in @p data.
 * @return Bytes copied, 0..len (0 for NULL arguments).
 */
uint32_t d1_uart_read(struct d1_uart *u, uint8_t *data, uint32_t len);

/**
 * @brief Interrupt body, from the UART interrupt: serves IIR identities
 *        (bounded) until none — RX into the RX ring (errors and drops
 *        counted), busy detect cleared, TX FIFO refilled from the TX ring.
 *        Bounded per call: one RX drain of at most max(fifo_depth + 1, 511)
 *        RBR reads (511: the DW RFL field's maximum), or
 *        #D1_UART_ISR_ROUNDS other identities.
 * @param u Handle (NULL: returns 0, touches nothing).
 * @return Mask of D1_UART_EV_RX, D1_UART_EV_TX, D1_UART_EV_ERR,
 *         D1_UART_EV_BUSY; 0 when nothing was pending (counted in
 *         d1_uart_stats::isr_idle).
 */
uint32_t d1_uart_isr(struct d1_uart *u);

/**
 * @brief Copy the counters (consistently, inside a critical section).
 * @param u   Handle.
 * @param out Destination.
 * @return D1_OK; D1_EINVAL for NULL.
 */
d1_err_t d1_uart_get_stats(const struct d1_uart *u, struct d1_uart_stats *out);

/**
 * @brief Bytes waiting in the TX ring.
 * @param u Handle.
 * @return Count (0 for NULL).
 */
uint32_t d1_uart_tx_pending(const struct d1_uart *u);

/**
 * @brief Bytes waiting in the RX ring.
 * @param u Handle.
 * @return Count (0 for NULL).
 */
uint32_t d1_uart_rx_available(const struct d1_uart *u);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_UART_H */
