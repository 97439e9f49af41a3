/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    shared helpers of the d1drivers glue
 */

#ifndef __D1_RT_H__
#define __D1_RT_H__

#include <stddef.h>
#include <stdint.h>

#include <rtthread.h>

/* Map an MMIO window: rt_ioremap_nocache() under RT_USING_SMART (the
 * kernel runs with the MMU on), the physical address otherwise. Returns 0
 * if the mapping failed. */
uintptr_t d1_rt_map(uintptr_t paddr, size_t size);

/* d1_err_t -> negative RT-Thread error code (RT_EOK for D1_OK). */
rt_err_t d1_rt_err(int err);

/* Entry points (each also registered with an INIT_*_EXPORT). */
int d1_rt_tick_init(void);
int d1_rt_hwtimer_init(void);
int d1_rt_wdt_init(void);

/* Feeds made by the watchdog KEEP-policy feeder since init. */
rt_uint32_t d1_rt_wdt_keep_feeds(void);

#endif /* __D1_RT_H__ */
