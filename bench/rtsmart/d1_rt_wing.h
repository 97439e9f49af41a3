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
 * Entry points of the d1drivers bench wing for RT-Thread (the first two
 * also registered with an INIT_*_EXPORT), and what its files share. The
 * port's glue (ports/rtsmart) knows none of them.
 */

#ifndef D1_RT_WING_H__
#define D1_RT_WING_H__

#include <stdbool.h>

struct d1_lat;
struct d1_lat_meta;

int d1_rt_bench_dev_init(void);
int d1_rt_romfs_mount(void);

/* d1_rt_bench.c, shared with d1_rt_svc.c: the comparison's load threads
 * (a 64 KiB copy and console lines, below every bench thread) and a
 * recorder's reports (text, JSON line, dump line) on the console. */
bool d1_load_start(void);
void d1_load_end(void);
void d1_load_hold(bool hold);
void d1_rt_report(const struct d1_lat *r, const struct d1_lat_meta *meta);

#endif /* D1_RT_WING_H__ */
