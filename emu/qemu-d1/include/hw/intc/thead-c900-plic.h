/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * T-Head C900 PLIC (as on the Allwinner D1): QEMU's SiFive PLIC plus the
 * PLIC_CTRL.S_PER privilege gate and the T-Head completion rules
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_INTC_THEAD_C900_PLIC_H
#define HW_INTC_THEAD_C900_PLIC_H

#include "hw/sysbus.h"
#include "hw/intc/sifive_plic.h"
#include "qom/object.h"

#define TYPE_THEAD_C900_PLIC "thead-c900-plic"
OBJECT_DECLARE_SIMPLE_TYPE(TheadC900PlicState, THEAD_C900_PLIC)

#define THEAD_C900_PLIC_SIZE 0x4000000

struct TheadC900PlicState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    SiFivePLICState *plic;      /* the standard part, QEMU's model */
    bool *level;                /* input line levels */
    uint32_t s_per;             /* PLIC_CTRL bit0 */
    uint64_t denied;            /* accesses refused by the privilege gate */

    /* properties */
    uint32_t num_sources;       /* highest source id + 1 */
    uint32_t hartid_base;
};

/* Create, map at @addr and wire to hart @hartid's M and S external IRQs. */
DeviceState *thead_c900_plic_create(hwaddr addr, uint32_t hartid,
                                    uint32_t num_sources);

#endif
