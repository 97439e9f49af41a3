/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/timers/watchdog.h> (CONFIG_WATCHDOG, no automonitor):
 * the watchdog lower-half interface the riscv_wdt glue (d1_nuttx_wdt.c)
 * implements, member for member and in order as in NuttX 4ebc8a7291df, for
 * what is declared here. The test implements watchdog_register().
 */
#ifndef D1_TEST_NUTTX_TIMERS_WATCHDOG_H
#define D1_TEST_NUTTX_TIMERS_WATCHDOG_H

#include <stdint.h>

#include <nuttx/irq.h>

#define WDFLAGS_ACTIVE (1 << 0) /* counting */
#define WDFLAGS_RESET  (1 << 1) /* expiry resets the system */

struct watchdog_status_s {
	uint32_t flags;
	uint32_t timeout;  /* ms */
	uint32_t timeleft; /* ms */
};

struct watchdog_lowerhalf_s;
struct watchdog_ops_s {
	int (*start)(struct watchdog_lowerhalf_s *lower);
	int (*stop)(struct watchdog_lowerhalf_s *lower);
	int (*keepalive)(struct watchdog_lowerhalf_s *lower);
	int (*getstatus)(struct watchdog_lowerhalf_s *lower, struct watchdog_status_s *status);
	int (*settimeout)(struct watchdog_lowerhalf_s *lower, uint32_t timeout);
	xcpt_t (*capture)(struct watchdog_lowerhalf_s *lower, xcpt_t handler);
	int (*ioctl)(struct watchdog_lowerhalf_s *lower, int cmd, unsigned long arg);
};

struct watchdog_lowerhalf_s {
	const struct watchdog_ops_s *ops;
};

/* As NuttX declares it: with automonitor by oneshot or by timer the upper
 * half takes the lower half that feeds the watchdog as a third argument
 * (include/nuttx/timers/watchdog.h at 4ebc8a7291df). */
#if defined(CONFIG_WATCHDOG_AUTOMONITOR_BY_ONESHOT)
struct oneshot_lowerhalf_s;
void *watchdog_register(const char *path, struct watchdog_lowerhalf_s *lower,
                        struct oneshot_lowerhalf_s *oneshot);
#elif defined(CONFIG_WATCHDOG_AUTOMONITOR_BY_TIMER)
struct timer_lowerhalf_s;
void *watchdog_register(const char *path, struct watchdog_lowerhalf_s *lower,
                        struct timer_lowerhalf_s *timer);
#else
void *watchdog_register(const char *path, struct watchdog_lowerhalf_s *lower);
#endif

#endif
