/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * d1load: the comparison's defined load ("memcpy+uart", docs/comparison.md
 * "The loads") on Linux, as a process beside the bench:
 *
 *  - copy: a SCHED_IDLE thread (below every other task) copying a 64 KiB
 *    buffer into another in a loop;
 *  - uart: a SCHED_OTHER thread writing 64-character lines ("d1bench load:
 *    ...") to standard output (the console, UART0 at 115,200 baud), one
 *    line per 5,556 us: the time 64 characters take on the wire at
 *    115,200 8N1, on absolute CLOCK_MONOTONIC deadlines, so the line is kept
 *    busy whether or not the serial driver blocks a writer.
 *
 * It runs until SIGTERM or SIGINT (or for SECONDS of CLOCK_MONOTONIC, when
 * given), stops both threads (the writer within one line's time), and writes "d1load: N lines, M
 * copies" to standard error. A write that fails is counted and said, never dropped silently (exit
 * 1).
 *
 *   d1load [SECONDS]      SECONDS 1..86400; none: until a signal
 */
#define _GNU_SOURCE // NOLINT(bugprone-reserved-identifier): glibc feature-test macro

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "d1/bench.h"

#define COPY_BYTES  D1_BENCH_LOAD_COPY_BYTES
#define LINE_NS     ((long)D1_BENCH_LOAD_LINE_US * 1000L)
#define NS_PER_S    1000000000ull
#define SECONDS_MAX 86400ul

static const char line[] = D1_BENCH_LOAD_LINE;
static unsigned char buf_a[COPY_BYTES], buf_b[COPY_BYTES];
static atomic_bool stop, failed;
static atomic_ulong lines, copies, write_errors;

static void *copy_loop(void *arg)
{
	const struct sched_param idle = {.sched_priority = 0};

	(void)arg;
	/* Linux: 0 is the calling thread (glibc's attributes refuse SCHED_IDLE). */
	if (sched_setscheduler(0, SCHED_IDLE, &idle) != 0) {
		(void)fprintf(stderr, "d1load: copy thread: SCHED_IDLE: %s\n", strerror(errno));
		atomic_store(&failed, true);
		return NULL;
	}
	while (!atomic_load(&stop)) {
		memcpy(buf_b, buf_a, sizeof buf_a);
		__asm__ volatile(""
		                 :
		                 : "r"(buf_b)
		                 : "memory"); /* the copy is kept: buf_b escapes */
		atomic_fetch_add(&copies, 1ul);
	}
	return NULL;
}

static void *uart_loop(void *arg)
{
	struct timespec t;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!atomic_load(&stop)) {
		if (write(STDOUT_FILENO, line, sizeof line - 1u) == (ssize_t)(sizeof line - 1u)) {
			atomic_fetch_add(&lines, 1ul);
		} else {
			atomic_fetch_add(&write_errors, 1ul);
		}
		t.tv_nsec += LINE_NS;
		if (t.tv_nsec >= (long)NS_PER_S) {
			t.tv_nsec -= (long)NS_PER_S;
			t.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR &&
		       !atomic_load(&stop)) {
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long seconds = 0;
	pthread_t copy_tid, uart_tid;
	sigset_t sigs;
	int rc;

	if (argc == 2) {
		char *end;

		errno = 0;
		seconds = strtoul(argv[1], &end, 10);
		if (argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' || errno != 0) {
			seconds = 0; /* not a whole decimal number: refused below */
		}
	}
	if (argc > 2 || (argc == 2 && (seconds == 0u || seconds > SECONDS_MAX))) {
		(void)fprintf(stderr, "usage: d1load [SECONDS]  (1..%lu; none: until SIGTERM)\n",
		              SECONDS_MAX);
		return 2;
	}
	/* Blocked here and so in both threads: only sigwait() below takes them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	(void)pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	memset(buf_a, 0x5a, sizeof buf_a);
	rc = pthread_create(&copy_tid, NULL, copy_loop, NULL);
	if (rc != 0) {
		(void)fprintf(stderr, "d1load: copy thread: %s\n", strerror(rc));
		return 1;
	}
	rc = pthread_create(&uart_tid, NULL, uart_loop, NULL);
	if (rc != 0) {
		(void)fprintf(stderr, "d1load: uart thread: %s\n", strerror(rc));
		atomic_store(&stop, true);
		(void)pthread_join(copy_tid, NULL);
		return 1;
	}
	if (seconds != 0u) {
		struct timespec end, now, left;

		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += (time_t)seconds;
		for (;;) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > end.tv_sec ||
			    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) {
				break;
			}
			left.tv_sec = end.tv_sec - now.tv_sec;
			left.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_nsec += (long)NS_PER_S;
				left.tv_sec--;
			}
			if (sigtimedwait(&sigs, NULL, &left) >= 0) {
				break; /* SIGTERM or SIGINT */
			}
		}
	} else {
		int sig;

		(void)sigwait(&sigs, &sig);
	}
	atomic_store(&stop, true);
	(void)pthread_join(uart_tid, NULL);
	(void)pthread_join(copy_tid, NULL);
	(void)fprintf(stderr, "d1load: %lu lines, %lu copies of %u bytes, %lu failed writes\n",
	              atomic_load(&lines), atomic_load(&copies), COPY_BYTES,
	              atomic_load(&write_errors));
	return atomic_load(&write_errors) == 0u && !atomic_load(&failed) ? 0 : 1;
}
