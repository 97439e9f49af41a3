/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) Clock Control Unit
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_MISC_ALLWINNER_D1_CCU_H
#define HW_MISC_ALLWINNER_D1_CCU_H

#include "hw/sysbus.h"
#include "hw/clock.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_ALLWINNER_D1_CCU "allwinner-d1-ccu"
OBJECT_DECLARE_SIMPLE_TYPE(AwD1CcuState, ALLWINNER_D1_CCU)

#define AW_D1_CCU_MMIO_SIZE 0x1000
#define AW_D1_CCU_NUM_UARTS 6

struct AwD1CcuState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    uint32_t regs[AW_D1_CCU_MMIO_SIZE / 4];
    int64_t pll_enabled_ns[AW_D1_CCU_MMIO_SIZE / 4];
    QEMUTimer lock_timer;   /* PLL_PERI0's lock: the UART clocks follow */
    uint64_t core_violations;   /* writes that left the core unclocked */

    /* UARTn bus clock: APB1 while gated on and out of reset, else 0 */
    Clock *uart_clk[AW_D1_CCU_NUM_UARTS];
    /* UARTn reset line, high while CCU UART_BGR holds it in reset */
    qemu_irq uart_reset[AW_D1_CCU_NUM_UARTS];

    /* properties */
    bool boot_state;        /* start as the vendor boot chain leaves it */
    uint32_t pll_lock_us;   /* modelled PLL lock time */
};

#endif
