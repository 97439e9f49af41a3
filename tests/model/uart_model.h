/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behavioural model of the D1 UART (Synopsys DW APB, 16550-compatible) and,
 * with dw = false, of a plain ns16550a such as QEMU virt's. Written from the
 * hardware facts (docs/uart-and-plic.md, docs/hardware-facts.md, the 16550
 * data sheet), not from the driver:
 *  - registers at index << reg_shift; DLAB selects DLL/DLH at 0/1;
 *  - RX and TX FIFOs of a configurable depth (64 on the D1, 16 on QEMU),
 *    1 deep while FCR.FIFOE = 0; FCR.FIFOE changes clear both FIFOs;
 *  - characters take (1 + data + parity + stop) bits of 16 * divisor / clk
 *    seconds on the line, in both directions; TX writes to a full FIFO are
 *    lost (counted); an RX character completing into a full FIFO is lost and
 *    sets LSR.OE (overrun);
 *  - LSR: DR, OE (cleared on read), PE/FE/BI of the character at the FIFO
 *    top (latched when it reaches the top, cleared on read), THRE (TX FIFO
 *    empty), TEMT (and shifter idle), FIFOERR (an error character in the
 *    FIFO);
 *  - IIR priority: RLS (ELSI) > RDA at the trigger level / char timeout
 *    after 4 character times without activity (ERBFI, FIFO mode) > THRE
 *    (ETBEI; set when the TX FIFO empties or ETBEI is enabled with it empty;
 *    cleared by reading an IIR that reports it, or by a THR write) > busy
 *    detect (DW: asserted regardless of IER until USR is read);
 *  - DW only: USR.BUSY while a character shifts out, the TX FIFO holds
 *    data, a character is being received, or the RX FIFO holds data; USR
 *    TFNF (TX FIFO not full), TFE (TX FIFO empty), RFNE, RFF (D1 SVD usr;
 *    DW register descriptions: TFNF clears when the TX FIFO is full); LCR
 *    writes while BUSY are ignored and raise busy detect; DLL/DLH writes
 *    while BUSY are ignored; RFL/TFL levels; DBG_DLL/DBG_DLH (0xB0/0xB4,
 *    SVD "Debug DLL/DLH", read-only) read the divisor latch without DLAB.
 *    Without dw, register indices alias modulo 8 (QEMU's serial_ioport_read
 *    does addr &= 7), so a USR read lands on SCR.
 *  - Auto flow control (DW only; MCR.AFCE bit 5, SVD mcr.afce): with AFCE
 *    and FIFOs on, the transmitter starts no new character while CTS is
 *    deasserted (auto-CTS), and RTS (MCR bit 1 set) is deasserted while the
 *    RX FIFO is at or above the trigger level (auto-RTS). A plain 16550
 *    (QEMU serial.c keeps MCR & 0x1f) drops MCR bit 5. The far end honours
 *    RTS only when the test sets remote_rtscts.
 * Interrupts: a test can have the model call a function (the ISR) right
 * after its Nth register access, as an interrupt taken between two driver
 * instructions; while the driver is in a critical section (sim) the call is
 * deferred to the first access after it.
 * Invariant counters (DW): busy_blind_writes counts LCR/DLL/DLH writes
 * made while BUSY without a USR read saying BUSY = 0 since the last THR
 * write and the last movement of model time (the DW databook and
 * docs/uart-and-plic.md: such writes are ignored while BUSY,
 * so software must see USR.BUSY = 0 first; a character that starts in the
 * one-access window after that read is a race no driver can close, and is
 * not counted). rbr_pops counts characters taken out of the RX FIFO
 * through RBR (for "nothing silently dropped": every character that
 * entered the FIFO was popped, cleared by a FIFO reset, or is still there).
 * Faults: stuck BUSY, a busy-detect interrupt that never clears, a stuck
 * LSR.DR, a character that starts arriving right after a USR read that said
 * idle (or right after DLAB is set), a transmitter that never finishes, the
 * DW "RX timeout with an empty FIFO" quirk, and lost DLL/DLH writes (a bus
 * glitch; the only way a plain 16550's read-back can differ).
 */
#ifndef D1_TEST_UART_MODEL_H
#define D1_TEST_UART_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

#define UART_MODEL_MAX_FIFO    256u
#define UART_MODEL_LINE_MAX    65536u
#define UART_MODEL_CAPTURE_MAX 65536u

/* Flags of an injected RX character. */
#define UART_RX_PE 0x1u /* parity error */
#define UART_RX_FE 0x2u /* framing error */
#define UART_RX_BI 0x4u /* break (the byte is 0) */

/* A character as it went out on the TX line. */
struct uart_model_tx_char {
	uint8_t byte;
	uint8_t lcr;      /* line setting it was sent with (DLAB clear) */
	uint16_t divisor; /* divisor it was sent with */
	uint64_t t_end;   /* model time its stop bit ended */
};

struct uart_model {
	struct sim_region region;
	unsigned reg_shift;
	bool dw;
	uint32_t clk_hz;
	unsigned depth;
	/* registers */
	uint8_t ier, lcr, mcr, fcr, scr, dll, dlh;
	/* RX FIFO: byte | flags << 8 */
	uint16_t rxf[UART_MODEL_MAX_FIFO];
	unsigned rx_head, rx_count;
	uint8_t lsr_err; /* latched PE/FE/BI (LSR bits) of the top character */
	bool oe;
	uint64_t last_rx_activity;
	/* TX FIFO and shifter */
	uint8_t txf[UART_MODEL_MAX_FIFO];
	unsigned tx_head, tx_count;
	bool shifting;
	uint64_t shift_end;
	uint8_t shift_byte;
	bool thre_int;
	/* RX line: characters arriving back to back */
	uint16_t *line;
	unsigned line_head, line_count;
	bool receiving;
	uint64_t rx_end;
	uint16_t rx_char;
	/* busy detect latch */
	bool busy_detect;
	bool timeout_empty; /* quirk active */
	uint64_t last_now;
	/* capture */
	struct uart_model_tx_char *cap;
	unsigned cap_count;
	/* counters */
	uint64_t lcr_ignored, dl_ignored, busy_detects;
	uint64_t rx_lost;     /* overrun: characters lost in hardware */
	uint64_t rx_received; /* characters that made it into the RX FIFO */
	uint64_t tx_overflow; /* THR writes with the TX FIFO full */
	uint64_t rbr_empty_reads;
	uint64_t usr_reads;
	uint64_t fifo_cleared; /* RX characters lost to FIFO resets */
	uint64_t lcr_writes;
	uint64_t fcr_writes;
	uint64_t rbr_pops;
	uint64_t busy_blind_writes;
	bool usr_idle_seen; /* see busy_blind_writes */
	bool own_storage;   /* line/cap allocated by uart_model_init() */
	uint64_t accesses;  /* register accesses so far */
	/* emulated interrupt: isr(isr_arg) after access number isr_at */
	void (*isr)(void *arg);
	void *isr_arg;
	uint64_t isr_at;
	bool isr_deferred;
	unsigned isr_calls;
	/* flow control: CTS input (true = asserted), far end honours RTS */
	bool cts;
	bool remote_rtscts;
	bool afce_supported; /* DW default true */
	/* faults */
	bool busy_stuck;
	bool dr_stuck;            /* LSR.DR reads 1 whatever the FIFO holds */
	bool busy_after_dlab;     /* BUSY sticks after the next DLAB-setting LCR write */
	bool tx_stuck;            /* the shifter never finishes */
	unsigned race_after_usr;  /* next N idle USR reads start an RX char */
	unsigned race_after_dlab; /* next N DLAB-setting LCR writes start an RX char */
	uint8_t race_byte;
	unsigned drop_dl_writes; /* next N DLL/DLH writes are lost (any flavour) */
	bool busy_detect_stuck;  /* DW: a USR read does not clear busy detect */
};

/* Initialise and map at base. The reset state is "as firmware left it":
 * 8N1, divisor for 115200 baud from clk (13 at 24 MHz), FIFO off. */
void uart_model_init(struct uart_model *m, uintptr_t base, unsigned reg_shift, bool dw,
                     uint32_t clk_hz, unsigned depth);
/* The same with caller storage for the RX line (UART_MODEL_LINE_MAX
 * entries) and the TX capture (UART_MODEL_CAPTURE_MAX entries): nothing is
 * allocated, uart_model_free() frees nothing. */
void uart_model_init_with(struct uart_model *m, uintptr_t base, unsigned reg_shift, bool dw,
                          uint32_t clk_hz, unsigned depth, uint16_t *line,
                          struct uart_model_tx_char *cap);
/* Free the line/capture storage. */
void uart_model_free(struct uart_model *m);
/* Interrupt output (level). */
bool uart_model_irq(const struct uart_model *m);
/* Current IIR identity (no side effects). */
unsigned uart_model_iid(const struct uart_model *m);
/* Model ticks of one character at the current setting. */
uint64_t uart_model_char_ticks(const struct uart_model *m);
/* Queue a character on the RX line; it arrives one character time after the
 * previous one completes (back to back). */
void uart_model_rx_send(struct uart_model *m, uint8_t byte, unsigned flags);
/* Put a character straight into the RX FIFO (as if it just completed). */
void uart_model_rx_put(struct uart_model *m, uint8_t byte, unsigned flags);
/* Trigger the DW quirk: a timeout identity with an empty RX FIFO until RBR
 * is read. */
void uart_model_force_timeout_empty(struct uart_model *m);
/* USR.BUSY as the hardware computes it. */
bool uart_model_busy(const struct uart_model *m);
/* RX characters still on the line (not yet received). */
unsigned uart_model_line_pending(const struct uart_model *m);
/* Drive the CTS input (true = asserted: the far end may receive). */
void uart_model_set_cts(struct uart_model *m, bool asserted);
/* RTS output as the far end sees it (true = asserted). */
bool uart_model_rts(const struct uart_model *m);
/* Call @p fn(@p arg) right after register access number sim-relative
 * @p after (1 = the next access). */
void uart_model_irq_after(struct uart_model *m, unsigned after, void (*fn)(void *), void *arg);

#endif /* D1_TEST_UART_MODEL_H */
