/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    MMIO mapping and error mapping of the glue
 */

#include <stddef.h>
#include <stdint.h>

#include <rtthread.h>

#ifdef RT_USING_SMART
#include <ioremap.h>
#endif

#include "d1/error.h"
#include "d1_rt.h"

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

/* Every d1_err_t value (include/d1/error.h) has its own line, so a new
 * library code shows up here as -RT_ERROR until it is mapped on purpose. */
rt_err_t d1_rt_err(int err)
{
    switch (err)
    {
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
        return -RT_EBUSY;
    case D1_EAGAIN:
        return -RT_EEMPTY;
    case D1_ESTATE:
    case D1_ENODELEG:
    default:
        return -RT_ERROR;
    }
}
