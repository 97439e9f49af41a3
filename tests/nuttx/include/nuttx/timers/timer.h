/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/timers/timer.h>: the status structure and flags of
 * the timer lower-half interface as the glue uses them.
 */
#ifndef D1_TEST_NUTTX_TIMERS_TIMER_H
#define D1_TEST_NUTTX_TIMERS_TIMER_H

#include <stdint.h>

#define TCFLAGS_ACTIVE  (1 << 0)
#define TCFLAGS_HANDLER (1 << 1)

struct timer_status_s {
	uint32_t flags;
	uint32_t timeout;
	uint32_t timeleft;
};

#endif
