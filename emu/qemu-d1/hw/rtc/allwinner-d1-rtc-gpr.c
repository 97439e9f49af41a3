/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) RTC general-purpose registers
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * The eight 32-bit GP_DATA registers of the D1's RTC block, at RTC base
 * 0x07090000 + 0x100 + 4 n (SVD d1_unofficial.svd, peripheral RTC,
 * gp_data%s, "General Purpose Register").  The rest of the RTC (LOSC, the
 * calendar, alarms, DCXO, ...) stays an unimplemented device under this
 * one.
 *
 * They sit in the RTC power domain: a system reset (watchdog, SOFT_RST)
 * leaves them as they are.  Allwinner's own D1 boot chain depends on that
 * (its boot0 reads a FEL / crash-dump flag from index 2 after a reboot, its
 * U-Boot a boot-mode flag from index 6 that the kernel wrote before
 * rebooting; d1drivers docs/reliability.md), so this device has no reset
 * handler: only power-on (QEMU start) gives them their values, the
 * gp-data0..7 properties (default 0: the SVD gives no reset value; with
 * a coin cell the board would keep whatever was last written, which a
 * property can stand for).
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "hw/rtc/allwinner-d1-rtc-gpr.h"
#include "migration/vmstate.h"

static uint64_t aw_d1_rtc_gpr_read(void *opaque, hwaddr offset,
                                   unsigned size)
{
    AwD1RtcGprState *s = opaque;

    return s->gp_data[offset / 4];
}

static void aw_d1_rtc_gpr_write(void *opaque, hwaddr offset, uint64_t value,
                                unsigned size)
{
    AwD1RtcGprState *s = opaque;

    s->gp_data[offset / 4] = value;
}

static const MemoryRegionOps aw_d1_rtc_gpr_ops = {
    .read = aw_d1_rtc_gpr_read,
    .write = aw_d1_rtc_gpr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl.min_access_size = 4,
};

static void aw_d1_rtc_gpr_init(Object *obj)
{
    AwD1RtcGprState *s = ALLWINNER_D1_RTC_GPR(obj);

    memory_region_init_io(&s->iomem, obj, &aw_d1_rtc_gpr_ops, s,
                          TYPE_ALLWINNER_D1_RTC_GPR, AW_D1_RTC_GPR_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

static Property aw_d1_rtc_gpr_properties[] = {
    DEFINE_PROP_UINT32("gp-data0", AwD1RtcGprState, gp_data[0], 0),
    DEFINE_PROP_UINT32("gp-data1", AwD1RtcGprState, gp_data[1], 0),
    DEFINE_PROP_UINT32("gp-data2", AwD1RtcGprState, gp_data[2], 0),
    DEFINE_PROP_UINT32("gp-data3", AwD1RtcGprState, gp_data[3], 0),
    DEFINE_PROP_UINT32("gp-data4", AwD1RtcGprState, gp_data[4], 0),
    DEFINE_PROP_UINT32("gp-data5", AwD1RtcGprState, gp_data[5], 0),
    DEFINE_PROP_UINT32("gp-data6", AwD1RtcGprState, gp_data[6], 0),
    DEFINE_PROP_UINT32("gp-data7", AwD1RtcGprState, gp_data[7], 0),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_aw_d1_rtc_gpr = {
    .name = "allwinner-d1-rtc-gpr",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(gp_data, AwD1RtcGprState, AW_D1_RTC_GPR_COUNT),
        VMSTATE_END_OF_LIST()
    }
};

static void aw_d1_rtc_gpr_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    /* No dc->reset: a system reset keeps the RTC domain (header comment). */
    dc->vmsd = &vmstate_aw_d1_rtc_gpr;
    device_class_set_props(dc, aw_d1_rtc_gpr_properties);
    dc->desc = "Allwinner D1 RTC general-purpose registers";
}

static const TypeInfo aw_d1_rtc_gpr_info = {
    .name = TYPE_ALLWINNER_D1_RTC_GPR,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AwD1RtcGprState),
    .instance_init = aw_d1_rtc_gpr_init,
    .class_init = aw_d1_rtc_gpr_class_init,
};

static void aw_d1_rtc_gpr_register(void)
{
    type_register_static(&aw_d1_rtc_gpr_info);
}

type_init(aw_d1_rtc_gpr_register)
