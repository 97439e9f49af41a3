/* SPDX-License-Identifier: Apache-2.0 */
/* Host-test configuration of the RT-Thread glue (stand-in for the
 * rtconfig.h that menuconfig writes into a BSP). */
#ifndef RT_CONFIG_H__
#define RT_CONFIG_H__

#define RT_NAME_MAX            20
#define RT_THREAD_PRIORITY_MAX 32
#ifndef RT_TICK_PER_SECOND
#define RT_TICK_PER_SECOND 1000
#endif
#define RT_USING_HWTIMER
#define RT_USING_WDT
#define RT_USING_SERIAL_V2
#define RT_USING_CONSOLE

/* Defaults of ports/rtsmart/Kconfig; a test may override them with -D. */
#define BSP_USING_D1DRIVERS
#define BSP_USING_D1_HWTIMER
#if !defined(BSP_D1_HWTIMER_TIMER0) && !defined(BSP_D1_HWTIMER_TIMER1)
#define BSP_D1_HWTIMER_TIMER0
#endif
#ifndef BSP_D1_HWTIMER_NAME
#define BSP_D1_HWTIMER_NAME "d1timer0"
#endif
#define BSP_USING_D1_WDT
#if !defined(BSP_D1_WDT_RISCV) && !defined(BSP_D1_WDT_R) && !defined(BSP_D1_WDT_TIMER)
#define BSP_D1_WDT_RISCV
#endif
#ifndef BSP_D1_WDT_NAME
#define BSP_D1_WDT_NAME "d1wdt"
#endif
#if !defined(BSP_D1_WDT_TAKEOVER_STOP) && !defined(BSP_D1_WDT_TAKEOVER_KEEP)
#define BSP_D1_WDT_TAKEOVER_STOP
#endif

#endif
