/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bare-metal port: platform constants, trap hooks, console and exit.
 * One code path for QEMU virt and the D1: S-mode under OpenSBI, PLIC
 * context 1, the `time` CSR as the time base.
 */
#ifndef BM_H
#define BM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"

#include "d1/plic.h"

#if defined(BM_PLATFORM_QEMU_VIRT)
/* QEMU hw/riscv/virt.c (v7.2): memory map, IRQ numbers, timebase. */
#define BM_PLATFORM_NAME  "qemu-virt"
#define BM_TIMEBASE_HZ    10000000u                   /* RISCV_ACLINT_DEFAULT_TIMEBASE_FREQ */
#define BM_PLIC_BASE      D1_PLIC_QEMU_VIRT_BASE      /* plic.h: VIRT_PLIC */
#define BM_PLIC_NSOURCES  D1_PLIC_QEMU_VIRT_NSOURCES  /* plic.h: sources 1..95 */
#define BM_PLIC_PRIO_MAX  D1_PLIC_QEMU_VIRT_PRIO_MAX  /* plic_regs.h: 3 bits, 1..7 */
#define BM_UART_BASE      0x10000000u                 /* VIRT_UART0, ns16550a */
#define BM_UART_REG_SHIFT 0u                          /* reg-shift 0, byte registers */
#define BM_UART_IRQ       D1_PLIC_QEMU_VIRT_UART0_IRQ /* plic.h: UART0_IRQ */
#define BM_UART_CLK_HZ    3686400u    /* DT clock-frequency of the virt UART (0x384000) */
#define BM_RTC_BASE       0x00101000u /* VIRT_RTC, goldfish RTC */
#define BM_RTC_IRQ        11u         /* RTC_IRQ */
#define BM_QEMU_TEST_BASE 0x00100000u /* VIRT_TEST: sifive_test finisher */
#elif defined(BM_PLATFORM_D1)
#include "d1/memmap.h"
#define BM_PLATFORM_NAME  "d1"
#define BM_TIMEBASE_HZ    D1_OSC24M_HZ /* the time CSR runs from the 24 MHz OSC24M */
#define BM_PLIC_BASE      D1_PLIC_BASE
#define BM_PLIC_NSOURCES  D1_PLIC_NSOURCES
#define BM_PLIC_PRIO_MAX  D1_PLIC_PRIO_MAX /* plic_regs.h: T-Head C900 PLIC, 5 bits */
#define BM_UART_BASE      D1_UART0_BASE
#define BM_UART_REG_SHIFT 2u /* snps,dw-apb-uart reg-shift = 2 */
#define BM_UART_IRQ       D1_IRQ_UART(0)
#else
#error "define BM_PLATFORM_QEMU_VIRT or BM_PLATFORM_D1"
#endif

#define BM_PLIC_CONTEXT 1u /* hart 0 S-mode, on virt and on the D1 */

/* ---- traps (trap.c) ---- */

/** Handler for the supervisor timer interrupt (STI); NULL = spurious. */
typedef void (*bm_timer_hook_t)(void);
void bm_set_timer_hook(bm_timer_hook_t hook);
/** Handler for the supervisor external interrupt (SEI): claims at the PLIC. */
typedef void (*bm_ext_hook_t)(void);
void bm_set_ext_hook(bm_ext_hook_t hook);
/** Interrupts taken with no hook installed (counted, never ignored). */
uint64_t bm_spurious_traps(void);
/** C trap handler called by start.S; returns the address to resume at
 *  (start.S writes it to sepc: a trap taken inside the handler, such as a
 *  probe's fault, has overwritten the CSR meanwhile). */
uint64_t bm_trap(uint64_t scause, uint64_t sepc, uint64_t stval);
/** From bm_trap(): an access fault on an armed d1_port_probe32() access
 *  (port.c) is recorded and @p *sepc moved past it; true if it was one. */
bool bm_probe_fixup(uint64_t scause, uint64_t *sepc);

/* ---- console (console.c) ---- */

/** Byte sink: the UART driver once it is up, SBI putchar before. */
typedef void (*bm_putc_t)(char c);
/** The sink and what bm_exit() calls to empty it first (NULL: nothing),
 *  handed over by the board: the console never calls the board. */
void bm_console_set(bm_putc_t putc, void (*flush)(void));
void bm_putc(char c);
void bm_puts(const char *s);
/** printf subset: %s %c %d %u %x %%, with l/ll/z and width/0 flags. */
__attribute__((format(printf, 1, 2))) void bm_printf(const char *fmt, ...);
__attribute__((format(printf, 1, 0))) void bm_vprintf(const char *fmt, va_list ap);

/* ---- exit and time ---- */

/** Shut down through SBI SRST, exit status 0 for @p status == 0. */
__attribute__((noreturn)) void bm_exit(int status);
/** Report the error of a library call and exit on failure. */
void bm_check(d1_err_t err, const char *what);
/** Microseconds elapsed between two `time` CSR readings. */
uint64_t bm_time_to_us(uint64_t ticks);
/** d1_port_delay_us() calls that ended early on a stopped `time` CSR. */
extern volatile uint32_t bm_delay_stalls;

/** The application's entry point (a0 = hart id, a1 = DTB under OpenSBI). */
int bm_main(uint64_t a0, uint64_t a1);

#endif /* BM_H */
