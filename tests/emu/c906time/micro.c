/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Micro-programs for the emulated D1's timing mode (-M allwinner-d1,
 * timing=c906; docs/emulator.md "Timing mode"). M-mode, -bios none, loaded
 * at 0x40000000. Each kernel runs its loop n and 2n times and reads mcycle
 * (cycles of the modelled 1.008 GHz clock in that mode) around each run,
 * after one warm-up run; tests/emu/c906_time.py takes the difference, so
 * that the fixed part (mcycle reads, loop entry and exit) cancels, and checks the
 * cycles per loop iteration against the count the documentation fixes.
 * Output on UART0, one line per kernel:
 *   c906time <name> <n> <cycles of n> <2n> <cycles of 2n>
 * then "c906time done"; the test finisher ends QEMU with status 0.
 */
#include <stdint.h>

#define UART0       0x02500000UL
#define TIMER_IRQEN 0x02050000UL
#define FINISHER    0x00100000UL
#define CSR_MHCR    "0x7c1"
#define MHCR_BPE    (1u << 5)

/* DRAM areas the kernels walk, well above the image */
#define STRIDE_BASE 0x41000000UL /* D-cache stride: 1 MiB is plenty */
#define PT_BASE     0x41800000UL /* Sv39 tables: root, L1, 8 x L0 */
#define WALK_VA     0x42000000UL /* 16 MiB mapped VA = PA through them */
#define BARE_BASE   0x43000000UL /* the same walk untranslated */
#define WALK_STRIDE (4096 + 64)  /* a new page and a new line each load */

__asm__(".section .text.start\n"
        ".globl _start\n"
        "_start:\n"
        "  la sp, c906_stack + 8192\n"
        "  call main\n"
        "1: j 1b\n");

uint8_t c906_stack[8192] __attribute__((aligned(16), used));

static volatile uint64_t chase __attribute__((aligned(64)));

static inline void w32(uintptr_t a, uint32_t v)
{
	*(volatile uint32_t *)a = v;
}

static inline uint32_t r32(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static void putc_(char c)
{
	while (!(r32(UART0 + 0x14) & 0x20)) {
	}
	w32(UART0, (uint8_t)c);
}

static void puts_(const char *s)
{
	while (*s) {
		putc_(*s++);
	}
}

static void putu(uint64_t v)
{
	char b[24];
	int i = 0;

	do {
		b[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i) {
		putc_(b[--i]);
	}
}

static inline uint64_t mcycle(void)
{
	uint64_t v;

	__asm__ volatile("csrr %0, mcycle" : "=r"(v));
	return v;
}

/* 64 dependent adds: 1 cycle each */
static uint64_t k_add(uint64_t n)
{
	uint64_t c0, c1, a = 0;

	__asm__ volatile("csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 64\n addi %[a], %[a], 1\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [a] "+r"(a), [n] "+r"(n));
	return c1 - c0;
}

/* 32 loads, each using the last one's result (a pointer that points to itself) */
static uint64_t k_load_use(uint64_t n)
{
	uint64_t c0, c1;
	uintptr_t p = (uintptr_t)&chase;

	chase = (uint64_t)(uintptr_t)&chase;
	__asm__ volatile("csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 32\n ld %[p], 0(%[p])\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [p] "+r"(p), [n] "+r"(n)
	                 :
	                 : "memory");
	return c1 - c0;
}

/*
 * 32 dependent unsigned divides q = 2^40 / q, q alternating 3 and
 * 366503875925 (2^40 / 3): dividend bit 40, divisor bit 1 then bit 38.
 */
static uint64_t k_div(uint64_t n)
{
	uint64_t c0, c1, q = 3, x = 1ull << 40;

	__asm__ volatile("csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 32\n divu %[q], %[x], %[q]\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [q] "+r"(q), [n] "+r"(n)
	                 : [x] "r"(x));
	return c1 - c0;
}

/* 16 taken branches to the next insn, plus the taken loop branch */
static uint64_t k_branch(uint64_t n)
{
	uint64_t c0, c1;

	__asm__ volatile("csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 16\n beq x0, x0, .+4\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [n] "+r"(n));
	return c1 - c0;
}

static uint64_t k_branch_bpe(uint64_t n, int on)
{
	uint64_t mhcr, c;

	__asm__ volatile("csrr %0, " CSR_MHCR : "=r"(mhcr));
	__asm__ volatile("csrw " CSR_MHCR ", %0" : : "r"(on ? mhcr | MHCR_BPE : mhcr & ~MHCR_BPE));
	c = k_branch(n);
	__asm__ volatile("csrw " CSR_MHCR ", %0" : : "r"(mhcr));
	return c;
}

/* 16 loads 64 bytes apart, never used: a D-cache miss each */
static uintptr_t stride_p = STRIDE_BASE;

static uint64_t k_dstride(uint64_t n)
{
	uint64_t c0, c1, t;

	__asm__ volatile(
	        "csrr %[c0], mcycle\n"
	        "1:\n"
	        ".rept 16\n ld %[t], 0(%[p])\n addi %[p], %[p], 64\n .endr\n"
	        "addi %[n], %[n], -1\n"
	        "bnez %[n], 1b\n"
	        "csrr %[c1], mcycle\n"
	        : [c0] "=&r"(c0), [c1] "=&r"(c1), [t] "=&r"(t), [p] "+r"(stride_p), [n] "+r"(n)
	        :
	        : "memory");
	return c1 - c0;
}

/*
 * 8 loads WALK_STRIDE apart (a new page each), under Sv39 through
 * mstatus.MPRV with MPP = S (translated) or not: each translated one
 * misses the TLB and walks three levels.
 */
static uintptr_t walk_p = WALK_VA, bare_p = BARE_BASE;

static uint64_t k_walk(uint64_t n, int translated)
{
	uint64_t c0, c1, t, mprv = translated ? (1ull << 17) : 0;
	uintptr_t *p = translated ? &walk_p : &bare_p;

	__asm__ volatile("csrs mstatus, %[mprv]\n"
	                 "csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 8\n ld %[t], 0(%[p])\n add %[p], %[p], %[s]\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 "csrc mstatus, %[mprv]\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [t] "=&r"(t), [p] "+r"(*p), [n] "+r"(n)
	                 : [s] "r"((uint64_t)WALK_STRIDE), [mprv] "r"(mprv)
	                 : "memory");
	return c1 - c0;
}

static void walk_setup(void)
{
	uint64_t *root = (uint64_t *)PT_BASE;
	uint64_t *l1 = (uint64_t *)(PT_BASE + 0x1000);
	uint64_t *l0 = (uint64_t *)(PT_BASE + 0x2000);
	uint64_t i, mstatus;

	for (i = 0; i < 512 * 10; i++) {
		root[i] = 0;
	}
	root[(WALK_VA >> 30) & 0x1ff] = ((uint64_t)(uintptr_t)l1 >> 12) << 10 | 1;
	for (i = 0; i < 8; i++) {
		l1[((WALK_VA >> 21) & 0x1ff) + i] =
		        ((uint64_t)(uintptr_t)(l0 + 512 * i) >> 12) << 10 | 1;
	}
	for (i = 0; i < 8 * 512; i++) {
		/* V R W A D */
		l0[i] = ((WALK_VA >> 12) + i) << 10 | 0xc7;
	}
	/* one PMP entry opening everything to the translated (S) accesses */
	__asm__ volatile("csrw pmpaddr0, %0\n csrw pmpcfg0, %1" : : "r"(~0ull >> 10), "r"(0x1full));
	__asm__ volatile("csrw satp, %0\n sfence.vma" : : "r"((8ull << 60) | (PT_BASE >> 12)));
	/* MPP = S for MPRV */
	__asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
	mstatus = (mstatus & ~(3ull << 11)) | (1ull << 11);
	__asm__ volatile("csrw mstatus, %0" : : "r"(mstatus));
}

/* 8 MMIO reads of the Timer's IRQ_EN */
static uint64_t k_mmio(uint64_t n)
{
	uint64_t c0, c1, t;

	__asm__ volatile("csrr %[c0], mcycle\n"
	                 "1:\n"
	                 ".rept 8\n lw %[t], 0(%[a])\n .endr\n"
	                 "addi %[n], %[n], -1\n"
	                 "bnez %[n], 1b\n"
	                 "csrr %[c1], mcycle\n"
	                 : [c0] "=&r"(c0), [c1] "=&r"(c1), [t] "=&r"(t), [n] "+r"(n)
	                 : [a] "r"(TIMER_IRQEN)
	                 : "memory");
	return c1 - c0;
}

static void report(const char *name, uint64_t n, uint64_t c1, uint64_t c2)
{
	puts_("c906time ");
	puts_(name);
	putc_(' ');
	putu(n);
	putc_(' ');
	putu(c1);
	putc_(' ');
	putu(2 * n);
	putc_(' ');
	putu(c2);
	puts_("\r\n");
}

/* A warm-up run, then n and 2n: both measured runs start warm */
#define RUN(name, n, expr1, expr2)                                                                 \
	do {                                                                                       \
		uint64_t c1_, c2_;                                                                 \
		(void)(expr1);                                                                     \
		c1_ = (expr1);                                                                     \
		c2_ = (expr2);                                                                     \
		report(name, n, c1_, c2_);                                                         \
	} while (0)

int main(void)
{
	/* UART0 8N1, divisor 1 (1.5 Mbaud at the boot-state 24 MHz) */
	w32(UART0 + 0x0c, 0x83);
	w32(UART0 + 0x00, 1);
	w32(UART0 + 0x04, 0);
	w32(UART0 + 0x0c, 0x03);
	w32(UART0 + 0x08, 0x07);

	RUN("add", 200, k_add(200), k_add(400));
	RUN("load-use", 200, k_load_use(200), k_load_use(400));
	RUN("div", 100, k_div(100), k_div(200));
	RUN("branch-bpe-on", 200, k_branch_bpe(200, 1), k_branch_bpe(400, 1));
	RUN("branch-bpe-off", 200, k_branch_bpe(200, 0), k_branch_bpe(400, 0));
	RUN("dstride", 100, k_dstride(100), k_dstride(200));
	walk_setup();
	RUN("walk-bare", 40, k_walk(40, 0), k_walk(80, 0));
	RUN("walk-sv39", 40, k_walk(40, 1), k_walk(80, 1));
	RUN("mmio", 100, k_mmio(100), k_mmio(200));
	puts_("c906time done\r\n");
	w32(FINISHER, 0x5555);
	for (;;) {
	}
}
