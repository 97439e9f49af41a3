/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-07     d1drivers    the bench wing's entry points
 */

/*
 * Entry points of the d1drivers bench wing for RT-Thread (each also
 * registered with an INIT_*_EXPORT). The port's glue (ports/rtsmart) knows
 * none of them.
 */

#ifndef D1_RT_WING_H__
#define D1_RT_WING_H__

int d1_rt_bench_dev_init(void);
int d1_rt_romfs_mount(void);

#endif /* D1_RT_WING_H__ */
