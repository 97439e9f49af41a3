/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RT-Thread / RT-Smart side of the library's OS contract (include/d1/port.h)
 * plus the MMIO mapping and error-code helpers the other glue files share.
 *
 * rt_hw_us_delay() is the BSP's busy wait (include/rthw.h); it never
 * sleeps, so it is usable with interrupts disabled and from an ISR.
 * rt_hw_interrupt_disable()/enable() nest (they save and restore the
 * previous level as an rt_base_t). The D1 has one hart; under
 * RT_USING_SMP rthw.h maps them onto rt_cpus_lock/unlock, which is also a
 * correct (stronger) exclusion.
 */
#include <stddef.h>
#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#ifdef RT_USING_SMART
#include <ioremap.h>
#endif

#include "d1/error.h"
#include "d1/port.h"
#include "d1_rt.h"

void d1_port_delay_us(uint32_t us)
{
	rt_hw_us_delay((rt_uint32_t)us);
}

uintptr_t d1_port_critical_enter(void)
{
	return (uintptr_t)rt_hw_interrupt_disable();
}

void d1_port_critical_exit(uintptr_t state)
{
	rt_hw_interrupt_enable((rt_base_t)state);
}

uintptr_t d1_rt_map(uintptr_t paddr, size_t size)
{
#ifdef RT_USING_SMART
	/* Device memory, uncached (components/mm/ioremap.h). */
	return (uintptr_t)rt_ioremap_nocache((void *)paddr, size);
#else
	(void)size;
	return paddr;
#endif
}

rt_err_t d1_rt_err(int err)
{
	switch (err) {
	case D1_OK:
		return RT_EOK;
	case D1_EINVAL:
	case D1_ERANGE:
		return -RT_EINVAL;
	case D1_ETIMEDOUT:
		return -RT_ETIMEOUT;
	case D1_ENOTSUP:
		return -RT_ENOSYS;
	case D1_EBUSY:
	case D1_EAGAIN:
		return -RT_EBUSY;
	case D1_ESTATE:
	case D1_ENODELEG:
	default:
		return -RT_ERROR;
	}
}
