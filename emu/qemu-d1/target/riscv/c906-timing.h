/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cycle model of the T-Head XuanTie C906 for the icount cycle-timing mode
 * (machine allwinner-d1, timing=c906).  The parameters, their values and
 * the public source of each: docs/emulator.md "Timing mode" of d1drivers.
 */
#ifndef RISCV_C906_TIMING_H
#define RISCV_C906_TIMING_H

typedef enum C906Param {
    C906_CLOCK_HZ,
    C906_LOAD_LAT,
    C906_MUL_LAT,
    C906_MUL_SPLIT,
    C906_DIV_BASE,
    C906_DIV_SPECIAL,
    C906_FP_LAT,
    C906_FP_SIMPLE,
    C906_FDIV,
    C906_MISPREDICT,
    C906_CSR,
    C906_FENCE,
    C906_FENCE_I,
    C906_CACHEOP_LINE,
    C906_CACHEOP_ALL,
    C906_TRAP,
    C906_XRET,
    C906_WFI,
    C906_DRAM_NS,
    C906_MMIO_NS,
    C906_JTLB_ENTRIES,
    C906_ICACHE_KIB,
    C906_DCACHE_KIB,
    C906_NPARAMS
} C906Param;

typedef struct C906ParamInfo {
    const char *name;   /* machine property c906-<name> */
    uint32_t def, min, max;
    bool pow2;          /* must be a power of two */
} C906ParamInfo;

extern const C906ParamInfo c906_param_info[C906_NPARAMS];

/* Static schedule of one TB being translated (an in-order scoreboard) */
typedef struct C906Sched {
    uint32_t t;             /* issue cycle of the next insn, from TB start */
    uint32_t ready[64];     /* cycle x0..x31, f0..f31 become ready */
    uint64_t iline;         /* I-cache line of the previous insn, or ~0 */
} C906Sched;

/* What an insn needs at run time besides its static cycles */
enum {
    C906_DYN_NONE,
    C906_DYN_DIV,           /* operand-dependent divide */
    C906_DYN_MUL64,         /* 64-bit multiply, split when operands are wide */
    C906_DYN_DCACHE_ALL,    /* dcache.iall / dcache.ciall */
    C906_DYN_ICACHE_ALL,    /* icache.iall(s), fence.i */
};

bool c906_timing_on(void);
/* @params: C906_NPARAMS values, each already within its range */
void c906_timing_configure(const uint32_t *params);
uint64_t c906_timing_cycles(uint64_t ns);
uint64_t c906_timing_mcycle(int64_t ns);
target_ulong c906_timing_mhcr_reset(void);
void c906_timing_trap(CPURISCVState *env);
void c906_timing_tlb_flush(CPURISCVState *env);

void c906_sched_start(C906Sched *s);
/* The static cycles of @insn (@len 2 or 4) at this point of the TB */
uint32_t c906_sched_insn(C906Sched *s, uint32_t insn, int len, int *dyn);

#endif
