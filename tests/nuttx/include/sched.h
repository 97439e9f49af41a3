/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <sched.h> in the host test of d1bench: the
 * scheduling-policy calls it makes, renamed away from the host C
 * library's (tests/nuttx/test_nuttx_d1bench.c implements them).
 */
#ifndef D1_TEST_NUTTX_SCHED_H
#define D1_TEST_NUTTX_SCHED_H

#include <sys/types.h>

#define SCHED_FIFO             1
#define SCHED_RR               2
#define SCHED_PRIORITY_DEFAULT 100
#define SCHED_PRIORITY_MAX     255

struct sched_param {
	int sched_priority;
};

#define sched_get_priority_max nx_sched_get_priority_max
#define sched_get_priority_min nx_sched_get_priority_min
#define sched_setscheduler     nx_sched_setscheduler

int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param);

#endif
