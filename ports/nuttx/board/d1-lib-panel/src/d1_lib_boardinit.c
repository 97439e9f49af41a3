/****************************************************************************
 * ports/nuttx/board/d1-lib-panel/src/d1_lib_boardinit.c
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.  The
 * ASF licenses this file to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance with the
 * License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 * WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.  See the
 * License for the specific language governing permissions and limitations
 * under the License.
 *
 ****************************************************************************/

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <syslog.h>

#include <nuttx/board.h>

#ifdef CONFIG_FS_PROCFS
#  include <sys/mount.h>
#endif

#include "d1_nuttx.h"

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: board_early_initialize
 *
 * Description:
 *   Runs after up_initialize(), before the idle task opens /dev/console:
 *   registers the library's UART0 as the console.
 *
 ****************************************************************************/

#ifdef CONFIG_BOARD_EARLY_INITIALIZE
void board_early_initialize(void)
{
#if defined(CONFIG_D1LIB_UART0) && defined(CONFIG_SERIAL)
  d1_nuttx_serial_register();
#endif
}
#endif

/****************************************************************************
 * Name: board_late_initialize
 *
 * Description:
 *   Runs on the init thread before the application, with the VFS up:
 *   procfs, the riscv_wdt report and takeover, then /dev/timer0.
 *
 ****************************************************************************/

#ifdef CONFIG_BOARD_LATE_INITIALIZE
void board_late_initialize(void)
{
  int ret;

#ifdef CONFIG_FS_PROCFS
  ret = mount(NULL, "/proc", "procfs", 0, NULL);
  if (ret < 0)
    {
      syslog(LOG_ERR, "d1lib: procfs mount failed: %d\n", ret);
    }
#endif

#ifdef CONFIG_D1LIB_WDT
#  ifdef CONFIG_D1LIB_WDT_LOWERHALF
  ret = d1_nuttx_wdt_initialize(CONFIG_D1LIB_WDT_DEVPATH);
#  else
  ret = d1_nuttx_wdt_initialize(NULL);
#  endif
  if (ret < 0)
    {
      syslog(LOG_ERR, "d1lib: watchdog init failed: %d\n", ret);
    }
#endif

#ifdef CONFIG_D1LIB_TICK_PROBE
  d1_nuttx_tick_probe(CONFIG_D1LIB_TICK_PROBE_TICKS);
#endif

#ifdef CONFIG_D1LIB_TIMER0
  ret = d1_nuttx_timer0_register(CONFIG_D1LIB_TIMER0_DEVPATH);
  if (ret < 0)
    {
      syslog(LOG_ERR, "d1lib: timer0 register failed: %d\n", ret);
    }
#endif

  UNUSED(ret);
}
#endif
