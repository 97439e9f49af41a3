/* SPDX-License-Identifier: Apache-2.0 */
/*
 * S-mode CSR access for the bare-metal port (RISC-V Privileged Spec v1.12,
 * chapter 4: sstatus, sie, sip, stvec, scause; Unprivileged Spec "Zicntr":
 * time, cycle, instret).
 */
#ifndef BM_CSR_H
#define BM_CSR_H

#include <stdint.h>

#define BM_SSTATUS_SIE     (1ull << 1)  /* S-mode global interrupt enable */
#define BM_SSTATUS_SPIE    (1ull << 5)  /* SIE before the trap */
#define BM_SSTATUS_FS      (3ull << 13) /* FPU state: 0 = Off (FP instructions trap) */
#define BM_SIE_SSIE        (1ull << 1)  /* software interrupt enable */
#define BM_SIE_STIE        (1ull << 5)  /* timer interrupt enable */
#define BM_SIE_SEIE        (1ull << 9)  /* external interrupt enable */
#define BM_SIP_SEIP        (1ull << 9)  /* external interrupt pending (read-only in S) */
#define BM_SCAUSE_INT      (1ull << 63) /* interrupt, not exception */
#define BM_IRQ_S_SOFT      1u           /* scause code: supervisor software */
#define BM_IRQ_S_TIMER     5u           /* scause code: supervisor timer */
#define BM_IRQ_S_EXT       9u           /* scause code: supervisor external */
#define BM_EXC_LOAD_FAULT  5u           /* scause code: load access fault */
#define BM_EXC_STORE_FAULT 7u           /* scause code: store/AMO access fault */

#define BM_CSR_READ(name)                                                                          \
	__extension__({                                                                            \
		uint64_t v_;                                                                       \
		__asm__ volatile("csrr %0, " #name : "=r"(v_)::"memory");                          \
		v_;                                                                                \
	})
#define BM_CSR_WRITE(name, val)  __asm__ volatile("csrw " #name ", %0" ::"r"(val) : "memory")
#define BM_CSR_SET(name, bits)   __asm__ volatile("csrs " #name ", %0" ::"r"(bits) : "memory")
#define BM_CSR_CLEAR(name, bits) __asm__ volatile("csrc " #name ", %0" ::"r"(bits) : "memory")

/* The 64-bit `time` CSR (rdtime): 10 MHz on QEMU virt, 24 MHz on the D1. */
static inline uint64_t bm_rdtime(void)
{
	uint64_t v;
	__asm__ volatile("rdtime %0" : "=r"(v)::"memory");
	return v;
}

/* Retired instructions (rdinstret). Under QEMU -icount it counts guest instructions. */
static inline uint64_t bm_rdinstret(void)
{
	uint64_t v;
	__asm__ volatile("rdinstret %0" : "=r"(v)::"memory");
	return v;
}

static inline uint64_t bm_rdcycle(void)
{
	uint64_t v;
	__asm__ volatile("rdcycle %0" : "=r"(v)::"memory");
	return v;
}

static inline void bm_wfi(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

static inline void bm_irq_enable(void)
{
	BM_CSR_SET(sstatus, BM_SSTATUS_SIE);
}

static inline void bm_irq_disable(void)
{
	BM_CSR_CLEAR(sstatus, BM_SSTATUS_SIE);
}

#endif /* BM_CSR_H */
