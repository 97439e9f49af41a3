/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/timers/timer.h>: the status structure and flags of
 * the timer lower-half interface as the glue uses them.
 */
#ifndef D1_TEST_NUTTX_TIMERS_TIMER_H
#define D1_TEST_NUTTX_TIMERS_TIMER_H

#include <stdbool.h>
/* NULL: the real header includes NuttX's <sys/types.h>, which defines it. */
#include <stddef.h>
#include <stdint.h>

#define TCFLAGS_ACTIVE  (1 << 0)
#define TCFLAGS_HANDLER (1 << 1)

struct timer_status_s {
	uint32_t flags;
	uint32_t timeout;
	uint32_t timeleft;
};

/* The lower-half interface the Timer0 glue (d1_nuttx_timer.c) implements,
 * member for member and in order as in NuttX 4ebc8a7291df's
 * include/nuttx/timers/timer.h (the tick_* members are NuttX's too; the
 * glue leaves them NULL). tccb_t is the upper half's callback: true keeps
 * the timer going, and it may write the next interval (us). */
typedef bool (*tccb_t)(uint32_t *next_interval, void *arg);

struct timer_lowerhalf_s;
struct timer_ops_s {
	int (*start)(struct timer_lowerhalf_s *lower);
	int (*stop)(struct timer_lowerhalf_s *lower);
	int (*getstatus)(struct timer_lowerhalf_s *lower, struct timer_status_s *status);
	int (*settimeout)(struct timer_lowerhalf_s *lower, uint32_t timeout);
	void (*setcallback)(struct timer_lowerhalf_s *lower, tccb_t callback, void *arg);
	int (*ioctl)(struct timer_lowerhalf_s *lower, int cmd, unsigned long arg);
	int (*maxtimeout)(struct timer_lowerhalf_s *lower, uint32_t *maxtimeout);
	int (*tick_getstatus)(struct timer_lowerhalf_s *lower, struct timer_status_s *status);
	int (*tick_settimeout)(struct timer_lowerhalf_s *lower, uint32_t timeout);
	int (*tick_maxtimeout)(struct timer_lowerhalf_s *lower, uint32_t *maxtimeout);
};

struct timer_lowerhalf_s {
	const struct timer_ops_s *ops;
};

/* The upper half's registration (the test implements it). */
void *timer_register(const char *path, struct timer_lowerhalf_s *lower);

#endif
