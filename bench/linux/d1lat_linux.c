/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * d1lat-linux: the latency harness on Linux userspace, with the same
 * recorder (d1/latency.h) and report format as the bare-metal bench.
 *
 * A periodic thread sleeps with clock_nanosleep(TIMER_ABSTIME) on
 * CLOCK_MONOTONIC to intended times t_k = t_0 + k * interval, and the
 * library's bench core (d1/bench.h) accounts every wake-up in counts of the
 * D1's 24 MHz `time` CSR, the clock of every other OS's bench (recorder at
 * 24,000,000 Hz), with the same definitions as every other OS's bench: the
 * intended times play the period boundaries (Linux's own timer interrupt
 * fires at each; the core's interrupt side gets them with sample 0, so the
 * grid is exact), and the wake-up sample is the wake time minus the latest
 * intended time passed. A wake-up at or after the next intended time is a
 * late wake-up: it samples the latest intended time passed, the ones before
 * it since the last wake-up are missed periods; the loop then sleeps to the
 * first intended time in the future. Every intended time of the run is a
 * sample or a missed period: samples + missed == loops.
 *
 * Counts from nanoseconds: 125 ns are exactly 3 counts of 24 MHz, so the
 * intended times (whole microseconds after t_0) are whole counts, and a
 * wake-up time is (now - t_0) * 3 / 125 counts, rounded to the nearest.
 * On the D1, CLOCK_MONOTONIC is the `time` CSR (riscv_clocksource) scaled
 * by Linux to nanoseconds, so as long as that scaling stays within half a
 * count (20.8 ns) of count * 125 / 3 over the run (Linux's timekeeping
 * corrects the rounding of its multiplier), this gives back the CSR's counts
 * since t_0; on another host (x86) it is that host's clock expressed in
 * 24 MHz counts.
 *
 * SCHED_FIFO (-p) and mlockall() are used where permitted; where not, a
 * warning goes to stderr and the run continues. The report's wake names the
 * policy the thread ran under ("clock_nanosleep, SCHED_FIFO 80",
 * "clock_nanosleep, SCHED_OTHER"), and the text report is followed by the
 * missed periods as a percentage of the run. Nothing is printed during
 * the run; the report (text table, then one JSON line) comes after it.
 */
#define _GNU_SOURCE // NOLINT(bugprone-reserved-identifier): glibc feature-test macro

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "d1/bench.h"
#include "d1/latency.h"
#include "d1/port.h"

#define NS_PER_S 1000000000ull
/* The recorder's clock: the D1's `time` CSR, 24 MHz (125 ns = 3 counts). */
#define CLOCK_HZ        24000000u
#define COUNTS_PER_US   (CLOCK_HZ / 1000000u)
#define NS_PER_3_COUNTS 125u
/* The bench core's period is D1_BENCH_PERIOD_MIN..UINT32_MAX counts. */
#define INTERVAL_US_MIN ((uint32_t)((D1_BENCH_PERIOD_MIN + COUNTS_PER_US - 1u) / COUNTS_PER_US))
#define INTERVAL_US_MAX ((uint32_t)(UINT32_MAX / COUNTS_PER_US))

struct options {
	uint32_t interval_us;
	uint64_t loops;
	int prio;
	const char *load;
	const char *board;
	bool dump;
	bool json_only;
};

struct run {
	const struct options *opt;
	struct d1_lat rec;   /* task wake-up: the report */
	struct d1_lat timer; /* the core's interrupt side: the intended times (not reported) */
	struct d1_bench acc; /* the bench core's accounting */
	uint64_t early;      /* wake-ups before the intended time (must stay 0) */
	int err;             /* errno of a failed clock call, 0 if none */
};

/* The port contract as far as the bench core uses it: its interrupt side
 * and its wake-up side are this one thread here, so there is nothing to
 * exclude. */
uintptr_t d1_port_critical_enter(void)
{
	return 0u;
}

void d1_port_critical_exit(uintptr_t state)
{
	(void)state;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS_PER_S);
	ts.tv_nsec = (long)(ns % NS_PER_S);
	return ts;
}

/* @ns nanoseconds after the start in 24 MHz counts, to the nearest. */
static uint64_t counts(uint64_t ns)
{
	return (ns * 3u + NS_PER_3_COUNTS / 2u) / NS_PER_3_COUNTS;
}

static void *periodic(void *arg)
{
	struct run *run = arg;
	const uint64_t interval = (uint64_t)run->opt->interval_us * 1000u;
	struct timespec ts;
	uint64_t start, next, now;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		run->err = errno;
		return NULL;
	}
	start = ts_ns(&ts);
	now = start;
	(void)d1_bench_start(&run->acc, 0u);
	next = now + interval;
	for (;;) {
		struct timespec target = ns_ts(next);
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL);
		uint64_t latest;

		if (rc == EINTR) {
			continue; /* same target again */
		}
		if (rc != 0 || clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
			run->err = rc != 0 ? rc : errno;
			break;
		}
		now = ts_ns(&ts);
		if (now < next) {
			run->early++; /* not expected with TIMER_ABSTIME; a 0 sample */
			now = next;
		}
		/* Linux's timer fired at every intended time up to now: the latest
		 * is the boundary the wake-up samples, those before it since the
		 * last wake-up are missed. */
		latest = next + (now - next) / interval * interval;
		(void)d1_bench_isr_at(&run->acc, counts(latest - start), counts(latest - start));
		if (d1_bench_wake(&run->acc, counts(now - start))) {
			break;
		}
		next = latest + interval;
	}
	/* after a failed clock call: the intended times up to now are missed */
	(void)d1_bench_finish(&run->acc, counts(now - start));
	return NULL;
}

/* Report output. A failed write sets stdout's error indicator; main() checks
 * it (with the final fflush) and fails the run: no report is lost silently. */
static void put_stdout(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	(void)fwrite(s, 1, n, stdout); /* checked through ferror(stdout) in main() */
}

/* stdout flushed without an error since the start: 0, else 1 with a message. */
static int stdout_status(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return 0;
	}
	(void)fprintf(stderr, "d1lat-linux: writing to stdout failed (output lost)\n");
	return 1;
}

/* Diagnostics go to stderr with (void): a failed write there has nowhere
 * else to be reported. */
static void usage(FILE *f)
{
	(void)fprintf(
	        f, "usage: d1lat-linux [-i interval_us] [-l loops] [-p prio] [--load DESC]\n"
	           "                   [--board NAME] [--dump] [--json-only]\n"
	           "  -i, --interval US  period in microseconds, 10..178956970 (default 1000)\n"
	           "  -l, --loops N      periods to run: samples + missed == N (default 20000)\n"
	           "  -p, --prio P       SCHED_FIFO priority 1..99, 0 = SCHED_OTHER (default 80)\n"
	           "      --load DESC    load description for the report (default \"none\")\n"
	           "      --board NAME   board/host name for the report (default: uname -m)\n"
	           "      --dump         also print the recorder dump line "
	           "(bench/tools/d1lat_dump.py)\n"
	           "      --json-only    print only the JSON line\n");
}

/* A decimal number min..max, digits only: strtoull() alone would skip
 * leading blanks and take " -1" as ULLONG_MAX. */
static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9') {
		return false;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max) {
		return false;
	}
	*out = (uint64_t)v;
	return true;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
	        {"interval", required_argument, NULL, 'i'},
	        {"loops", required_argument, NULL, 'l'},
	        {"prio", required_argument, NULL, 'p'},
	        {"load", required_argument, NULL, 'L'},
	        {"board", required_argument, NULL, 'B'},
	        {"dump", no_argument, NULL, 'D'},
	        {"json-only", no_argument, NULL, 'J'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	int c;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "i:l:p:h", longs, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (!parse_u64(optarg, INTERVAL_US_MIN, INTERVAL_US_MAX, &v)) {
				(void)fprintf(stderr, "d1lat-linux: -i wants %u..%u us\n",
				              INTERVAL_US_MIN, INTERVAL_US_MAX);
				return 2;
			}
			o->interval_us = (uint32_t)v;
			break;
		case 'l':
			if (!parse_u64(optarg, 1u, UINT64_MAX, &v)) {
				(void)fprintf(stderr, "d1lat-linux: -l wants a count >= 1\n");
				return 2;
			}
			o->loops = v;
			break;
		case 'p':
			if (!parse_u64(optarg, 0u, 99u, &v)) {
				(void)fprintf(stderr, "d1lat-linux: -p wants 0..99\n");
				return 2;
			}
			o->prio = (int)v;
			break;
		case 'L':
			o->load = optarg;
			break;
		case 'B':
			o->board = optarg;
			break;
		case 'D':
			o->dump = true;
			break;
		case 'J':
			o->json_only = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		(void)fprintf(stderr, "d1lat-linux: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return 0;
}

/* Keep the CPU out of deep idle states while the file is open, as
 * cyclictest does, so both tools measure under the same conditions. */
static int dma_latency_zero(void)
{
	int32_t zero = 0;
	int fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		(void)fprintf(
		        stderr,
		        "d1lat-linux: warning: /dev/cpu_dma_latency: %s (C-states not held)\n",
		        strerror(errno));
		return -1;
	}
	if (write(fd, &zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
		(void)fprintf(stderr, "d1lat-linux: warning: writing /dev/cpu_dma_latency: %s\n",
		              strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void lock_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
	/* ASan's shadow mappings are terabytes: locking them cannot work. */
	(void)fprintf(stderr,
	              "d1lat-linux: warning: built with AddressSanitizer, mlockall skipped\n");
#else
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
		(void)fprintf(stderr,
		              "d1lat-linux: warning: mlockall: %s (page faults may add latency)\n",
		              strerror(errno));
	}
#endif
}

/* Start the periodic thread, SCHED_FIFO if asked and permitted; @sched
 * (room for 24 characters) names the policy it runs under. */
static int start_thread(pthread_t *tid, struct run *run, int prio, char *sched)
{
	pthread_attr_t attr;
	struct sched_param sp;
	int rc;

	if (prio > 0) {
		memset(&sp, 0, sizeof(sp));
		sp.sched_priority = prio;
		pthread_attr_init(&attr);
		rc = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		if (rc == 0) {
			rc = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		}
		if (rc == 0) {
			rc = pthread_attr_setschedparam(&attr, &sp);
		}
		if (rc == 0) {
			rc = pthread_create(tid, &attr, periodic, run);
		}
		pthread_attr_destroy(&attr);
		if (rc == 0) {
			(void)snprintf(sched, 24, "SCHED_FIFO %d", prio);
			return 0;
		}
		(void)fprintf(stderr,
		              "d1lat-linux: warning: SCHED_FIFO priority %d not permitted (%s); "
		              "running SCHED_OTHER\n",
		              prio, strerror(rc));
	}
	rc = pthread_create(tid, NULL, periodic, run);
	if (rc != 0) {
		(void)fprintf(stderr, "d1lat-linux: pthread_create: %s\n", strerror(rc));
		return -1;
	}
	(void)snprintf(sched, 24, "SCHED_OTHER");
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt = {1000u, 20000u, 80, "none", NULL, false, false};
	struct run run;
	struct utsname un;
	struct d1_lat_meta meta = {0};
	static char buf[D1_LAT_REPORT_SIZE * 4u];
	char sched[24], wake[48];
	pthread_t tid;
	size_t n;
	int rc, dma_fd;

	rc = parse_args(argc, argv, &opt);
	if (rc != 0) {
		return rc == 1 ? stdout_status() : rc; /* 1: --help printed */
	}
	if (opt.board == NULL) {
		opt.board = uname(&un) == 0 ? un.machine : "unknown";
	}
	memset(&run, 0, sizeof(run));
	run.opt = &opt;
	if (d1_lat_init(&run.rec, CLOCK_HZ) != D1_OK ||
	    d1_lat_init(&run.timer, CLOCK_HZ) != D1_OK ||
	    d1_bench_init(&run.acc, &run.timer, &run.rec, (uint64_t)opt.interval_us * COUNTS_PER_US,
	                  opt.loops) != D1_OK) {
		(void)fprintf(stderr, "d1lat-linux: recorder or bench init failed\n");
		return 1;
	}
	/* d1_lat_init() wrote every bin: no first-touch page faults in the run. */
	lock_memory();
	dma_fd = dma_latency_zero();
	if (start_thread(&tid, &run, opt.prio, sched) != 0) {
		return 1;
	}
	pthread_join(tid, NULL);
	if (dma_fd >= 0) {
		close(dma_fd);
	}
	if (run.err != 0) {
		(void)fprintf(stderr, "d1lat-linux: clock call failed: %s\n", strerror(run.err));
		return 1;
	}
	if (run.early != 0u) {
		(void)fprintf(stderr,
		              "d1lat-linux: warning: %llu wake-ups before the intended time "
		              "(recorded as 0)\n",
		              (unsigned long long)run.early);
	}
	meta.os = "linux";
	meta.board = opt.board;
	meta.load = opt.load;
	meta.period_ns = (uint64_t)opt.interval_us * 1000u;
	meta.measurement = "task-wakeup";
	/* The scheduler the thread ran under is part of the row's name. */
	(void)snprintf(wake, sizeof(wake), "clock_nanosleep, %s", sched);
	meta.wake = wake;
	if (!opt.json_only) {
		if (d1_lat_report_text(&run.rec, &meta, buf, sizeof(buf), &n) != D1_OK) {
			(void)fprintf(stderr, "d1lat-linux: text report truncated\n");
			return 1;
		}
		put_stdout(NULL, buf, n);
		/* Missed periods as a share of the run, the way the published
		 * SCHED_OTHER row states them. */
		(void)printf("d1lat-linux: %s: missed %llu of %llu periods (%.2f %%)\n", sched,
		             (unsigned long long)run.rec.missed, (unsigned long long)opt.loops,
		             100.0 * (double)run.rec.missed / (double)opt.loops);
	}
	if (d1_lat_report_json(&run.rec, &meta, buf, sizeof(buf), &n) != D1_OK) {
		(void)fprintf(stderr,
		              "d1lat-linux: JSON report truncated (meta strings too long?)\n");
		return 1;
	}
	put_stdout(NULL, buf, n);
	if (opt.dump && d1_lat_dump(&run.rec, &meta, put_stdout, NULL) != D1_OK) {
		(void)fprintf(stderr, "d1lat-linux: recorder dump failed\n");
		return 1;
	}
	return stdout_status();
}
