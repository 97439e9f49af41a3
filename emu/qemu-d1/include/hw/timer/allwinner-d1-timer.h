/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) Timer block: Timer0 and Timer1
 *
 * Copyright (c) 2026 The d1drivers authors
 */

#ifndef HW_TIMER_ALLWINNER_D1_TIMER_H
#define HW_TIMER_ALLWINNER_D1_TIMER_H

#include "hw/sysbus.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_ALLWINNER_D1_TIMER "allwinner-d1-timer"
OBJECT_DECLARE_SIMPLE_TYPE(AwD1TimerState, ALLWINNER_D1_TIMER)

#define AW_D1_TIMER_NUM      2
/* The timers' registers end where the watchdog starts (+0xA0). */
#define AW_D1_TIMER_MMIO_SIZE 0xa0

typedef struct AwD1TimerUnit {
    struct AwD1TimerState *parent;
    int index;
    QEMUTimer timer;
    uint32_t ctrl;          /* without the self-clearing RELOAD bit */
    uint32_t intv;
    uint32_t cur;           /* value at origin (running) or latched */
    uint64_t origin;        /* input-clock index where counter == cur */
    int64_t reload_until_ns; /* RELOAD reads 1 until then */
    int64_t sync_until_ns;  /* writes dropped until then (sync time) */
    bool running;
} AwD1TimerUnit;

struct AwD1TimerState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq[AW_D1_TIMER_NUM];
    uint32_t irq_en;
    uint32_t irq_sta;
    uint32_t osc24m_hz;
    uint32_t losc_hz;
    uint32_t sync_clocks;
    AwD1TimerUnit t[AW_D1_TIMER_NUM];
};

#endif
