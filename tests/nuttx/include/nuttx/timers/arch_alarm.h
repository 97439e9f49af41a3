/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/timers/arch_alarm.h>: the call by which a board hands
 * its oneshot lower-half to NuttX's arch_alarm.c (the test records it).
 */
#ifndef D1_TEST_NUTTX_TIMERS_ARCH_ALARM_H
#define D1_TEST_NUTTX_TIMERS_ARCH_ALARM_H

#include <nuttx/timers/oneshot.h>

void up_alarm_set_lowerhalf(struct oneshot_lowerhalf_s *lower);

#endif
