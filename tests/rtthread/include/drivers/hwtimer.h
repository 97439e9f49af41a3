/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/drivers/include/drivers/hwtimer.h. */
#ifndef __HWTIMER_H__
#define __HWTIMER_H__

#include <rtthread.h>

typedef enum {
	HWTIMER_CTRL_FREQ_SET = RT_DEVICE_CTRL_BASE(Timer) + 0x01,
	HWTIMER_CTRL_STOP = RT_DEVICE_CTRL_BASE(Timer) + 0x02,
	HWTIMER_CTRL_INFO_GET = RT_DEVICE_CTRL_BASE(Timer) + 0x03,
	HWTIMER_CTRL_MODE_SET = RT_DEVICE_CTRL_BASE(Timer) + 0x04
} rt_hwtimer_ctrl_t;

typedef enum { HWTIMER_MODE_ONESHOT = 0x01, HWTIMER_MODE_PERIOD } rt_hwtimer_mode_t;

typedef struct rt_hwtimerval {
	rt_int32_t sec;
	rt_int32_t usec;
} rt_hwtimerval_t;

#define HWTIMER_CNTMODE_UP 0x01
#define HWTIMER_CNTMODE_DW 0x02

struct rt_hwtimer_device;

struct rt_hwtimer_ops {
	void (*init)(struct rt_hwtimer_device *timer, rt_uint32_t state);
	rt_err_t (*start)(struct rt_hwtimer_device *timer, rt_uint32_t cnt, rt_hwtimer_mode_t mode);
	void (*stop)(struct rt_hwtimer_device *timer);
	rt_uint32_t (*count_get)(struct rt_hwtimer_device *timer);
	rt_err_t (*control)(struct rt_hwtimer_device *timer, rt_uint32_t cmd, void *args);
};

struct rt_hwtimer_info {
	rt_int32_t maxfreq;
	rt_int32_t minfreq;
	rt_uint32_t maxcnt;
	rt_uint8_t cntmode;
};

typedef struct rt_hwtimer_device {
	struct rt_device parent;
	const struct rt_hwtimer_ops *ops;
	const struct rt_hwtimer_info *info;
	rt_int32_t freq;
	rt_int32_t overflow;
	float period_sec;
	rt_int32_t cycles;
	rt_int32_t reload;
	rt_hwtimer_mode_t mode;
} rt_hwtimer_t;

rt_err_t rt_device_hwtimer_register(rt_hwtimer_t *timer, const char *name, void *user_data);
void rt_device_hwtimer_isr(rt_hwtimer_t *timer);

#endif
