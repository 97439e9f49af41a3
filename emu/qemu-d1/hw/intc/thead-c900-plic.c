/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * T-Head C900 PLIC (as on the Allwinner D1): QEMU's SiFive PLIC plus the
 * PLIC_CTRL.S_PER privilege gate and the T-Head completion rules
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * Layout (d1drivers docs/hardware-facts.md "PLIC (T-Head C900)"; SVD
 * d1_unofficial.svd PLIC; Linux sun20i-d1.dtsi): priorities at 4 * id
 * (5 bits, 0..31), pending at 0x1000, enables at 0x2000 + 0x80 * ctx,
 * threshold/claim at 0x200000 + 0x1000 * ctx, context 0 = hart 0 M-mode,
 * context 1 = hart 0 S-mode, PLIC_CTRL at 0x1FFFFC; riscv,ndev = 175.
 * The standard part is QEMU's sifive_plic, created with a spare source
 * because it indexes its priority array one past the end for its last
 * source (sifive_plic_read/write: irq = offset / 4 + 1 < num_sources + 1).
 *
 * The privilege gate, from the openC906 RTL (XUANTIE-RV/openc906,
 * C906_RTL_FACTORY/gen_rtl/plic/rtl/):
 *   - plic_ctrl.v: PLIC_CTRL (0x1FFFFC) answers with PSLVERR unless
 *     pprot == 2'b11 (M-mode), for reads and writes; bit0 is S_PER,
 *     reset 0.
 *   - plic_top.v: for the priority, pending, enable and threshold/claim
 *     windows the machine bit of pprot is pprot[1] || (S_PER && pprot[0]):
 *     S_PER promotes S-mode accesses.
 *   - plic_kid_busif.v (priority, pending), plic_hreg_busif.v (enables):
 *     PSLVERR when that machine bit is 0; plic_hreg_busif.v (threshold/
 *     claim): the M context needs the machine bit, the S context pprot[0]
 *     only, so S-mode reaches its own threshold and claim without S_PER.
 * A bus error is a load/store access fault on the hart: here the access
 * returns MEMTX_ERROR.  The privilege is that of the current hart (no
 * MPRV), and accesses from outside a hart (qtest, DMA) count as M-mode.
 *
 * Completion (docs/hardware-facts.md, Linux irq-sifive-plic.c "Fixup EOI failed
 * when masked" for T-Head): a completion for a source whose enable bit is
 * clear in that context is ignored; it is logged as a guest error.
 *
 * Enables: QEMU 7.2's sifive_plic_write() stores an enable word without
 * re-evaluating the interrupt outputs (it does so for priorities,
 * thresholds, claims and completions), so enabling a source that is
 * already pending raised no interrupt until some later event, and
 * disabling one left its interrupt asserted: with a source masked around
 * a claim (the claim returns 0) and enabled again, its still-pending
 * request was never delivered.  On the PLIC the notification is the OR of
 * pending & enabled above the threshold at all times (RISC-V PLIC spec),
 * so here every enable write is followed by a rewrite of a threshold with
 * its own value, which makes sifive_plic re-evaluate.
 *
 * Level sources (all D1 peripheral interrupts are level-high): QEMU's
 * sifive_plic latches pending whenever a line is raised, also while the
 * source is in service, which gives a second claim for a request already
 * handled; the RISC-V PLIC gateway forwards no new request until the
 * completion, and a level still high then is a new request.  Both are
 * done here.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/core/cpu.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/intc/sifive_plic.h"
#include "hw/intc/thead-c900-plic.h"
#include "migration/vmstate.h"
#include "target/riscv/cpu.h"

#define PRIORITY_BASE   0x4     /* sifive_plic: address of source 1 */
#define PENDING_BASE    0x1000
#define ENABLE_BASE     0x2000
#define ENABLE_STRIDE   0x80
#define CONTEXT_BASE    0x200000
#define CONTEXT_STRIDE  0x1000
#define PLIC_CTRL       0x1ffffc
#define NUM_CONTEXTS    2
#define NUM_PRIORITIES  31

#define PRV_U_MODE      0
#define PRV_S_MODE      1

static int current_priv(void)
{
    if (current_cpu) {
        return RISCV_CPU(current_cpu)->env.priv;
    }
    return PRV_M;
}

/* May an access at @priv reach @offset (not PLIC_CTRL)?  See the header. */
static bool plic_access_ok(TheadC900PlicState *s, hwaddr offset, int priv)
{
    bool machine = priv == PRV_M || (priv == PRV_S_MODE && s->s_per);

    if (offset >= CONTEXT_BASE &&
        ((offset - CONTEXT_BASE) / CONTEXT_STRIDE) % 2 == 1) {
        return priv != PRV_U_MODE;
    }
    return machine;
}

static void plic_deny(TheadC900PlicState *s, hwaddr offset, int priv,
                      bool write)
{
    s->denied++;
    qemu_log_mask(LOG_GUEST_ERROR,
                  "thead-c900-plic: %s at 0x%" HWADDR_PRIx " from %s-mode "
                  "refused (PLIC_CTRL.S_PER = %u): bus error\n",
                  write ? "write" : "read", offset,
                  priv == PRV_S_MODE ? "S" : priv == PRV_U_MODE ? "U" : "M",
                  s->s_per);
}

/* Is @offset one of the registers of the D1's sources and contexts? */
static bool plic_in_range(TheadC900PlicState *s, hwaddr offset)
{
    /* Sources 1 .. num_sources - 2: the last id of sifive_plic is spare. */
    uint32_t nsrc = s->num_sources - 1;

    if (offset < PENDING_BASE) {
        return offset / 4 >= 1 && offset / 4 < nsrc;
    }
    if (offset < ENABLE_BASE) {
        return offset - PENDING_BASE < DIV_ROUND_UP(nsrc, 32) * 4;
    }
    if (offset < ENABLE_BASE + NUM_CONTEXTS * ENABLE_STRIDE) {
        return (offset - ENABLE_BASE) % ENABLE_STRIDE <
               DIV_ROUND_UP(nsrc, 32) * 4;
    }
    if (offset >= CONTEXT_BASE &&
        offset < CONTEXT_BASE + NUM_CONTEXTS * CONTEXT_STRIDE) {
        return (offset - CONTEXT_BASE) % CONTEXT_STRIDE <= 4;
    }
    return false;
}

static bool plic_enabled(TheadC900PlicState *s, uint32_t ctx, uint32_t irq)
{
    SiFivePLICState *p = s->plic;

    return p->enable[ctx * p->bitfield_words + irq / 32] & BIT(irq % 32);
}

static MemTxResult thead_c900_plic_read(void *opaque, hwaddr offset,
                                        uint64_t *data, unsigned size,
                                        MemTxAttrs attrs)
{
    TheadC900PlicState *s = opaque;
    int priv = current_priv();

    if (offset == PLIC_CTRL) {
        if (priv != PRV_M) {
            plic_deny(s, offset, priv, false);
            return MEMTX_ERROR;
        }
        *data = s->s_per;
        return MEMTX_OK;
    }
    if (!plic_in_range(s, offset)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "thead-c900-plic: read of unknown offset 0x%"
                      HWADDR_PRIx "\n", offset);
        *data = 0;
        return MEMTX_OK;
    }
    if (!plic_access_ok(s, offset, priv)) {
        plic_deny(s, offset, priv, false);
        return MEMTX_ERROR;
    }
    return memory_region_dispatch_read(&s->plic->mmio, offset, data, MO_32,
                                       attrs);
}

static MemTxResult thead_c900_plic_write(void *opaque, hwaddr offset,
                                         uint64_t data, unsigned size,
                                         MemTxAttrs attrs)
{
    TheadC900PlicState *s = opaque;
    int priv = current_priv();
    uint32_t ctx, irq;
    MemTxResult r;

    if (offset == PLIC_CTRL) {
        if (priv != PRV_M) {
            plic_deny(s, offset, priv, true);
            return MEMTX_ERROR;
        }
        s->s_per = data & 1;
        return MEMTX_OK;
    }
    if (!plic_in_range(s, offset)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "thead-c900-plic: write of unknown offset 0x%"
                      HWADDR_PRIx "\n", offset);
        return MEMTX_OK;
    }
    if (!plic_access_ok(s, offset, priv)) {
        plic_deny(s, offset, priv, true);
        return MEMTX_ERROR;
    }
    if (offset >= CONTEXT_BASE && (offset - CONTEXT_BASE) % CONTEXT_STRIDE) {
        /* Completion */
        ctx = (offset - CONTEXT_BASE) / CONTEXT_STRIDE;
        irq = data;
        if (irq == 0 || irq >= s->num_sources - 1) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "thead-c900-plic: completion of invalid source %u "
                          "ignored\n", irq);
            return MEMTX_OK;
        }
        if (!plic_enabled(s, ctx, irq)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "thead-c900-plic: completion of source %u, masked "
                          "in context %u, ignored\n", irq, ctx);
            return MEMTX_OK;
        }
        r = memory_region_dispatch_write(&s->plic->mmio, offset, irq, MO_32,
                                         attrs);
        if (s->level[irq]) {
            qemu_irq_raise(qdev_get_gpio_in(DEVICE(s->plic), irq));
        }
        return r;
    }
    r = memory_region_dispatch_write(&s->plic->mmio, offset, data, MO_32,
                                     attrs);
    if (offset >= ENABLE_BASE && offset < CONTEXT_BASE) {
        /* Re-evaluate the outputs (header comment): threshold of context 0 */
        memory_region_dispatch_write(&s->plic->mmio, CONTEXT_BASE,
                                     s->plic->target_priority[0], MO_32,
                                     attrs);
    }
    return r;
}

static const MemoryRegionOps thead_c900_plic_ops = {
    .read_with_attrs = thead_c900_plic_read,
    .write_with_attrs = thead_c900_plic_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void thead_c900_plic_irq(void *opaque, int irq, int level)
{
    TheadC900PlicState *s = opaque;

    s->level[irq] = level;
    /*
     * The gateway forwards no new request while the source is in service
     * (claimed, not yet completed): the completion looks at the level.
     */
    if (!(s->plic->claimed[irq / 32] & BIT(irq % 32))) {
        qemu_set_irq(qdev_get_gpio_in(DEVICE(s->plic), irq), level);
    }
}

static void thead_c900_plic_reset(DeviceState *dev)
{
    TheadC900PlicState *s = THEAD_C900_PLIC(dev);

    s->s_per = 0;
    s->denied = 0;
}

static void thead_c900_plic_realize(DeviceState *dev, Error **errp)
{
    TheadC900PlicState *s = THEAD_C900_PLIC(dev);
    g_autofree char *hart_config = g_strdup("MS");
    DeviceState *plic;

    if (s->num_sources < 2 || s->num_sources > 1023) {
        error_setg(errp, "thead-c900-plic: num-sources must be 2..1023");
        return;
    }
    /* Not mapped: every access goes through the gate above. */
    plic = qdev_new(TYPE_SIFIVE_PLIC);
    qdev_prop_set_string(plic, "hart-config", hart_config);
    qdev_prop_set_uint32(plic, "hartid-base", s->hartid_base);
    qdev_prop_set_uint32(plic, "num-sources", s->num_sources);
    qdev_prop_set_uint32(plic, "num-priorities", NUM_PRIORITIES);
    qdev_prop_set_uint32(plic, "priority-base", PRIORITY_BASE);
    qdev_prop_set_uint32(plic, "pending-base", PENDING_BASE);
    qdev_prop_set_uint32(plic, "enable-base", ENABLE_BASE);
    qdev_prop_set_uint32(plic, "enable-stride", ENABLE_STRIDE);
    qdev_prop_set_uint32(plic, "context-base", CONTEXT_BASE);
    qdev_prop_set_uint32(plic, "context-stride", CONTEXT_STRIDE);
    qdev_prop_set_uint32(plic, "aperture-size", THEAD_C900_PLIC_SIZE);
    object_property_add_child(OBJECT(dev), "sifive-plic", OBJECT(plic));
    if (!sysbus_realize_and_unref(SYS_BUS_DEVICE(plic), errp)) {
        return;
    }
    s->plic = SIFIVE_PLIC(plic);
    s->level = g_new0(bool, s->num_sources);
    qdev_init_gpio_in(dev, thead_c900_plic_irq, s->num_sources);
}

static void thead_c900_plic_init(Object *obj)
{
    TheadC900PlicState *s = THEAD_C900_PLIC(obj);

    memory_region_init_io(&s->iomem, obj, &thead_c900_plic_ops, s,
                          TYPE_THEAD_C900_PLIC, THEAD_C900_PLIC_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

DeviceState *thead_c900_plic_create(hwaddr addr, uint32_t hartid,
                                    uint32_t num_sources)
{
    DeviceState *dev = qdev_new(TYPE_THEAD_C900_PLIC);
    CPUState *cpu = qemu_get_cpu(hartid);
    TheadC900PlicState *s;

    qdev_prop_set_uint32(dev, "num-sources", num_sources);
    qdev_prop_set_uint32(dev, "hartid-base", hartid);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0, addr);
    s = THEAD_C900_PLIC(dev);
    /* sifive_plic's outputs: first the S-mode lines, then the M-mode ones */
    qdev_connect_gpio_out(DEVICE(s->plic), 0,
                          qdev_get_gpio_in(DEVICE(cpu), IRQ_S_EXT));
    qdev_connect_gpio_out(DEVICE(s->plic), 1,
                          qdev_get_gpio_in(DEVICE(cpu), IRQ_M_EXT));
    return dev;
}

static Property thead_c900_plic_properties[] = {
    DEFINE_PROP_UINT32("num-sources", TheadC900PlicState, num_sources, 0),
    DEFINE_PROP_UINT32("hartid-base", TheadC900PlicState, hartid_base, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_thead_c900_plic = {
    .name = "thead-c900-plic",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(s_per, TheadC900PlicState),
        VMSTATE_END_OF_LIST()
    }
};

static void thead_c900_plic_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = thead_c900_plic_reset;
    dc->realize = thead_c900_plic_realize;
    dc->vmsd = &vmstate_thead_c900_plic;
    device_class_set_props(dc, thead_c900_plic_properties);
    dc->desc = "T-Head C900 PLIC";
}

static const TypeInfo thead_c900_plic_info = {
    .name = TYPE_THEAD_C900_PLIC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TheadC900PlicState),
    .instance_init = thead_c900_plic_init,
    .class_init = thead_c900_plic_class_init,
};

static void thead_c900_plic_register(void)
{
    type_register_static(&thead_c900_plic_info);
}

type_init(thead_c900_plic_register)
