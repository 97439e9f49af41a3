/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-06     d1drivers    mount the romfs at /
 */

/*
 * BSP_USING_D1_ROMFS: the romfs the build links in (romfs_root; RT-Thread's
 * tools/mkromfs.py writes one from a directory, scripts/os/rtthread.sh --smart
 * one holding /bin/d1ubench) is mounted at / once the file systems are
 * registered, unless something is mounted there already. Without a
 * generated one RT-Thread's weak default (components/dfs/.../romfs/romfs.c)
 * is what is mounted.
 */

#include <rtthread.h>

#include <dfs_fs.h>
#include <dfs_romfs.h>

#include "d1_rt.h"
#include "d1_rt_wing.h"

int d1_rt_romfs_mount(void)
{
    if (dfs_filesystem_lookup("/") != RT_NULL)
    {
        return 0;
    }
    if (dfs_mount(RT_NULL, "/", "rom", 0, &romfs_root) != 0)
    {
        rt_kprintf("d1romfs: mount of the romfs at / failed (%d)\n", (int)rt_get_errno());
        return -RT_ERROR;
    }
    rt_kprintf("d1romfs: romfs mounted at /\n");
    return 0;
}
INIT_ENV_EXPORT(d1_rt_romfs_mount);
