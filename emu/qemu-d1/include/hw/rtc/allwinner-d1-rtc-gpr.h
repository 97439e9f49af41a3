/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) RTC general-purpose registers
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_RTC_ALLWINNER_D1_RTC_GPR_H
#define HW_RTC_ALLWINNER_D1_RTC_GPR_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_ALLWINNER_D1_RTC_GPR "allwinner-d1-rtc-gpr"
OBJECT_DECLARE_SIMPLE_TYPE(AwD1RtcGprState, ALLWINNER_D1_RTC_GPR)

#define AW_D1_RTC_GPR_COUNT     8
#define AW_D1_RTC_GPR_OFFSET    0x100   /* from the RTC's base */
#define AW_D1_RTC_GPR_MMIO_SIZE (AW_D1_RTC_GPR_COUNT * 4)

struct AwD1RtcGprState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    uint32_t gp_data[AW_D1_RTC_GPR_COUNT];
};

#endif
