/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cycle model of the T-Head XuanTie C906 for the icount cycle-timing mode
 * of the allwinner-d1 machine (timing=c906).
 *
 * Virtual time advances by modelled cycles at the configured clock:
 * - every insn costs its static cycles, scheduled at translation time by an
 *   in-order single-issue scoreboard per TB (issue one insn per cycle, wait
 *   for source registers, blocking units occupy the issue slot);
 * - run-time costs are charged by helpers: operand-dependent divide and
 *   64-bit multiply (openC906 aq_iu_div.v, aq_iu_div_shift2_kernel.v,
 *   aq_iu_mul.v), the branch direction predictor (aq_ifu_bht.v: 2-bit
 *   counters indexed by global history only), the L1 I- and D-caches
 *   (2-way / 4-way, 64-byte lines, FIFO replacement), a joint TLB with a
 *   hardware page walk whose PTE reads go through the D-cache, trap entry;
 *   MMIO latency is charged by the softmmu I/O path.
 * Each parameter's value and its public source (or "estimate" with a
 * range): d1drivers docs/emulator.md "Timing mode".
 *
 * One hart: the model state is global.
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "cpu.h"
#include "exec/exec-all.h"
#include "exec/helper-proto.h"
#include "exec/cpu_ldst.h"
#include "sysemu/cpu-timers.h"
#include "c906-timing.h"

const C906ParamInfo c906_param_info[C906_NPARAMS] = {
    [C906_CLOCK_HZ]     = { "clock-hz", 1008000000, 24000000, 2000000000 },
    [C906_LOAD_LAT]     = { "load-latency", 3, 2, 3 },
    [C906_MUL_LAT]      = { "mul-latency", 3, 3, 3 },
    [C906_MUL_SPLIT]    = { "mul-split", 3, 3, 3 },
    [C906_DIV_BASE]     = { "div-base", 5, 5, 5 },
    [C906_DIV_SPECIAL]  = { "div-special", 2, 2, 2 },
    [C906_FP_LAT]       = { "fp-latency", 4, 3, 5 },
    [C906_FP_SIMPLE]    = { "fp-simple", 2, 1, 3 },
    [C906_FDIV]         = { "fdiv", 20, 10, 60 },
    [C906_MISPREDICT]   = { "mispredict", 3, 2, 6 },
    [C906_CSR]          = { "csr", 3, 1, 10 },
    [C906_FENCE]        = { "fence", 4, 1, 20 },
    [C906_FENCE_I]      = { "fence-i", 10, 4, 50 },
    [C906_CACHEOP_LINE] = { "cacheop-line", 4, 1, 20 },
    [C906_CACHEOP_ALL]  = { "cacheop-all", 512, 128, 2048 },
    [C906_TRAP]         = { "trap", 5, 3, 10 },
    [C906_XRET]         = { "xret", 5, 3, 10 },
    [C906_WFI]          = { "wfi", 1, 1, 10 },
    [C906_DRAM_NS]      = { "dram-ns", 120, 60, 300 },
    [C906_MMIO_NS]      = { "mmio-ns", 100, 40, 400 },
    [C906_JTLB_ENTRIES] = { "jtlb-entries", 128, 64, 512, true },
    [C906_ICACHE_KIB]   = { "icache-kib", 32, 8, 64, true },
    [C906_DCACHE_KIB]   = { "dcache-kib", 32, 8, 64, true },
};

#define LINE_SHIFT      6           /* 64-byte lines */
#define IC_WAYS         2
#define DC_WAYS         4
#define MAX_SETS        ((64 * 1024) >> LINE_SHIFT)
#define JTLB_WAYS       4
#define BHT_COUNTERS    8192        /* 1024 x 16 bits, 8 counters a row */

/* The mhcr bits the model honours (XuanTie C906 mhcr; boot0 dcache_enable) */
#define MHCR_IE         (1u << 0)
#define MHCR_DE         (1u << 1)
#define MHCR_BPE        (1u << 5)
#define MHCR_BOOT       0x11ffu     /* what the D1's boot chain writes */

typedef struct Cache {
    unsigned sets, ways;
    uint64_t last;                      /* line last accessed + 1: a hit */
    uint64_t tag[MAX_SETS][DC_WAYS];    /* line address + 1; 0 = invalid */
    uint8_t next[MAX_SETS];             /* FIFO victim */
} Cache;

typedef struct TlbEntry {
    uint64_t tag;                       /* (va >> page shift) + 1, 0: free */
    uint64_t ppn;                       /* physical page of the mapping */
    uint64_t satp;
    uint8_t level;                      /* 0: 4 KiB, 1: 2 MiB, 2: 1 GiB */
} TlbEntry;

static struct {
    bool on;
    uint32_t p[C906_NPARAMS];
    uint64_t dram_cycles;
    Cache ic, dc;
    unsigned jtlb_sets;
    TlbEntry jtlb[128][JTLB_WAYS];
    uint8_t jtlb_next[128];
    uint8_t bht[BHT_COUNTERS];
    uint32_t ghr;
    uint64_t div_buf[2];                /* operands of the last divide */
    uint32_t div_buf_what;              /* its signed/word bits, 0: none */
} m;

bool c906_timing_on(void)
{
    return m.on;
}

uint64_t c906_timing_mcycle(int64_t ns)
{
    return muldiv64(MAX(ns, 0), m.p[C906_CLOCK_HZ], 1000000000u);
}

uint64_t c906_timing_cycles(uint64_t ns)
{
    /* the fewest whole cycles that take at least @ns */
    return DIV_ROUND_UP(ns * (uint64_t)m.p[C906_CLOCK_HZ], 1000000000ull);
}

static void cache_init(Cache *c, unsigned kib, unsigned ways)
{
    c->ways = ways;
    c->sets = (kib * 1024) >> LINE_SHIFT;
    c->sets /= ways;
    c->last = 0;
    memset(c->tag, 0, sizeof(c->tag));
    memset(c->next, 0, sizeof(c->next));
}

void c906_timing_configure(const uint32_t *params)
{
    memcpy(m.p, params, sizeof(m.p));
    m.dram_cycles = c906_timing_cycles(m.p[C906_DRAM_NS]);
    cache_init(&m.ic, m.p[C906_ICACHE_KIB], IC_WAYS);
    cache_init(&m.dc, m.p[C906_DCACHE_KIB], DC_WAYS);
    m.jtlb_sets = m.p[C906_JTLB_ENTRIES] / JTLB_WAYS;
    memset(m.jtlb, 0, sizeof(m.jtlb));
    memset(m.bht, 0, sizeof(m.bht));
    m.ghr = 0;
    icount_timing_enable(m.p[C906_CLOCK_HZ]);
    icount_timing_set_io_cost(c906_timing_cycles(m.p[C906_MMIO_NS]));
    m.on = true;
}

target_ulong c906_timing_mhcr_reset(void)
{
    return m.on ? MHCR_BOOT : 0;
}

static void charge(CPURISCVState *env, uint64_t cycles)
{
    if (cycles) {
        icount_timing_charge(env_cpu(env), cycles);
    }
}

/* true on a hit; a miss allocates the line when @alloc */
/*
 * true on a hit; a miss allocates the line.  The sets are a power of two
 * (the sizes are).  The line accessed last is still there (only a miss
 * replaces, and it would have been this access): a hit without the search.
 */
static bool cache_access(Cache *c, uint64_t pa)
{
    uint64_t line = pa >> LINE_SHIFT;
    unsigned set = line & (c->sets - 1), w;

    if (c->last == line + 1) {
        return true;
    }
    c->last = line + 1;
    for (w = 0; w < c->ways; w++) {
        if (c->tag[set][w] == line + 1) {
            return true;
        }
    }
    c->tag[set][c->next[set]] = line + 1;
    c->next[set] = (c->next[set] + 1) & (c->ways - 1);
    return false;
}

static void cache_flush(Cache *c)
{
    c->last = 0;
    memset(c->tag, 0, sizeof(c->tag));
    memset(c->next, 0, sizeof(c->next));
}

/* DRAM is the only cacheable memory of the D1's map */
static bool cacheable(uint64_t pa)
{
    return pa >= 0x40000000ull && pa < 0xC0000000ull;
}

/* A D-side read of @pa (a load or a page-table read) */
static void dread(CPURISCVState *env, uint64_t pa)
{
    if (!cacheable(pa)) {
        return;
    }
    if (!(env->th_mhcr & MHCR_DE)) {
        charge(env, m.dram_cycles);
    } else if (!cache_access(&m.dc, pa)) {
        charge(env, m.dram_cycles);
    }
}

void c906_timing_tlb_flush(CPURISCVState *env)
{
    memset(m.jtlb, 0, sizeof(m.jtlb));
    memset(m.jtlb_next, 0, sizeof(m.jtlb_next));
}

/*
 * Translate @va for @access (MMU_DATA_LOAD/STORE or MMU_INST_FETCH) as the
 * C906's joint TLB would: a hit costs nothing, a miss walks the page table
 * in memory, each PTE read a D-side read.  Returns false when the address
 * is not translated by the model (bare mode, or a walk that ends in an
 * invalid PTE: the access itself faults).
 */
static bool translate(CPURISCVState *env, uint64_t va, int access,
                      uint64_t *pa)
{
    CPUState *cs;
    target_ulong mode = env->priv;
    uint64_t satp = env->satp, base;
    int levels, lvl;
    unsigned set, w;

    if (likely(!(satp >> 60))) {
        *pa = va;                       /* bare (satp.MODE = 0) */
        return true;
    }
    cs = env_cpu(env);
    if (access != MMU_INST_FETCH && mode == PRV_M &&
        get_field(env->mstatus, MSTATUS_MPRV)) {
        mode = get_field(env->mstatus, MSTATUS_MPP);
    }
    switch (get_field(satp, SATP64_MODE)) {
    case VM_1_10_SV39:
        levels = 3;
        break;
    case VM_1_10_SV48:
        levels = 4;
        break;
    case VM_1_10_SV57:
        levels = 5;
        break;
    default:
        levels = 0;
        break;
    }
    if (mode == PRV_M || levels == 0) {
        *pa = va;
        return true;
    }
    for (lvl = 0; lvl < 3; lvl++) {
        uint64_t tag = (va >> (12 + 9 * lvl)) + 1;

        set = (tag - 1) & (m.jtlb_sets - 1);
        for (w = 0; w < JTLB_WAYS; w++) {
            TlbEntry *e = &m.jtlb[set][w];

            if (e->tag == tag && e->level == lvl && e->satp == satp) {
                *pa = (e->ppn << 12) |
                      (va & ((1ull << (12 + 9 * lvl)) - 1));
                return true;
            }
        }
    }
    /* page walk */
    base = (satp & SATP64_PPN) << 12;
    for (lvl = levels - 1; lvl >= 0; lvl--) {
        uint64_t pte_addr = base + ((va >> (12 + 9 * lvl)) & 0x1ff) * 8;
        uint64_t pte, ppn, mask;
        TlbEntry *e;

        dread(env, pte_addr);
        pte = ldq_phys(cs->as, pte_addr);
        if (!(pte & PTE_V)) {
            return false;
        }
        ppn = (pte >> 10) & ((1ull << 44) - 1);
        if (!(pte & (PTE_R | PTE_X))) {
            base = ppn << 12;
            continue;
        }
        if (lvl > 2) {
            return false;       /* no C906 page size: not cached */
        }
        mask = (1ull << (12 + 9 * lvl)) - 1;
        *pa = ((ppn << 12) & ~mask) | (va & mask);
        set = (va >> (12 + 9 * lvl)) & (m.jtlb_sets - 1);
        e = &m.jtlb[set][m.jtlb_next[set]];
        m.jtlb_next[set] = (m.jtlb_next[set] + 1) & (JTLB_WAYS - 1);
        e->tag = (va >> (12 + 9 * lvl)) + 1;
        e->ppn = (*pa & ~mask) >> 12;
        e->satp = satp;
        e->level = lvl;
        return true;
    }
    return false;
}

void c906_timing_trap(CPURISCVState *env)
{
    if (m.on) {
        charge(env, m.p[C906_TRAP]);
    }
}

/* Before a load, store or AMO: @kind 0 load, 1 store, 2 AMO */
void helper_c906_mem(CPURISCVState *env, target_ulong va, uint32_t kind)
{
    uint64_t pa;

    if (!translate(env, va, kind == 1 ? MMU_DATA_STORE : MMU_DATA_LOAD,
                   &pa) || !cacheable(pa)) {
        return;
    }
    if (kind == 1) {
        /*
         * Write-back cache without write-allocate: a store hit updates the
         * line, a store miss goes to the bus through the store buffer
         * without stalling the pipeline.
         */
        return;
    }
    dread(env, pa);
}

/* At the first insn of each I-cache line in a TB */
void helper_c906_ifetch(CPURISCVState *env, target_ulong va)
{
    uint64_t pa;

    if (!translate(env, va, MMU_INST_FETCH, &pa) || !cacheable(pa)) {
        return;
    }
    if (!(env->th_mhcr & MHCR_IE) || !cache_access(&m.ic, pa)) {
        charge(env, m.dram_cycles);
    }
}

/* A conditional branch resolved @taken: predict with the BHT, then update */
void helper_c906_branch(CPURISCVState *env, uint32_t taken)
{
    unsigned idx = (((m.ghr >> 2) & 0x3ff) << 3) | (m.ghr & 7);
    uint8_t *ctr = &m.bht[idx];
    bool pred = (env->th_mhcr & MHCR_BPE) && *ctr >= 2;

    if (pred != !!taken) {
        charge(env, m.p[C906_MISPREDICT]);
    }
    if (env->th_mhcr & MHCR_BPE) {
        if (taken && *ctr < 3) {
            (*ctr)++;
        } else if (!taken && *ctr > 0) {
            (*ctr)--;
        }
        m.ghr = ((m.ghr << 1) | !!taken) & 0x3fff;
    }
}

/* Highest set bit of |v| as the divider's find-first-one sees it */
static int ff1(uint64_t v)
{
    return v ? 63 - clz64(v) : 0;
}

/*
 * Before a divide or a 64-bit multiply: charge the cycles beyond the one
 * the static schedule gave it.  @what: C906_DYN_DIV | (signed << 8) |
 * (word << 9), or C906_DYN_MUL64 | (src0 signed << 8) | (src1 signed << 9).
 */
void helper_c906_muldiv(CPURISCVState *env, target_ulong a, target_ulong b,
                        uint32_t what)
{
    bool sgn = what & 0x100, word = what & 0x200;
    uint64_t x = a, y = b;

    if ((what & 0xff) == C906_DYN_MUL64) {
        /* aq_iu_mul.v: no split when both high halves are sign/zero ext */
        bool s0 = what & 0x100, s1 = what & 0x200;
        bool h0 = (x >> 32) == 0 || ((x >> 32) == 0xffffffffu && s0);
        bool h1 = (y >> 32) == 0 || ((y >> 32) == 0xffffffffu && s1);

        if (!(h0 && h1)) {
            charge(env, m.p[C906_MUL_SPLIT]);
        }
        return;
    }
    if (word) {
        x = sgn ? (uint64_t)(int64_t)(int32_t)x : (uint32_t)x;
        y = sgn ? (uint64_t)(int64_t)(int32_t)y : (uint32_t)y;
    }
    /* aq_iu_div.v: the same operands as the last divide hit its buffer */
    if (m.div_buf_what == (what | 1) && m.div_buf[0] == x &&
        m.div_buf[1] == y) {
        charge(env, m.p[C906_DIV_SPECIAL] - 1);
        return;
    }
    m.div_buf_what = what | 1;
    m.div_buf[0] = x;
    m.div_buf[1] = y;
    if (x == 0 || y == 0 ||
        (sgn && y == UINT64_MAX &&
         x == (word ? 0xffffffff80000000ull : 0x8000000000000000ull))) {
        /* aq_iu_div.v: dividend 0, divisor 0 or overflow, done in EX1 */
        charge(env, m.p[C906_DIV_SPECIAL] - 1);
        return;
    }
    if (sgn && (int64_t)x < 0) {
        x = -x;
    }
    if (sgn && (int64_t)y < 0) {
        y = -y;
    }
    /*
     * aq_iu_div.v states WFI2, ALIGN, ITER, CMPLT after EX1; the 2-bit
     * kernel iterates (ff1(dividend) - ff1(divisor)) / 2 + 1 times.
     */
    {
        int d = ff1(x) - ff1(y);
        uint32_t cyc = m.p[C906_DIV_BASE] + (d > 0 ? d / 2 : 0);

        charge(env, cyc - 1);
    }
}

/* dcache.iall / dcache.ciall, icache.iall(s), fence.i, sync.i */
void helper_c906_cacheop(CPURISCVState *env, uint32_t what)
{
    if (what == C906_DYN_DCACHE_ALL) {
        cache_flush(&m.dc);
    } else {
        cache_flush(&m.ic);
    }
}

/* ---------------------------------------------------------------- static */

enum {
    K_ALU, K_LOAD, K_STORE, K_AMO, K_MUL, K_DIV, K_FP, K_FPS, K_FDIV,
    K_BRANCH, K_JAL, K_JALR, K_CSR, K_ECALL, K_XRET, K_WFI, K_SFENCE,
    K_FENCE, K_FENCE_I, K_CACHE_LINE, K_CACHE_ALL, K_SYNC, K_OTHER,
};

typedef struct Decoded {
    int kind;
    int rd;                 /* 0: none; 1..31 x; 32..63 f */
    int src[3];             /* 0: none */
} Decoded;

#define F(r) (32 + ((r) & 31))

static void set(Decoded *d, int kind, int rd, int s0, int s1, int s2)
{
    d->kind = kind;
    d->rd = rd;
    d->src[0] = s0;
    d->src[1] = s1;
    d->src[2] = s2;
}

static void decode16(uint32_t i, Decoded *d)
{
    int op = i & 3, f3 = (i >> 13) & 7;
    int rdp = 8 + ((i >> 2) & 7), rs1p = 8 + ((i >> 7) & 7);
    int r = (i >> 7) & 31, r2 = (i >> 2) & 31;

    if (op == 0) {
        switch (f3) {
        case 0:                                 /* c.addi4spn */
            set(d, K_ALU, rdp, 2, 0, 0);
            break;
        case 1:                                 /* c.fld */
            set(d, K_LOAD, F(rdp), rs1p, 0, 0);
            break;
        case 2: case 3:                         /* c.lw, c.ld */
            set(d, K_LOAD, rdp, rs1p, 0, 0);
            break;
        case 5:                                 /* c.fsd */
            set(d, K_STORE, 0, rs1p, F(rdp), 0);
            break;
        case 6: case 7:                         /* c.sw, c.sd */
            set(d, K_STORE, 0, rs1p, rdp, 0);
            break;
        default:
            set(d, K_OTHER, 0, 0, 0, 0);
            break;
        }
    } else if (op == 1) {
        switch (f3) {
        case 0: case 1:                         /* c.addi, c.addiw */
            set(d, K_ALU, r, r, 0, 0);
            break;
        case 2:                                 /* c.li */
            set(d, K_ALU, r, 0, 0, 0);
            break;
        case 3:                                 /* c.lui, c.addi16sp */
            set(d, K_ALU, r, r == 2 ? 2 : 0, 0, 0);
            break;
        case 4:                                 /* c.srli ... c.addw */
            set(d, K_ALU, rs1p, rs1p, ((i >> 10) & 3) == 3 ? rdp : 0, 0);
            break;
        case 5:                                 /* c.j */
            set(d, K_JAL, 0, 0, 0, 0);
            break;
        default:                                /* c.beqz, c.bnez */
            set(d, K_BRANCH, 0, rs1p, 0, 0);
            break;
        }
    } else {
        switch (f3) {
        case 0:                                 /* c.slli */
            set(d, K_ALU, r, r, 0, 0);
            break;
        case 1:                                 /* c.fldsp */
            set(d, K_LOAD, F(r), 2, 0, 0);
            break;
        case 2: case 3:                         /* c.lwsp, c.ldsp */
            set(d, K_LOAD, r, 2, 0, 0);
            break;
        case 4:
            if (!(i & 0x1000)) {
                if (r2 == 0) {                  /* c.jr */
                    set(d, K_JALR, 0, r, 0, 0);
                } else {                        /* c.mv */
                    set(d, K_ALU, r, r2, 0, 0);
                }
            } else if (r == 0 && r2 == 0) {     /* c.ebreak */
                set(d, K_ECALL, 0, 0, 0, 0);
            } else if (r2 == 0) {               /* c.jalr */
                set(d, K_JALR, 1, r, 0, 0);
            } else {                            /* c.add */
                set(d, K_ALU, r, r, r2, 0);
            }
            break;
        case 5:                                 /* c.fsdsp */
            set(d, K_STORE, 0, 2, F(r2), 0);
            break;
        default:                                /* c.swsp, c.sdsp */
            set(d, K_STORE, 0, 2, r2, 0);
            break;
        }
    }
}

/* T-Head custom-0, funct3 0 (XTheadCmo, XTheadSync): rs2 is the operation */
static int thead_kind(uint32_t i)
{
    int rs1 = (i >> 15) & 31, rs2 = (i >> 20) & 31;

    if ((i >> 25) != 0 || rs1 != 0) {
        return K_CACHE_LINE;                    /* by address */
    }
    switch (rs2) {
    case 0x18: case 0x19:                       /* sync, sync.s */
        return K_SYNC;
    case 0x1a: case 0x1b:                       /* sync.i, sync.is */
    case 0x10: case 0x11:                       /* icache.iall, .ialls */
        return K_FENCE_I;
    case 0x02: case 0x03:                       /* dcache.iall, .ciall */
        return K_CACHE_ALL;
    default:
        return K_CACHE_LINE;
    }
}

static int fp_kind(int f5)
{
    switch (f5) {
    case 0x03: case 0x0b:                       /* fdiv, fsqrt */
        return K_FDIV;
    case 0x04: case 0x05: case 0x14: case 0x1c: case 0x1e:
        return K_FPS;                           /* sign, min/max, cmp, mv */
    default:
        return K_FP;
    }
}

static void decode32(uint32_t i, Decoded *d)
{
    int rd = (i >> 7) & 31, rs1 = (i >> 15) & 31, rs2 = (i >> 20) & 31;
    int f3 = (i >> 12) & 7, f7 = i >> 25, f5 = f7 >> 2;
    uint32_t imm = i >> 20;

    switch (i & 0x7f) {
    case 0x03:                                  /* LOAD */
        set(d, K_LOAD, rd, rs1, 0, 0);
        break;
    case 0x07:                                  /* LOAD-FP */
        set(d, K_LOAD, F(rd), rs1, 0, 0);
        break;
    case 0x0b:                                  /* custom-0: T-Head */
        set(d, f3 == 0 ? thead_kind(i) : K_OTHER, 0, rs1, 0, 0);
        break;
    case 0x0f:                                  /* fence, fence.i */
        set(d, f3 == 1 ? K_FENCE_I : K_FENCE, 0, 0, 0, 0);
        break;
    case 0x13: case 0x1b:                       /* OP-IMM(-32) */
        set(d, K_ALU, rd, rs1, 0, 0);
        break;
    case 0x17: case 0x37:                       /* auipc, lui */
        set(d, K_ALU, rd, 0, 0, 0);
        break;
    case 0x23:                                  /* STORE */
        set(d, K_STORE, 0, rs1, rs2, 0);
        break;
    case 0x27:                                  /* STORE-FP */
        set(d, K_STORE, 0, rs1, F(rs2), 0);
        break;
    case 0x2f:                                  /* AMO */
        set(d, K_AMO, rd, rs1, rs2, 0);
        break;
    case 0x33: case 0x3b:                       /* OP(-32), M */
        set(d, f7 != 1 ? K_ALU : f3 < 4 ? K_MUL : K_DIV, rd, rs1, rs2, 0);
        break;
    case 0x43: case 0x47: case 0x4b: case 0x4f: /* fused multiply-add */
        set(d, K_FP, F(rd), F(rs1), F(rs2), F(i >> 27));
        break;
    case 0x53:                                  /* OP-FP */
        set(d, fp_kind(f5),
            f5 == 0x14 || f5 == 0x18 || f5 == 0x1c ? rd : F(rd),
            f5 == 0x1a || f5 == 0x1e ? rs1 : F(rs1),
            f5 == 0x0b || f5 >= 0x08 ? 0 : F(rs2), 0);
        if (f5 == 0x14) {
            d->src[1] = F(rs2);                 /* feq, flt, fle */
        }
        break;
    case 0x63:                                  /* BRANCH */
        set(d, K_BRANCH, 0, rs1, rs2, 0);
        break;
    case 0x67:
        set(d, K_JALR, rd, rs1, 0, 0);
        break;
    case 0x6f:
        set(d, K_JAL, rd, 0, 0, 0);
        break;
    case 0x73:                                  /* SYSTEM */
        if (f3 != 0) {
            set(d, K_CSR, rd, f3 < 4 ? rs1 : 0, 0, 0);
        } else if (f7 == 0x09) {
            set(d, K_SFENCE, 0, rs1, rs2, 0);
        } else if (imm == 0x302 || imm == 0x102) {
            set(d, K_XRET, 0, 0, 0, 0);
        } else if (imm == 0x105) {
            set(d, K_WFI, 0, 0, 0, 0);
        } else {
            set(d, K_ECALL, 0, 0, 0, 0);
        }
        break;
    default:
        set(d, K_OTHER, 0, 0, 0, 0);
        break;
    }
}

void c906_sched_start(C906Sched *s)
{
    memset(s, 0, sizeof(*s));
    s->iline = ~0ull;
}

uint32_t c906_sched_insn(C906Sched *s, uint32_t insn, int len, int *dyn)
{
    Decoded d = { 0 };
    uint32_t start = s->t, lat = 1, occ = 1, t0 = s->t;
    int j;

    if (len == 2) {
        decode16(insn & 0xffff, &d);
    } else {
        decode32(insn, &d);
    }
    *dyn = C906_DYN_NONE;
    for (j = 0; j < 3; j++) {
        int r = d.src[j];

        if (r > 0 && s->ready[r] > start) {
            start = s->ready[r];
        }
    }
    switch (d.kind) {
    case K_LOAD:
    case K_AMO:
        lat = m.p[C906_LOAD_LAT];
        break;
    case K_MUL:
        lat = m.p[C906_MUL_LAT];
        /* 64-bit mul/mulh* (OP, not OP-32) may take the split path */
        if (len == 4 && (insn & 0x7f) == 0x33) {
            *dyn = C906_DYN_MUL64;
        }
        break;
    case K_DIV:
        /* the whole divide is charged at run time, as blocking */
        *dyn = C906_DYN_DIV;
        break;
    case K_FP:
        lat = m.p[C906_FP_LAT];
        break;
    case K_FPS:
        lat = m.p[C906_FP_SIMPLE];
        break;
    case K_FDIV:
        lat = occ = m.p[C906_FDIV];
        break;
    case K_CSR:
        occ = m.p[C906_CSR];
        break;
    case K_XRET:
        occ = m.p[C906_XRET];
        break;
    case K_WFI:
        occ = m.p[C906_WFI];
        break;
    case K_SFENCE:
    case K_FENCE:
    case K_SYNC:
        occ = m.p[C906_FENCE];
        break;
    case K_FENCE_I:
        occ = m.p[C906_FENCE_I];
        *dyn = C906_DYN_ICACHE_ALL;
        break;
    case K_CACHE_LINE:
        occ = m.p[C906_CACHEOP_LINE];
        break;
    case K_CACHE_ALL:
        occ = m.p[C906_CACHEOP_ALL];
        *dyn = C906_DYN_DCACHE_ALL;
        break;
    default:
        break;
    }
    if (occ < 1) {
        occ = 1;
    }
    s->t = start + occ;
    if (d.rd > 0) {
        s->ready[d.rd] = start + MAX(lat, occ);
    }
    return s->t - t0;
}
