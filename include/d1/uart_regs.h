/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file uart_regs.h
 * @brief Register map of the D1 UART (Synopsys DesignWare APB UART,
 *        16550-compatible), UARTn at 0x02500000 + 0x400 * n.
 *
 * Sources: D1 User Manual "UART"; d1_unofficial.svd peripheral UART (rbr/thr/
 * dll 0x00, ier/dlh 0x04, iir/fcr 0x08, lcr 0x0C, mcr 0x10, lsr 0x14, msr
 * 0x18, sch 0x1C, usr 0x7C, tfl 0x80, rfl 0x84, halt 0xA4 and their fields);
 * Linux drivers/tty/serial/8250/8250_dw.c (busy-detect IIR 0x7 cleared by
 * reading USR, LCR read-back); the NS16550 data sheet (IIR/LSR semantics).
 *
 * Two forms are given for each register:
 *  - `D1_UART_<REG>`: the register INDEX i. The driver computes the address
 *    as `base + (i << reg_shift)` at run time, so the same code serves the D1
 *    (`reg-shift = 2`, 32-bit accesses) and the QEMU `virt` ns16550a
 *    (`reg-shift = 0`, 8-bit accesses).
 *  - `D1_UART_<REG>_OFFSET`: the byte offset on the D1, i.e. index * 4
 *    (reg-shift 2 only).
 *
 * Registers from USR (index 31) up are DesignWare/Allwinner extras that a
 * plain 16550 does not have.
 */
#ifndef D1_UART_REGS_H
#define D1_UART_REGS_H

/** @defgroup d1_uart_regs UART registers
 * @{ */

/** Byte offset on the D1 (reg-shift 2) of register index @p i. */
#define D1_UART_OFFSET(i) ((i) << 2)

#define D1_UART_RBR  0u  /**< Index: receive buffer (read, DLAB = 0). */
#define D1_UART_THR  0u  /**< Index: transmit holding (write, DLAB = 0). */
#define D1_UART_DLL  0u  /**< Index: divisor latch low (DLAB = 1). */
#define D1_UART_IER  1u  /**< Index: interrupt enable (DLAB = 0). */
#define D1_UART_DLH  1u  /**< Index: divisor latch high (DLAB = 1). */
#define D1_UART_IIR  2u  /**< Index: interrupt identity (read). */
#define D1_UART_FCR  2u  /**< Index: FIFO control (write only). */
#define D1_UART_LCR  3u  /**< Index: line control. */
#define D1_UART_MCR  4u  /**< Index: modem control. */
#define D1_UART_LSR  5u  /**< Index: line status. */
#define D1_UART_MSR  6u  /**< Index: modem status. */
#define D1_UART_SCH  7u  /**< Index: scratch. */
#define D1_UART_USR  31u /**< Index: DW UART status (0x7C). */
#define D1_UART_TFL  32u /**< Index: DW TX FIFO level (0x80). */
#define D1_UART_RFL  33u /**< Index: DW RX FIFO level (0x84). */
#define D1_UART_HALT 41u /**< Index: Allwinner HALT (0xA4). */
/** Index: Allwinner DBG_DLL (0xB0), read-only. Assumed (from its SVD name
 * "Debug DLL"; no description) to read the divisor latch without DLAB. */
#define D1_UART_DBG_DLL 44u
#define D1_UART_DBG_DLH 45u /**< Index: Allwinner DBG_DLH (0xB4), as DBG_DLL. */

#define D1_UART_RBR_OFFSET     D1_UART_OFFSET(D1_UART_RBR)     /**< 0x00 on the D1. */
#define D1_UART_THR_OFFSET     D1_UART_OFFSET(D1_UART_THR)     /**< 0x00 on the D1. */
#define D1_UART_DLL_OFFSET     D1_UART_OFFSET(D1_UART_DLL)     /**< 0x00 on the D1. */
#define D1_UART_IER_OFFSET     D1_UART_OFFSET(D1_UART_IER)     /**< 0x04 on the D1. */
#define D1_UART_DLH_OFFSET     D1_UART_OFFSET(D1_UART_DLH)     /**< 0x04 on the D1. */
#define D1_UART_IIR_OFFSET     D1_UART_OFFSET(D1_UART_IIR)     /**< 0x08 on the D1. */
#define D1_UART_FCR_OFFSET     D1_UART_OFFSET(D1_UART_FCR)     /**< 0x08 on the D1. */
#define D1_UART_LCR_OFFSET     D1_UART_OFFSET(D1_UART_LCR)     /**< 0x0C on the D1. */
#define D1_UART_MCR_OFFSET     D1_UART_OFFSET(D1_UART_MCR)     /**< 0x10 on the D1. */
#define D1_UART_LSR_OFFSET     D1_UART_OFFSET(D1_UART_LSR)     /**< 0x14 on the D1. */
#define D1_UART_MSR_OFFSET     D1_UART_OFFSET(D1_UART_MSR)     /**< 0x18 on the D1. */
#define D1_UART_SCH_OFFSET     D1_UART_OFFSET(D1_UART_SCH)     /**< 0x1C on the D1. */
#define D1_UART_USR_OFFSET     D1_UART_OFFSET(D1_UART_USR)     /**< 0x7C on the D1. */
#define D1_UART_TFL_OFFSET     D1_UART_OFFSET(D1_UART_TFL)     /**< 0x80 on the D1. */
#define D1_UART_RFL_OFFSET     D1_UART_OFFSET(D1_UART_RFL)     /**< 0x84 on the D1. */
#define D1_UART_HALT_OFFSET    D1_UART_OFFSET(D1_UART_HALT)    /**< 0xA4 on the D1. */
#define D1_UART_DBG_DLL_OFFSET D1_UART_OFFSET(D1_UART_DBG_DLL) /**< 0xB0 on the D1. */
#define D1_UART_DBG_DLH_OFFSET D1_UART_OFFSET(D1_UART_DBG_DLH) /**< 0xB4 on the D1. */

/* IER (SVD ier: erbfi 0, etbei 1, elsi 2, edssi 3, ptime 7). */
#define D1_UART_IER_ERBFI_LSB  0u    /**< RX data available / timeout interrupt enable. */
#define D1_UART_IER_ERBFI_BITS 0x01u /**< ERBFI mask. */
#define D1_UART_IER_ETBEI_LSB  1u    /**< TX holding empty interrupt enable. */
#define D1_UART_IER_ETBEI_BITS 0x02u /**< ETBEI mask. */
#define D1_UART_IER_ELSI_LSB   2u    /**< RX line status interrupt enable. */
#define D1_UART_IER_ELSI_BITS  0x04u /**< ELSI mask. */
#define D1_UART_IER_EDSSI_LSB  3u    /**< Modem status interrupt enable. */
#define D1_UART_IER_EDSSI_BITS 0x08u /**< EDSSI mask. */
#define D1_UART_IER_PTIME_LSB  7u    /**< DW programmable THRE mode (left 0). */
#define D1_UART_IER_PTIME_BITS 0x80u /**< PTIME mask. */

/* IIR (SVD iir: iid [3:0], feflag [7:6]); identities from the 16550 data
 * sheet and the DW databook as used by Linux 8250_dw.c. */
#define D1_UART_IIR_IID_LSB     0u    /**< Interrupt identity. */
#define D1_UART_IIR_IID_BITS    0x0Fu /**< IID mask. */
#define D1_UART_IIR_FEFLAG_LSB  6u    /**< FIFOs enabled (both bits set). */
#define D1_UART_IIR_FEFLAG_BITS 0xC0u /**< FEFLAG mask. */
#define D1_UART_IID_MODEM       0x0u  /**< Modem status (cleared by reading MSR). */
#define D1_UART_IID_NONE        0x1u  /**< No interrupt pending. */
#define D1_UART_IID_THRE        0x2u  /**< THR empty (cleared by IIR read or THR write). */
#define D1_UART_IID_RDA         0x4u  /**< RX data at or above the trigger level. */
#define D1_UART_IID_RLS         0x6u  /**< RX line status: OE/PE/FE/BI (cleared by LSR read). */
#define D1_UART_IID_BUSY        0x7u  /**< DW busy detect (cleared by reading USR). */
#define D1_UART_IID_TIMEOUT     0xCu  /**< RX character timeout. */

/* FCR (SVD fcr: fifoe 0, rfifor 1, xfifor 2, dmam 3, tft [5:4], rt [7:6]). */
#define D1_UART_FCR_FIFOE_LSB   0u    /**< FIFO enable. */
#define D1_UART_FCR_FIFOE_BITS  0x01u /**< FIFOE mask. */
#define D1_UART_FCR_RFIFOR_LSB  1u    /**< RX FIFO reset (self-clearing). */
#define D1_UART_FCR_RFIFOR_BITS 0x02u /**< RFIFOR mask. */
#define D1_UART_FCR_XFIFOR_LSB  2u    /**< TX FIFO reset (self-clearing). */
#define D1_UART_FCR_XFIFOR_BITS 0x04u /**< XFIFOR mask. */
#define D1_UART_FCR_DMAM_LSB    3u    /**< DMA mode. */
#define D1_UART_FCR_DMAM_BITS   0x08u /**< DMAM mask. */
#define D1_UART_FCR_TFT_LSB     4u    /**< TX empty trigger (DW, PTIME only): 0 empty .. 3 half. */
#define D1_UART_FCR_TFT_BITS    0x30u /**< TFT mask. */
#define D1_UART_FCR_RT_LSB      6u    /**< RX trigger: 0 one char, 1 1/4, 2 1/2, 3 full - 2. */
#define D1_UART_FCR_RT_BITS     0xC0u /**< RT mask. */

/* LCR (SVD lcr: dls [1:0], stop 2, pen 3, eps [5:4], bc 6, dlab 7). */
#define D1_UART_LCR_DLS_LSB   0u    /**< Data length: 0..3 = 5..8 bits. */
#define D1_UART_LCR_DLS_BITS  0x03u /**< DLS mask. */
#define D1_UART_LCR_STOP_LSB  2u    /**< 0: 1 stop bit; 1: 2 (1.5 with 5 data bits). */
#define D1_UART_LCR_STOP_BITS 0x04u /**< STOP mask. */
#define D1_UART_LCR_PEN_LSB   3u    /**< Parity enable. */
#define D1_UART_LCR_PEN_BITS  0x08u /**< PEN mask. */
#define D1_UART_LCR_EPS_LSB   4u    /**< Even parity select (bit 5: stick parity, left 0). */
#define D1_UART_LCR_EPS_BITS  0x30u /**< EPS mask (2 bits in the SVD). */
#define D1_UART_LCR_BC_LSB    6u    /**< Break control. */
#define D1_UART_LCR_BC_BITS   0x40u /**< BC mask. */
#define D1_UART_LCR_DLAB_LSB  7u    /**< Divisor latch access. */
#define D1_UART_LCR_DLAB_BITS 0x80u /**< DLAB mask. */

/* MCR (SVD mcr: dtr 0, rts 1, loop 4, afce 5; auto flow control semantics
 * and sources: docs/uart-and-plic.md). */
#define D1_UART_MCR_DTR_BITS  0x01u /**< DTR. */
#define D1_UART_MCR_RTS_BITS  0x02u /**< RTS (and auto-RTS enable with AFCE). */
#define D1_UART_MCR_LOOP_BITS 0x10u /**< Loopback. */
#define D1_UART_MCR_AFCE_BITS 0x20u /**< Auto flow control enable (DW, FIFOs on). */

/* LSR (SVD lsr: dr 0, oe 1, pe 2, fe 3, bi 4, thre 5, temt 6, fifoerr 7). */
#define D1_UART_LSR_DR_LSB       0u    /**< Data ready. */
#define D1_UART_LSR_DR_BITS      0x01u /**< DR mask. */
#define D1_UART_LSR_OE_LSB       1u    /**< Overrun (cleared by LSR read). */
#define D1_UART_LSR_OE_BITS      0x02u /**< OE mask. */
#define D1_UART_LSR_PE_LSB       2u    /**< Parity error of the char at the FIFO top. */
#define D1_UART_LSR_PE_BITS      0x04u /**< PE mask. */
#define D1_UART_LSR_FE_LSB       3u    /**< Framing error of the char at the FIFO top. */
#define D1_UART_LSR_FE_BITS      0x08u /**< FE mask. */
#define D1_UART_LSR_BI_LSB       4u    /**< Break of the char at the FIFO top. */
#define D1_UART_LSR_BI_BITS      0x10u /**< BI mask. */
#define D1_UART_LSR_THRE_LSB     5u    /**< THR (FIFO mode: TX FIFO) empty. */
#define D1_UART_LSR_THRE_BITS    0x20u /**< THRE mask. */
#define D1_UART_LSR_TEMT_LSB     6u    /**< Transmitter empty (FIFO and shifter). */
#define D1_UART_LSR_TEMT_BITS    0x40u /**< TEMT mask. */
#define D1_UART_LSR_FIFOERR_LSB  7u    /**< At least one PE/FE/BI char in the RX FIFO. */
#define D1_UART_LSR_FIFOERR_BITS 0x80u /**< FIFOERR mask. */

/* USR (SVD usr: busy 0, tfnf 1, tfe 2, rfne 3, rff 4; TFNF is used with
 * FIFOs on only: docs/uart-and-plic.md). */
#define D1_UART_USR_BUSY_LSB  0u    /**< Serial transfer in progress; LCR/DLL/DLH writes ignored. */
#define D1_UART_USR_BUSY_BITS 0x01u /**< BUSY mask. */
#define D1_UART_USR_TFNF_BITS 0x02u /**< TX FIFO not full. */
#define D1_UART_USR_TFE_BITS  0x04u /**< TX FIFO empty. */
#define D1_UART_USR_RFNE_BITS 0x08u /**< RX FIFO not empty. */
#define D1_UART_USR_RFF_BITS  0x10u /**< RX FIFO full. */

/* RFL / TFL (SVD: 9-bit level fields). */
#define D1_UART_RFL_RFL_LSB  0u     /**< RX FIFO level. */
#define D1_UART_RFL_RFL_BITS 0x1FFu /**< RFL mask. */
#define D1_UART_TFL_TFL_LSB  0u     /**< TX FIFO level. */
#define D1_UART_TFL_TFL_BITS 0x1FFu /**< TFL mask. */

/* HALT (SVD halt: halt_tx 0, chcfg_at_busy 1, change_update 2). Not used by
 * the driver (it waits for BUSY = 0 instead); listed for completeness. */
#define D1_UART_HALT_HALT_TX_BITS       0x01u /**< Halt TX. */
#define D1_UART_HALT_CHCFG_AT_BUSY_BITS 0x02u /**< Allow LCR/DLL/DLH change while busy. */
#define D1_UART_HALT_CHANGE_UPDATE_BITS 0x04u /**< Apply the change (self-clearing). */

#define D1_UART_FIFO_DEPTH 64u /**< RX/TX FIFO depth on the D1 (manual). */
/** @} */

#endif /* D1_UART_REGS_H */
