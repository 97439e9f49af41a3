/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Board glue shared by every image: the console UART and the PLIC context of
 * the platform, configured only through the drivers' handles, and the
 * external-interrupt dispatch (trap entry -> d1_plic_isr -> table).
 */
#ifndef BM_BOARD_H
#define BM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/plic.h"
#include "d1/uart.h"

/** The console UART (UART0 on the D1, the ns16550a on QEMU virt). */
extern struct d1_uart bm_uart;
/** The PLIC, context 1 (hart 0 S-mode). */
extern struct d1_plic bm_plic;
/** Counters of d1_plic_isr() on bm_plic. */
extern struct d1_plic_stats bm_plic_stats;

/** Highest priority of the platform's PLIC (7 on QEMU virt, 31 on the D1). */
unsigned bm_plic_prio_max(void);

/**
 * Bring up the console UART: clock gate/reset and rate from the CCU on the
 * D1, 115200 8N1 with FIFOs; console output then goes through d1_uart_putc().
 * Exits with a FAIL line if the driver refuses.
 */
void bm_board_console_init(uint8_t rx_trigger);

/**
 * Wait (bounded, d1_uart_drain()) until the console UART has sent every byte
 * it holds: d1_uart_putc() leaves up to a FIFO of bytes in flight, which a
 * shutdown would cut. Harmless before bm_board_console_init().
 */
void bm_board_console_flush(void);

/**
 * Initialise PLIC context 1 (all sources priority 0 and disabled, threshold
 * @p threshold, delegation checked), install the dispatch as the external
 * interrupt hook and enable sie.SEIE. Global interrupts stay as they are.
 */
void bm_board_plic_init(unsigned threshold);

/** Context-1 threshold found before bm_board_plic_init() lowered it. */
extern uint32_t bm_board_plic_fw_threshold;

/** Attach @p fn to @p source at @p prio and enable it in context 1. */
void bm_board_irq_attach(unsigned source, d1_plic_handler_t fn, void *arg, unsigned prio);

/** The external-interrupt hook: d1_plic_isr() over the board's table. */
void bm_board_dispatch(void);

/** Console byte sink through the UART driver (polled). */
void bm_board_putc(char c);

#endif /* BM_BOARD_H */
