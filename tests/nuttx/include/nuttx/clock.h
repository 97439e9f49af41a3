/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/clock.h>: the tick rate as NuttX derives it from
 * CONFIG_USEC_PER_TICK (which the test sets with -D).
 */
#ifndef D1_TEST_NUTTX_CLOCK_H
#define D1_TEST_NUTTX_CLOCK_H

#define USEC_PER_SEC  1000000L
#define USEC_PER_TICK (0L + CONFIG_USEC_PER_TICK)
#define TICK_PER_SEC  (USEC_PER_SEC / USEC_PER_TICK)

#endif
