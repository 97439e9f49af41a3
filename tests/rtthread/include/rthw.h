/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's include/rthw.h, non-SMP part (see rtdef.h). */
#ifndef __RT_HW_H__
#define __RT_HW_H__

#include <rtthread.h>

typedef void (*rt_isr_handler_t)(int vector, void *param);

void rt_hw_interrupt_mask(int vector);
void rt_hw_interrupt_umask(int vector);
rt_isr_handler_t rt_hw_interrupt_install(int vector, rt_isr_handler_t handler, void *param,
                                         const char *name);
rt_base_t rt_hw_interrupt_disable(void);
void rt_hw_interrupt_enable(rt_base_t level);
void rt_hw_us_delay(rt_uint32_t us);

#endif
