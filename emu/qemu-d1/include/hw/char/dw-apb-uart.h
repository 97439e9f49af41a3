/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Synopsys DesignWare APB UART (as on the Allwinner D1)
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_CHAR_DW_APB_UART_H
#define HW_CHAR_DW_APB_UART_H

#include "chardev/char-fe.h"
#include "hw/clock.h"
#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_DW_APB_UART "dw-apb-uart"
OBJECT_DECLARE_SIMPLE_TYPE(DwApbUartState, DW_APB_UART)

#define DW_APB_UART_MMIO_SIZE 0x400
#define DW_APB_UART_FIFO_MAX  256
#define DW_APB_UART_LINE_MAX  4096

struct DwApbUartState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    CharBackend chr;
    Clock *clk;
    qemu_irq irq;
    QEMUTimer tx_timer;      /* end of the character being shifted out */
    QEMUTimer rx_timer;      /* end of the character being shifted in */
    QEMUTimer timeout_timer; /* character timeout */

    uint8_t ier, lcr, mcr, scr, dll, dlh, fcr, halt;
    uint8_t lsr_err;         /* OE latched until LSR is read */
    bool thr_ipending;
    bool timeout_ipending;
    bool cto_empty;          /* injected: timeout identity, FIFO empty */
    bool cto_empty_due;      /* injected at the next read that empties */
    bool busy_ipending;
    bool in_reset;

    uint8_t rx_fifo[DW_APB_UART_FIFO_MAX];
    uint8_t rx_err[DW_APB_UART_FIFO_MAX];  /* PE/FE/BI of each character */
    uint32_t rx_head, rx_count;
    uint8_t tx_fifo[DW_APB_UART_FIFO_MAX];
    uint32_t tx_head, tx_count;
    bool tx_shifting;
    uint8_t tx_shift;
    bool rx_shifting;
    uint8_t rx_shift;
    /* characters already on the wire behind the one being received */
    uint8_t rx_line[DW_APB_UART_LINE_MAX];
    uint32_t rx_line_head, rx_line_count;

    /* counters, for the record (HMP "info qtree" shows properties only) */
    uint64_t rx_overruns;
    uint64_t rx_dropped_gated;
    uint64_t busy_writes;
    uint64_t rx_breaks;
    uint64_t rx_chars;       /* characters received from the line */
    uint64_t rx_reads;       /* characters read out of the RX FIFO */
    uint64_t cto_empty_injected;

    /* properties */
    uint32_t fifo_size;
    uint32_t line_baud;      /* 0: the far end follows any baud rate */
    uint32_t inject_fe_every;   /* tests: every Nth character has FE */
    uint32_t inject_pe_every;   /* tests: every Nth character has PE */
    uint32_t inject_cto_empty_every; /* tests: see the device's comment */
};

#endif
