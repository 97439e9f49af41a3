/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Late board initialisation of d1-lib-panel: procfs, then the library's
 * Timer0 lower-half and the riscv_wdt takeover + lower-half.
 */
#include <nuttx/config.h>

#include <syslog.h>

#include <nuttx/board.h>

#ifdef CONFIG_FS_PROCFS
#include <sys/mount.h>
#endif

#include "d1_nuttx.h"

void board_late_initialize(void)
{
	int ret;

#ifdef CONFIG_FS_PROCFS
	ret = mount(NULL, "/proc", "procfs", 0, NULL);
	if (ret < 0)
		syslog(LOG_ERR, "d1lib: procfs mount failed: %d\n", ret);
#endif

#ifdef CONFIG_WATCHDOG
	ret = d1_nuttx_wdt_initialize(CONFIG_D1LIB_WDT_DEVPATH);
#else
	ret = d1_nuttx_wdt_initialize(NULL);
#endif
	if (ret < 0)
		syslog(LOG_ERR, "d1lib: watchdog init failed: %d\n", ret);

#ifdef CONFIG_TIMER
	ret = d1_nuttx_timer0_register(CONFIG_D1LIB_TIMER0_DEVPATH);
	if (ret < 0)
		syslog(LOG_ERR, "d1lib: timer0 register failed: %d\n", ret);
#endif
	(void)ret;
}
