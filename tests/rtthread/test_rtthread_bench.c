/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RT-Thread "d1bench" shell command (bench/rtsmart/d1_rt_bench.c),
 * compiled as it is, run on the Timer model (Timer1) with the kernel it
 * calls stood in here: semaphores with timeouts, the wake-up thread (a
 * second context, ucontext, scheduled as the higher-priority thread it
 * is: it runs whenever it is not blocked), rt_thread_mdelay(), the heap,
 * the console. Model time moves one 24 MHz tick at a time while both
 * contexts are blocked; the interrupt handler runs a set number of ticks
 * after the model raises Timer1's line, or never.
 *
 * What it checks is what the model saw: Timer1's boundaries up to the
 * handler run that ends the run equal samples + missed of both recorders,
 * and an interrupt that never comes ends the command with an error within
 * its documented bound (1 s + 100 periods after the last post), Timer1
 * stopped and its handler removed, instead of waiting for ever.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/timer_regs.h"
#include "rtt_host.h"
#include "sim.h"
#include "timer_model.h"

/* The kernel's thread as far as the port reads it (current_priority). */
struct rt_thread {
	void (*entry)(void *parameter);
	void *parameter;
	rt_uint8_t priority;
	rt_uint8_t current_priority; /* the device's caller (the main context) */
	bool started, exited;
	ucontext_t ctx;
	char *stack;
};

/* The command and the d1bench device (RT-Smart's, for user processes),
 * their statics visible to the checks below. */
#define BSP_D1_BENCH_DEV 1
#include "d1_rt_bench.c"

#define PERIODS     200u
#define PERIOD_US   100u
#define PERIOD_TCK  ((uint64_t)PERIOD_US * 24u)
#define WAIT_BOUND  (24000000u + 100u * PERIOD_TCK) /* 1 s + 100 periods */
#define FOREVER_TCK (3u * 24000000u)                /* no progress this long: it waits for ever */
#define STACK_BYTES (256u * 1024u)

struct rt_semaphore {
	int count;
	int live;
};

enum { MAIN_CTX, THREAD_CTX };

static struct timer_model tm;
static ucontext_t main_ctx;
static struct rt_thread thread;
static bool thread_made;
static int cur;
static struct {
	bool blocked;
	rt_sem_t sem;      /* NULL: a delay */
	int need;          /* posts it waits for */
	uint64_t ready_at; /* model time it may run (UINT64_MAX: not yet posted) */
	uint64_t deadline;
} waits[2];

static struct {
	uint64_t lat;                   /* line high -> handler, ticks */
	bool dead;                      /* the line never reaches the hart */
	unsigned takes;                 /* the thread's rt_sem_take() calls */
	uint64_t wake_delay;            /* the thread runs this many ticks after its post */
	int starve;                     /* 1: the thread never runs; 2: not until the abort */
	uint64_t forever;               /* no progress this long: a wait without bound */
	uint64_t hold_from, hold_until; /* no delivery in [from, until) */
	unsigned trytakes;
	unsigned isr_at_trytake; /* that rt_sem_trytake() comes after one more handler run */
	unsigned lag_at, lag;    /* its take lag_at returns only with 1 + lag posts */
	bool line_high;
	uint64_t line_since;
	unsigned isr_calls;
	uint64_t boundaries; /* Timer1 boundaries the model counted */
	uint64_t boundaries_at_done;
	bool done_seen;
	uint64_t progress; /* model time of the last handler run or start */
	bool hung;
	unsigned sems_live;
	unsigned mallocs;
	char out[65536]; /* rt_kputs() */
	size_t nout;
} hw;

static void on_boundary(void *arg, unsigned ch, uint64_t clk)
{
	(void)arg;
	(void)clk;
	if (ch == 1u) {
		hw.boundaries++;
	}
}

/* The model's boundary count when the run's last boundary was accounted
 * (by the woken thread, after the interrupt's capture): checked after each
 * handler and wherever the thread goes next (trytake, release). */
static void check_done(void)
{
	struct d1_bench_stats st;

	(void)d1_bench_get_stats(&d1b.acc, &st);
	if (d1_bench_busy && st.boundaries >= d1b.periods && !hw.done_seen) {
		hw.done_seen = true;
		hw.boundaries_at_done = hw.boundaries;
	}
}

static void step(void)
{
	uint64_t now;

	sim_advance(1);
	now = sim_now();
	if (rtt_host_irqs[D1_IRQ_TIMER1].handler == RT_NULL ||
	    !rtt_host_irqs[D1_IRQ_TIMER1].enabled || !timer_model_irq(&tm, 1)) {
		hw.line_high = false;
		return;
	}
	if (!hw.line_high) {
		hw.line_high = true;
		hw.line_since = now;
	}
	if (hw.dead || (now >= hw.hold_from && now < hw.hold_until) ||
	    now - hw.line_since < hw.lat) {
		return;
	}
	hw.line_high = false;
	assert_int_equal(rtt_host_irq_raise((int)D1_IRQ_TIMER1), 1);
	hw.isr_calls++;
	hw.progress = now;
	check_done();
}

static ucontext_t *ctx_of(int c)
{
	return c == MAIN_CTX ? &main_ctx : &thread.ctx;
}

/* The posts context @p c waits for are there, and (the thread, with a
 * wake delay) have been there for wake_delay ticks: it may run. */
static bool posted(int c)
{
	uint64_t delay = c == THREAD_CTX ? hw.wake_delay : 0u;

	if (waits[c].sem == RT_NULL || waits[c].sem->count < waits[c].need) {
		waits[c].ready_at = UINT64_MAX;
		return false;
	}
	if (waits[c].ready_at == UINT64_MAX) {
		waits[c].ready_at = sim_now() + delay;
	}
	return sim_now() >= waits[c].ready_at;
}

static bool runnable(int c)
{
	if (c == THREAD_CTX && (!thread_made || !thread.started || thread.exited)) {
		return false;
	}
	if (c == THREAD_CTX && (hw.starve == 1 || (hw.starve == 2 && !d1b.abort))) {
		return false; /* kept from running by higher-priority work */
	}
	if (c == MAIN_CTX && hw.hung) {
		return true;
	}
	return !waits[c].blocked || posted(c) || sim_now() >= waits[c].deadline;
}

static void switch_to(int c)
{
	int me = cur;

	cur = c;
	assert_int_equal(swapcontext(ctx_of(me), ctx_of(c)), 0);
	cur = me;
}

static void thread_main(void)
{
	thread.entry(thread.parameter);
	thread.exited = true;
	cur = MAIN_CTX;
	setcontext(&main_ctx);
}

/* Block the running context on @p sem (NULL: a delay) until model time
 * @p deadline; the other context runs whenever it can, else time moves. */
static rt_err_t block(rt_sem_t sem, uint64_t deadline)
{
	int me = cur;
	int need = 1;

	if (me == THREAD_CTX && sem != RT_NULL && ++hw.takes == hw.lag_at) {
		need += (int)hw.lag; /* the thread kept from running for lag periods */
	}

	waits[me].blocked = true;
	waits[me].need = need;
	waits[me].ready_at = UINT64_MAX;
	waits[me].sem = sem;
	waits[me].deadline = deadline;
	for (;;) {
		if (me == MAIN_CTX && hw.hung) {
			fail_msg("d1bench: no progress in %llu ticks of model time: a wait without "
			         "bound",
			         (unsigned long long)hw.forever);
		}
		if (posted(me)) {
			sem->count--;
			waits[me].blocked = false;
			return RT_EOK;
		}
		if (sim_now() >= deadline) {
			waits[me].blocked = false;
			return sem != RT_NULL ? -RT_ETIMEOUT : RT_EOK;
		}
		if (runnable(1 - me)) {
			switch_to(1 - me);
			continue;
		}
		if (sim_now() - hw.progress >= hw.forever) {
			hw.hung = true;
			if (me != MAIN_CTX) {
				switch_to(MAIN_CTX); /* it fails the test there */
			}
			continue;
		}
		if ((tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS) == 0u && !timer_model_irq(&tm, 1)) {
			/* Nothing can happen before the next deadline: go there. */
			uint64_t t = deadline;

			if (waits[1 - me].blocked && waits[1 - me].deadline < t) {
				t = waits[1 - me].deadline;
			}
			for (int c = 0; c < 2; c++) {
				if (waits[c].blocked && waits[c].ready_at < t) {
					t = waits[c].ready_at; /* a post waiting out its wake delay
					                        */
				}
			}
			if (hw.progress + hw.forever < t) {
				t = hw.progress + hw.forever;
			}
			sim_advance(t > sim_now() + 1u ? t - sim_now() - 1u : 1u);
			continue;
		}
		step();
	}
}

static uint64_t ticks_of(rt_int32_t timeout)
{
	/* RT_TICK_PER_SECOND 1000 (rtconfig.h): one kernel tick is 24,000. */
	return timeout < 0 ? UINT64_MAX : sim_now() + (uint64_t)timeout * 24000u;
}

rt_sem_t rt_sem_create(const char *name, rt_uint32_t value, rt_uint8_t flag)
{
	rt_sem_t s = calloc(1, sizeof(*s));

	(void)name;
	assert_int_equal(flag, RT_IPC_FLAG_PRIO);
	assert_non_null(s);
	s->count = (int)value;
	s->live = 1;
	hw.sems_live++;
	return s;
}

rt_err_t rt_sem_delete(rt_sem_t sem)
{
	/* Nobody may still wait on it (RT-Thread would wake it with an
	 * error). */
	assert_false(waits[THREAD_CTX].blocked && waits[THREAD_CTX].sem == sem && !thread.exited);
	sem->live = 0;
	free(sem);
	hw.sems_live--;
	return RT_EOK;
}

rt_err_t rt_sem_take(rt_sem_t sem, rt_int32_t timeout)
{
	assert_true(sem->live);
	return block(sem, ticks_of(timeout));
}

rt_err_t rt_sem_trytake(rt_sem_t sem)
{
	assert_true(sem->live);
	check_done();
	if (++hw.trytakes == hw.isr_at_trytake) {
		unsigned before = hw.isr_calls;

		while (hw.isr_calls == before) {
			step();
		}
	}
	if (sem->count == 0) {
		return -RT_ETIMEOUT;
	}
	sem->count--;
	return RT_EOK;
}

rt_err_t rt_sem_release(rt_sem_t sem)
{
	assert_true(sem->live);
	check_done();
	sem->count++;
	return RT_EOK;
}

rt_thread_t rt_thread_create(const char *name, void (*entry)(void *parameter), void *parameter,
                             rt_uint32_t stack_size, rt_uint8_t priority, rt_uint32_t tick)
{
	(void)name;
	(void)stack_size;
	(void)tick;
	assert_false(thread_made && !thread.exited); /* one at a time */
	free(thread.stack);
	memset(&thread, 0, sizeof(thread));
	thread.entry = entry;
	thread.parameter = parameter;
	thread.priority = priority;
	thread.stack = malloc(STACK_BYTES);
	assert_non_null(thread.stack);
	assert_int_equal(getcontext(&thread.ctx), 0);
	thread.ctx.uc_stack.ss_sp = thread.stack;
	thread.ctx.uc_stack.ss_size = STACK_BYTES;
	thread.ctx.uc_link = NULL;
	makecontext(&thread.ctx, thread_main, 0);
	waits[THREAD_CTX].blocked = false;
	thread_made = true;
	return &thread;
}

rt_err_t rt_thread_delete(rt_thread_t t)
{
	assert_ptr_equal(t, &thread);
	assert_false(t->started); /* only a thread that never ran is deleted */
	t->exited = true;
	return RT_EOK;
}

rt_err_t rt_thread_startup(rt_thread_t t)
{
	assert_ptr_equal(t, &thread);
	t->started = true;
	return RT_EOK;
}

/* The main context is the user process's thread in the device's tests. */
static struct rt_thread user_thread;

rt_thread_t rt_thread_self(void)
{
	return &user_thread;
}

rt_err_t rt_thread_control(rt_thread_t t, int cmd, void *arg)
{
	assert_int_equal(cmd, RT_THREAD_CTRL_CHANGE_PRIORITY);
	t->current_priority = *(rt_uint8_t *)arg;
	return RT_EOK;
}

rt_err_t rt_thread_mdelay(rt_int32_t ms)
{
	return block(RT_NULL, ticks_of(ms));
}

void *rt_malloc(rt_size_t nbytes)
{
	hw.mallocs++;
	return malloc(nbytes);
}

void rt_free(void *ptr)
{
	hw.mallocs--;
	free(ptr);
}

void rt_kputs(const char *str)
{
	size_t n = strlen(str);

	assert_true(hw.nout + n < sizeof(hw.out));
	memcpy(hw.out + hw.nout, str, n + 1u);
	hw.nout += n;
}

static int setup(void **state)
{
	(void)state;
	/* A thread that never ended kept the last run's memory: give it back. */
	memset(waits, 0, sizeof(waits));
	if (d1_bench_busy) {
		d1_bench_free(&d1b);
	}
	d1_bench_dev_running = false;
	sim_reset();
	rtt_host_reset();
	timer_model_init(&tm, D1_TIMER_BASE);
	tm.on_boundary = on_boundary;
	memset(&hw, 0, sizeof(hw));
	memset(waits, 0, sizeof(waits));
	hw.lat = 30u;
	hw.forever = FOREVER_TCK;
	memset(&user_thread, 0, sizeof(user_thread));
	user_thread.current_priority = 20u;
	cur = MAIN_CTX;
	thread_made = false;
	return 0;
}

static int run(void)
{
	char a0[] = "d1bench";
	char a1[16];
	char a2[16];
	char *argv[] = {a0, a1, a2, NULL};

	snprintf(a1, sizeof(a1), "%u", PERIODS);
	snprintf(a2, sizeof(a2), "%u", PERIOD_US);
	return d1bench(3, argv);
}

/* After any run: Timer1 stopped, its handler removed and masked, both
 * semaphores and the heap block given back, the thread ended. */
static void check_left_clean(void)
{
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	assert_false(rtt_host_irqs[D1_IRQ_TIMER1].enabled);
	assert_int_equal(hw.sems_live, 0);
	assert_int_equal(hw.mallocs, 0);
	assert_true(thread.exited);
}

/* Every interrupt 30 ticks after its boundary: each of the model's
 * boundaries up to the last handler run is one sample of both recorders. */
static void test_clean_run(void **state)
{
	char line[96];

	(void)state;
	assert_int_equal(run(), 0);
	assert_true(hw.done_seen);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	/* The recorders are freed: their counts are in the run line. */
	snprintf(line, sizeof(line),
	         "run: %u boundaries, irq %u samples + 0 missed, wake %u samples", PERIODS, PERIODS,
	         PERIODS);
	assert_non_null(strstr(hw.out, line));
	assert_non_null(strstr(hw.out, "\"load\":\"idle\",\"measurement\":\"timer-irq\""));
	assert_non_null(strstr(hw.out, "\"load\":\"idle\",\"measurement\":\"task-wakeup\""));
	check_left_clean();
}

/* The thread's 50th take returns only when two more posts than it needs
 * are there (kept from running for two periods): the IRQ recorder misses
 * nothing; the wake-up recorder has one sample, from the latest boundary,
 * and two missed periods for the boundaries it did not wake for. */
static void test_late_thread_misses_wakeups(void **state)
{
	char line[96];

	(void)state;
	hw.lag_at = 50u;
	hw.lag = 2u;
	assert_int_equal(run(), 0);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	snprintf(line, sizeof(line),
	         "irq %u samples + 0 missed, wake %u samples + 2 missed (1 late, 0 spurious)",
	         PERIODS, PERIODS - 2u);
	if (strstr(hw.out, line) == NULL) {
		fail_msg("want \"%s\" in \"%s\"", line, hw.out);
	}
	check_left_clean();
}

/* Interrupts held across three boundaries: one late sample and two missed
 * periods of both recorders. */
static void test_held_interrupts_are_missed_periods(void **state)
{
	char line[96];

	(void)state;
	hw.hold_from = 100u * 24000u + 50u * PERIOD_TCK + PERIOD_TCK / 2u; /* after the 100 ms */
	hw.hold_until = hw.hold_from + 3u * PERIOD_TCK;
	assert_int_equal(run(), 0);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	snprintf(line, sizeof(line),
	         "irq %u samples + 2 missed, wake %u samples + 2 missed (1 late, 0 spurious)",
	         PERIODS - 2u, PERIODS - 2u);
	if (strstr(hw.out, line) == NULL) {
		fail_msg("want \"%s\" in \"%s\"", line, hw.out);
	}
	check_left_clean();
}

/* The run's last interrupt comes while the thread takes the posts of the
 * boundaries it counted: its post is taken with them, and the last
 * boundary is a missed wake-up, counted after the loop. */
static void test_last_post_taken_with_counted_ones(void **state)
{
	char line[96];

	(void)state;
	hw.isr_at_trytake = PERIODS - 1u;
	assert_int_equal(run(), 0);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	snprintf(line, sizeof(line), "irq %u samples + 0 missed, wake %u samples + 1 missed",
	         PERIODS, PERIODS - 1u);
	if (strstr(hw.out, line) == NULL) {
		fail_msg("want \"%s\" in \"%s\"", line, hw.out);
	}
	check_left_clean();
}

/* The thread runs 500 ticks after each post (the scheduler's share): every
 * wake-up sample, the run's last too, is at least the 30-tick interrupt
 * delay + those 500 ticks after its boundary, and less than a period. */
static void test_wake_sample_is_time_since_boundary(void **state)
{
	const char *j;
	double min_ns;
	double max_ns;

	(void)state;
	hw.wake_delay = 500u;
	assert_int_equal(run(), 0);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	j = strstr(hw.out, "\"measurement\":\"task-wakeup\"");
	assert_non_null(j);
	assert_non_null(strstr(j, "\"min_ns\":"));
	assert_non_null(strstr(j, "\"max_ns\":"));
	min_ns = strtod(strstr(j, "\"min_ns\":") + 9, NULL);
	max_ns = strtod(strstr(j, "\"max_ns\":") + 9, NULL);
	if (min_ns < 530.0 * 125.0 / 3.0 || max_ns >= (double)PERIOD_US * 1000.0) {
		fail_msg("task-wakeup min %.3f ns, max %.3f ns: want >= %.3f and < %u", min_ns,
		         max_ns, 530.0 * 125.0 / 3.0, PERIOD_US * 1000u);
	}
	check_left_clean();
}

/* The thread kept from running until the command gives up on it (the
 * run's length + 1 s + 100 periods + 2 s): the command ends it, stops the
 * Timer, frees everything and says so. */
static void test_thread_starved_run_ended(void **state)
{
	uint64_t t0;

	(void)state;
	hw.starve = 2;
	hw.forever = 10u * 24000000u;
	t0 = sim_now();
	assert_int_equal(run(), -RT_ETIMEOUT);
	assert_non_null(strstr(rtt_host_last_message(), "d1bench: the run did not end within"));
	assert_true(sim_now() - t0 >= 2400000u + PERIODS * PERIOD_TCK + WAIT_BOUND + 24000000u);
	check_left_clean();
}

/* The thread never runs at all: after the command's second, 1-s wait it
 * stops the Timer and masks its interrupt, but leaves the semaphores and
 * the recorders to the thread that may still use them. */
static void test_thread_never_ends_memory_kept(void **state)
{
	(void)state;
	hw.starve = 1;
	hw.forever = 10u * 24000000u;
	assert_int_equal(run(), -RT_ETIMEOUT);
	assert_non_null(strstr(rtt_host_last_message(), "did not end: stopped, its memory kept"));
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_false(rtt_host_irqs[D1_IRQ_TIMER1].enabled);
	assert_int_equal(hw.sems_live, 2);
	assert_int_equal(hw.mallocs, 1);
	assert_false(thread.exited);
}

/* Arguments that are not whole decimal numbers in range: the usage line,
 * -RT_EINVAL, nothing allocated, no Timer started, no handler. */
static void test_bad_arguments(void **state)
{
	static const char *const bad[][2] = {
	        {"12abc", "100"}, {"", "100"},      {"-1", "100"}, {"0", "100"},
	        {"10", "0"},      {"10", "100001"}, {"10", "1e3"}, {"4294967296", "100"},
	};
	char a0[] = "d1bench";

	(void)state;
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char a1[16];
		char a2[16];
		char *argv[] = {a0, a1, a2, NULL};

		snprintf(a1, sizeof(a1), "%s", bad[k][0]);
		snprintf(a2, sizeof(a2), "%s", bad[k][1]);
		assert_int_equal(d1bench(3, argv), -RT_EINVAL);
		assert_non_null(strstr(rtt_host_last_message(), "usage: d1bench"));
		assert_int_equal(hw.mallocs, 0);
		assert_int_equal(hw.sems_live, 0);
		assert_false(thread_made);
		assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
		assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	}
}

/* The interrupt never reaches the hart: the command ends with an error
 * within 1 s + 100 periods of the start (no post ever came), says so, and
 * leaves Timer1 stopped, its handler removed, nothing allocated. */
static void test_no_interrupt_ends_within_bound(void **state)
{
	uint64_t t0;

	(void)state;
	hw.dead = true;
	t0 = sim_now();
	assert_int_equal(run(), -RT_ETIMEOUT);
	assert_true(sim_now() - t0 >= WAIT_BOUND);
	assert_true(sim_now() - t0 <= WAIT_BOUND + 2u * 2400000u); /* + the 100 ms start delay */
	assert_int_equal(hw.isr_calls, 0);
	assert_non_null(strstr(rtt_host_last_message(), "d1bench: no Timer1 interrupt"));
	check_left_clean();
}

/* ---- the d1bench device: the main context is the user process ---- */

static rt_device_t dev_opened(void)
{
	rt_device_t dev;

	assert_int_equal(d1_rt_bench_dev_init(), 0);
	dev = rt_device_find(D1_UBENCH_NAME);
	assert_non_null(dev);
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), RT_EOK);
	return dev;
}

static rt_ssize_t dev_start(rt_device_t dev, uint32_t periods, uint32_t period_us, uint32_t load)
{
	const struct d1_ubench_start req = {D1_UBENCH_MAGIC, periods, period_us, load};

	return rt_device_write(dev, 0, &req, sizeof(req));
}

/* The process's loop (user/d1ubench.c): read until 0, the `time` CSR
 * @p user_ticks after each return (the way back to user mode), write it.
 * Stops after @p max_reads reads; returns the reads that returned 8. */
static unsigned dev_loop(rt_device_t dev, uint64_t user_ticks, unsigned max_reads)
{
	unsigned woken = 0;
	uint64_t last = 0;

	for (unsigned k = 0; k < max_reads; k++) {
		uint64_t v;
		uint64_t now;
		rt_ssize_t n = rt_device_read(dev, 0, &v, sizeof(v));

		if (n == 0) {
			break;
		}
		assert_int_equal(n, sizeof(v));
		/* boundaries accounted before this wake-up: never back, never past
		 * the run */
		assert_true(v >= last && v < PERIODS);
		last = v;
		assert_true(user_thread.current_priority == BSP_D1_BENCH_PRIO);
		sim_advance(user_ticks);
		now = d1_time_now();
		assert_int_equal(rt_device_write(dev, 0, &now, sizeof(now)), sizeof(now));
		woken++;
	}
	return woken;
}

/* A whole run woken by the process, which reads `time` 700 ticks after
 * each post: every boundary one sample of both recorders, the wake-up
 * samples at least the 30-tick interrupt delay + 700 ticks and under a
 * period, one JSON line (task-wakeup, wake "read, user process"); the
 * caller raised to BSP_D1_BENCH_PRIO for the run and put back at close;
 * Timer1 stopped, handler out, nothing held. */
static void test_dev_user_process_run(void **state)
{
	rt_device_t dev;
	char line[96];
	const char *j;
	double min_ns;
	double max_ns;

	(void)state;
	dev = dev_opened();
	assert_int_equal(dev_start(dev, PERIODS, PERIOD_US, 0u), sizeof(struct d1_ubench_start));
	assert_int_equal(user_thread.current_priority, BSP_D1_BENCH_PRIO);
	assert_int_equal(dev_loop(dev, 700u, PERIODS + 10u), PERIODS);
	assert_int_equal(hw.boundaries_at_done, PERIODS);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_int_equal(user_thread.current_priority, 20u);
	snprintf(line, sizeof(line),
	         "run: %u boundaries, irq %u samples + 0 missed, wake %u samples + 0 missed",
	         PERIODS, PERIODS, PERIODS);
	if (strstr(hw.out, line) == NULL) {
		fail_msg("want \"%s\" in \"%s\"", line, hw.out);
	}
	assert_null(strstr(hw.out, "\"measurement\":\"timer-irq\""));
	j = strstr(hw.out, "\"measurement\":\"task-wakeup\",\"wake\":\"read, user process\"");
	assert_non_null(j);
	min_ns = strtod(strstr(j, "\"min_ns\":") + 9, NULL);
	max_ns = strtod(strstr(j, "\"max_ns\":") + 9, NULL);
	if (min_ns < 730.0 * 125.0 / 3.0 || max_ns >= (double)PERIOD_US * 1000.0) {
		fail_msg("task-wakeup min %.3f ns, max %.3f ns: want >= %.3f and < %u", min_ns,
		         max_ns, 730.0 * 125.0 / 3.0, PERIOD_US * 1000u);
	}
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	assert_int_equal(hw.sems_live, 0);
	assert_int_equal(hw.mallocs, 0);
	assert_false(d1_bench_busy);
}

/* The process takes one and a half periods to come back once: that
 * wake-up samples the later boundary (late), the one before is a missed
 * wake-up; the interrupt side misses nothing. */
static void test_dev_late_process_misses_a_wakeup(void **state)
{
	rt_device_t dev;
	uint64_t v;
	uint64_t now;
	char line[96];

	(void)state;
	dev = dev_opened();
	assert_int_equal(dev_start(dev, PERIODS, PERIOD_US, 0u), sizeof(struct d1_ubench_start));
	assert_int_equal(dev_loop(dev, 100u, 20u), 20u);
	assert_int_equal(rt_device_read(dev, 0, &v, sizeof(v)), sizeof(v));
	while (!(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS) || hw.isr_calls < 22u) {
		step(); /* the next boundary's interrupt comes before the write */
	}
	now = d1_time_now();
	assert_int_equal(rt_device_write(dev, 0, &now, sizeof(now)), sizeof(now));
	assert_int_equal(dev_loop(dev, 100u, PERIODS), PERIODS - 22u);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	snprintf(line, sizeof(line),
	         "irq %u samples + 0 missed, wake %u samples + 1 missed (1 late, 0 spurious)",
	         PERIODS, PERIODS - 1u);
	if (strstr(hw.out, line) == NULL) {
		fail_msg("want \"%s\" in \"%s\"", line, hw.out);
	}
}

/* The process closes after 50 wake-ups: the run ends there, the
 * boundaries up to then that no wake-up accounted are missed, the rest of
 * the run is not counted, and nothing is held. */
static void test_dev_early_close(void **state)
{
	rt_device_t dev;

	(void)state;
	dev = dev_opened();
	assert_int_equal(dev_start(dev, PERIODS, PERIOD_US, 0u), sizeof(struct d1_ubench_start));
	assert_int_equal(dev_loop(dev, 100u, 50u), 50u);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_non_null(strstr(hw.out, "run: 50 boundaries, irq 50 samples + 0 "
	                               "missed, wake 50 samples + 0 missed"));
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	assert_int_equal(hw.mallocs, 0);
	assert_int_equal(hw.sems_live, 0);
	assert_int_equal(user_thread.current_priority, 20u);
}

/* Bad requests: -RT_EINVAL, nothing allocated, no Timer, no handler, the
 * caller's priority unchanged; a second opener is refused while the first
 * holds the device; a run while the command's is in progress is refused. */
static void test_dev_bad_input(void **state)
{
	static const struct d1_ubench_start bad[] = {
	        {0x12345678u, 10u, 100u, 0u},     {D1_UBENCH_MAGIC, 0u, 100u, 0u},
	        {D1_UBENCH_MAGIC, 10u, 0u, 0u},   {D1_UBENCH_MAGIC, 10u, 100001u, 0u},
	        {D1_UBENCH_MAGIC, 10u, 100u, 2u},
	};
	rt_device_t dev;
	uint64_t v = 0;
	uint8_t big[sizeof(struct d1_ubench_start) + 1u] = {0};

	(void)state;
	dev = dev_opened();
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		assert_int_equal(rt_device_write(dev, 0, &bad[k], sizeof(bad[k])), -RT_EINVAL);
	}
	assert_int_equal(rt_device_write(dev, 0, big, sizeof(big)), -RT_EINVAL);
	assert_int_equal(rt_device_write(dev, 0, &v, sizeof(v)), -RT_EINVAL); /* no run */
	assert_int_equal(rt_device_read(dev, 0, &v, sizeof(v)), -RT_EINVAL);  /* no run */
	assert_int_equal(rt_device_open(dev, RT_DEVICE_OFLAG_RDWR), -RT_EBUSY);
	d1_bench_busy = true; /* the msh command's run */
	assert_int_equal(dev_start(dev, 10u, 100u, 0u), -RT_EBUSY);
	d1_bench_busy = false;
	assert_int_equal(hw.mallocs, 0);
	assert_int_equal(hw.sems_live, 0);
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	assert_int_equal(user_thread.current_priority, 20u);
	/* a running device takes 8-byte reads and writes only */
	assert_int_equal(dev_start(dev, 10u, 100u, 0u), sizeof(struct d1_ubench_start));
	assert_int_equal(rt_device_read(dev, 0, big, 4u), -RT_EINVAL);
	assert_int_equal(rt_device_write(dev, 0, big, 4u), -RT_EINVAL);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_int_equal(hw.mallocs, 0);
	assert_int_equal(hw.sems_live, 0);
}

/* The interrupt never comes: the read returns -RT_ETIMEOUT within 1 s +
 * 100 periods, later reads 0, and close says what happened and cleans up. */
static void test_dev_no_interrupt_read_times_out(void **state)
{
	rt_device_t dev;
	uint64_t v;
	uint64_t t0;

	(void)state;
	hw.dead = true;
	dev = dev_opened();
	assert_int_equal(dev_start(dev, PERIODS, PERIOD_US, 0u), sizeof(struct d1_ubench_start));
	t0 = sim_now();
	assert_int_equal(rt_device_read(dev, 0, &v, sizeof(v)), -RT_ETIMEOUT);
	assert_true(sim_now() - t0 >= WAIT_BOUND);
	assert_true(sim_now() - t0 <= WAIT_BOUND + 24000u);
	assert_int_equal(rt_device_read(dev, 0, &v, sizeof(v)), 0);
	assert_int_equal(rt_device_close(dev), RT_EOK);
	assert_non_null(strstr(rtt_host_last_message(), "d1bench: no Timer1 interrupt"));
	assert_int_equal(tm.ch[1].ctrl & D1_TIMER_CTRL_EN_BITS, 0u);
	assert_null(rtt_host_irqs[D1_IRQ_TIMER1].handler);
	assert_int_equal(hw.mallocs, 0);
	assert_int_equal(hw.sems_live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup(test_clean_run, setup),
	        cmocka_unit_test_setup(test_late_thread_misses_wakeups, setup),
	        cmocka_unit_test_setup(test_held_interrupts_are_missed_periods, setup),
	        cmocka_unit_test_setup(test_last_post_taken_with_counted_ones, setup),
	        cmocka_unit_test_setup(test_wake_sample_is_time_since_boundary, setup),
	        cmocka_unit_test_setup(test_no_interrupt_ends_within_bound, setup),
	        cmocka_unit_test_setup(test_bad_arguments, setup),
	        cmocka_unit_test_setup(test_thread_starved_run_ended, setup),
	        cmocka_unit_test_setup(test_thread_never_ends_memory_kept, setup),
	        cmocka_unit_test_setup(test_dev_user_process_run, setup),
	        cmocka_unit_test_setup(test_dev_late_process_misses_a_wakeup, setup),
	        cmocka_unit_test_setup(test_dev_early_close, setup),
	        cmocka_unit_test_setup(test_dev_bad_input, setup),
	        cmocka_unit_test_setup(test_dev_no_interrupt_read_times_out, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
