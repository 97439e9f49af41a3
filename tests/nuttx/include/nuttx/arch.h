/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/arch.h>: the interrupt-line calls the serial glue
 * makes (tests/nuttx/nx_uart_host.c) and NuttX's UNUSED().
 */
#ifndef D1_TEST_NUTTX_ARCH_H
#define D1_TEST_NUTTX_ARCH_H

#ifndef UNUSED
#define UNUSED(a) ((void)(a))
#endif

/* NuttX's PANIC() (its <assert.h>): a test defines nx_panic() and fails
 * there. */
void nx_panic(const char *file, int line);
#define PANIC() nx_panic(__FILE__, __LINE__)

/* The performance counter NuttX's perf_gettime() calls (d1_nuttx_perf.c):
 * the prototypes of the real <nuttx/arch.h>. */
#include <sys/types.h>
#include <time.h>
void up_perf_init(void *arg);
clock_t up_perf_gettime(void);
unsigned long up_perf_getfreq(void);
void up_perf_convert(clock_t elapsed, struct timespec *ts);

/* The scheduler's tick entry (the tick tests count its calls). */
void nxsched_process_timer(void);

void up_enable_irq(int irq);
void up_disable_irq(int irq);
void up_putc(int ch);

#endif
