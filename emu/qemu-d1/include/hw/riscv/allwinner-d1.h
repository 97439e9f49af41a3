/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i, XuanTie C906) machine
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_RISCV_ALLWINNER_D1_H
#define HW_RISCV_ALLWINNER_D1_H

#include "hw/boards.h"
#include "hw/riscv/riscv_hart.h"
#include "target/riscv/c906-timing.h"
#include "hw/timer/allwinner-d1-timer.h"
#include "hw/watchdog/allwinner-d1-wdt.h"
#include "hw/misc/allwinner-d1-ccu.h"
#include "qom/object.h"

#define TYPE_ALLWINNER_D1_MACHINE MACHINE_TYPE_NAME("allwinner-d1")
OBJECT_DECLARE_SIMPLE_TYPE(AwD1MachineState, ALLWINNER_D1_MACHINE)

#define AW_D1_NUM_UARTS 6

struct AwD1MachineState {
    MachineState parent_obj;

    RISCVHartArrayState harts;
    MemoryRegion brom;
    DeviceState *plic;
    AwD1CcuState ccu;
    AwD1TimerState timer;
    AwD1WdtState wdt[3];
    DeviceState *uart[AW_D1_NUM_UARTS];
    void *fdt;
    int fdt_size;

    /* properties */
    bool riscv_wdt_armed;
    bool boot_state;
    bool test_finisher;
    bool sbi_timer;
    bool timing_c906;                   /* timing=c906 */
    uint32_t c906[C906_NPARAMS];        /* c906-<name> */
    bool c906_set[C906_NPARAMS];
};

#endif
