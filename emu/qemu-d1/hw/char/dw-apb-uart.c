/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Synopsys DesignWare APB UART (as on the Allwinner D1)
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * A 16550-compatible UART with the DesignWare extras the D1's drivers
 * depend on.  Facts (d1drivers docs/hardware-facts.md "UART",
 * from Linux 8250_dw.c and the D1 manual; SVD d1_unofficial.svd UART):
 *   - `snps,dw-apb-uart`, reg-shift 2, reg-io-width 4: 16550 register i at
 *     offset 4 * i (RBR/THR/DLL 0x00, IER/DLH 0x04, IIR/FCR 0x08, LCR 0x0C,
 *     MCR 0x10, LSR 0x14, MSR 0x18, SCR 0x1C); USR 0x7C, TFL 0x80,
 *     RFL 0x84, HALT 0xA4, DBG_DLL 0xB0, DBG_DLH 0xB4 (SVD).
 *   - USR: bit0 BUSY, bit1 TFNF, bit2 TFE, bit3 RFNE, bit4 RFF (SVD usr).
 *   - FIFOs of 64 bytes on the D1 (manual), property "fifo-size".
 *   - Writing LCR, DLL or DLH while BUSY is ignored and raises the
 *     busy-detect interrupt (IIR = 0x7), cleared by reading USR.  BUSY is
 *     set while a character is being sent or received; it also stays set
 *     while the RX FIFO holds data (the reason Linux 8250_dw.c's
 *     dw8250_force_idle() clears the FIFOs).  HALT bit1 (CHCFG_AT_BUSY)
 *     lifts the restriction (SVD halt).
 *   - Baud: divisor = clk / (16 * baud).  The clock is the "clk" input
 *     (the CCU's APB1 rate while UART_BGR gates the UART on and holds it
 *     out of reset); with no clock the UART reads 0 and ignores writes,
 *     and its "reset" input holds it in reset.
 * Characters take their real time on the line, in QEMU_CLOCK_VIRTUAL:
 * (start + data + parity + stop bits) * 16 * divisor / clk.  Received
 * characters arrive at that rate whether or not the guest keeps up; a full
 * RX FIFO overruns (LSR.OE) and the character is lost, as on the board.
 * Auto flow control (MCR.AFCE, FIFOs on; docs/uart-and-plic.md from the
 * DW_apb_uart MCR description): with MCR.RTS also set, RTS is deasserted
 * while the RX FIFO is at or above its trigger level; with RTS clear it is
 * deasserted.  The far end stops starting characters while RTS is
 * deasserted, but only while AFCE is set: a far end without flow control
 * is what the chardev is otherwise.  CTS is always asserted (MSR), so
 * auto-CTS never holds the transmitter.
 * With FIFOs off RBR holds one character and a new one overwrites it
 * (LSR.OE: the previous character is destroyed, PC16550D data sheet).
 * The character timeout is 4 character times, in FIFO mode only.
 *
 * "line-baud": if non-zero, the far end runs at this rate and characters
 * received while the UART is programmed more than 2 % away from it arrive
 * with a framing error and wrong data, as they would on a real line.
 *
 * Receive errors are kept per character, as on the 16550 in FIFO mode
 * (PC16550D data sheet, LSR bits 1-4 and 7): PE, FE and BI belong to a
 * character and show in LSR while it is at the top of the RX FIFO (the
 * LSR read clears them), LSR bit 7 is set while any character in the FIFO
 * has one, and OE is set when a character arrives at a full FIFO and is
 * lost.  A break from the chardev (CHR_EVENT_BREAK: the mux's C-a b, a
 * telnet BREAK) is received as one zero character with BI.
 *
 * Error injection, for tests (not on the D1): "inject-fe-every" and
 * "inject-pe-every", if non-zero, give every Nth character received from
 * the line (counted from reset) a framing or a parity error (a parity
 * error only while parity is enabled, LCR.PEN).  "inject-cto-empty-every",
 * if non-zero: after every Nth character read out of the RX FIFO, the
 * first RBR read that leaves the FIFO empty leaves a character-timeout
 * identity behind (IIR = 0xC with LSR.DR = 0, the interrupt asserted while
 * IER.ERBFI is set), which only an RBR read clears: the DW UART state that
 * hardware-facts.md describes ("An RX-timeout IIR with neither LSR.DR nor BI
 * needs one dummy RBR read") and Linux 8250_dw.c handles.  When the board
 * gets into it is not known, so the machine never does so on its own.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "chardev/char-fe.h"
#include "hw/char/dw-apb-uart.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/sysbus.h"
#include "migration/vmstate.h"

#define REG_RBR     0x00
#define REG_IER     0x04
#define REG_IIR     0x08
#define REG_LCR     0x0c
#define REG_MCR     0x10
#define REG_LSR     0x14
#define REG_MSR     0x18
#define REG_SCR     0x1c
#define REG_USR     0x7c
#define REG_TFL     0x80
#define REG_RFL     0x84
#define REG_HALT    0xa4
#define REG_DBG_DLL 0xb0
#define REG_DBG_DLH 0xb4

#define IER_ERBFI   BIT(0)
#define IER_ETBEI   BIT(1)
#define IER_ELSI    BIT(2)
#define IER_MASK    0x8f

#define IIR_NONE    0x1
#define IIR_THRE    0x2
#define IIR_RDA     0x4
#define IIR_RLS     0x6
#define IIR_BUSY    0x7
#define IIR_CTO     0xc
#define IIR_FIFOS   0xc0

#define FCR_FIFOE   BIT(0)
#define FCR_RFIFOR  BIT(1)
#define FCR_XFIFOR  BIT(2)

#define LCR_DLAB    BIT(7)
#define LCR_PEN     BIT(3)
#define LCR_STOP    BIT(2)

#define MCR_LOOP    BIT(4)
#define MCR_RTS     BIT(1)
#define MCR_AFCE    BIT(5)

#define LSR_DR      BIT(0)
#define LSR_OE      BIT(1)
#define LSR_PE      BIT(2)
#define LSR_FE      BIT(3)
#define LSR_BI      BIT(4)
#define LSR_THRE    BIT(5)
#define LSR_TEMT    BIT(6)
#define LSR_ERRS    (LSR_OE | LSR_PE | LSR_FE | LSR_BI)
#define LSR_CHARERR (LSR_PE | LSR_FE | LSR_BI)
#define LSR_FIFOERR BIT(7)

#define USR_BUSY    BIT(0)
#define USR_TFNF    BIT(1)
#define USR_TFE     BIT(2)
#define USR_RFNE    BIT(3)
#define USR_RFF     BIT(4)

#define HALT_TX             BIT(0)
#define HALT_CHCFG_AT_BUSY  BIT(1)
#define HALT_CHANGE_UPDATE  BIT(2)
#define HALT_MASK           0x33

static bool uart_clocked(DwApbUartState *s)
{
    return !s->in_reset && clock_get_hz(s->clk) != 0;
}

static uint32_t uart_depth(DwApbUartState *s)
{
    return (s->fcr & FCR_FIFOE) ? s->fifo_size : 1;
}

static uint32_t uart_divisor(DwApbUartState *s)
{
    return (s->dlh << 8) | s->dll;
}

/* Duration of one character on the line, ns; 0 if the line is stopped. */
static int64_t uart_char_ns(DwApbUartState *s)
{
    uint64_t hz = clock_get_hz(s->clk);
    uint32_t div = uart_divisor(s);
    uint32_t data = 5 + (s->lcr & 3);
    uint32_t half_bits;

    if (!hz || !div) {
        return 0;
    }
    half_bits = 2 * (1 + data + !!(s->lcr & LCR_PEN));
    if (s->lcr & LCR_STOP) {
        half_bits += data == 5 ? 3 : 4;
    } else {
        half_bits += 2;
    }
    return muldiv64(half_bits * 16ull * div, NANOSECONDS_PER_SECOND, 2 * hz);
}

static uint32_t uart_rx_trigger(DwApbUartState *s)
{
    uint32_t depth = uart_depth(s);

    if (!(s->fcr & FCR_FIFOE)) {
        return 1;
    }
    switch ((s->fcr >> 6) & 3) {
    case 0:
        return 1;
    case 1:
        return depth / 4;
    case 2:
        return depth / 2;
    default:
        return depth - 2;
    }
}

static bool uart_busy(DwApbUartState *s)
{
    return s->tx_shifting || s->tx_count || s->rx_shifting || s->rx_count;
}

/* Errors of the character at the top of the RX FIFO, and OE. */
static uint8_t uart_top_err(DwApbUartState *s)
{
    return (s->lsr_err & LSR_OE) |
           (s->rx_count ? s->rx_err[s->rx_head] & LSR_CHARERR : 0);
}

static bool uart_fifo_has_err(DwApbUartState *s)
{
    uint32_t i;

    for (i = 0; i < s->rx_count; i++) {
        if (s->rx_err[(s->rx_head + i) % DW_APB_UART_FIFO_MAX]) {
            return true;
        }
    }
    return false;
}

static uint8_t uart_iid(DwApbUartState *s)
{
    if ((s->ier & IER_ELSI) && uart_top_err(s)) {
        return IIR_RLS;
    }
    if ((s->ier & IER_ERBFI) &&
        ((s->timeout_ipending && s->rx_count) || s->cto_empty)) {
        return IIR_CTO;
    }
    if ((s->ier & IER_ERBFI) && s->rx_count >= uart_rx_trigger(s)) {
        return IIR_RDA;
    }
    if ((s->ier & IER_ETBEI) && s->thr_ipending) {
        return IIR_THRE;
    }
    if (s->busy_ipending) {
        return IIR_BUSY;
    }
    return IIR_NONE;
}

static void uart_update_irq(DwApbUartState *s)
{
    qemu_set_irq(s->irq, uart_iid(s) != IIR_NONE);
}

static void uart_rearm_timeout(DwApbUartState *s)
{
    int64_t ct = uart_char_ns(s);

    /* The character timeout is a FIFO-mode indication */
    if (s->rx_count && ct && (s->fcr & FCR_FIFOE)) {
        timer_mod(&s->timeout_timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + 4 * ct);
    } else {
        timer_del(&s->timeout_timer);
    }
}

static void uart_rx_push(DwApbUartState *s, uint8_t byte, uint8_t err)
{
    uint32_t slot = (s->rx_head + s->rx_count) % DW_APB_UART_FIFO_MAX;

    if (s->rx_count >= uart_depth(s)) {
        s->lsr_err |= LSR_OE;
        s->rx_overruns++;
        if (!(s->fcr & FCR_FIFOE)) {
            /* Non-FIFO mode: the new character overwrites RBR */
            s->rx_fifo[s->rx_head] = byte;
            s->rx_err[s->rx_head] = err & LSR_CHARERR;
        }
    } else {
        s->rx_fifo[slot] = byte;
        s->rx_err[slot] = err & LSR_CHARERR;
        s->rx_count++;
    }
    s->timeout_ipending = false;
    uart_update_irq(s);
    uart_rearm_timeout(s);
}

static void uart_tx_kick(DwApbUartState *s)
{
    int64_t ct;

    if (s->tx_shifting || !s->tx_count || (s->halt & HALT_TX) ||
        !uart_clocked(s)) {
        return;
    }
    ct = uart_char_ns(s);
    if (!ct) {
        return;
    }
    s->tx_shift = s->tx_fifo[s->tx_head];
    s->tx_head = (s->tx_head + 1) % DW_APB_UART_FIFO_MAX;
    s->tx_count--;
    s->tx_shifting = true;
    if (!s->tx_count) {
        s->thr_ipending = true;
    }
    uart_update_irq(s);     /* before timer_mod: see allwinner-d1-timer.c */
    timer_mod(&s->tx_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ct);
}

static void uart_tx_done(void *opaque)
{
    DwApbUartState *s = opaque;

    s->tx_shifting = false;
    if (s->mcr & MCR_LOOP) {
        uart_rx_push(s, s->tx_shift, 0);
    } else {
        /* Blocking write, as QEMU's serial.c does for its chardev. */
        qemu_chr_fe_write_all(&s->chr, &s->tx_shift, 1);
    }
    uart_tx_kick(s);
    uart_update_irq(s);
}

static bool uart_line_mismatch(DwApbUartState *s)
{
    uint64_t hz = clock_get_hz(s->clk);
    uint32_t div = uart_divisor(s);
    uint64_t baud;

    if (!s->line_baud || !div) {
        return false;
    }
    baud = hz / (16ull * div);
    return baud * 100 < s->line_baud * 98ull ||
           baud * 100 > s->line_baud * 102ull;
}

/*
 * Auto-RTS (MCR.AFCE and RTS, FIFOs on): RTS is deasserted while the RX
 * FIFO is at or above its trigger level.  The far end honours RTS only
 * while the UART uses auto flow control (header comment).
 */
static bool uart_rts_stopped(DwApbUartState *s)
{
    return (s->fcr & FCR_FIFOE) && (s->mcr & MCR_AFCE) &&
           (!(s->mcr & MCR_RTS) || s->rx_count >= uart_rx_trigger(s));
}

/* Start receiving the next character on the wire, if there is one. */
static void uart_rx_next(DwApbUartState *s)
{
    int64_t ct = uart_char_ns(s);

    if (!s->rx_line_count || s->rx_shifting || uart_rts_stopped(s)) {
        return;
    }
    if (!uart_clocked(s) || !ct) {
        /* Nobody listens: what is on the wire is lost, as on the board. */
        s->rx_dropped_gated += s->rx_line_count;
        s->rx_line_count = 0;
        return;
    }
    s->rx_shift = s->rx_line[s->rx_line_head];
    s->rx_line_head = (s->rx_line_head + 1) % DW_APB_UART_LINE_MAX;
    s->rx_line_count--;
    s->rx_shifting = true;
    timer_mod(&s->rx_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + ct);
}

static void uart_rx_done(void *opaque)
{
    DwApbUartState *s = opaque;

    uint8_t err = 0;

    s->rx_shifting = false;
    s->rx_chars++;
    if (s->inject_fe_every && s->rx_chars % s->inject_fe_every == 0) {
        err |= LSR_FE;
    }
    if (s->inject_pe_every && s->rx_chars % s->inject_pe_every == 0 &&
        (s->lcr & LCR_PEN)) {
        err |= LSR_PE;
    }
    if (uart_line_mismatch(s)) {
        uart_rx_push(s, ~s->rx_shift, LSR_FE);
    } else {
        uart_rx_push(s, s->rx_shift, err);
    }
    uart_rx_next(s);
    qemu_chr_fe_accept_input(&s->chr);
}

static void uart_event(void *opaque, QEMUChrEvent event)
{
    DwApbUartState *s = opaque;

    if (event != CHR_EVENT_BREAK) {
        return;
    }
    if (!uart_clocked(s) || !uart_char_ns(s)) {
        s->rx_dropped_gated++;
        return;
    }
    s->rx_breaks++;
    uart_rx_push(s, 0, LSR_BI);
}

static void uart_timeout(void *opaque)
{
    DwApbUartState *s = opaque;

    if (s->rx_count) {
        s->timeout_ipending = true;
        uart_update_irq(s);
    }
}

/*
 * The far end's characters are taken from the chardev ahead of time into
 * rx_line[] ("on the wire") and then arrive one per character time, in
 * virtual time, whether or not the guest keeps up.  Reading ahead keeps
 * the arrival times independent of when the host delivers its data.
 */
static int uart_can_receive(void *opaque)
{
    DwApbUartState *s = opaque;

    if (s->mcr & MCR_LOOP) {
        return 0;
    }
    return DW_APB_UART_LINE_MAX - s->rx_line_count;
}

static void uart_receive(void *opaque, const uint8_t *buf, int size)
{
    DwApbUartState *s = opaque;
    int i;

    for (i = 0; i < size && s->rx_line_count < DW_APB_UART_LINE_MAX; i++) {
        s->rx_line[(s->rx_line_head + s->rx_line_count) %
                   DW_APB_UART_LINE_MAX] = buf[i];
        s->rx_line_count++;
    }
    uart_rx_next(s);            /* unless a character is on the way */
}

/* A write to LCR, DLL or DLH: refused while BUSY (see the header). */
static bool uart_line_write_ok(DwApbUartState *s)
{
    if (!uart_busy(s) || (s->halt & HALT_CHCFG_AT_BUSY)) {
        return true;
    }
    s->busy_ipending = true;
    s->busy_writes++;
    uart_update_irq(s);
    return false;
}

static void uart_write_fcr(DwApbUartState *s, uint8_t val)
{
    if ((val ^ s->fcr) & FCR_FIFOE) {
        val |= FCR_RFIFOR | FCR_XFIFOR;
    }
    if (val & FCR_RFIFOR) {
        s->rx_count = 0;
        s->rx_head = 0;
        s->timeout_ipending = false;
        s->cto_empty = false;
        s->cto_empty_due = false;
        timer_del(&s->timeout_timer);
    }
    if (val & FCR_XFIFOR) {
        s->tx_count = 0;
        s->tx_head = 0;
        s->thr_ipending = true;
    }
    s->fcr = val & ~(FCR_RFIFOR | FCR_XFIFOR);
    uart_update_irq(s);
    uart_rx_next(s);            /* the auto-RTS level may have moved */
}

static uint64_t dw_apb_uart_read(void *opaque, hwaddr offset, unsigned size)
{
    DwApbUartState *s = opaque;
    uint8_t v, iid;

    if (!uart_clocked(s)) {
        return 0;
    }
    switch (offset) {
    case REG_RBR:
        if (s->lcr & LCR_DLAB) {
            return s->dll;
        }
        v = 0;
        if (s->rx_count) {
            v = s->rx_fifo[s->rx_head];
            s->rx_head = (s->rx_head + 1) % DW_APB_UART_FIFO_MAX;
            s->rx_count--;
            s->rx_reads++;
            if (s->inject_cto_empty_every &&
                s->rx_reads % s->inject_cto_empty_every == 0) {
                s->cto_empty_due = true;
            }
        }
        s->timeout_ipending = false;
        s->cto_empty = false;
        if (s->cto_empty_due && !s->rx_count) {
            s->cto_empty_due = false;
            s->cto_empty = true;
            s->cto_empty_injected++;
        }
        uart_rx_next(s);        /* below the auto-RTS level again */
        uart_rearm_timeout(s);
        uart_update_irq(s);
        return v;
    case REG_IER:
        return (s->lcr & LCR_DLAB) ? s->dlh : s->ier;
    case REG_IIR:
        iid = uart_iid(s);
        if (iid == IIR_THRE) {
            s->thr_ipending = false;
            uart_update_irq(s);
        }
        return iid | ((s->fcr & FCR_FIFOE) ? IIR_FIFOS : 0);
    case REG_LCR:
        return s->lcr;
    case REG_MCR:
        return s->mcr;
    case REG_LSR:
        v = uart_top_err(s);
        if (uart_fifo_has_err(s)) {
            v |= LSR_FIFOERR;
        }
        if (s->rx_count) {
            v |= LSR_DR;
            s->rx_err[s->rx_head] = 0;  /* cleared by this read */
        }
        if (!s->tx_count) {
            v |= LSR_THRE;
            if (!s->tx_shifting) {
                v |= LSR_TEMT;
            }
        }
        s->lsr_err = 0;
        uart_update_irq(s);
        return v;
    case REG_MSR:
        if (s->mcr & MCR_LOOP) {
            /* DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD */
            return ((s->mcr & 1) << 5) | ((s->mcr & 2) << 3) |
                   ((s->mcr & 4) << 4) | ((s->mcr & 8) << 4);
        }
        return 0xb0;    /* CTS, DSR, DCD asserted by the far end */
    case REG_SCR:
        return s->scr;
    case REG_USR:
        s->busy_ipending = false;
        uart_update_irq(s);
        return (uart_busy(s) ? USR_BUSY : 0) |
               (s->tx_count < uart_depth(s) ? USR_TFNF : 0) |
               (!s->tx_count ? USR_TFE : 0) |
               (s->rx_count ? USR_RFNE : 0) |
               (s->rx_count >= uart_depth(s) ? USR_RFF : 0);
    case REG_TFL:
        return s->tx_count;
    case REG_RFL:
        return s->rx_count;
    case REG_HALT:
        return s->halt;
    case REG_DBG_DLL:
        return s->dll;
    case REG_DBG_DLH:
        return s->dlh;
    }
    qemu_log_mask(LOG_UNIMP, "dw-apb-uart: read of unmodelled offset 0x%"
                  HWADDR_PRIx "\n", offset);
    return 0;
}

static void dw_apb_uart_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    DwApbUartState *s = opaque;
    uint8_t v = value;

    if (!uart_clocked(s)) {
        qemu_log_mask(LOG_GUEST_ERROR, "dw-apb-uart: write 0x%02x to 0x%"
                      HWADDR_PRIx " while gated or in reset (CCU UART_BGR):"
                      " ignored\n", v, offset);
        return;
    }
    switch (offset) {
    case REG_RBR:
        if (s->lcr & LCR_DLAB) {
            if (uart_line_write_ok(s)) {
                s->dll = v;
            }
            return;
        }
        if (s->tx_count >= uart_depth(s)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "dw-apb-uart: THR write with a full TX FIFO: lost\n");
            return;
        }
        s->tx_fifo[(s->tx_head + s->tx_count) % DW_APB_UART_FIFO_MAX] = v;
        s->tx_count++;
        s->thr_ipending = false;
        uart_tx_kick(s);
        uart_update_irq(s);
        return;
    case REG_IER:
        if (s->lcr & LCR_DLAB) {
            if (uart_line_write_ok(s)) {
                s->dlh = v;
            }
            return;
        }
        if ((v & IER_ETBEI) && !(s->ier & IER_ETBEI) && !s->tx_count) {
            s->thr_ipending = true;
        }
        s->ier = v & IER_MASK;
        uart_update_irq(s);
        return;
    case REG_IIR:
        uart_write_fcr(s, v);
        return;
    case REG_LCR:
        if (uart_line_write_ok(s)) {
            s->lcr = v;
            uart_tx_kick(s);
        }
        return;
    case REG_MCR:
        s->mcr = v & 0x7f;
        uart_rx_next(s);        /* auto-RTS may have let the far end go */
        return;
    case REG_SCR:
        s->scr = v;
        return;
    case REG_HALT:
        s->halt = v & HALT_MASK;   /* CHANGE_UPDATE takes effect at once */
        uart_tx_kick(s);
        return;
    case REG_LSR:
    case REG_MSR:
    case REG_USR:
    case REG_TFL:
    case REG_RFL:
    case REG_DBG_DLL:
    case REG_DBG_DLH:
        qemu_log_mask(LOG_GUEST_ERROR, "dw-apb-uart: write to read-only "
                      "offset 0x%" HWADDR_PRIx "\n", offset);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "dw-apb-uart: write of unmodelled offset 0x%"
                  HWADDR_PRIx "\n", offset);
}

static const MemoryRegionOps dw_apb_uart_ops = {
    .read = dw_apb_uart_read,
    .write = dw_apb_uart_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void uart_reset_state(DwApbUartState *s)
{
    timer_del(&s->tx_timer);
    timer_del(&s->rx_timer);
    timer_del(&s->timeout_timer);
    s->ier = 0;
    s->lcr = 0;
    s->mcr = 0;
    s->scr = 0;
    s->dll = 0;
    s->dlh = 0;
    s->fcr = 0;
    s->halt = 0;
    s->lsr_err = 0;
    s->thr_ipending = false;
    s->timeout_ipending = false;
    s->busy_ipending = false;
    s->rx_head = s->rx_count = 0;
    s->rx_chars = 0;
    s->rx_reads = 0;
    s->cto_empty = false;
    s->cto_empty_due = false;
    s->tx_head = s->tx_count = 0;
    s->tx_shifting = false;
    s->rx_shifting = false;
    s->rx_line_head = s->rx_line_count = 0;
    uart_update_irq(s);
}

static void dw_apb_uart_reset(DeviceState *dev)
{
    uart_reset_state(DW_APB_UART(dev));
}

static void dw_apb_uart_reset_in(void *opaque, int n, int level)
{
    DwApbUartState *s = opaque;

    s->in_reset = level;
    if (level) {
        uart_reset_state(s);
    }
}

static void dw_apb_uart_clk_update(void *opaque, ClockEvent event)
{
    DwApbUartState *s = opaque;

    uart_tx_kick(s);
}

static void dw_apb_uart_realize(DeviceState *dev, Error **errp)
{
    DwApbUartState *s = DW_APB_UART(dev);

    if (s->fifo_size < 1 || s->fifo_size > DW_APB_UART_FIFO_MAX) {
        error_setg(errp, "dw-apb-uart: fifo-size must be 1..%d",
                   DW_APB_UART_FIFO_MAX);
        return;
    }
    qemu_chr_fe_set_handlers(&s->chr, uart_can_receive, uart_receive,
                             uart_event, NULL, s, NULL, true);
}

static void dw_apb_uart_init(Object *obj)
{
    DwApbUartState *s = DW_APB_UART(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    memory_region_init_io(&s->iomem, obj, &dw_apb_uart_ops, s,
                          TYPE_DW_APB_UART, DW_APB_UART_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    sysbus_init_irq(sbd, &s->irq);
    s->clk = qdev_init_clock_in(DEVICE(obj), "clk", dw_apb_uart_clk_update,
                                s, ClockUpdate);
    qdev_init_gpio_in_named(DEVICE(obj), dw_apb_uart_reset_in, "reset", 1);
    timer_init_ns(&s->tx_timer, QEMU_CLOCK_VIRTUAL, uart_tx_done, s);
    timer_init_ns(&s->rx_timer, QEMU_CLOCK_VIRTUAL, uart_rx_done, s);
    timer_init_ns(&s->timeout_timer, QEMU_CLOCK_VIRTUAL, uart_timeout, s);
}

static Property dw_apb_uart_properties[] = {
    DEFINE_PROP_CHR("chardev", DwApbUartState, chr),
    DEFINE_PROP_UINT32("fifo-size", DwApbUartState, fifo_size, 64),
    DEFINE_PROP_UINT32("line-baud", DwApbUartState, line_baud, 0),
    DEFINE_PROP_UINT32("inject-fe-every", DwApbUartState, inject_fe_every, 0),
    DEFINE_PROP_UINT32("inject-pe-every", DwApbUartState, inject_pe_every, 0),
    DEFINE_PROP_UINT32("inject-cto-empty-every", DwApbUartState,
                       inject_cto_empty_every, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_dw_apb_uart = {
    .name = "dw-apb-uart",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(ier, DwApbUartState),
        VMSTATE_UINT8(lcr, DwApbUartState),
        VMSTATE_UINT8(mcr, DwApbUartState),
        VMSTATE_UINT8(scr, DwApbUartState),
        VMSTATE_UINT8(dll, DwApbUartState),
        VMSTATE_UINT8(dlh, DwApbUartState),
        VMSTATE_UINT8(fcr, DwApbUartState),
        VMSTATE_UINT8(halt, DwApbUartState),
        VMSTATE_UINT8(lsr_err, DwApbUartState),
        VMSTATE_BOOL(thr_ipending, DwApbUartState),
        VMSTATE_BOOL(timeout_ipending, DwApbUartState),
        VMSTATE_BOOL(busy_ipending, DwApbUartState),
        VMSTATE_BOOL(in_reset, DwApbUartState),
        VMSTATE_UINT8_ARRAY(rx_fifo, DwApbUartState, DW_APB_UART_FIFO_MAX),
        VMSTATE_UINT8_ARRAY(rx_err, DwApbUartState, DW_APB_UART_FIFO_MAX),
        VMSTATE_UINT64(rx_chars, DwApbUartState),
        VMSTATE_UINT64(rx_reads, DwApbUartState),
        VMSTATE_BOOL(cto_empty, DwApbUartState),
        VMSTATE_BOOL(cto_empty_due, DwApbUartState),
        VMSTATE_UINT32(rx_head, DwApbUartState),
        VMSTATE_UINT32(rx_count, DwApbUartState),
        VMSTATE_UINT8_ARRAY(tx_fifo, DwApbUartState, DW_APB_UART_FIFO_MAX),
        VMSTATE_UINT32(tx_head, DwApbUartState),
        VMSTATE_UINT32(tx_count, DwApbUartState),
        VMSTATE_BOOL(tx_shifting, DwApbUartState),
        VMSTATE_UINT8(tx_shift, DwApbUartState),
        VMSTATE_BOOL(rx_shifting, DwApbUartState),
        VMSTATE_UINT8(rx_shift, DwApbUartState),
        VMSTATE_UINT8_ARRAY(rx_line, DwApbUartState, DW_APB_UART_LINE_MAX),
        VMSTATE_UINT32(rx_line_head, DwApbUartState),
        VMSTATE_UINT32(rx_line_count, DwApbUartState),
        VMSTATE_TIMER(tx_timer, DwApbUartState),
        VMSTATE_TIMER(rx_timer, DwApbUartState),
        VMSTATE_TIMER(timeout_timer, DwApbUartState),
        VMSTATE_CLOCK(clk, DwApbUartState),
        VMSTATE_END_OF_LIST()
    }
};

static void dw_apb_uart_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = dw_apb_uart_reset;
    dc->realize = dw_apb_uart_realize;
    dc->vmsd = &vmstate_dw_apb_uart;
    device_class_set_props(dc, dw_apb_uart_properties);
    dc->desc = "Synopsys DesignWare APB UART";
    set_bit(DEVICE_CATEGORY_INPUT, dc->categories);
}

static const TypeInfo dw_apb_uart_info = {
    .name = TYPE_DW_APB_UART,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(DwApbUartState),
    .instance_init = dw_apb_uart_init,
    .class_init = dw_apb_uart_class_init,
};

static void dw_apb_uart_register(void)
{
    type_register_static(&dw_apb_uart_info);
}

type_init(dw_apb_uart_register)
