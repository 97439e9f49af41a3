/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/drivers/include/rtdevice.h: only the
 * frameworks the glue uses. */
#ifndef __RT_DEVICE_H__
#define __RT_DEVICE_H__

#include <rtthread.h>

#ifdef RT_USING_HWTIMER
#include "drivers/hwtimer.h"
#endif
#include "ipc/ringbuffer.h"
#ifdef RT_USING_SERIAL_V2
#include "drivers/serial_v2.h"
#endif
#ifdef RT_USING_WDT
#include "drivers/watchdog.h"
#endif

#endif
