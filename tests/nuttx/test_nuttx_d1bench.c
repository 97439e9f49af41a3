/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The NuttX d1bench app (bench/nuttx/apps/d1bench/d1bench_main.c), compiled
 * as it is, run on the Timer model with what NuttX gives it stood in here:
 * the interrupt line (delivered a set number of 24 MHz ticks after the
 * model raises it, or held, or never), the semaphore and its waits (the
 * bench thread runs when a post is there, or only some interrupts later),
 * the monotonic clock (model time). Model time moves one tick at a time
 * while the thread waits.
 *
 * What it checks is what the model saw: the periods the model counted up
 * to the interrupt that ended the run equal samples + missed of both
 * recorders, the Timer-IRQ samples equal the delivery delay, a late or
 * absent interrupt is counted or ends the run within its documented bound
 * (1 s + 100 periods) with Timer0 stopped and the handler detached, and a
 * refused irq_attach() starts nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/timer_regs.h"
#include "sim.h"
#include "nx_line_host.h"
#include "timer_model.h"

/* The app, its statics visible to the checks below. */
int d1bench_main(int argc, char *argv[]);
#define main d1bench_main
#include "d1bench_main.c"
#undef main

#define PERIODS     CONFIG_D1LIB_BENCH_PERIODS
#define PERIOD_TCK  ((uint64_t)CONFIG_D1LIB_BENCH_PERIOD_US * 24u)
#define WAIT_BOUND  (24000000u + 100u * PERIOD_TCK) /* 1 s + 100 periods */
#define FOREVER_TCK (3u * 24000000u)                /* an untimed wait this long never ends */

static struct timer_model tm;

/* NuttX and the hart, as the app sees them. */
static struct {
	unsigned waits;
	unsigned lag_at, lag; /* wait lag_at returns only with 1 + lag posts */
	unsigned trywaits;
	unsigned isr_at_trywait; /* that sem_trywait() call comes after one more handler run */
	uint64_t boundaries;     /* Timer0 boundaries the model counted */
	uint64_t boundaries_at_done;
	bool done_seen;
	int prio;
} hw;

static char out[8192];

static void on_boundary(void *arg, unsigned ch, uint64_t clk)
{
	(void)arg;
	(void)clk;
	if (ch == 0u) {
		hw.boundaries++;
	}
}

/* After each handler run, after each wake-up's accounting (the thread's
 * sem_trywait() follows d1_bench_wake()) and after the run: the model's
 * boundary count when the run's last boundary was accounted. */
static void after_isr(void)
{
	struct d1_bench_stats st;

	(void)d1_bench_get_stats(&g_bench, &st);
	if (st.boundaries >= PERIODS && !hw.done_seen) {
		hw.done_seen = true;
		hw.boundaries_at_done = hw.boundaries;
	}
}

/* The waiting thread: it runs again once the semaphore holds a post (on
 * its lag_at-th wait, 1 + lag posts), or gives up at model time
 * @p deadline. */
static bool run_until_post(sem_t *sem, uint64_t deadline)
{
	int need = 1;

	assert_true(sem->live);
	assert_int_equal(nx_line.depth, 0); /* never waits with interrupts off */
	if (++hw.waits == hw.lag_at) {
		need += (int)hw.lag;
	}
	while (sem->count < need) {
		if (sim_now() >= deadline) {
			return false;
		}
		nx_line_step(1u);
	}
	return true;
}

int sem_init(sem_t *sem, int pshared, unsigned int value)
{
	assert_int_equal(pshared, 0);
	sem->count = (int)value;
	sem->live = 1;
	return 0;
}

int sem_destroy(sem_t *sem)
{
	sem->live = 0;
	return 0;
}

int sem_wait(sem_t *sem)
{
	if (!run_until_post(sem, sim_now() + FOREVER_TCK)) {
		fail_msg("sem_wait(): no post in %u ticks of model time, and it would wait for "
		         "ever",
		         (unsigned)FOREVER_TCK);
	}
	sem->count--;
	return 0;
}

static uint64_t ns_of(uint64_t ticks)
{
	return ticks * 125u / 3u; /* 24 MHz */
}

int nx_clock_gettime(clockid_t clk, struct timespec *ts)
{
	uint64_t ns = ns_of(sim_now());

	assert_int_equal(clk, CLOCK_MONOTONIC);
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

int sem_clockwait(sem_t *sem, clockid_t clk, const struct timespec *abstime)
{
	uint64_t ns = (uint64_t)abstime->tv_sec * 1000000000u + (uint64_t)abstime->tv_nsec;

	assert_int_equal(clk, CLOCK_MONOTONIC);
	assert_true(abstime->tv_nsec >= 0 && abstime->tv_nsec < 1000000000);
	if (!run_until_post(sem, (ns * 3u + 124u) / 125u)) {
		errno = ETIMEDOUT;
		return -1;
	}
	sem->count--;
	return 0;
}

int sem_trywait(sem_t *sem)
{
	after_isr();
	if (++hw.trywaits == hw.isr_at_trywait) {
		unsigned before = nx_line.isr_calls;

		while (nx_line.isr_calls == before) {
			nx_line_step(1u);
		}
	}
	if (sem->count == 0) {
		errno = EAGAIN;
		return -1;
	}
	sem->count--;
	return 0;
}

int sem_post(sem_t *sem)
{
	assert_true(sem->live);
	sem->count++;
	return 0;
}

int sem_getvalue(sem_t *sem, int *sval)
{
	*sval = sem->count;
	return 0;
}

int sched_get_priority_max(int policy)
{
	assert_int_equal(policy, SCHED_FIFO);
	return SCHED_PRIORITY_MAX;
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	assert_int_equal(pid, 0);
	assert_int_equal(policy, SCHED_FIFO);
	hw.prio = param->sched_priority;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	sim_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	memset(&hw, 0, sizeof(hw));
	nx_line_reset(&tm, 0u, RISCV_IRQ_SEXT + (int)D1_IRQ_TIMER0);
	nx_line.lat = 30u;
	nx_line.after_isr = after_isr;
	return 0;
}

/* Runs the app with its stdout in out[]; returns its exit code. */
static int run(void)
{
	FILE *f = tmpfile();
	int saved;
	int rc;
	size_t n;

	assert_non_null(f);
	assert_int_equal(fflush(stdout), 0);
	saved = dup(1);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(f), 1) >= 0);
	rc = d1bench_main(1, NULL);
	after_isr(); /* the thread's last accounting, if it ended the run */
	assert_int_equal(fflush(stdout), 0);
	assert_true(dup2(saved, 1) >= 0);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1u, f);
	out[n] = '\0';
	fclose(f);
	return rc;
}

static bool timer0_enabled(void)
{
	return (tm.ch[0].ctrl & D1_TIMER_CTRL_EN_BITS) != 0u;
}

/* After any run: Timer0 stopped, its interrupt off and detached, the
 * thread back at its own priority, no critical section left open. */
static void check_left_clean(void)
{
	assert_false(timer0_enabled());
	assert_false(nx_line.enabled);
	assert_null(nx_line.isr);
	assert_int_equal(hw.prio, SCHED_PRIORITY_DEFAULT);
	assert_int_equal(nx_line.depth, 0);
}

/* A finished run: every period the model counted up to the last handler
 * run is a sample or a missed period of both recorders, and the text and
 * JSON reports say so. */
/* The JSON line of one measurement says its samples and missed periods,
 * and how the task was woken. */
static void check_json(const char *measurement, const char *wake, uint64_t samples, uint64_t missed)
{
	char key[96];
	char want[160];
	const char *line;
	const char *end;

	snprintf(key, sizeof(key), "\"measurement\":\"%s\",\"wake\":\"%s\"", measurement, wake);
	line = strstr(out, key);
	assert_non_null(line);
	while (line > out && line[-1] != '\n') {
		line--;
	}
	end = strchr(line, '\n');
	assert_non_null(end);
	snprintf(want, sizeof(want),
	         "\"os\":\"nuttx\",\"board\":\"allwinner-d1\",\"clock_hz\":24000000,"
	         "\"period_ns\":%u,\"samples\":%u,\"missed\":%u,\"load\":\"idle\",",
	         (unsigned)CONFIG_D1LIB_BENCH_PERIOD_US * 1000u, (unsigned)samples,
	         (unsigned)missed);
	const char *hit = strstr(line, want);
	assert_true(hit != NULL && hit < end);
}

static void check_run(uint64_t irq_missed, uint64_t wake_missed)
{
	struct d1_lat_summary irq;
	struct d1_lat_summary wake;
	char line[160];

	assert_true(hw.done_seen);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	assert_int_equal(d1_lat_summarize(&g_lat_irq, &irq), D1_OK);
	assert_int_equal(d1_lat_summarize(&g_lat_wake, &wake), D1_OK);
	assert_int_equal(irq.missed, irq_missed);
	assert_int_equal(irq.samples + irq.missed, hw.boundaries_at_done);
	assert_int_equal(wake.missed, wake_missed);
	assert_int_equal(wake.samples + wake.missed, hw.boundaries_at_done);

	snprintf(line, sizeof(line),
	         "run: %u boundaries, irq %u samples + %u missed, wake %u samples + %u missed",
	         (unsigned)PERIODS, (unsigned)(PERIODS - irq_missed), (unsigned)irq_missed,
	         (unsigned)(PERIODS - wake_missed), (unsigned)wake_missed);
	assert_non_null(strstr(out, line));
	check_json("timer-irq", "none", PERIODS - irq_missed, irq_missed);
	check_json("task-wakeup", "semaphore", PERIODS - wake_missed, wake_missed);
}

/* Every interrupt 30 ticks after its boundary: the IRQ samples are the 30
 * ticks (and the clock reads of the handler's entry); the thread runs at
 * once after each post, at the highest priority. */
static void test_clean_run(void **state)
{
	struct d1_lat_summary irq;
	struct d1_lat_summary wake;

	(void)state;
	assert_int_equal(run(), 0);
	check_run(0, 0);
	check_left_clean();
	assert_int_equal(d1_lat_summarize(&g_lat_irq, &irq), D1_OK);
	assert_int_equal(d1_lat_summarize(&g_lat_wake, &wake), D1_OK);
	assert_true(irq.min >= 30u && irq.max <= 32u);
	assert_true(wake.min >= irq.min && wake.max <= irq.max + 8u);
}

/* Interrupts held across three boundaries in the middle of the run (a long
 * critical section): the late handler's sample is from the latest of them,
 * the two before it are missed periods of both recorders. */
static void test_held_interrupts_are_missed_periods(void **state)
{
	(void)state;
	nx_line.hold_from = 50u * PERIOD_TCK + PERIOD_TCK / 2u;
	nx_line.hold_until = nx_line.hold_from + 3u * PERIOD_TCK + PERIOD_TCK / 2u;
	assert_int_equal(run(), 0);
	check_run(2, 2);
	check_left_clean();
}

/* The first interrupt held for 2.5 periods: the first boundary is a missed
 * period too (the run's start is the reference), and the run still ends at
 * the model's PERIODS-th boundary. */
static void test_held_first_interrupt(void **state)
{
	(void)state;
	nx_line.hold_until = 2u * PERIOD_TCK + PERIOD_TCK / 2u;
	assert_int_equal(run(), 0);
	check_run(1, 1);
	check_left_clean();
}

/* The thread's 50th wait returns only when two more posts than it needs
 * are there (it was kept from running for two periods): the IRQ recorder
 * misses nothing, the wake-up recorder two periods. */
static void test_late_thread_misses_wakeups(void **state)
{
	(void)state;
	hw.lag_at = 50u;
	hw.lag = 2u;
	assert_int_equal(run(), 0);
	check_run(0, 2);
	check_left_clean();
}

/* A period's interrupt comes while the thread takes the posts of the
 * periods it has counted: its post is taken with them, and the period is a
 * missed wake-up (here the 100th; on the 199th it is the run's last
 * period, counted after the loop). */
static void test_post_taken_with_counted_ones(void **state)
{
	(void)state;
	hw.isr_at_trywait = 100u;
	assert_int_equal(run(), 0);
	check_run(0, 1);
	check_left_clean();
}

static void test_last_post_taken_with_counted_ones(void **state)
{
	(void)state;
	hw.isr_at_trywait = PERIODS - 1u;
	assert_int_equal(run(), 0);
	check_run(0, 1);
	check_left_clean();
}

/* The interrupt never reaches the hart (the SBI timer of the comparison
 * that never fired): the run ends with an error within 1 s + 100 periods
 * of its last post, says so, and leaves Timer0 stopped and detached. */
static void test_no_interrupt_ends_within_bound(void **state)
{
	uint64_t t0;

	(void)state;
	nx_line.dead = true;
	t0 = sim_now();
	assert_int_equal(run(), 1);
	assert_true(sim_now() - t0 <= WAIT_BOUND + PERIOD_TCK);
	assert_true(sim_now() - t0 >= WAIT_BOUND);
	assert_int_equal(nx_line.isr_calls, 0);
	assert_non_null(strstr(out, "d1bench: no Timer0 interrupt"));
	check_left_clean();
}

/* irq_attach() refused: nothing started, the error said. */
static void test_attach_refused_starts_nothing(void **state)
{
	(void)state;
	nx_line.attach_ret = -EBUSY;
	assert_int_equal(run(), 1);
	assert_int_equal(nx_line.attaches, 1);
	assert_int_equal(hw.boundaries, 0);
	assert_false(timer0_enabled());
	assert_false(nx_line.enabled);
	assert_int_not_equal(hw.prio, SCHED_PRIORITY_MAX); /* not left raised */
	assert_non_null(strstr(out, "d1bench: irq_attach"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_clean_run, setup),
	        cmocka_unit_test_setup(test_held_interrupts_are_missed_periods, setup),
	        cmocka_unit_test_setup(test_held_first_interrupt, setup),
	        cmocka_unit_test_setup(test_late_thread_misses_wakeups, setup),
	        cmocka_unit_test_setup(test_post_taken_with_counted_ones, setup),
	        cmocka_unit_test_setup(test_last_post_taken_with_counted_ones, setup),
	        cmocka_unit_test_setup(test_no_interrupt_ends_within_bound, setup),
	        cmocka_unit_test_setup(test_attach_refused_starts_nothing, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
