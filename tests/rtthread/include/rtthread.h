/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's include/rtthread.h (see rtdef.h). */
#ifndef __RT_THREAD_H__
#define __RT_THREAD_H__

#include <rtdef.h>

rt_tick_t rt_tick_get(void);
void rt_tick_increase(void);
rt_tick_t rt_tick_from_millisecond(rt_int32_t ms);

rt_timer_t rt_timer_create(const char *name, void (*timeout)(void *parameter), void *parameter,
                           rt_tick_t time, rt_uint8_t flag);
rt_err_t rt_timer_start(rt_timer_t timer);
rt_err_t rt_timer_stop(rt_timer_t timer);
int rt_kprintf(const char *fmt, ...);
void rt_kputs(const char *str);
void *rt_malloc(rt_size_t nbytes);
void rt_free(void *ptr);

rt_thread_t rt_thread_create(const char *name, void (*entry)(void *parameter), void *parameter,
                             rt_uint32_t stack_size, rt_uint8_t priority, rt_uint32_t tick);
rt_err_t rt_thread_startup(rt_thread_t thread);
rt_err_t rt_thread_delete(rt_thread_t thread);
rt_err_t rt_thread_mdelay(rt_int32_t ms);
rt_thread_t rt_thread_self(void);
rt_err_t rt_thread_control(rt_thread_t thread, int cmd, void *arg);
rt_sem_t rt_sem_create(const char *name, rt_uint32_t value, rt_uint8_t flag);
rt_err_t rt_sem_delete(rt_sem_t sem);
rt_err_t rt_sem_take(rt_sem_t sem, rt_int32_t timeout);
rt_err_t rt_sem_trytake(rt_sem_t sem);
rt_err_t rt_sem_release(rt_sem_t sem);
void *rt_memcpy(void *dest, const void *src, rt_ubase_t n);
void *rt_memset(void *src, int c, rt_ubase_t n);

rt_device_t rt_device_find(const char *name);
rt_err_t rt_device_register(rt_device_t dev, const char *name, rt_uint16_t flags);
rt_err_t rt_device_open(rt_device_t dev, rt_uint16_t oflag);
rt_err_t rt_device_close(rt_device_t dev);
rt_ssize_t rt_device_read(rt_device_t dev, rt_off_t pos, void *buffer, rt_size_t size);
rt_ssize_t rt_device_write(rt_device_t dev, rt_off_t pos, const void *buffer, rt_size_t size);
rt_err_t rt_device_control(rt_device_t dev, int cmd, void *arg);
rt_device_t rt_console_set_device(const char *name);
rt_device_t rt_console_get_device(void);

#endif
