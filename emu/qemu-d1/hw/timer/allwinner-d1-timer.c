/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) Timer block: Timer0 and Timer1
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * Register facts (d1drivers docs/hardware-facts.md "Timer",
 * which cites Linux timer-sun4i.c, the D1 manual and the d1-pac SVD
 * d1_unofficial.svd peripheral TIMER):
 *   0x00 TMR_IRQ_EN   bit n enables Timer n's interrupt
 *   0x04 TMR_IRQ_STA  bit n pending, write 1 to clear
 *   0x10 + 0x10 * n   TMRn_CTRL: bit0 EN, bit1 RELOAD, [3:2] CLK_SRC
 *                     (0 LOSC 32.768 kHz, 1 OSC24M), [6:4] prescaler 2^k,
 *                     bit7 MODE (0 periodic, 1 single)
 *   0x14 + 0x10 * n   TMRn_INTV_VALUE
 *   0x18 + 0x10 * n   TMRn_CUR_VALUE, counts down
 * The down-counter includes zero: an interval of N gives N + 1 input clocks
 * per period (docs/hardware-facts.md, measured on a Lichee RV: 24,000 -> 24,001
 * clocks, 23,999 -> exactly 1 ms).  QEMU's allwinner-a10-pit uses
 * PTIMER_POLICY_LEGACY and gives N, hence this model.
 *
 * The counters are computed from QEMU_CLOCK_VIRTUAL: the source clock's
 * edge k is at ceil(k * 1e9 / f) ns, the same grid the RISC-V time CSR of
 * this machine (24 MHz, riscv_aclint_mtimer) uses, so a period measured
 * against the time CSR is exact.
 *
 * Not known from the sources, chosen here and easy to change:
 *   - RELOAD reads back as 1 for AW_D1_TIMER_RELOAD_CLOCKS source clocks
 *     of the clock it was written under (Linux waits "at least 2 cycles
 *     of the timer source clock", TIMER_SYNC_TICKS = 3, before
 *     reprogramming a stopped timer);
 *   - in single mode the timer clears EN when it expires and CUR stays 0
 *     (as QEMU's allwinner-a10-pit does);
 *   - CLK_SRC values 2 and 3 are reserved: the timer does not count;
 *   - a CTRL write that clears EN starts the sync time (Linux: "at least 2
 *     cycles of the timer source clock" before reprogramming;
 *     hardware-facts.md):
 *     for sync-clocks (2) input clocks of the channel, counted from that
 *     write on the slower of its clock before and after it, CTRL, INTV and
 *     CUR writes are dropped and logged as guest errors.  What the D1 does
 *     with such a write is unknown; dropping it is the reading under which
 *     a driver that skips the wait fails.  sync-clocks=0 takes every write
 *     at once.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/host-utils.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/timer/allwinner-d1-timer.h"
#include "migration/vmstate.h"

#define REG_IRQ_EN      0x00
#define REG_IRQ_STA     0x04
#define REG_TMR_BASE    0x10
#define REG_TMR_STRIDE  0x10
#define REG_CTRL        0x0
#define REG_INTV        0x4
#define REG_CUR         0x8

#define CTRL_EN         BIT(0)
#define CTRL_RELOAD     BIT(1)
#define CTRL_SRC_SHIFT  2
#define CTRL_SRC_MASK   (3u << CTRL_SRC_SHIFT)
#define CTRL_PRE_SHIFT  4
#define CTRL_PRE_MASK   (7u << CTRL_PRE_SHIFT)
#define CTRL_SINGLE     BIT(7)
#define CTRL_MASK       0xffu

#define SRC_LOSC        0
#define SRC_OSC24M      1

#define AW_D1_TIMER_RELOAD_CLOCKS 2

static uint32_t unit_src_hz(AwD1TimerUnit *u)
{
    switch ((u->ctrl & CTRL_SRC_MASK) >> CTRL_SRC_SHIFT) {
    case SRC_LOSC:
        return u->parent->losc_hz;
    case SRC_OSC24M:
        return u->parent->osc24m_hz;
    default:
        return 0;
    }
}

static uint32_t unit_prescale(AwD1TimerUnit *u)
{
    return 1u << ((u->ctrl & CTRL_PRE_MASK) >> CTRL_PRE_SHIFT);
}

/* Index of the last source-clock edge at or before @ns. */
static uint64_t src_clocks(uint32_t hz, int64_t ns)
{
    return muldiv64(ns, hz, NANOSECONDS_PER_SECOND);
}

/* Time of source-clock edge @k: the first ns with src_clocks() >= k. */
static int64_t src_edge_ns(uint32_t hz, uint64_t k)
{
    uint64_t ns = muldiv64(k, NANOSECONDS_PER_SECOND, hz);

    while (src_clocks(hz, ns) < k) {
        ns++;
    }
    return ns;
}

static uint64_t unit_now_clocks(AwD1TimerUnit *u)
{
    uint32_t hz = unit_src_hz(u);

    if (!hz) {
        return 0;
    }
    return src_clocks(hz, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)) /
           unit_prescale(u);
}

static void aw_d1_timer_update_irq(AwD1TimerState *s)
{
    int i;

    for (i = 0; i < AW_D1_TIMER_NUM; i++) {
        qemu_set_irq(s->irq[i], !!(s->irq_sta & s->irq_en & BIT(i)));
    }
}

static void unit_arm(AwD1TimerUnit *u)
{
    uint32_t hz = unit_src_hz(u);
    uint64_t expiry = u->origin + (uint64_t)u->cur + 1;

    timer_mod(&u->timer, src_edge_ns(hz, expiry * unit_prescale(u)));
}

/* Bring the counter up to date; fire the expiries that are due. */
static void unit_catch_up(AwD1TimerUnit *u)
{
    AwD1TimerState *s = u->parent;
    uint64_t now, expiry, period, n;

    if (!u->running) {
        return;
    }
    now = unit_now_clocks(u);
    expiry = u->origin + (uint64_t)u->cur + 1;
    if (now < expiry) {
        return;
    }
    /*
     * Raise the interrupt before the timer is re-armed: under -icount with
     * sleep=off, re-arming while the hart sleeps in WFI with nothing
     * pending lets QEMU warp the clock to the next deadline first.
     */
    s->irq_sta |= BIT(u->index);
    aw_d1_timer_update_irq(s);
    if (u->ctrl & CTRL_SINGLE) {
        u->running = false;
        u->ctrl &= ~CTRL_EN;
        u->cur = 0;
        timer_del(&u->timer);
    } else {
        /* Periodic: reload INTV at each expiry, N + 1 clocks per period. */
        period = (uint64_t)u->intv + 1;
        n = (now - expiry) / period;
        u->origin = expiry + n * period;
        u->cur = u->intv;
        unit_arm(u);
    }
}

static uint32_t unit_cur(AwD1TimerUnit *u)
{
    uint64_t elapsed;

    unit_catch_up(u);
    if (!u->running) {
        return u->cur;
    }
    elapsed = unit_now_clocks(u) - u->origin;
    return u->cur - (uint32_t)elapsed;
}

static void unit_stop(AwD1TimerUnit *u)
{
    if (u->running) {
        u->cur = unit_cur(u);
        u->running = false;
        timer_del(&u->timer);
    }
}

static void unit_start(AwD1TimerUnit *u)
{
    if (!unit_src_hz(u)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "allwinner-d1-timer: timer%d: reserved CLK_SRC %u, "
                      "not counting\n", u->index,
                      (u->ctrl & CTRL_SRC_MASK) >> CTRL_SRC_SHIFT);
        return;
    }
    u->origin = unit_now_clocks(u);
    u->running = true;
    unit_arm(u);
}

/*
 * End of the sync time of @clocks whole input clocks from @now (rounded up
 * to a ns), or @now.  Counted from @now itself, not from the last source
 * edge: up to the second edge would be as little as just over one clock
 * for a disable late in a clock period.
 */
static int64_t unit_sync_end(AwD1TimerUnit *u, uint32_t clocks, int64_t now)
{
    uint32_t hz = unit_src_hz(u);
    uint64_t n = (uint64_t)clocks * unit_prescale(u);
    uint64_t ns;

    if (!hz) {
        return now;
    }
    ns = muldiv64(n, NANOSECONDS_PER_SECOND, hz);
    if (muldiv64(ns, hz, NANOSECONDS_PER_SECOND) < n) {
        ns++;
    }
    return now + ns;
}

/* A write to @reg inside the sync time is dropped (header comment). */
static bool unit_in_sync(AwD1TimerUnit *u, const char *reg)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (now >= u->sync_until_ns) {
        return false;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "allwinner-d1-timer: timer%d: %s written %" PRId64
                  " ns before the %u-clock sync time after its disable "
                  "ended: ignored\n", u->index, reg, u->sync_until_ns - now,
                  u->parent->sync_clocks);
    return true;
}

static void aw_d1_timer_expire(void *opaque)
{
    unit_catch_up(opaque);
}

static void unit_write_ctrl(AwD1TimerUnit *u, uint32_t val)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    uint32_t sync = u->parent->sync_clocks;
    int64_t sync_end = now;
    bool disable;
    uint32_t hz;

    unit_catch_up(u);
    if (unit_in_sync(u, "CTRL")) {
        return;
    }
    disable = (u->ctrl & CTRL_EN) && !(val & CTRL_EN);
    if (disable) {
        sync_end = unit_sync_end(u, sync, now);
    }
    unit_stop(u);
    u->ctrl = val & CTRL_MASK & ~CTRL_RELOAD;
    if (val & CTRL_RELOAD) {
        u->cur = u->intv;
        hz = unit_src_hz(u);
        if (hz) {
            /* In ns: a later CLK_SRC change must not rescale it */
            u->reload_until_ns = src_edge_ns(hz, src_clocks(hz, now) +
                                             AW_D1_TIMER_RELOAD_CLOCKS);
        }
    }
    if (u->ctrl & CTRL_EN) {
        unit_start(u);
    }
    if (disable) {
        u->sync_until_ns = MAX(sync_end, unit_sync_end(u, sync, now));
    }
}

static uint32_t unit_read_ctrl(AwD1TimerUnit *u)
{
    uint32_t val;

    unit_catch_up(u);
    val = u->ctrl;
    if (qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) < u->reload_until_ns) {
        val |= CTRL_RELOAD;
    }
    return val;
}

static uint64_t aw_d1_timer_read(void *opaque, hwaddr offset, unsigned size)
{
    AwD1TimerState *s = opaque;
    AwD1TimerUnit *u;
    int i;

    switch (offset) {
    case REG_IRQ_EN:
        return s->irq_en;
    case REG_IRQ_STA:
        for (i = 0; i < AW_D1_TIMER_NUM; i++) {
            unit_catch_up(&s->t[i]);
        }
        return s->irq_sta;
    }
    if (offset >= REG_TMR_BASE &&
        offset < REG_TMR_BASE + AW_D1_TIMER_NUM * REG_TMR_STRIDE) {
        u = &s->t[(offset - REG_TMR_BASE) / REG_TMR_STRIDE];
        switch ((offset - REG_TMR_BASE) % REG_TMR_STRIDE) {
        case REG_CTRL:
            return unit_read_ctrl(u);
        case REG_INTV:
            return u->intv;
        case REG_CUR:
            return unit_cur(u);
        }
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "allwinner-d1-timer: read of unknown offset 0x%" HWADDR_PRIx
                  "\n", offset);
    return 0;
}

static void aw_d1_timer_write(void *opaque, hwaddr offset, uint64_t value,
                              unsigned size)
{
    AwD1TimerState *s = opaque;
    AwD1TimerUnit *u;
    int i;

    switch (offset) {
    case REG_IRQ_EN:
        s->irq_en = value & (BIT(AW_D1_TIMER_NUM) - 1);
        aw_d1_timer_update_irq(s);
        return;
    case REG_IRQ_STA:
        for (i = 0; i < AW_D1_TIMER_NUM; i++) {
            unit_catch_up(&s->t[i]);
        }
        s->irq_sta &= ~value;
        aw_d1_timer_update_irq(s);
        return;
    }
    if (offset >= REG_TMR_BASE &&
        offset < REG_TMR_BASE + AW_D1_TIMER_NUM * REG_TMR_STRIDE) {
        u = &s->t[(offset - REG_TMR_BASE) / REG_TMR_STRIDE];
        switch ((offset - REG_TMR_BASE) % REG_TMR_STRIDE) {
        case REG_CTRL:
            unit_write_ctrl(u, value);
            return;
        case REG_INTV:
            if (unit_in_sync(u, "INTV")) {
                return;
            }
            /* Takes effect at the next reload or expiry. */
            unit_catch_up(u);
            u->intv = value;
            return;
        case REG_CUR:
            if (unit_in_sync(u, "CUR")) {
                return;
            }
            if (u->running) {
                unit_stop(u);
                u->cur = value;
                unit_start(u);
            } else {
                u->cur = value;
            }
            return;
        }
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "allwinner-d1-timer: write of unknown offset 0x%" HWADDR_PRIx
                  "\n", offset);
}

static const MemoryRegionOps aw_d1_timer_ops = {
    .read = aw_d1_timer_read,
    .write = aw_d1_timer_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl.min_access_size = 4,
};

static void aw_d1_timer_reset(DeviceState *dev)
{
    AwD1TimerState *s = ALLWINNER_D1_TIMER(dev);
    int i;

    s->irq_en = 0;
    s->irq_sta = 0;
    for (i = 0; i < AW_D1_TIMER_NUM; i++) {
        AwD1TimerUnit *u = &s->t[i];

        timer_del(&u->timer);
        u->running = false;
        /* The SVD gives no per-register reset value: its default 0. */
        u->ctrl = 0;
        u->intv = 0;
        u->cur = 0;
        u->origin = 0;
        u->reload_until_ns = 0;
        u->sync_until_ns = 0;
    }
    aw_d1_timer_update_irq(s);
}

static void aw_d1_timer_init(Object *obj)
{
    AwD1TimerState *s = ALLWINNER_D1_TIMER(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);
    int i;

    memory_region_init_io(&s->iomem, obj, &aw_d1_timer_ops, s,
                          TYPE_ALLWINNER_D1_TIMER, AW_D1_TIMER_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    for (i = 0; i < AW_D1_TIMER_NUM; i++) {
        sysbus_init_irq(sbd, &s->irq[i]);
        s->t[i].parent = s;
        s->t[i].index = i;
        timer_init_ns(&s->t[i].timer, QEMU_CLOCK_VIRTUAL, aw_d1_timer_expire,
                      &s->t[i]);
    }
}

static Property aw_d1_timer_properties[] = {
    DEFINE_PROP_UINT32("osc24m-hz", AwD1TimerState, osc24m_hz, 24000000),
    DEFINE_PROP_UINT32("losc-hz", AwD1TimerState, losc_hz, 32768),
    DEFINE_PROP_UINT32("sync-clocks", AwD1TimerState, sync_clocks, 2),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_aw_d1_timer_unit = {
    .name = "allwinner-d1-timer-unit",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (VMStateField[]) {
        VMSTATE_TIMER(timer, AwD1TimerUnit),
        VMSTATE_UINT32(ctrl, AwD1TimerUnit),
        VMSTATE_UINT32(intv, AwD1TimerUnit),
        VMSTATE_UINT32(cur, AwD1TimerUnit),
        VMSTATE_UINT64(origin, AwD1TimerUnit),
        VMSTATE_INT64(reload_until_ns, AwD1TimerUnit),
        VMSTATE_BOOL(running, AwD1TimerUnit),
        VMSTATE_INT64(sync_until_ns, AwD1TimerUnit),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_aw_d1_timer = {
    .name = "allwinner-d1-timer",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(irq_en, AwD1TimerState),
        VMSTATE_UINT32(irq_sta, AwD1TimerState),
        VMSTATE_STRUCT_ARRAY(t, AwD1TimerState, AW_D1_TIMER_NUM, 3,
                             vmstate_aw_d1_timer_unit, AwD1TimerUnit),
        VMSTATE_END_OF_LIST()
    }
};

static void aw_d1_timer_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = aw_d1_timer_reset;
    dc->vmsd = &vmstate_aw_d1_timer;
    device_class_set_props(dc, aw_d1_timer_properties);
    dc->desc = "Allwinner D1 Timer0/Timer1";
}

static const TypeInfo aw_d1_timer_info = {
    .name = TYPE_ALLWINNER_D1_TIMER,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AwD1TimerState),
    .instance_init = aw_d1_timer_init,
    .class_init = aw_d1_timer_class_init,
};

static void aw_d1_timer_register(void)
{
    type_register_static(&aw_d1_timer_info);
}

type_init(aw_d1_timer_register)
