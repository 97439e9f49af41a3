/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/mm/ioremap.h (RT-Smart's MMIO
 * mapping); the host test that defines RT_USING_SMART implements it. */
#ifndef __IOREMAP_H__
#define __IOREMAP_H__

#include <stddef.h>

void *rt_ioremap_nocache(void *paddr, size_t size);

#endif
