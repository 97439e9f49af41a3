/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) watchdog, with the D1's 0x16AA write key
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * The D1 has three instances with one register layout (d1drivers
 * d1drivers docs/hardware-facts.md "Watchdogs"; SVD d1_unofficial.svd
 * TIMER wdog_* registers): the timer-block WDT at 0x020500A0 (the one with
 * SOFT_RST, used by OpenSBI's fdt_reset_sunxi_wdt.c), riscv_wdt at
 * 0x06011000 and R_WDOG at 0x07020400.
 *   0x00 IRQ_EN    bit0
 *   0x04 IRQ_STA   bit0, write 1 to clear
 *   0x08 SOFT_RST  bit0 with key 0x16AA in [31:16] resets the SoC
 *   0x10 CTRL      0x14AF = key 0xA57 in [12:1] | restart bit0 (no 0x16AA)
 *   0x14 CFG       [1:0] 1 = reset the system, 2 = interrupt only;
 *                  [8] count clock (SVD wdog_clk_src): 0 = the 32 kHz
 *                  clock (24 MHz / 750) the table below is in, 1 = LOSC
 *                  32.768 kHz, where the same cycle counts last 125/128
 *                  as long (the 16 s index 15.625 s; d1drivers
 *                  docs/clocks-and-watchdog.md); key 0x16AA in [31:16]
 *   0x18 MODE      bit0 EN, [7:4] interval index; key 0x16AA in [31:16]
 *   0x1C OUTPUT_CFG reset pulse width (SVD), stored only
 * Interval index to timeout (Linux/U-Boot sunxi_wdt.c, SVD "C16000" etc. =
 * cycles of the 32 kHz watchdog clock): 0 = 0.5 s, 1..6 = 1..6 s, 7 = 8 s,
 * 8 = 10 s, 9 = 12 s, 0xA = 14 s, 0xB = 16 s.  Index 0xC..0xF is not
 * listed anywhere: taken as 16 s (the longest) and logged.
 *
 * A CFG, MODE or SOFT_RST write without the key is ignored by the D1
 * (xboot wdg-d1.c, U-Boot NCAT2 reset_cpu, docs/hardware-facts.md): here it is
 * ignored and logged as a guest error.  A CTRL write other than the
 * 0xA57 key with the restart bit is ignored and logged the same way.
 *
 * Expiry in reset mode performs QEMU's watchdog action
 * (watchdog_perform_action(): a system reset by default, a shutdown with
 * -no-reboot, as -watchdog-action says); in interrupt mode it sets IRQ_STA
 * and starts the next interval.  Each expiry is logged under -d cpu_reset.
 *
 * Virtual time is held while a reset this device asked for is pending.
 * Under -icount ...,sleep=off QEMU 7.2 warps QEMU_CLOCK_VIRTUAL to the next
 * timer deadline whenever every vCPU is idle, and a vCPU stopped for the
 * pending reset counts as idle: the clock jumped to the next deadline
 * before the reset was done, and with no deadline but the ACLINT's
 * "never" (mtimecmp = ~0, OpenSBI's idle value) to INT64_MAX, after which
 * the re-armed watchdog expired at once, again and again (seen with a hart
 * parked in WFI: the machine never booted again).  A 1 ns timer re-armed
 * until the reset keeps the warp to 1 ns per main-loop pass.
 *
 * Not known from the sources, chosen here and easy to change:
 *   - the count restarts on every keyed MODE write that leaves EN set (a
 *     new interval takes effect at once);
 *   - a keyed CFG write that changes the count clock (bit 8) of a running
 *     count does not restart it: its deadline is that of the new clock,
 *     counted from the last restart;
 *   - CFG resets to 0, the SVD's reset value (its file-wide default: it
 *     gives this register none of its own); an armed-at-reset instance
 *     reads 1, as the boot chain's start sequence leaves it;
 *   - CFG modes 0 and 3 are not defined (the SVD enumerates 1 and 2): an
 *     expiry in them resets nothing and raises nothing, and is logged, so
 *     that a start sequence that loses its keyed CFG write gets no reset.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/watchdog/allwinner-d1-wdt.h"
#include "migration/vmstate.h"
#include "sysemu/runstate.h"
#include "sysemu/watchdog.h"

#define REG_IRQ_EN      0x00
#define REG_IRQ_STA     0x04
#define REG_SOFT_RST    0x08
#define REG_CTRL        0x10
#define REG_CFG         0x14
#define REG_MODE        0x18
#define REG_OUTPUT_CFG  0x1c

#define KEY_FIELD       (0x16aau << 16)
#define KEY_MASK        0xffff0000u
#define CTRL_FEED       ((0xa57u << 1) | 1u)
#define CTRL_KEY_MASK   0x1ffeu
#define CFG_MODE_MASK   0x3u
#define CFG_MODE_RESET  1u
#define CFG_MODE_IRQ    2u
#define CFG_MASK        0x103u
#define CFG_CLK_LOSC    BIT(8)
#define MODE_EN         BIT(0)
#define MODE_INTV_SHIFT 4
#define MODE_INTV_MASK  (0xfu << MODE_INTV_SHIFT)
#define MODE_MASK       0xf1u

/* Timeouts in ms by interval index (see the header comment). */
static const uint32_t wdt_timeout_ms[16] = {
    500, 1000, 2000, 3000, 4000, 5000, 6000, 8000,
    10000, 12000, 14000, 16000, 16000, 16000, 16000, 16000,
};

/* The interval in ns: the table's cycles at 32 kHz, or at 32.768 kHz */
static int64_t wdt_interval_ns(AwD1WdtState *s)
{
    int64_t ns = (int64_t)wdt_timeout_ms[(s->mode & MODE_INTV_MASK) >>
                                         MODE_INTV_SHIFT] * SCALE_MS;

    return (s->cfg & CFG_CLK_LOSC) ? ns * 125 / 128 : ns;
}

static void wdt_update_irq(AwD1WdtState *s)
{
    qemu_set_irq(s->irq, !!(s->irq_en & s->irq_sta & 1));
}

static void wdt_restart(AwD1WdtState *s)
{
    s->started_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    if (s->mode & MODE_EN) {
        timer_mod(&s->timer, s->started_ns + wdt_interval_ns(s));
    } else {
        timer_del(&s->timer);
    }
}

/* Keep a deadline 1 ns ahead until the reset is done (header comment). */
static void wdt_hold(void *opaque)
{
    AwD1WdtState *s = opaque;

    if (s->reset_pending) {
        timer_mod(&s->hold, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + 1);
    }
}

static void wdt_request_reset(AwD1WdtState *s)
{
    s->reset_pending = true;
    wdt_hold(s);
}

static void wdt_expire(void *opaque)
{
    AwD1WdtState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if ((s->cfg & CFG_MODE_MASK) != CFG_MODE_IRQ &&
        (s->cfg & CFG_MODE_MASK) != CFG_MODE_RESET) {
        wdt_restart(s);
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: %" PRId64 " ms interval expired at %" PRId64
                      " ns virtual in undefined CFG mode %u: no action\n",
                      s->name, wdt_interval_ns(s) / SCALE_MS, now,
                      s->cfg & CFG_MODE_MASK);
        return;
    }
    if ((s->cfg & CFG_MODE_MASK) == CFG_MODE_IRQ) {
        s->irq_sta |= 1;
        wdt_update_irq(s);
        wdt_restart(s);
        qemu_log_mask(CPU_LOG_RESET,
                      "%s: %" PRId64 " ms interval expired at %" PRId64
                      " ns virtual: interrupt\n",
                      s->name, wdt_interval_ns(s) / SCALE_MS, now);
        return;
    }
    qemu_log_mask(CPU_LOG_RESET,
                  "%s: %" PRId64 " ms timeout expired at %" PRId64
                  " ns virtual: system reset\n",
                  s->name, wdt_interval_ns(s) / SCALE_MS, now);
    if (get_watchdog_action() == WATCHDOG_ACTION_RESET) {
        wdt_request_reset(s);
    }
    watchdog_perform_action();
}

static bool wdt_check_key(AwD1WdtState *s, const char *reg, uint32_t value)
{
    if ((value & KEY_MASK) == KEY_FIELD) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "%s: %s write 0x%08" PRIx32 " without the 0x16AA key "
                  "ignored\n", s->name, reg, value);
    return false;
}

static uint64_t aw_d1_wdt_read(void *opaque, hwaddr offset, unsigned size)
{
    AwD1WdtState *s = opaque;

    switch (offset) {
    case REG_IRQ_EN:
        return s->irq_en;
    case REG_IRQ_STA:
        return s->irq_sta;
    case REG_SOFT_RST:
        if (s->has_soft_reset) {
            return 0;
        }
        break;
    case REG_CTRL:
        return 0;
    case REG_CFG:
        return s->cfg;
    case REG_MODE:
        return s->mode;
    case REG_OUTPUT_CFG:
        return s->output_cfg;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "%s: read of unknown offset 0x%" HWADDR_PRIx "\n",
                  s->name, offset);
    return 0;
}

static void aw_d1_wdt_write(void *opaque, hwaddr offset, uint64_t value,
                            unsigned size)
{
    AwD1WdtState *s = opaque;
    uint32_t old;

    switch (offset) {
    case REG_IRQ_EN:
        s->irq_en = value & 1;
        wdt_update_irq(s);
        return;
    case REG_IRQ_STA:
        s->irq_sta &= ~(value & 1);
        wdt_update_irq(s);
        return;
    case REG_SOFT_RST:
        if (!s->has_soft_reset) {
            break;
        }
        if (wdt_check_key(s, "SOFT_RST", value) && (value & 1)) {
            qemu_log_mask(CPU_LOG_RESET, "%s: SOFT_RST: system reset\n",
                          s->name);
            wdt_request_reset(s);
            qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
        }
        return;
    case REG_CTRL:
        if ((value & (CTRL_KEY_MASK | 1)) == CTRL_FEED) {
            wdt_restart(s);
            if (s->mode & MODE_EN) {
                /* With the expiry line, a feed-to-reset time to check. */
                qemu_log_mask(CPU_LOG_RESET,
                              "%s: restarted at %" PRId64 " ns virtual\n",
                              s->name, s->started_ns);
            }
        } else {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "%s: CTRL write 0x%08" PRIx32 " is not the restart "
                          "key 0x14AF: ignored\n", s->name, (uint32_t)value);
        }
        return;
    case REG_CFG:
        if (!wdt_check_key(s, "CFG", value)) {
            return;
        }
        old = s->cfg;
        s->cfg = value & CFG_MASK;
        if (((old ^ s->cfg) & CFG_CLK_LOSC) && (s->mode & MODE_EN)) {
            /*
             * The running count is in the new clock from now: its
             * deadline is re-evaluated from the last restart (one already
             * passed expires at once), as tests/model/wdt_model.h does.
             */
            timer_mod(&s->timer, s->started_ns + wdt_interval_ns(s));
        }
        return;
    case REG_MODE:
        if (!wdt_check_key(s, "MODE", value)) {
            return;
        }
        old = s->mode;
        s->mode = value & MODE_MASK;
        if (((s->mode & MODE_INTV_MASK) >> MODE_INTV_SHIFT) > 0xb) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "%s: interval index %u is not documented: 16 s\n",
                          s->name,
                          (s->mode & MODE_INTV_MASK) >> MODE_INTV_SHIFT);
        }
        if ((s->mode & MODE_EN) || (old & MODE_EN)) {
            wdt_restart(s);
        }
        return;
    case REG_OUTPUT_CFG:
        s->output_cfg = value & 0xfff;
        return;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "%s: write of unknown offset 0x%" HWADDR_PRIx "\n",
                  s->name, offset);
}

static const MemoryRegionOps aw_d1_wdt_ops = {
    .read = aw_d1_wdt_read,
    .write = aw_d1_wdt_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl.min_access_size = 4,
};

static void aw_d1_wdt_reset(DeviceState *dev)
{
    AwD1WdtState *s = ALLWINNER_D1_WDT(dev);

    s->reset_pending = false;
    timer_del(&s->hold);
    s->irq_en = 0;
    s->irq_sta = 0;
    s->cfg = 0;
    s->output_cfg = 0;
    s->mode = 0;
    if (s->armed_at_reset) {
        /*
         * What the vendor bootloader leaves on the board: running, 16 s,
         * reset the system (hardware-facts.md: "U-Boot left a ~16 s watchdog
         * running, so NuttX reset after boot"; its start sequence writes
         * CFG = 0x16AA0001 and MODE = 0x16AA00B1).
         */
        s->cfg = CFG_MODE_RESET;
        s->mode = (0xbu << MODE_INTV_SHIFT) | MODE_EN;
    }
    wdt_restart(s);
    wdt_update_irq(s);
}

static void aw_d1_wdt_init(Object *obj)
{
    AwD1WdtState *s = ALLWINNER_D1_WDT(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);

    memory_region_init_io(&s->iomem, obj, &aw_d1_wdt_ops, s,
                          TYPE_ALLWINNER_D1_WDT, AW_D1_WDT_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    sysbus_init_irq(sbd, &s->irq);
    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, wdt_expire, s);
    timer_init_ns(&s->hold, QEMU_CLOCK_VIRTUAL, wdt_hold, s);
}

static Property aw_d1_wdt_properties[] = {
    DEFINE_PROP_STRING("name", AwD1WdtState, name),
    DEFINE_PROP_BOOL("soft-reset", AwD1WdtState, has_soft_reset, false),
    DEFINE_PROP_BOOL("armed-at-reset", AwD1WdtState, armed_at_reset, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void aw_d1_wdt_realize(DeviceState *dev, Error **errp)
{
    AwD1WdtState *s = ALLWINNER_D1_WDT(dev);

    if (!s->name) {
        s->name = g_strdup(TYPE_ALLWINNER_D1_WDT);
    }
}

static const VMStateDescription vmstate_aw_d1_wdt = {
    .name = "allwinner-d1-wdt",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_TIMER(timer, AwD1WdtState),
        VMSTATE_TIMER(hold, AwD1WdtState),
        VMSTATE_BOOL(reset_pending, AwD1WdtState),
        VMSTATE_UINT32(irq_en, AwD1WdtState),
        VMSTATE_UINT32(irq_sta, AwD1WdtState),
        VMSTATE_UINT32(cfg, AwD1WdtState),
        VMSTATE_UINT32(mode, AwD1WdtState),
        VMSTATE_UINT32(output_cfg, AwD1WdtState),
        VMSTATE_INT64(started_ns, AwD1WdtState),
        VMSTATE_END_OF_LIST()
    }
};

static void aw_d1_wdt_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = aw_d1_wdt_reset;
    dc->realize = aw_d1_wdt_realize;
    dc->vmsd = &vmstate_aw_d1_wdt;
    device_class_set_props(dc, aw_d1_wdt_properties);
    dc->desc = "Allwinner D1 watchdog";
    set_bit(DEVICE_CATEGORY_WATCHDOG, dc->categories);
}

static const TypeInfo aw_d1_wdt_info = {
    .name = TYPE_ALLWINNER_D1_WDT,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AwD1WdtState),
    .instance_init = aw_d1_wdt_init,
    .class_init = aw_d1_wdt_class_init,
};

static void aw_d1_wdt_register(void)
{
    type_register_static(&aw_d1_wdt_info);
}

type_init(aw_d1_wdt_register)
