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
/* NOLINTNEXTLINE(bugprone-reserved-identifier): RT-Thread guard style */
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

/* d1_port_delay_us() calls that ended early on a stopped `time` CSR. */
extern volatile uint32_t d1_rt_delay_stalls;

/* Entry points (each also registered with an INIT_*_EXPORT). */
int d1_rt_tick_init(void);
int d1_rt_hwtimer_init(void);
int d1_rt_wdt_init(void);

/* Feeds made by the watchdog KEEP-policy feeder since init. */
rt_uint32_t d1_rt_wdt_keep_feeds(void);

#ifdef BSP_USING_D1_UART
#include "d1/uart.h"

/* Serial device on a D1 UART (drv_d1_uart.c). */
int d1_rt_uart_init(void);
void d1_rt_uart_stats(struct d1_uart_stats *out, rt_uint32_t *fw_dropped,
                      rt_uint32_t *tx_dropped);
/* The library handle under the device (for diagnostics and tests). */
struct d1_uart *d1_rt_uart_handle(void);
#endif

#ifdef BSP_USING_D1_PLIC
#include <rthw.h>
#include "d1/plic.h"

/* Interrupt layer on the library's PLIC (drv_d1_plic.c): reached through
 * the linker's --wrap of the libcpu functions of the same name. */
/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's __wrap_ names */
void __wrap_rt_hw_interrupt_init(void);
rt_isr_handler_t __wrap_rt_hw_interrupt_install(int vector, rt_isr_handler_t handler, void *param,
                                                const char *name);
void __wrap_rt_hw_interrupt_mask(int vector);
void __wrap_rt_hw_interrupt_umask(int vector);
void __wrap_plic_handle_irq(void);
/* NOLINTEND(bugprone-reserved-identifier) */
void d1_rt_plic_stats(struct d1_plic_stats *out, rt_uint32_t *bad_vector, rt_uint32_t *replaced);
rt_uint32_t d1_rt_irq_count(int vector);
#endif

#endif /* __D1_RT_H__ */
