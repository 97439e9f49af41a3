/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * d1svc: the OS-service measurements of the comparison (d1/bench_svc.h) in
 * Linux user space, through POSIX, every sample a pair of `time` CSR
 * readings (d1_time_now(): `rdtime` works in user mode) accounted by the
 * core (d1_svc_sample(), d1_svc_fail()):
 *
 *   clock-read          a batch of D1_SVC_CLOCK_BATCH clock_gettime(CLOCK_MONOTONIC)
 *                       calls (glibc's vDSO path) between the readings
 *   mutex-handoff       a pthread mutex (default attributes) held by a SCHED_FIFO 80 thread
 *                       while a SCHED_FIFO 81 thread is blocked locking it: start just
 *                       before the unlock, stop just after the waiter's lock returns
 *   semaphore-handoff   a POSIX semaphore: start just before the FIFO 80 thread's
 *                       sem_post, stop just after the FIFO 81 waiter's wait returns
 *   thread-create       pthread_create of a SCHED_FIFO 81 thread (explicit attributes,
 *                       default stack) by a FIFO 80 thread: start just before the call,
 *                       stop the new thread's first statement
 *   thread-create-join  the same start; stop just after pthread_join returns
 *
 * Every thread is pinned to one CPU, so the priorities order them: the
 * waiter is blocked when the lower-priority thread makes its call. Every
 * wait is bounded (the timed variants with a CLOCK_MONOTONIC deadline of
 * WAIT_NS): an expired or failed call is a failed sample (d1_svc_fail());
 * a run whose threads can no longer go on ends at once, the samples left
 * counted failed, with a message on stderr. Nothing is printed during the
 * runs; after the five, each measurement's text report, JSON line and
 * recorder dump, as d1lat-linux prints its rows.
 *
 *   d1svc [--board NAME] [-m MEASUREMENT] [load]
 *
 * "load": the run is reported under the defined load ("memcpy+uart"), which
 * the caller starts beside it (d1load, as for d1lat-linux's loaded row):
 * d1svc refuses to run when no d1load process is running. Exit status 0
 * when every sample of every run was taken, 1 otherwise (reports printed
 * all the same), 2 for bad arguments.
 */
#define _GNU_SOURCE // NOLINT(bugprone-reserved-identifier): glibc feature-test macro

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "d1/bench_svc.h"
#include "d1/latency.h"
#include "d1/time.h"

#define NS_PER_S 1000000000ll
/* Every wait: a valid sample's longest (D1_SVC_LIMIT_COUNTS, 1 s) + 0.5 s
 * (a build with -DWAIT_NS=1 makes every wait that would block expire: the
 * failure paths). */
#ifndef WAIT_NS
#define WAIT_NS (NS_PER_S + NS_PER_S / 2)
#endif
#define PRIO_LOW  80 /* the caller, the holder, the poster, the creator */
#define PRIO_HIGH 81 /* the waiter, the created thread */
/* Reads of the clock-read resolution pass (not samples). */
#define STEP_READS 100000u

#ifndef __riscv
/* The `time` CSR stand-in of a non-RISC-V build: CLOCK_MONOTONIC in 24 MHz
 * counts (125 ns = 3 counts), so the program runs on a host too. */
uint64_t d1_time_hook_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * (uint64_t)NS_PER_S + (uint64_t)ts.tv_nsec) * 3u / 125u;
}
#endif

/* One run's state beside the core's: why it ended early, calls that failed. */
struct svc {
	struct d1_svc_run run;
	uint32_t call_errors; /* service calls that returned an error */
	int last_error;       /* errno of the last one */
	const char *broken;   /* the run ended early: why (NULL: it did not) */
};

/* The two threads of a hand-off (mutex or semaphore). */
struct pair {
	struct svc *s;
	sem_t go;          /* holder -> waiter: lock the mutex (mutex-handoff) */
	sem_t done;        /* waiter -> holder: round over, stop stored */
	sem_t obj;         /* semaphore-handoff: the semaphore measured */
	pthread_mutex_t m; /* mutex-handoff: the mutex measured */
	uint64_t stop;     /* the waiter's reading */
	int err;           /* the waiter's call: 0 or its error */
	bool quit;         /* the holder is done: the waiter returns */
};

static struct d1_lat rec[D1_SVC_COUNT];
static struct svc svc[D1_SVC_COUNT];
static uint64_t created_stop; /* thread-create: the new thread's reading */
static long res_getres_ns, res_step_ns;
static double vdso_ns, syscall_ns; /* per call, from one batch each */

static const char *const wakes[D1_SVC_COUNT] = {
        [D1_SVC_MUTEX_HANDOFF] = "pthread_mutex",
        [D1_SVC_SEM_HANDOFF] = "sem_post/sem_wait",
        [D1_SVC_THREAD_CREATE] = "pthread_create",
        [D1_SVC_THREAD_JOIN] = "pthread_create+pthread_join",
};

static struct timespec deadline(void)
{
	struct timespec t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += WAIT_NS % NS_PER_S;
	t.tv_sec += (time_t)(WAIT_NS / NS_PER_S + t.tv_nsec / NS_PER_S);
	t.tv_nsec %= NS_PER_S;
	return t;
}

/* sem_wait bounded by WAIT_NS: 0 or the error (ETIMEDOUT). */
static int sem_wait_bounded(sem_t *sem)
{
	struct timespec dl = deadline();

	while (sem_clockwait(sem, CLOCK_MONOTONIC, &dl) != 0) {
		if (errno != EINTR) {
			return errno;
		}
	}
	return 0;
}

static int join_bounded(pthread_t t)
{
	struct timespec dl = deadline();

	return pthread_clockjoin_np(t, NULL, CLOCK_MONOTONIC, &dl);
}

/* A failed call: counted failed; false when the run has all its samples. */
static bool call_failed(struct svc *s, int err)
{
	s->call_errors++;
	s->last_error = err;
	return d1_svc_fail(&s->run);
}

/* The run cannot go on: every sample left counts failed. */
static void end_run(struct svc *s, const char *why, int err)
{
	if (s->broken == NULL) {
		s->broken = why;
		s->last_error = err;
	}
	while (d1_svc_fail(&s->run)) {
	}
}

/* A thread at SCHED_FIFO @prio with the default stack. */
static int attr_fifo(pthread_attr_t *attr, int prio)
{
	struct sched_param sp = {.sched_priority = prio};
	int rc = pthread_attr_init(attr);

	if (rc == 0) {
		rc = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	}
	if (rc == 0) {
		rc = pthread_attr_setschedpolicy(attr, SCHED_FIFO);
	}
	if (rc == 0) {
		rc = pthread_attr_setschedparam(attr, &sp);
	}
	return rc;
}

static int start_fifo(pthread_t *t, int prio, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int rc = attr_fifo(&attr, prio);

	if (rc == 0) {
		rc = pthread_create(t, &attr, fn, arg);
	}
	(void)pthread_attr_destroy(&attr);
	return rc;
}

/* ---- pacing ------------------------------------------------------------- */

/* Linux throttles real-time threads that keep the CPU longer than
 * sched_rt_runtime_us of every sched_rt_period_us (950 ms a second by
 * default): a run whose threads never block for long would be stopped for
 * the rest of the second, inside a sample. So after every PACE_RUN of a
 * run the lower-priority thread sleeps PACE_SLEEP between two samples: the
 * run keeps at most 100/110 of the CPU, and the load's threads run then. */
#define PACE_RUN_COUNTS 2400000ull /* 100 ms of the time CSR */
#define PACE_SLEEP_NS   10000000L  /* 10 ms */

static void pace(uint64_t *since)
{
	if (d1_time_now() - *since < PACE_RUN_COUNTS) {
		return;
	}
	struct timespec ts = {.tv_sec = 0, .tv_nsec = PACE_SLEEP_NS};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
	*since = d1_time_now();
}

/* ---- clock-read ---------------------------------------------------------- */

static void clock_read(struct svc *s)
{
	struct timespec ts, prev;
	uint64_t since = d1_time_now();
	bool more = true;

	while (more) {
		int bad = 0;

		pace(&since);
		uint64_t start = d1_time_now();

		for (uint32_t i = 0; i < D1_SVC_CLOCK_BATCH; i++) {
			bad |= clock_gettime(CLOCK_MONOTONIC, &ts);
		}
		uint64_t stop = d1_time_now();

		more = bad != 0 ? call_failed(s, errno) : d1_svc_sample(&s->run, start, stop);
	}
	/* The resolution, after the run: what clock_getres() says, and the
	 * smallest step between two successive reads. */
	res_getres_ns = clock_getres(CLOCK_MONOTONIC, &ts) == 0 ? ts.tv_nsec : -1;
	res_step_ns = -1;
	(void)clock_gettime(CLOCK_MONOTONIC, &prev);
	for (uint32_t i = 0; i < STEP_READS; i++) {
		(void)clock_gettime(CLOCK_MONOTONIC, &ts);
		long d = (long)(ts.tv_sec - prev.tv_sec) * (long)NS_PER_S +
		         (ts.tv_nsec - prev.tv_nsec);
		if (d > 0 && (res_step_ns < 0 || d < res_step_ns)) {
			res_step_ns = d;
		}
		prev = ts;
	}
	/* The same batch through the system call, beside one through glibc:
	 * what the vDSO saves (printed, not a sample). */
	uint64_t t0 = d1_time_now();
	for (uint32_t i = 0; i < D1_SVC_CLOCK_BATCH; i++) {
		(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	}
	uint64_t t1 = d1_time_now();
	for (uint32_t i = 0; i < D1_SVC_CLOCK_BATCH; i++) {
		(void)syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	}
	uint64_t t2 = d1_time_now();
	vdso_ns = (double)(t1 - t0) * 1e9 / D1_TIME_HZ / D1_SVC_CLOCK_BATCH;
	syscall_ns = (double)(t2 - t1) * 1e9 / D1_TIME_HZ / D1_SVC_CLOCK_BATCH;
}

/* ---- mutex-handoff --------------------------------------------------------- */

static void *mutex_waiter(void *arg)
{
	struct pair *p = arg;

	for (;;) {
		int rc = sem_wait_bounded(&p->go);

		if (rc != 0 || p->quit) {
			p->err = rc;
			return NULL;
		}
		struct timespec dl = deadline();
		rc = pthread_mutex_clocklock(&p->m, CLOCK_MONOTONIC, &dl);
		uint64_t stop = d1_time_now();

		p->stop = stop;
		p->err = rc;
		if (rc == 0) {
			(void)pthread_mutex_unlock(&p->m);
		}
		(void)sem_post(&p->done);
	}
}

static void mutex_handoff(struct pair *p)
{
	struct svc *s = p->s;
	uint64_t since = d1_time_now();
	bool more = true;

	while (more) {
		pace(&since);
		struct timespec dl = deadline();
		int rc = pthread_mutex_clocklock(&p->m, CLOCK_MONOTONIC, &dl);

		if (rc != 0) {
			end_run(s, "the holder could not lock the mutex", rc);
			return;
		}
		p->stop = 0u;
		p->err = 0;
		(void)sem_post(&p->go); /* the waiter runs and blocks in its lock */
		uint64_t start = d1_time_now();
		(void)pthread_mutex_unlock(&p->m);
		rc = sem_wait_bounded(&p->done);
		if (rc != 0) {
			end_run(s, "the waiter did not finish its round", rc);
			return;
		}
		more = p->err != 0 ? call_failed(s, p->err)
		                   : d1_svc_sample(&s->run, start, p->stop);
	}
}

/* ---- semaphore-handoff ----------------------------------------------------- */

static void *sem_waiter(void *arg)
{
	struct pair *p = arg;

	for (;;) {
		int rc = sem_wait_bounded(&p->obj);
		uint64_t stop = d1_time_now();

		if (p->quit) {
			return NULL;
		}
		p->stop = stop;
		p->err = rc;
		(void)sem_post(&p->done);
		if (rc != 0) {
			return NULL; /* the poster is not posting: it sees err */
		}
	}
}

static void sem_handoff(struct pair *p)
{
	struct svc *s = p->s;
	uint64_t since = d1_time_now();
	bool more = true;

	while (more) {
		pace(&since);
		p->stop = 0u;
		p->err = 0;
		uint64_t start = d1_time_now();
		(void)sem_post(&p->obj);
		int rc = sem_wait_bounded(&p->done);

		if (rc != 0) {
			end_run(s, "the waiter did not finish its round", rc);
			return;
		}
		if (p->err != 0) {
			end_run(s, "the waiter's sem_wait failed", p->err);
			return;
		}
		more = d1_svc_sample(&s->run, start, p->stop);
	}
}

/* The caller of a hand-off: starts the waiter (it blocks at once: higher
 * priority, one CPU), runs the rounds, stops the waiter. */
static void *handoff(void *arg)
{
	struct pair *p = arg;
	bool is_mutex = p->s->run.what == D1_SVC_MUTEX_HANDOFF;
	pthread_t waiter;
	int rc = start_fifo(&waiter, PRIO_HIGH, is_mutex ? mutex_waiter : sem_waiter, p);

	if (rc != 0) {
		end_run(p->s, "the waiter thread could not start", rc);
		return NULL;
	}
	if (is_mutex) {
		mutex_handoff(p);
	} else {
		sem_handoff(p);
	}
	p->quit = true;
	(void)sem_post(is_mutex ? &p->go : &p->obj);
	rc = join_bounded(waiter);
	if (rc != 0) {
		end_run(p->s, "the waiter thread did not end", rc);
	}
	return NULL;
}

/* ---- thread-create, thread-create-join ------------------------------------ */

static void *created_first(void *arg)
{
	*(volatile uint64_t *)arg = d1_time_now();
	return NULL;
}

static void *created_return(void *arg)
{
	return arg;
}

static void thread_create(struct svc *s)
{
	bool join = s->run.what == D1_SVC_THREAD_JOIN;
	pthread_attr_t attr;
	bool more = true;
	int rc = attr_fifo(&attr, PRIO_HIGH);

	if (rc != 0) {
		end_run(s, "the thread attributes were refused", rc);
		return;
	}
	uint64_t since = d1_time_now();

	while (more) {
		pthread_t t;

		pace(&since);
		created_stop = 0u;
		uint64_t start = d1_time_now();
		rc = pthread_create(&t, &attr, join ? created_return : created_first,
		                    &created_stop);
		if (rc != 0) {
			more = call_failed(s, rc);
			continue;
		}
		rc = join_bounded(t);
		uint64_t stop = join ? d1_time_now() : *(volatile uint64_t *)&created_stop;

		if (rc != 0) {
			end_run(s, "a created thread was not joined", rc);
			break;
		}
		more = d1_svc_sample(&s->run, start, stop);
	}
	(void)pthread_attr_destroy(&attr);
}

/* ---- the runs ------------------------------------------------------------ */

static void *measure(void *arg)
{
	struct svc *s = arg;
	static struct pair p;

	switch (s->run.what) {
	case D1_SVC_CLOCK_READ:
		clock_read(s);
		break;
	case D1_SVC_MUTEX_HANDOFF:
	case D1_SVC_SEM_HANDOFF:
		memset(&p, 0, sizeof(p));
		p.s = s;
		if (sem_init(&p.go, 0, 0) != 0 || sem_init(&p.done, 0, 0) != 0 ||
		    sem_init(&p.obj, 0, 0) != 0 || pthread_mutex_init(&p.m, NULL) != 0) {
			end_run(s, "semaphore or mutex init failed", errno);
			break;
		}
		(void)handoff(&p);
		(void)pthread_mutex_destroy(&p.m);
		(void)sem_destroy(&p.go);
		(void)sem_destroy(&p.done);
		(void)sem_destroy(&p.obj);
		break;
	case D1_SVC_THREAD_CREATE:
	case D1_SVC_THREAD_JOIN:
		thread_create(s);
		break;
	default:
		break;
	}
	return NULL;
}

/* One measurement in a SCHED_FIFO 80 thread; false if it could not start. */
static bool run_one(enum d1_svc what)
{
	struct svc *s = &svc[what];
	pthread_t t;
	int rc;

	if (d1_svc_init(&s->run, what, &rec[what]) != D1_OK) {
		(void)fprintf(stderr, "d1svc: %s: d1_svc_init failed\n", d1_svc_name(what));
		return false;
	}
	rc = start_fifo(&t, PRIO_LOW, measure, s);
	if (rc != 0) {
		(void)fprintf(stderr,
		              "d1svc: SCHED_FIFO %d not permitted (%s): the measurements "
		              "need it\n",
		              PRIO_LOW, strerror(rc));
		return false;
	}
	rc = pthread_join(t, NULL); /* every wait in the thread is bounded */
	if (rc != 0) {
		(void)fprintf(stderr, "d1svc: %s: pthread_join: %s\n", d1_svc_name(what),
		              strerror(rc));
		return false;
	}
	return true;
}

/* ---- reports --------------------------------------------------------------- */

static void put_stdout(void *ctx, const char *str, size_t n)
{
	(void)ctx;
	(void)fwrite(str, 1, n, stdout); /* checked through ferror(stdout) in main() */
}

static int report(enum d1_svc what, const char *board, const char *load)
{
	static char buf[D1_LAT_REPORT_SIZE * 4u];
	static char wake[96];
	struct d1_lat_meta meta = {0};
	size_t n;

	if (what == D1_SVC_CLOCK_READ) {
		(void)snprintf(wake, sizeof(wake),
		               "clock_gettime(CLOCK_MONOTONIC) vDSO, resolution %ld ns",
		               res_getres_ns);
		meta.wake = wake;
	} else {
		meta.wake = wakes[what];
	}
	meta.os = "linux";
	meta.board = board;
	meta.load = load;
	meta.period_ns = 0u;
	meta.measurement = d1_svc_name(what);
	if (d1_lat_report_text(&rec[what], &meta, buf, sizeof(buf), &n) != D1_OK) {
		(void)fprintf(stderr, "d1svc: text report truncated\n");
		return 1;
	}
	put_stdout(NULL, buf, n);
	if (d1_lat_report_json(&rec[what], &meta, buf, sizeof(buf), &n) != D1_OK) {
		(void)fprintf(stderr, "d1svc: JSON report truncated\n");
		return 1;
	}
	put_stdout(NULL, buf, n);
	if (d1_lat_dump(&rec[what], &meta, put_stdout, NULL) != D1_OK) {
		(void)fprintf(stderr, "d1svc: recorder dump failed\n");
		return 1;
	}
	return 0;
}

/* A process named d1load is running (the defined load beside the run). */
static bool load_running(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;

	if (d == NULL) {
		return false;
	}
	/* before any thread of this program starts (readdir_r is deprecated) */
	// cppcheck-suppress readdirCalled
	while (!found && (e = readdir(d)) != NULL) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9') {
			continue;
		}
		(void)snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		found = fgets(comm, sizeof(comm), f) != NULL && strcmp(comm, "d1load\n") == 0;
		(void)fclose(f);
	}
	(void)closedir(d);
	return found;
}

/* Every thread on the first CPU this process may use. */
static int pin_one_cpu(void)
{
	cpu_set_t set;
	size_t cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		return -1;
	}
	for (cpu = 0; cpu < (size_t)CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++) {
	}
	if (cpu == (size_t)CPU_SETSIZE) {
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? (int)cpu : -1;
}

static void usage(FILE *f)
{
	(void)fprintf(f,
	              "usage: d1svc [--board NAME] [-m MEASUREMENT] [load]\n"
	              "  --board NAME    board name for the reports (default: uname -m)\n"
	              "  -m MEASUREMENT  only this one: clock-read, mutex-handoff,\n"
	              "                  semaphore-handoff, thread-create, thread-create-join\n"
	              "  load            report load \"memcpy+uart\" (d1load must be running)\n");
}

int main(int argc, char **argv)
{
	const char *board = NULL, *load = "idle";
	int only = -1, status = 0, cpu;
	struct utsname un;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--board") == 0 && i + 1 < argc) {
			board = argv[++i];
		} else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
			i++;
			for (int k = 0; k < (int)D1_SVC_COUNT; k++) {
				if (strcmp(argv[i], d1_svc_name((enum d1_svc)k)) == 0) {
					only = k;
				}
			}
			if (only < 0) {
				(void)fprintf(stderr, "d1svc: no measurement '%s'\n", argv[i]);
				usage(stderr);
				return 2;
			}
		} else if (strcmp(argv[i], "load") == 0) {
			load = "memcpy+uart";
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return fflush(stdout) == 0 ? 0 : 1;
		} else {
			(void)fprintf(stderr, "d1svc: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (board == NULL) {
		board = uname(&un) == 0 ? un.machine : "unknown";
	}
	if (strcmp(load, "idle") != 0 && !load_running()) {
		(void)fprintf(stderr, "d1svc: 'load' given but no d1load process is running\n");
		return 2;
	}
	cpu = pin_one_cpu();
	if (cpu < 0) {
		(void)fprintf(stderr, "d1svc: could not pin to one CPU: %s\n", strerror(errno));
		return 1;
	}
	/* The recorders are written (d1_svc_init): locked, no first-touch fault
	 * in a run. Not MCL_FUTURE: each thread's default stack would be
	 * populated at creation, which is not what creating a thread costs. */
	if (mlockall(MCL_CURRENT) != 0) {
		(void)fprintf(stderr, "d1svc: warning: mlockall: %s\n", strerror(errno));
	}
	for (int k = 0; k < (int)D1_SVC_COUNT; k++) {
		if ((only < 0 || only == k) && !run_one((enum d1_svc)k)) {
			return 1;
		}
	}
	(void)printf("d1svc: pinned to CPU %d; SCHED_FIFO %d (caller) and %d (waiter, created "
	             "thread); load %s\n",
	             cpu, PRIO_LOW, PRIO_HIGH, load);
	if (only < 0 || only == (int)D1_SVC_CLOCK_READ) {
		(void)printf("d1svc: clock-read resolution: getres %ld ns, observed step %ld ns\n",
		             res_getres_ns, res_step_ns);
		(void)printf("d1svc: clock-read: vDSO %s; one batch of %u: clock_gettime %.1f ns, "
		             "syscall(SYS_clock_gettime) %.1f ns per call\n",
		             getauxval(AT_SYSINFO_EHDR) != 0 ? "mapped" : "NOT mapped",
		             D1_SVC_CLOCK_BATCH, vdso_ns, syscall_ns);
	}
	for (int k = 0; k < (int)D1_SVC_COUNT; k++) {
		const struct svc *s = &svc[k];

		if (only >= 0 && only != k) {
			continue;
		}
		status |= report((enum d1_svc)k, board, load);
		(void)printf("d1svc: %s: %u of %u samples taken, %u failed\n", d1_svc_name(k),
		             s->run.taken, s->run.want, s->run.failed);
		if (s->call_errors != 0u) {
			(void)fprintf(stderr, "d1svc: %s: %u calls failed (last: %s)\n",
			              d1_svc_name(k), s->call_errors, strerror(s->last_error));
		}
		if (s->broken != NULL) {
			(void)fprintf(stderr,
			              "d1svc: %s: the run ended early: %s (%s); the samples "
			              "left counted failed\n",
			              d1_svc_name(k), s->broken, strerror(s->last_error));
		}
		if (s->run.failed != 0u) {
			status = 1;
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		(void)fprintf(stderr, "d1svc: writing to stdout failed (output lost)\n");
		return 1;
	}
	return status;
}
