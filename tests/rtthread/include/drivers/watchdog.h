/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/drivers/include/drivers/watchdog.h. */
#ifndef __WATCHDOG_H__
#define __WATCHDOG_H__

#include <rtthread.h>

#define RT_DEVICE_CTRL_WDT_GET_TIMEOUT  (RT_DEVICE_CTRL_BASE(WDT) + 1)
#define RT_DEVICE_CTRL_WDT_SET_TIMEOUT  (RT_DEVICE_CTRL_BASE(WDT) + 2)
#define RT_DEVICE_CTRL_WDT_GET_TIMELEFT (RT_DEVICE_CTRL_BASE(WDT) + 3)
#define RT_DEVICE_CTRL_WDT_KEEPALIVE    (RT_DEVICE_CTRL_BASE(WDT) + 4)
#define RT_DEVICE_CTRL_WDT_START        (RT_DEVICE_CTRL_BASE(WDT) + 5)
#define RT_DEVICE_CTRL_WDT_STOP         (RT_DEVICE_CTRL_BASE(WDT) + 6)

struct rt_watchdog_ops;
struct rt_watchdog_device {
	struct rt_device parent;
	const struct rt_watchdog_ops *ops;
};
typedef struct rt_watchdog_device rt_watchdog_t;

struct rt_watchdog_ops {
	rt_err_t (*init)(rt_watchdog_t *wdt);
	rt_err_t (*control)(rt_watchdog_t *wdt, int cmd, void *arg);
};

rt_err_t rt_hw_watchdog_register(rt_watchdog_t *wdt, const char *name, rt_uint32_t flag,
                                 void *data);

#endif
