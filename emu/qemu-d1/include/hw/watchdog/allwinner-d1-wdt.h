/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) watchdog, with the D1's 0x16AA write key
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_WATCHDOG_ALLWINNER_D1_WDT_H
#define HW_WATCHDOG_ALLWINNER_D1_WDT_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_ALLWINNER_D1_WDT "allwinner-d1-wdt"
OBJECT_DECLARE_SIMPLE_TYPE(AwD1WdtState, ALLWINNER_D1_WDT)

#define AW_D1_WDT_MMIO_SIZE 0x20

struct AwD1WdtState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    QEMUTimer timer;
    QEMUTimer hold;         /* holds virtual time while a reset is pending */
    qemu_irq irq;

    uint32_t irq_en;
    uint32_t irq_sta;
    uint32_t cfg;
    uint32_t mode;
    uint32_t output_cfg;
    int64_t started_ns;     /* last enable or restart */
    bool reset_pending;     /* this instance asked for a system reset */

    /* properties */
    char *name;             /* instance name, for the logs */
    bool has_soft_reset;    /* SOFT_RST exists (timer-block instance) */
    bool armed_at_reset;    /* power-on state: running, 16 s, reset mode */
};

#endif
