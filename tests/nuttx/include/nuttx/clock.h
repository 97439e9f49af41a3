/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/clock.h>: the tick rate as NuttX derives it from
 * CONFIG_USEC_PER_TICK (which the test sets with -D).
 */
#ifndef D1_TEST_NUTTX_CLOCK_H
#define D1_TEST_NUTTX_CLOCK_H

#define USEC_PER_SEC  1000000L
#define NSEC_PER_SEC  1000000000L
#define USEC_PER_TICK (0L + CONFIG_USEC_PER_TICK)
#define TICK_PER_SEC  (USEC_PER_SEC / USEC_PER_TICK)

/* Ticks to ms (the watchdog glue): a whole number of ms per tick
 * multiplies, otherwise through us, rounded down as NuttX does. clock_t
 * is the host's <sys/types.h> one (64-bit signed, as NuttX's). The test
 * implements clock_systime_ticks() on model time. */
#include <sys/types.h>

#define USEC_PER_MSEC 1000L
#define MSEC_PER_TICK (USEC_PER_TICK / USEC_PER_MSEC)
#if (MSEC_PER_TICK * USEC_PER_MSEC) == USEC_PER_TICK
#define TICK2MSEC(tick) ((tick)*MSEC_PER_TICK)
#else
#define TICK2MSEC(tick) (((tick)*USEC_PER_TICK) / USEC_PER_MSEC)
#endif

clock_t clock_systime_ticks(void);

#endif
