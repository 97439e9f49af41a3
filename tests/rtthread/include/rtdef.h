/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for RT-Thread's include/rtdef.h: only the declarations the
 * d1drivers glue and its host tests use, written to the same signatures
 * (tests/rtthread/check_standins.py compares them with a real tree).
 * Host build: 64-bit, like the c906 target (long is 64 bits on both).
 */
#ifndef __RT_DEF_H__
#define __RT_DEF_H__

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <rtconfig.h>

typedef int rt_bool_t;
typedef signed long rt_base_t;
typedef unsigned long rt_ubase_t;
typedef int8_t rt_int8_t;
typedef int16_t rt_int16_t;
typedef int32_t rt_int32_t;
typedef uint8_t rt_uint8_t;
typedef uint16_t rt_uint16_t;
typedef uint32_t rt_uint32_t;
typedef uint64_t rt_uint64_t;
typedef size_t rt_size_t;
typedef ssize_t rt_ssize_t;
typedef rt_base_t rt_err_t;
typedef rt_uint32_t rt_tick_t;
typedef rt_base_t rt_off_t;

#define RT_TRUE  1
#define RT_FALSE 0
#define RT_NULL  0

#define RT_EOK      0
#define RT_ERROR    1
#define RT_ETIMEOUT 2
#define RT_EFULL    3
#define RT_EEMPTY   4
#define RT_ENOMEM   5
#define RT_ENOSYS   6
#define RT_EBUSY    7
#define RT_EIO      8
#define RT_EINTR    9
#define RT_EINVAL   10

#define rt_inline static __inline

/* Automatic initialisation: the host tests call the functions directly
 * (the real macros define a section entry and take the same ';'). */
#define INIT_DEVICE_EXPORT(fn) typedef int rtt_host_init_##fn##_t
#define INIT_BOARD_EXPORT(fn)  typedef int rtt_host_init_##fn##_t
#define INIT_PREV_EXPORT(fn)   typedef int rtt_host_init_##fn##_t
#define INIT_APP_EXPORT(fn)    typedef int rtt_host_init_##fn##_t

enum rt_device_class_type {
	RT_Device_Class_Char = 0,
	RT_Device_Class_Block,
	RT_Device_Class_NetIf,
	RT_Device_Class_MTD,
	RT_Device_Class_CAN,
	RT_Device_Class_RTC,
	RT_Device_Class_Sound,
	RT_Device_Class_Graphic,
	RT_Device_Class_I2CBUS,
	RT_Device_Class_USBDevice,
	RT_Device_Class_USBHost,
	RT_Device_Class_USBOTG,
	RT_Device_Class_SPIBUS,
	RT_Device_Class_SPIDevice,
	RT_Device_Class_SDIO,
	RT_Device_Class_PM,
	RT_Device_Class_Pipe,
	RT_Device_Class_Portal,
	RT_Device_Class_Timer,
	RT_Device_Class_Miscellaneous,
	RT_Device_Class_Sensor,
	RT_Device_Class_Touch,
	RT_Device_Class_PHY,
	RT_Device_Class_Security,
	RT_Device_Class_WLAN,
	RT_Device_Class_Pin,
	RT_Device_Class_ADC,
	RT_Device_Class_DAC,
	RT_Device_Class_WDT,
	RT_Device_Class_PWM,
	RT_Device_Class_Bus,
	RT_Device_Class_Unknown
};

#define RT_DEVICE_FLAG_DEACTIVATE 0x000
#define RT_DEVICE_FLAG_RDWR       0x003
#define RT_DEVICE_FLAG_STANDALONE 0x008
#define RT_DEVICE_FLAG_ACTIVATED  0x010
#define RT_DEVICE_OFLAG_CLOSE     0x000
#define RT_DEVICE_OFLAG_RDWR      0x003
#define RT_DEVICE_OFLAG_OPEN      0x008
#define RT_DEVICE_OFLAG_MASK      0xf0f

#define RT_DEVICE_CTRL_CONFIG  0x03
#define RT_DEVICE_CTRL_CLOSE   0x04
#define RT_DEVICE_CTRL_SET_INT 0x06
#define RT_DEVICE_CTRL_CLR_INT 0x07

#define RT_DEVICE_CTRL_BASE(Type) ((RT_Device_Class_##Type + 1) * 0x100)

#define RT_TIMER_FLAG_PERIODIC   0x2
#define RT_TIMER_FLAG_HARD_TIMER 0x0
#define RT_TIMER_FLAG_SOFT_TIMER 0x4

/* Opaque here: the glue only holds rt_timer_create()'s pointer. */
typedef struct rt_timer *rt_timer_t;

#define RT_IPC_FLAG_PRIO               0x01
#define RT_THREAD_CTRL_CHANGE_PRIORITY 0x02
#define RT_WAITING_FOREVER             -1

/* Opaque here: the glue only holds the pointers the kernel returns. */
typedef struct rt_thread *rt_thread_t;
typedef struct rt_semaphore *rt_sem_t;

typedef struct rt_device *rt_device_t;

#ifdef RT_USING_DEVICE_OPS
struct rt_device_ops {
	rt_err_t (*init)(rt_device_t dev);
	rt_err_t (*open)(rt_device_t dev, rt_uint16_t oflag);
	rt_err_t (*close)(rt_device_t dev);
	rt_ssize_t (*read)(rt_device_t dev, rt_off_t pos, void *buffer, rt_size_t size);
	rt_ssize_t (*write)(rt_device_t dev, rt_off_t pos, const void *buffer, rt_size_t size);
	rt_err_t (*control)(rt_device_t dev, int cmd, void *args);
};
#endif

/* The object head is reduced to its name: nothing here reads the rest. */
struct rt_object {
	char name[RT_NAME_MAX];
};

struct rt_device {
	struct rt_object parent;
	enum rt_device_class_type type;
	rt_uint16_t flag;
	rt_uint16_t open_flag;
	rt_uint8_t ref_count;
	rt_uint8_t device_id;
	rt_err_t (*rx_indicate)(rt_device_t dev, rt_size_t size);
	rt_err_t (*tx_complete)(rt_device_t dev, void *buffer);
#ifdef RT_USING_DEVICE_OPS
	const struct rt_device_ops *ops;
#else
	rt_err_t (*init)(rt_device_t dev);
	rt_err_t (*open)(rt_device_t dev, rt_uint16_t oflag);
	rt_err_t (*close)(rt_device_t dev);
	rt_ssize_t (*read)(rt_device_t dev, rt_off_t pos, void *buffer, rt_size_t size);
	rt_ssize_t (*write)(rt_device_t dev, rt_off_t pos, const void *buffer, rt_size_t size);
	rt_err_t (*control)(rt_device_t dev, int cmd, void *args);
#endif
	void *user_data;
};

#endif
