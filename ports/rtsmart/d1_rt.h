/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers of the RT-Thread / RT-Smart glue (ports/rtsmart).
 */
#ifndef D1_RT_H
#define D1_RT_H

#include <stddef.h>
#include <stdint.h>

#include <rtthread.h>

/* Map an MMIO window: rt_ioremap_nocache() under RT_USING_SMART (kernel
 * runs with the MMU on), the physical address otherwise. Returns 0 if the
 * mapping failed. */
uintptr_t d1_rt_map(uintptr_t paddr, size_t size);

/* d1_err_t -> negative RT-Thread error code (RT_EOK for D1_OK). */
rt_err_t d1_rt_err(int err);

/* Board entry points (call from rt_hw_board_init / an INIT_*_EXPORT). */
int d1_rt_tick_init(void);
int d1_rt_hwtimer_init(void);
int d1_rt_wdt_init(void);

#endif /* D1_RT_H */
