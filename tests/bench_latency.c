/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Recorder benchmark: memory of the recorder against storing every sample
 * and sorting, host time per sample (record) and per report (summary), and
 * the length of the dump line.
 *
 * usage: bench_latency [samples]   (default 10,000,000 timed samples)
 *
 * Build without sanitizers for meaningful times (docs/latency.md has the
 * command); under the ASan host preset it only runs as a smoke test.
 */
#define _POSIX_C_SOURCE 200809L // NOLINT(bugprone-reserved-identifier): feature-test macro

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "d1/latency.h"

#define POOL 65536u /* pre-generated samples, cycled */

static uint32_t pool[POOL];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* D1-like interrupt latency in 24 MHz counts: ~40..100 counts, 0.1 % tail. */
static void fill_pool(void)
{
	uint64_t s = 12345u;
	uint32_t i;

	for (i = 0; i < POOL; i++) {
		uint32_t u;

		s = s * 6364136223846793005ull + 1442695040888963407ull;
		u = (uint32_t)(s >> 33);
		pool[i] = 40u + (u & 0x3Fu);
		if ((u >> 8) % 1000u == 0u) {
			pool[i] += (u >> 12) % 48000u; /* up to 2 ms: some overflow */
		}
	}
}

static size_t dump_bytes;

static void count_put(void *ctx, const char *str, size_t len)
{
	(void)ctx;
	(void)str;
	dump_bytes += len;
}

static void memory_table(void)
{
	static const uint64_t runs[] = {20000u, 1000000u, 1000000000u};
	static const uint32_t hz[] = {24000000u, 1000000000u};
	size_t i;

	printf("memory (bytes), recorder: sizeof(struct d1_lat) = %zu for any run length "
	       "(%u bins of 4 bytes + overflow bin + %zu bytes of counters)\n",
	       sizeof(struct d1_lat), D1_LAT_NBINS,
	       sizeof(struct d1_lat) - sizeof(((struct d1_lat *)0)->bins));
	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		printf("  at %10u Hz: exact 0..%u counts (%.3f us), <= 1/128 to %u counts "
		       "(%.3f ms), counted above\n",
		       hz[i], D1_LAT_EXACT - 1u, (D1_LAT_EXACT - 1u) * 1e6 / hz[i], D1_LAT_TOP,
		       D1_LAT_TOP * 1e3 / hz[i]);
	}
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		printf("  store-and-sort, %10llu samples * 4 bytes %22llu\n",
		       (unsigned long long)runs[i], (unsigned long long)runs[i] * 4u);
	}
}

int main(int argc, char **argv)
{
	static uint32_t stored[20000];
	static struct d1_lat r;
	struct d1_lat_summary s;
	uint64_t n = 10000000u, i, t0, t1, t_rec, t_sum, t_sort;
	volatile uint32_t sink = 0;
	unsigned reps, k;

	if (argc > 1) {
		n = strtoull(argv[1], NULL, 10);
		if (n == 0u) {
			n = 1u;
		}
	}
	fill_pool();
	memory_table();

	if (d1_lat_init(&r, 24000000u) != D1_OK) {
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		d1_lat_record(&r, pool[i & (POOL - 1u)]);
	}
	t1 = now_ns();
	t_rec = t1 - t0;

	reps = 20u;
	t0 = now_ns();
	for (k = 0; k < reps; k++) {
		d1_lat_summarize(&r, &s);
		sink += s.pct[0];
	}
	t_sum = (now_ns() - t0) / reps;

	/* Store-and-sort on 20,000 samples: the cost after the run. */
	t0 = now_ns();
	for (k = 0; k < reps; k++) {
		memcpy(stored, pool, sizeof(stored));
		qsort(stored, 20000u, sizeof(stored[0]), cmp_u32);
		sink += stored[9999];
	}
	t_sort = (now_ns() - t0) / reps;

	printf("host time\n");
	printf("  d1_lat_record: %llu samples in %llu ns = %.2f ns/sample\n", (unsigned long long)n,
	       (unsigned long long)t_rec, (double)t_rec / (double)n);
	printf("  d1_lat_summarize (%u bins, 5 percentiles, mean): %llu ns\n", D1_LAT_NBINS + 1u,
	       (unsigned long long)t_sum);
	d1_lat_dump(&r, NULL, count_put, NULL);
	printf("  dump of this run (d1_lat_dump, JSON line): %zu bytes\n", dump_bytes);
	printf("  store-and-sort 20000 samples (memcpy + qsort): %llu ns\n",
	       (unsigned long long)t_sort);
	printf("  check: samples %llu, p50 %u counts, p99.99 %u counts%s, sink %u\n",
	       (unsigned long long)s.samples, s.pct[0], s.pct[4], s.pct_approx[4] ? " (*)" : "",
	       (unsigned)sink);
	return s.samples == n ? 0 : 1;
}
