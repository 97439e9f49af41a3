/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Boot test of the C906 extensions of patches/0003 on -M allwinner-d1
 * (run by t_xthead.py with -bios none: this image starts in M-mode at
 * 0x40000000). Prints one line per check to UART0, "xthead: done" last.
 */
#include <stdint.h>

#define UART0  0x02500000UL
#define MXSTATUS_MAEE       (1UL << 21)
#define MXSTATUS_THEADISAEE (1UL << 22)

/* trap.S's M-mode handler: the cause of the last trap; a trap with
 * resume_pc set returns there in M-mode (mepc += 4 otherwise). */
extern volatile uint64_t last_cause;
extern volatile uint64_t resume_pc;
extern void s_entry(void);
extern void s_returned(void);
void trap_init(void);

static uint64_t pt_root[512] __attribute__((aligned(4096)));

static void putc_(char c)
{
    volatile uint32_t *u = (volatile uint32_t *)UART0;
    while (!(u[0x14 / 4] & 0x20)) {
    }
    u[0] = (uint32_t)c;
}

static void puts_(const char *s)
{
    while (*s) {
        putc_(*s++);
    }
}

static void puthex(uint64_t v)
{
    puts_("0x");
    for (int i = 60; i >= 0; i -= 4) {
        putc_("0123456789abcdef"[(v >> i) & 15]);
    }
}

#define CSRR(n) ({ uint64_t v_; __asm__ volatile("csrr %0, " #n : "=r"(v_)); v_; })
#define CSRW(n, v) __asm__ volatile("csrw " #n ", %0" :: "r"(v))
#define CSRS(n, v) __asm__ volatile("csrs " #n ", %0" :: "r"(v))
#define CSRC(n, v) __asm__ volatile("csrc " #n ", %0" :: "r"(v))

/* XTheadCmo / XTheadSync encodings (T-Head thead-extension-spec). */
static void th_ops(void)
{
    register uint64_t a0 __asm__("a0") = 0x40000000UL;
    register uint64_t a1 __asm__("a1") = 0;
    __asm__ volatile(".word 0x0010000b\n"   /* dcache.call */
                     ".word 0x0030000b\n"   /* dcache.ciall */
                     ".word 0x0020000b\n"   /* dcache.iall */
                     ".word 0x0295000b\n"   /* dcache.cpa a0 */
                     ".word 0x0255000b\n"   /* dcache.cva a0 */
                     ".word 0x0275000b\n"   /* dcache.civa a0 */
                     ".word 0x0265000b\n"   /* dcache.iva a0 */
                     ".word 0x0245000b\n"   /* dcache.cval1 a0 */
                     ".word 0x0100000b\n"   /* icache.iall */
                     ".word 0x0305000b\n"   /* icache.iva a0 */
                     ".word 0x0180000b\n"   /* sync */
                     ".word 0x0190000b\n"   /* sync.s */
                     ".word 0x01a0000b\n"   /* sync.i */
                     ".word 0x01b0000b\n"   /* sync.is */
                     ".word 0x04b5000b\n"   /* sfence.vmas a0, a1 */
                     :: "r"(a0), "r"(a1) : "memory");
}

/* Run s_entry in S-mode with Sv39 on; it returns by ecall (cause 9). */
static uint64_t run_s_mode(void)
{
    /* PMP: S-mode may access everything (one NAPOT entry, RWX). */
    CSRW(pmpaddr0, ~0UL >> 10);
    CSRW(pmpcfg0, 0x1fUL);
    last_cause = ~0UL;
    resume_pc = (uint64_t)s_returned;
    CSRW(satp, (8UL << 60) | ((uint64_t)pt_root >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
    CSRC(mstatus, 3UL << 11);
    CSRS(mstatus, 1UL << 11); /* MPP = S */
    CSRW(mepc, (uint64_t)s_entry);
    __asm__ volatile("mret\n.globl s_returned\ns_returned:" ::: "memory");
    CSRW(satp, 0);
    return last_cause;
}

void main_c(void)
{
    uint64_t mx, v;

    trap_init();
    /* UART0 (gated on at reset by the machine, as boot0 leaves it):
     * 115,200 8N1 from the 24 MHz APB1 (divisor 13). */
    ((volatile uint32_t *)UART0)[0x0c / 4] = 0x83;
    ((volatile uint32_t *)UART0)[0x00 / 4] = 13;
    ((volatile uint32_t *)UART0)[0x04 / 4] = 0;
    ((volatile uint32_t *)UART0)[0x0c / 4] = 0x03;
    mx = CSRR(0x7c0);
    puts_("xthead: mxstatus ");
    puthex(mx);
    puts_(mx == (0x638000UL | (3UL << 30)) ? " ok\n" : " FAIL (expected 0xc0638000)\n");

    CSRW(0x7c1, 0x17fUL);
    v = CSRR(0x7c1);
    puts_("xthead: mhcr ");
    puthex(v);
    puts_(v == 0x17f ? " ok\n" : " FAIL\n");
    CSRW(0x7c2, 0x33UL);
    v = CSRR(0x7c2);
    puts_(v == 0 ? "xthead: mcor reads 0 after an operation ok\n" : "xthead: mcor FAIL\n");

    last_cause = ~0UL;
    th_ops();
    puts_(last_cause == ~0UL ? "xthead: XTheadCmo/XTheadSync execute ok\n"
                             : "xthead: XTheadCmo/XTheadSync FAIL (trapped)\n");

    /* Sv39: 0..1 GiB strongly ordered (UART), 1..2 GiB cacheable RAM, with
     * MAEE attributes in bits 63..59 (SO = 63; C 62, B 61, SH 60). */
    pt_root[0] = (1UL << 63) | (0UL << 10) | 0xcf;          /* SO, DAGXWRV */
    pt_root[1] = (7UL << 60) | ((0x40000000UL >> 12) << 10) | 0xcf;
    v = run_s_mode();
    puts_("xthead: MAEE on, attribute bits in PTEs: S-mode ran, cause ");
    puthex(v);
    puts_(v == 9 ? " ok\n" : " FAIL (expected 9: ecall from S)\n");

    CSRC(0x7c0, MXSTATUS_MAEE);
    v = run_s_mode();
    puts_("xthead: MAEE off, same PTEs: cause ");
    puthex(v);
    puts_(v == 12 ? " ok (instruction page fault)\n" : " FAIL (expected 12)\n");
    CSRS(0x7c0, MXSTATUS_MAEE);

    CSRC(0x7c0, MXSTATUS_THEADISAEE);
    last_cause = ~0UL;
    resume_pc = 0;
    __asm__ volatile(".word 0x0010000b" ::: "memory"); /* dcache.call */
    puts_("xthead: THEADISAEE off: dcache.call cause ");
    puthex(last_cause);
    puts_(last_cause == 2 ? " ok (illegal instruction)\n" : " FAIL (expected 2)\n");
    CSRS(0x7c0, MXSTATUS_THEADISAEE);

    v = CSRR(mvendorid);
    puts_("xthead: mvendorid ");
    puthex(v);
    puts_("\nxthead: done\n");
    for (;;) {
        __asm__ volatile("wfi");
    }
}
