/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the run lines of two small runs driven through the bench core, for
 * tests/os/test_benchrun.py: the one writer (d1_bench_report_run()) checked
 * against the one parser (tests/os/benchrun.py). Each line is preceded by
 * the figures it must carry, as "want: k=v ...".
 */
#include <stdio.h>

#include "d1/bench.h"
#include "d1/port.h"

/* One thread, no interrupt: the critical section has nothing to hold off. */
uintptr_t d1_port_critical_enter(void)
{
	return 0u;
}

void d1_port_critical_exit(uintptr_t state)
{
	(void)state;
}

static struct d1_lat irq, wake;

static int with_task(void)
{
	struct d1_bench b;
	char line[D1_BENCH_RUN_LINE_SIZE];

	if (d1_lat_init(&irq, 24000000u) != D1_OK || d1_lat_init(&wake, 24000000u) != D1_OK ||
	    d1_bench_init(&b, &irq, &wake, 24000u, 5u) != D1_OK ||
	    d1_bench_start(&b, 0u) != D1_OK) {
		return 1;
	}
	/* boundaries 1 and 2 on time; 3 missed by both; 4 late for the task */
	(void)d1_bench_isr_at(&b, 24000u, 24010u);
	(void)d1_bench_wake(&b, 24100u);
	(void)d1_bench_isr_at(&b, 48000u, 48010u);
	(void)d1_bench_wake(&b, 48100u);
	(void)d1_bench_isr_at(&b, 96000u, 96020u);
	(void)d1_bench_isr_at(&b, 120000u, 120020u);
	(void)d1_bench_wake(&b, 120200u);
	if (d1_bench_finish(&b, 121000u) != D1_OK ||
	    d1_bench_report_run(&b, 121000u, line, sizeof line, NULL) != D1_OK) {
		return 1;
	}
	printf("want: boundaries=5 irq_samples=4 irq_missed=1 wake_samples=3 wake_missed=2 late=1 "
	       "spurious_wake=0 spurious_irq=0 dropped=0 us=5041 ideal_us=5000\n%s\n",
	       line);
	return 0;
}

static int without_task(void)
{
	struct d1_bench b;
	char line[D1_BENCH_RUN_LINE_SIZE];

	if (d1_lat_init(&irq, 24000000u) != D1_OK ||
	    d1_bench_init(&b, &irq, NULL, 24000u, 3u) != D1_OK || d1_bench_start(&b, 0u) != D1_OK) {
		return 1;
	}
	for (uint64_t k = 1; k <= 3u; k++) {
		(void)d1_bench_isr_at(&b, k * 24000u, k * 24000u + 7u);
		(void)d1_bench_account(&b);
	}
	if (d1_bench_finish(&b, 72100u) != D1_OK ||
	    d1_bench_report_run(&b, 72100u, line, sizeof line, NULL) != D1_OK) {
		return 1;
	}
	printf("want: boundaries=3 irq_samples=3 irq_missed=0 wake_samples=None spurious_irq=0 "
	       "dropped=0 us=3004 ideal_us=3000\n%s\n",
	       line);
	return 0;
}

int main(void)
{
	return with_task() != 0 || without_task() != 0;
}
