/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/drivers/include/ipc/ringbuffer.h. */
#ifndef RINGBUFFER_H__
#define RINGBUFFER_H__

#include <rtdef.h>

struct rt_ringbuffer {
	rt_uint8_t *buffer_ptr;
	rt_uint32_t read_mirror : 1;
	rt_uint32_t read_index : 31;
	rt_uint32_t write_mirror : 1;
	rt_uint32_t write_index : 31;
	rt_int32_t buffer_size;
};

void rt_ringbuffer_init(struct rt_ringbuffer *rb, rt_uint8_t *pool, rt_int32_t size);
rt_size_t rt_ringbuffer_putchar(struct rt_ringbuffer *rb, const rt_uint8_t ch);
rt_size_t rt_ringbuffer_getchar(struct rt_ringbuffer *rb, rt_uint8_t *ch);
rt_size_t rt_ringbuffer_put(struct rt_ringbuffer *rb, const rt_uint8_t *ptr, rt_uint32_t length);
rt_size_t rt_ringbuffer_get(struct rt_ringbuffer *rb, rt_uint8_t *ptr, rt_uint32_t length);
rt_size_t rt_ringbuffer_data_len(struct rt_ringbuffer *rb);

#endif
