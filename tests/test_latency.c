/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency recorder (log-linear layout) against a sorted reference: exact
 * below 1024 counts, within 1/128 of the true value up to D1_LAT_TOP, an
 * upper bound (max) above, for random and adversarial distributions; the
 * layout tiles 0 .. 2^32 - 1 and d1_lat_record() uses it for every value
 * up to 2^25 + 2^20; totals equal the samples fed; merge equals recording
 * the union; saturation is counted; NULL arguments; the dump and reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "d1/latency.h"

#define NMAX 200000u

static uint32_t samples[NMAX];
static uint32_t sorted[NMAX];
static struct d1_lat ra, rb, rc;

static uint64_t lcg_state;

static uint32_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(lcg_state >> 32);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static const uint32_t qs[] = {0u,      1u,      10000u,  250000u, 500000u, 500001u, 900000u,
                              990000u, 999000u, 999900u, 999990u, 999999u, 1000000u};

static uint64_t held(const struct d1_lat *r)
{
	uint64_t n = 0u;
	uint32_t i;

	for (i = 0; i <= D1_LAT_NBINS; i++) {
		n += r->bins[i];
	}
	return n;
}

/*
 * The documented bound for a reference value @want (the sorted sample of
 * the rank) and the recorder's answer @got: equal and not flagged below
 * 1024; within want/128 and in want's bucket up to the top; above the top
 * the answer is max (>= want).
 */
static void check_bound(uint32_t want, uint32_t got, bool approx, uint32_t max)
{
	if (want < D1_LAT_EXACT) {
		assert_int_equal(got, want);
		assert_false(approx);
	} else if (want <= D1_LAT_TOP) {
		uint64_t d = got > want ? got - want : want - got;

		assert_true(d * 128u <= want);
		assert_int_equal(d1_lat_bucket_index(got), d1_lat_bucket_index(want));
		if (!approx) {
			assert_int_equal(got, want);
		}
	} else {
		assert_int_equal(got, max);
		assert_true(got >= want);
	}
}

static void check_against_reference(uint32_t n, uint32_t (*gen)(void))
{
	uint32_t i, max = 0u;
	bool approx;

	assert_int_equal(d1_lat_init(&ra, 1000000000u), D1_OK);
	for (i = 0; i < n; i++) {
		samples[i] = gen();
		max = samples[i] > max ? samples[i] : max;
		d1_lat_record(&ra, samples[i]);
	}
	assert_true(held(&ra) + ra.lost == n); /* totals = samples fed */
	assert_int_equal(ra.max, max);
	memcpy(sorted, samples, n * sizeof(*samples));
	qsort(sorted, n, sizeof(*sorted), cmp_u32);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t rank = ((uint64_t)qs[i] * n + 999999u) / 1000000u;
		uint32_t want, got;

		rank = rank == 0u ? 1u : rank;
		want = sorted[rank - 1u];
		got = d1_lat_percentile(&ra, qs[i], &approx);
		check_bound(want, got, approx, max);
	}
	/* p100 is max, exactly, wherever it is. */
	assert_int_equal(d1_lat_percentile(&ra, 1000000u, &approx), max);
	assert_false(approx);
}

static uint32_t g_latency(void) /* 40..103 counts, 0.1 % tail to 2^22 */
{
	uint32_t u = lcg();

	return (u >> 8) % 1000u == 0u ? 40u + u % (1u << 22) : 40u + (u & 0x3Fu);
}
static uint32_t g_uniform_top(void)
{
	return lcg() % (D1_LAT_TOP + 1u);
}
static uint32_t g_log_uniform(void) /* every octave equally often, to 2^32 */
{
	uint32_t k = lcg() % 32u;

	return (1u << k) | (lcg() & ((1u << k) - 1u));
}
static uint32_t g_edges(void) /* the edges of random buckets, +-1 */
{
	uint32_t lo, hi, i = lcg() % (D1_LAT_NBINS + 1u);

	d1_lat_bucket_bounds(i, &lo, &hi);
	switch (lcg() % 4u) {
	case 0:
		return lo;
	case 1:
		return hi;
	case 2:
		return lo - 1u;
	default:
		return hi + 1u;
	}
}
static uint32_t g_one_bucket_low(void) /* all in bucket [2^20, 2^20 + 2^14) */
{
	return (1u << 20) + (lcg() % 4u);
}
static uint32_t g_one_bucket_high(void)
{
	return (1u << 20) + (1u << 14) - 1u - (lcg() % 4u);
}
static uint32_t g_one_value(void)
{
	return 5000u;
}
static uint32_t g_max_values(void)
{
	static const uint32_t v[] = {UINT32_MAX, D1_LAT_TOP, D1_LAT_TOP + 1u, 0u, 1023u, 1024u};

	return v[lcg() % 6u];
}
static uint32_t g_overflow_heavy(void) /* 10 % above the top */
{
	uint32_t u = lcg();

	return u % 10u == 0u ? D1_LAT_TOP + 1u + u % 1000000u : 1000u + u % 3000u;
}
static uint32_t g_small(void)
{
	return lcg() % 50u;
}

static void test_reference_distributions(void **state)
{
	uint32_t (*gens[])(void) = {
	        g_latency,         g_uniform_top, g_log_uniform, g_edges,          g_one_bucket_low,
	        g_one_bucket_high, g_one_value,   g_max_values,  g_overflow_heavy, g_small};
	static const uint32_t ns[] = {1u, 2u, 7u, 1000u, 20000u, NMAX};
	size_t g, k;

	(void)state;
	for (g = 0; g < sizeof(gens) / sizeof(gens[0]); g++) {
		for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
			lcg_state = 12345u + g * 77u + k;
			check_against_reference(ns[k], gens[g]);
		}
	}
}

/* The bins tile 0 .. 2^32 - 1, each bucket at most lo / 64 wide. */
static void test_layout_tiles_u32(void **state)
{
	uint32_t i, lo, hi, next = 0u;

	(void)state;
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		d1_lat_bucket_bounds(i, &lo, &hi);
		assert_int_equal(lo, next);
		assert_true(hi >= lo);
		if (i < D1_LAT_EXACT) {
			assert_int_equal(hi, lo);
		} else if (i < D1_LAT_NBINS) {
			assert_true((uint64_t)(hi - lo + 1u) * D1_LAT_SUB <= lo);
		}
		assert_int_equal(d1_lat_bucket_index(lo), i);
		assert_int_equal(d1_lat_bucket_index(hi), i);
		next = hi + 1u;
	}
	assert_int_equal(next, 0u); /* the last one ended at UINT32_MAX */
	d1_lat_bucket_bounds(D1_LAT_NBINS - 1u, &lo, &hi);
	assert_int_equal(hi, D1_LAT_TOP);
	assert_int_equal(D1_LAT_TOP, (1u << 25) - 1u);
	d1_lat_bucket_bounds(D1_LAT_OVERFLOW + 5u, &lo, &hi);
	assert_int_equal(lo, D1_LAT_TOP + 1u);
	assert_int_equal(hi, UINT32_MAX);
	/* Memory: the figure docs/latency.md states. */
	assert_int_equal(sizeof(struct d1_lat), 7968u);
	assert_true(sizeof(struct d1_lat) <= 8192u);
}

/* d1_lat_record() puts every value 0 .. 2^25 + 2^20 in the bucket of
 * d1_lat_bucket_index(), and a sample of large values too. */
static void test_record_uses_layout(void **state)
{
	uint64_t v;
	uint32_t b;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	for (v = 0; v < (1u << 25) + (1u << 20); v++) {
		b = d1_lat_bucket_index((uint32_t)v);
		ra.bins[b] = 7u;
		d1_lat_record(&ra, (uint32_t)v);
		assert_int_equal(ra.bins[b], 8u);
		ra.bins[b] = 0u;
	}
	for (v = 0; v < 100000u; v++) {
		uint32_t x = lcg() | 0x80000000u;

		d1_lat_record(&ra, x);
	}
	assert_int_equal(ra.bins[D1_LAT_OVERFLOW], 100000u);
	assert_int_equal(held(&ra), 100000u);
	d1_lat_record(&ra, UINT32_MAX);
	assert_int_equal(ra.max, UINT32_MAX);
	assert_int_equal(ra.bins[D1_LAT_OVERFLOW], 100001u);
}

/* Exact counts in the exact range: each value's bin holds exactly its samples. */
static void test_exact_counts(void **state)
{
	uint32_t v, k;
	bool approx = true;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	for (v = 0; v < D1_LAT_EXACT; v++) {
		for (k = 0; k < v % 5u + 1u; k++) {
			d1_lat_record(&ra, v);
		}
	}
	for (v = 0; v < D1_LAT_EXACT; v++) {
		assert_int_equal(ra.bins[v], v % 5u + 1u);
	}
	assert_int_equal(held(&ra), 3070u); /* 1024 values, 1..5 each: 204 * 15 + 10 */
	assert_int_equal(d1_lat_percentile(&ra, 0u, &approx), 0u);
	assert_false(approx);
	assert_int_equal(d1_lat_percentile(&ra, 1000000u, &approx), 1023u);
	assert_false(approx);
}

static void test_init_errors_and_null(void **state)
{
	uint32_t lo = 7u, hi = 7u;
	struct d1_lat_summary s;
	char buf[64];

	(void)state;
	memset(&ra, 0x5a, sizeof(ra));
	assert_int_equal(d1_lat_init(NULL, 1000u), D1_EINVAL);
	assert_int_equal(d1_lat_init(&ra, 999u), D1_ERANGE);
	assert_int_equal(ra.bins[3], 0x5a5a5a5au); /* untouched on error */
	assert_int_equal(d1_lat_init(&ra, 1000u), D1_OK);
	assert_int_equal(held(&ra), 0u);
	assert_int_equal(d1_lat_percentile(&ra, 500000u, NULL), 0u);
	/* NULL: documented no-ops, 0, or D1_EINVAL. */
	d1_lat_reset(NULL);
	d1_lat_record(NULL, 5u);
	d1_lat_missed(NULL, 5u);
	assert_true(d1_lat_counts_to_ps(NULL, 5u) == 0u);
	d1_lat_bucket_bounds(3u, NULL, NULL);
	d1_lat_bucket_bounds(3u, &lo, NULL);
	assert_int_equal(lo, 3u);
	d1_lat_bucket_bounds(3u, NULL, &hi);
	assert_int_equal(hi, 3u);
	assert_int_equal(d1_lat_percentile(NULL, 500000u, NULL), 0u);
	assert_int_equal(d1_lat_summarize(NULL, &s), D1_EINVAL);
	assert_int_equal(d1_lat_summarize(&ra, NULL), D1_EINVAL);
	assert_int_equal(d1_lat_merge(NULL, &ra), D1_EINVAL);
	assert_int_equal(d1_lat_merge(&ra, NULL), D1_EINVAL);
	assert_int_equal(d1_lat_dump(NULL, NULL, NULL, NULL), D1_EINVAL);
	assert_int_equal(d1_lat_dump(&ra, NULL, NULL, NULL), D1_EINVAL);
	assert_int_equal(d1_lat_report_json(NULL, NULL, buf, sizeof(buf), NULL), D1_EINVAL);
	assert_int_equal(d1_lat_report_json(&ra, NULL, NULL, sizeof(buf), NULL), D1_EINVAL);
	assert_int_equal(d1_lat_report_text(&ra, NULL, buf, 0u, NULL), D1_EINVAL);
	ra.clock_hz = 0u; /* not initialised through d1_lat_init() */
	assert_true(d1_lat_counts_to_ps(&ra, 5u) == 0u);
}

/* Nearest rank of percentile @q_ppm of @n samples: max(1, ceil(q * n / 10^6)). */
static uint64_t nearest_rank(uint64_t n, uint64_t q_ppm)
{
	uint64_t r = (n * q_ppm + 999999u) / 1000000u;

	return r == 0u ? 1u : r;
}

/* The summary's five percentiles are exactly 50, 90, 99, 99.9 and 99.99 %:
 * for each, and for each neighbour q +- 1 ppm, a sample count whose nearest
 * rank differs between the two; samples below that rank read 1, the one at
 * it 2, those above it 3, so the percentile must read 2. */
static void test_summary_percentiles_are_exact_ranks(void **state)
{
	static const uint32_t q[D1_LAT_NPCT] = {500000u, 900000u, 990000u, 999000u, 999900u};
	struct d1_lat_summary s;

	(void)state;
	for (unsigned i = 0; i < D1_LAT_NPCT; i++) {
		for (int d = -1; d <= 1; d += 2) {
			uint64_t qn = (uint64_t)((int64_t)q[i] + d);
			uint64_t n = 2;
			uint64_t k;

			while (nearest_rank(n, q[i]) == nearest_rank(n, qn)) {
				n++;
			}
			assert_true(n < 2000000u);
			assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
			k = nearest_rank(n, q[i]);
			for (uint64_t j = 1; j <= n; j++) {
				d1_lat_record(&ra, j < k ? 1u : j == k ? 2u : 3u);
			}
			assert_int_equal(d1_lat_summarize(&ra, &s), D1_OK);
			assert_int_equal(s.samples, n);
			assert_int_equal(s.pct[i], 2);
			assert_false(s.pct_approx[i]);
		}
	}
}

static void test_missed_not_in_histogram(void **state)
{
	(void)state;
	assert_int_equal(d1_lat_init(&ra, 1000000000u), D1_OK);
	d1_lat_record(&ra, 5u);
	d1_lat_missed(&ra, 3u);
	d1_lat_missed(&ra, 0u);
	d1_lat_missed(&ra, 4u);
	assert_int_equal(ra.missed, 7u);
	assert_int_equal(held(&ra), 1u);
	assert_int_equal(ra.max, 5u);
	ra.missed = UINT64_MAX - 1u;
	d1_lat_missed(&ra, 5u);
	assert_true(ra.missed == UINT64_MAX); /* saturates */
	d1_lat_missed(&ra, UINT32_MAX);
	assert_true(ra.missed == UINT64_MAX);
}

/* A bin at UINT32_MAX stays there; the sample is counted in lost. */
static void test_saturation(void **state)
{
	struct d1_lat_summary s;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 1000000000u), D1_OK);
	ra.bins[5] = UINT32_MAX - 1u;
	d1_lat_record(&ra, 5u);
	d1_lat_record(&ra, 5u);
	d1_lat_record(&ra, 5u);
	assert_true(ra.bins[5] == UINT32_MAX);
	assert_int_equal(ra.lost, 2u);
	ra.bins[d1_lat_bucket_index(200000u)] = UINT32_MAX;
	d1_lat_record(&ra, 200000u);
	assert_int_equal(ra.lost, 3u);
	ra.bins[D1_LAT_OVERFLOW] = UINT32_MAX;
	d1_lat_record(&ra, UINT32_MAX);
	assert_int_equal(ra.lost, 4u);
	assert_int_equal(d1_lat_summarize(&ra, &s), D1_OK);
	assert_int_equal(s.saturated, 4u);
	assert_true(s.samples == 3ull * UINT32_MAX + 4u); /* held + lost */
}

static void record_all(struct d1_lat *r, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		d1_lat_record(r, v[i]);
	}
}

static void test_merge(void **state)
{
	uint32_t i;

	(void)state;
	lcg_state = 99u;
	for (i = 0; i < 20000u; i++) {
		samples[i] = g_log_uniform();
	}
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&rb, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&rc, 24000000u), D1_OK);
	record_all(&ra, samples, 12000u);
	record_all(&rb, samples + 12000u, 8000u);
	record_all(&rc, samples, 20000u);
	d1_lat_missed(&ra, 2u);
	d1_lat_missed(&rb, 3u);
	d1_lat_missed(&rc, 5u);
	assert_int_equal(d1_lat_merge(&ra, &rb), D1_OK);
	assert_memory_equal(&ra, &rc, sizeof(ra)); /* = recording the union */
	/* Self-merge doubles every counter. */
	assert_int_equal(d1_lat_merge(&ra, &ra), D1_OK);
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		assert_int_equal(ra.bins[i], 2u * rc.bins[i]);
	}
	assert_int_equal(ra.missed, 10u);
	assert_int_equal(ra.max, rc.max);
	/* Saturation in a merge is counted, and lost itself saturates. */
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&rb, 24000000u), D1_OK);
	ra.bins[7] = UINT32_MAX - 2u;
	rb.bins[7] = 10u;
	assert_int_equal(d1_lat_merge(&ra, &rb), D1_OK);
	assert_true(ra.bins[7] == UINT32_MAX);
	assert_int_equal(ra.lost, 8u);
	rb.lost = UINT64_MAX;
	assert_int_equal(d1_lat_merge(&ra, &rb), D1_OK);
	assert_true(ra.lost == D1_LAT_LOST_SAT);
	/* Samples into a saturated bin once lost has saturated: lost keeps
	 * counting up from the merge's cap, never wraps (it wrapped to 0
	 * when merges saturated at UINT64_MAX: "nothing lost"). Reached
	 * through the API alone: one sample, self-merged until bin and lost
	 * saturate; a later merge keeps a count above the cap. */
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	d1_lat_record(&ra, 5u);
	for (i = 0; i < 70u; i++) {
		assert_int_equal(d1_lat_merge(&ra, &ra), D1_OK);
	}
	assert_true(ra.bins[5] == UINT32_MAX);
	assert_true(ra.lost == D1_LAT_LOST_SAT);
	d1_lat_record(&ra, 5u);
	d1_lat_record(&ra, 5u);
	assert_true(ra.lost == D1_LAT_LOST_SAT + 2u);
	assert_true(ra.bins[5] == UINT32_MAX);
	assert_int_equal(d1_lat_merge(&ra, &ra), D1_OK); /* kept, not lowered */
	assert_true(ra.lost == D1_LAT_LOST_SAT + 2u);
	assert_int_equal(d1_lat_init(&rb, 24000000u), D1_OK);
	rb.lost = 3u;
	assert_int_equal(d1_lat_merge(&rb, &ra), D1_OK);
	assert_true(rb.lost == D1_LAT_LOST_SAT); /* saturated */
	/* Different clocks: refused, nothing changed. */
	assert_int_equal(d1_lat_init(&rb, 1000000000u), D1_OK);
	d1_lat_record(&rb, 3u);
	memcpy(&rc, &ra, sizeof(ra));
	assert_int_equal(d1_lat_merge(&ra, &rb), D1_EINVAL);
	assert_memory_equal(&ra, &rc, sizeof(ra));
}

static void test_conversion(void **state)
{
	(void)state;
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	assert_int_equal(d1_lat_counts_to_ps(&ra, 1u), 41667u);  /* 41666.67 */
	assert_int_equal(d1_lat_counts_to_ps(&ra, 2u), 83333u);  /* 83333.33 */
	assert_int_equal(d1_lat_counts_to_ps(&ra, 3u), 125000u); /* exact */
	assert_int_equal(d1_lat_counts_to_ps(&ra, 24000000u), 1000000000000u);
	assert_int_equal(d1_lat_init(&ra, 1000u), D1_OK);
	assert_true(d1_lat_counts_to_ps(&ra, UINT32_MAX) == 4294967295000000000ull);
	assert_true(d1_lat_counts_to_ps(&ra, UINT64_MAX) == UINT64_MAX); /* saturates */
	assert_int_equal(d1_lat_init(&ra, 8192u), D1_OK);
	assert_int_equal(d1_lat_counts_to_ps(&ra, 1u), 122070313u); /* .5 rounds up */
}

/* The known distribution of the report tests: 1..1000 once, 5000, 2 missed. */
static void fill_known(struct d1_lat *r)
{
	uint32_t v;

	assert_int_equal(d1_lat_init(r, 24000000u), D1_OK);
	for (v = 1; v <= 1000u; v++) {
		d1_lat_record(r, v);
	}
	d1_lat_record(r, 5000u);
	d1_lat_missed(r, 2u);
}

static const struct d1_lat_meta meta = {
        .os = "baremetal",
        .board = "lichee-rv-86",
        .load = "none",
        .period_ns = 1000000u,
        .measurement = "timer-irq",
        .wake = "none",
};

/* p50: rank 501 -> 501 counts = 20875 ns; p99.99: rank 1001 = 5000, the
 * last sample of max's bucket: exact; mean: 1..1000 exact + 5000 in bucket
 * [4992, 5055] clamped to max 5000: midpoint 4996; (500500 + 4996) / 1001
 * = 504.99 counts = 21041.292 ns, flagged. */
static const char expect_json[] =
        "{\"tool\":\"d1lat\",\"format\":3,\"os\":\"baremetal\",\"board\":\"lichee-rv-86\","
        "\"clock_hz\":24000000,\"period_ns\":1000000,\"samples\":1001,\"missed\":2,"
        "\"load\":\"none\",\"measurement\":\"timer-irq\",\"wake\":\"none\","
        "\"resolution_ns\":41.667,\"exact_max_ns\":42625.000,"
        "\"top_ns\":1398101291.667,\"min_ns\":41.667,\"p50_ns\":20875.000,"
        "\"p90_ns\":37541.667,\"p99_ns\":41291.667,\"p999_ns\":41666.667,"
        "\"p9999_ns\":208333.333,\"max_ns\":208333.333,\"mean_ns\":21041.292,"
        "\"approx\":true,\"approx_fields\":[\"mean_ns\"],\"above_exact\":1,\"above_top\":0,"
        "\"saturated\":0}\n";

static void test_report_json_exact(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 0;

	(void)state;
	fill_known(&ra);
	assert_int_equal(d1_lat_report_json(&ra, &meta, buf, sizeof(buf), &n), D1_OK);
	assert_string_equal(buf, expect_json);
	assert_int_equal(n, strlen(expect_json));
}

static void test_report_text(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 0;

	(void)state;
	fill_known(&ra);
	assert_int_equal(d1_lat_report_text(&ra, &meta, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(n, strlen(buf));
	assert_non_null(strstr(buf, "d1lat latency report\n  os           : baremetal\n"
	                            "  board        : lichee-rv-86\n"
	                            "  load         : none\n"
	                            "  measurement  : timer-irq\n"
	                            "  wake         : none\n"
	                            "  clock        : 24000000 Hz"));
	assert_non_null(
	        strstr(buf, "  clock        : 24000000 Hz, resolution 41.667 ns per count\n"));
	assert_non_null(strstr(buf, "  samples      : 1001\n"));
	assert_non_null(strstr(buf, "  missed       : 2 periods (not in the histogram)\n"));
	assert_non_null(strstr(buf, "  above exact  : 1 samples, 0 above the top\n"));
	assert_non_null(strstr(buf, "  p50              501         20875.000\n"));
	assert_non_null(strstr(buf, "  p99.99          5000        208333.333\n"));
	assert_non_null(strstr(buf, "  max             5000        208333.333\n"));
	assert_non_null(strstr(buf, "  mean               -         21041.292 ~\n"));
	assert_non_null(strstr(buf, "  ~ bucket estimate"));
}

/* The bench's own cost (d1_bench_get_stats() irq_instr_min/max) follows the
 * wake in both reports when measured; 0 and 0 (not measured) prints
 * nothing, so a report without it reads as before. */
static void test_report_bench_cost(void **state)
{
	struct d1_lat_meta m = meta;
	char buf[D1_LAT_REPORT_SIZE];

	(void)state;
	fill_known(&ra);
	m.bench_instr_min = 118u;
	m.bench_instr_max = 131u;
	assert_int_equal(d1_lat_report_json(&ra, &m, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "\"wake\":\"none\",\"bench_instr_min\":118,"
	                            "\"bench_instr_max\":131,\"resolution_ns\":"));
	assert_int_equal(d1_lat_report_text(&ra, &m, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "  wake         : none\n"
	                            "  bench cost   : 118 .. 131 instructions in the interrupt per "
	                            "sample (instret)\n  clock        : "));
	assert_int_equal(d1_lat_report_json(&ra, &meta, buf, sizeof(buf), NULL), D1_OK);
	assert_null(strstr(buf, "bench_instr"));
	assert_int_equal(d1_lat_report_text(&ra, &meta, buf, sizeof(buf), NULL), D1_OK);
	assert_null(strstr(buf, "bench cost"));
}

/* 50 samples of 1 and 50 of 5000: p50 is exact, p90 and p99 are estimates
 * of the bucket [4992, 5055] (clamped to max: midpoint 4996), p99.9 and
 * p99.99 reach its last sample, max itself. Every estimate is listed in
 * approx_fields, in order; the text report has every one of its lines. */
static void test_report_lists_each_estimate(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 0;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 24000000u), D1_OK);
	for (unsigned i = 0; i < 50u; i++) {
		d1_lat_record(&ra, 1u);
		d1_lat_record(&ra, 5000u);
	}
	assert_int_equal(d1_lat_report_json(&ra, NULL, buf, sizeof(buf), &n), D1_OK);
	assert_non_null(strstr(buf, "\"p50_ns\":41.667,\"p90_ns\":208166.667,"));
	assert_non_null(strstr(
	        buf, "\"approx\":true,\"approx_fields\":[\"p90_ns\",\"p99_ns\",\"mean_ns\"],"));
	assert_int_equal(d1_lat_report_text(&ra, NULL, buf, sizeof(buf), &n), D1_OK);
	assert_non_null(strstr(buf, "\n  layout       : exact 0 .. 1023 counts, 64 buckets per "
	                            "octave to 33554431 (<= 0.79 %)\n"));
	assert_non_null(strstr(buf, "\n  above exact  : 50 samples, 0 above the top\n"
	                            "  saturated    : 0\n"
	                            "  stat          counts                ns\n"
	                            "  min                1            41.667\n"
	                            "  p50                1            41.667\n"
	                            "  p90             4996        208166.667 ~\n"
	                            "  p99             4996        208166.667 ~\n"
	                            "  p99.9           5000        208333.333\n"));
}

static void test_report_small_buffer(void **state)
{
	char buf[D1_LAT_REPORT_SIZE], full[D1_LAT_REPORT_SIZE];
	size_t n = 12345u, len, flen;

	(void)state;
	fill_known(&ra);
	assert_int_equal(d1_lat_report_text(&ra, &meta, full, sizeof(full), &flen), D1_OK);
	for (len = 1; len < sizeof(expect_json); len += 37u) {
		memset(buf, 'X', sizeof(buf));
		assert_int_equal(d1_lat_report_json(&ra, &meta, buf, len, &n), D1_ERANGE);
		assert_int_equal(n, len - 1u);
		assert_int_equal(buf[len - 1u], '\0');
		assert_memory_equal(buf, expect_json, len - 1u); /* a clean prefix */
		assert_int_equal(d1_lat_report_text(&ra, &meta, buf, len, &n), D1_ERANGE);
		assert_int_equal(n, len - 1u);
		assert_memory_equal(buf, full, len - 1u);
	}
	assert_int_equal(d1_lat_report_json(&ra, &meta, buf, sizeof(expect_json), &n), D1_OK);
	assert_int_equal(d1_lat_report_json(&ra, &meta, buf, sizeof(expect_json) - 1u, &n),
	                 D1_ERANGE);
}

static void test_report_escaping_and_empty(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	static const struct d1_lat_meta odd = {
	        .os = "li\"nux",
	        .board = "a\\b",
	        .load = "cpu\nload\t2",
	        .period_ns = 0u,
	        .measurement = "task\"wakeup",
	        .wake = "sem\\\x01",
	};
	char big[257];
	struct d1_lat_meta m;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 1000000000u), D1_OK);
	assert_int_equal(d1_lat_report_json(&ra, &odd, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "\"os\":\"li\\\"nux\",\"board\":\"a\\\\b\""));
	assert_non_null(strstr(buf, "\"load\":\"cpu\\u000aload\\u00092\","
	                            "\"measurement\":\"task\\\"wakeup\","
	                            "\"wake\":\"sem\\\\\\u0001\","));
	assert_non_null(strstr(buf, "\"samples\":0,\"missed\":0"));
	assert_non_null(strstr(buf, "\"min_ns\":0.000,\"p50_ns\":0.000"));
	assert_non_null(strstr(buf, "\"mean_ns\":0.000,\"approx\":false,\"approx_fields\":[]"));
	assert_int_equal(d1_lat_report_json(&ra, NULL, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "\"os\":\"unknown\""));
	assert_non_null(strstr(buf, "\"load\":\"unknown\",\"measurement\":\"unknown\","
	                            "\"wake\":\"unknown\",\"resolution_ns\""));
	assert_int_equal(d1_lat_report_text(&ra, NULL, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "  os           : unknown\n  board        : unknown\n"
	                            "  load         : unknown\n"
	                            "  measurement  : unknown\n"
	                            "  wake         : unknown\n"
	                            "  clock        : "));
	/* D1_LAT_REPORT_SIZE holds 256 bytes of meta strings, all five counted:
	 * 40 + 100 + 50 + 30 + 36. */
	memset(big, 'x', sizeof(big) - 1u);
	big[sizeof(big) - 1u] = '\0';
	m.os = big + 216;
	m.board = big + 156;
	m.load = big + 206;
	m.period_ns = UINT64_MAX;
	m.measurement = big + 226;
	m.wake = big + 220;
	lcg_state = 5u;
	for (uint32_t i = 0; i < 1000u; i++) {
		d1_lat_record(&ra, g_log_uniform());
	}
	ra.missed = UINT64_MAX;
	assert_int_equal(d1_lat_report_json(&ra, &m, buf, sizeof(buf), NULL), D1_OK);
	assert_int_equal(d1_lat_report_text(&ra, &m, buf, sizeof(buf), NULL), D1_OK);
}

/* Meta bytes >= 0x80 are escaped; the line is ASCII. */
static void test_report_json_high_bytes(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	static const struct d1_lat_meta m = {
	        .os = "os\xff",
	        .board = "b\xc3\xa9",
	        .load = "\x80\x7f",
	        .period_ns = 0u,
	        .measurement = "\xfe",
	        .wake = "\x1f\x7f",
	};
	size_t i, n = 0;

	(void)state;
	assert_int_equal(d1_lat_init(&ra, 1000000000u), D1_OK);
	assert_int_equal(d1_lat_report_json(&ra, &m, buf, sizeof(buf), &n), D1_OK);
	for (i = 0; i < n; i++) {
		assert_true((unsigned char)buf[i] < 0x80u);
	}
	assert_non_null(strstr(buf, "\"os\":\"os\\u00ff\",\"board\":\"b\\u00c3\\u00a9\""));
	assert_non_null(strstr(buf, "\"load\":\"\\u0080\x7f\",\"measurement\":\"\\u00fe\","
	                            "\"wake\":\"\\u001f\x7f\""));
}

/* latency.h: D1_LAT_REPORT_SIZE holds either report when the meta strings
 * total <= 256 bytes, whatever the bytes. The JSON report escapes every
 * byte >= 0x80 (and every control byte) as 6 characters, so 256 bytes of
 * UTF-8 meta take 1,536 characters: with the longest numbers around them
 * (the slowest clock, samples up to 2^32 - 1 counts, every counter and the
 * period at their maximum) the line needed about 2.2 KB, more than the
 * 2,048 bytes the header once said. The 256 bytes are those of all five
 * strings together (os, board, load, measurement, wake); a NULL string is
 * "unknown", 7 more characters that are not in the 256. */
static void test_report_size_holds_256_bytes_of_escaped_meta(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	char u8[257];
	struct d1_lat_meta m = {.period_ns = UINT64_MAX};
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < 256u; i += 2u) {
		u8[i] = '\xc3'; /* U+00E9 in UTF-8 */
		u8[i + 1u] = '\xa9';
	}
	u8[256] = '\0';
	/* 256 bytes over the five strings: 46 + 70 + 40 + 50 + 50. */
	m.os = u8 + 210;
	m.board = u8 + 186;
	m.load = u8 + 216;
	m.measurement = u8 + 206;
	m.wake = u8 + 206;
	assert_int_equal(d1_lat_init(&ra, D1_LAT_CLOCK_MIN_HZ), D1_OK);
	lcg_state = 7u;
	for (uint32_t i = 0; i < 100000u; i++) {
		d1_lat_record(&ra, g_log_uniform());
	}
	d1_lat_record(&ra, UINT32_MAX);
	ra.missed = UINT64_MAX;
	assert_int_equal(d1_lat_report_json(&ra, &m, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(strlen(buf), n);
	assert_true(n > 2048u); /* 2,173 here: above the old size */
	assert_non_null(strstr(buf, "\\u00c3\\u00a9\",\"board\""));
	assert_non_null(strstr(buf, "\\u00a9\",\"measurement\":\"\\u00c3"));
	assert_non_null(strstr(buf, "\\u00a9\",\"wake\":\"\\u00c3"));
	assert_int_equal(d1_lat_report_text(&ra, &m, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(strlen(buf), n);
}

/* The widest report there is for 256 bytes of meta: all of it escaped in
 * one string, the four others NULL ("unknown"); the slowest clock; every
 * sample above the top at 2^32 - 1 counts (min, each percentile, max and
 * mean 20 characters, all but max flagged); the overflow bin saturated
 * (above_exact, above_top 10 digits); samples, missed, saturated and the
 * period 20 digits; the bench cost at 2^32 - 1 both. 2,326 characters: 17
 * below the bound computed with every number at its widest at once (2,343:
 * a 10-digit clock_hz beside the slowest clock's resolution, a 20-digit
 * above_exact, which no recorder reaches), 42 below D1_LAT_REPORT_SIZE. */
static void test_report_size_widest_report(void **state)
{
	char buf[D1_LAT_REPORT_SIZE];
	char u8[257];
	struct d1_lat_meta m = {.period_ns = UINT64_MAX};
	size_t n = 0;

	(void)state;
	memset(u8, '\x01', 256u);
	u8[256] = '\0';
	m.wake = u8;
	m.bench_instr_min = UINT32_MAX;
	m.bench_instr_max = UINT32_MAX;
	assert_int_equal(d1_lat_init(&ra, D1_LAT_CLOCK_MIN_HZ), D1_OK);
	for (uint32_t i = 0; i < 1000u; i++) {
		d1_lat_record(&ra, UINT32_MAX);
	}
	for (uint32_t i = 0; i < 32u; i++) {
		assert_int_equal(d1_lat_merge(&ra, &ra), D1_OK);
	}
	assert_int_equal(ra.bins[D1_LAT_OVERFLOW], UINT32_MAX);
	ra.lost = UINT64_MAX; /* samples and saturated: 2^64 - 1 */
	ra.missed = UINT64_MAX;
	assert_int_equal(d1_lat_report_json(&ra, &m, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(strlen(buf), n);
	assert_non_null(strstr(buf, "\"samples\":18446744073709551615,"));
	assert_non_null(strstr(buf, "\"p50_ns\":4294967295000000.000,"));
	assert_non_null(strstr(buf, "\"approx_fields\":[\"min_ns\",\"p50_ns\",\"p90_ns\","
	                            "\"p99_ns\",\"p999_ns\",\"p9999_ns\",\"mean_ns\"],"));
	assert_non_null(strstr(buf, "\"above_exact\":4294967295,\"above_top\":4294967295,"
	                            "\"saturated\":18446744073709551615}"));
	assert_non_null(strstr(buf, "\"os\":\"unknown\",\"board\":\"unknown\""));
	assert_non_null(
	        strstr(buf, "\"bench_instr_min\":4294967295,\"bench_instr_max\":4294967295,"));
	assert_int_equal(n, 2326u);
	assert_int_equal(d1_lat_report_text(&ra, &m, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(strlen(buf), n);
}

/* ---- the dump --------------------------------------------------------- */

struct sink {
	char buf[65536];
	size_t n;
	size_t calls, longest;
};

static void put(void *ctx, const char *s, size_t n)
{
	struct sink *k = ctx;

	assert_true(k->n + n < sizeof(k->buf));
	memcpy(k->buf + k->n, s, n);
	k->n += n;
	k->buf[k->n] = '\0';
	k->calls++;
	k->longest = n > k->longest ? n : k->longest;
}

static struct sink sk;

static void test_dump(void **state)
{
	static const struct d1_lat_meta m = {
	        .os = "bare\"metal",
	        .board = "b\xff",
	        .load = NULL,
	        .period_ns = 1000000u,
	        .measurement = "task-wakeup",
	        .wake = "sem\xc3\xa9",
	};
	size_t i;

	(void)state;
	fill_known(&ra);
	d1_lat_record(&ra, UINT32_MAX);
	ra.lost = 3u;
	memset(&sk, 0, sizeof(sk));
	assert_int_equal(d1_lat_dump(&ra, &m, put, &sk), D1_OK);
	assert_true(sk.longest <= 64u);
	for (i = 0; i < sk.n; i++) {
		assert_true((unsigned char)sk.buf[i] < 0x80u);
	}
	assert_non_null(strstr(sk.buf,
	                       "{\"tool\":\"d1lat-dump\",\"format\":2,\"os\":\"bare\\\"metal\","
	                       "\"board\":\"b\\u00ff\",\"load\":\"unknown\","
	                       "\"measurement\":\"task-wakeup\",\"wake\":\"sem\\u00c3\\u00a9\","
	                       "\"period_ns\":1000000,\"clock_hz\":24000000,"
	                       "\"layout\":[10,6,15],\"lost\":3,\"missed\":2,"
	                       "\"max\":4294967295,\"bins\":[1,1,2,1,3,1,"));
	/* 5000 is in bin 64 * 6 + 704 + (5000 >> 6) = 1166; the overflow bin 1984. */
	assert_non_null(strstr(sk.buf, ",999,1,1000,1,1166,1,1984,1]}\n"));
	assert_int_equal(sk.buf[sk.n - 1u], '\n');
	assert_int_equal(d1_lat_bucket_index(5000u), 1166u);
}

/* docs/latency.md: the dump line is at most 32 KiB with <= 256 bytes of
 * meta. The longest line: every bin non-zero with a 10-digit count
 * (reached through the API: one sample per bin, then self-merges until
 * the bins saturate), 256 bytes of meta that are all escaped in one
 * string and the four others NULL ("unknown"). The docs once said "about
 * 24 KB": the bins alone take 30,830 bytes. */
static void test_dump_size_bound(void **state)
{
	static const char pair[] = "\xc3\xa9";
	char os[257];
	struct d1_lat_meta m = {.os = os, .period_ns = UINT64_MAX};
	uint32_t i, lo;

	(void)state;
	for (i = 0; i < 256u; i++) {
		os[i] = pair[i % 2u];
	}
	os[256] = '\0';
	assert_int_equal(d1_lat_init(&ra, D1_LAT_CLOCK_MIN_HZ), D1_OK);
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		d1_lat_bucket_bounds(i, &lo, NULL);
		d1_lat_record(&ra, lo);
	}
	for (i = 0; i < 33u; i++) {
		assert_int_equal(d1_lat_merge(&ra, &ra), D1_OK);
	}
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		assert_int_equal(ra.bins[i], UINT32_MAX); /* every count 10 digits */
	}
	ra.missed = UINT64_MAX;
	memset(&sk, 0, sizeof(sk));
	assert_int_equal(d1_lat_dump(&ra, &m, put, &sk), D1_OK);
	assert_non_null(strstr(sk.buf, "\"measurement\":\"unknown\",\"wake\":\"unknown\","));
	assert_in_range(sk.n, 30u * 1024u, 32u * 1024u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_init_errors_and_null),
	        cmocka_unit_test(test_summary_percentiles_are_exact_ranks),
	        cmocka_unit_test(test_layout_tiles_u32),
	        cmocka_unit_test(test_record_uses_layout),
	        cmocka_unit_test(test_exact_counts),
	        cmocka_unit_test(test_reference_distributions),
	        cmocka_unit_test(test_missed_not_in_histogram),
	        cmocka_unit_test(test_saturation),
	        cmocka_unit_test(test_merge),
	        cmocka_unit_test(test_conversion),
	        cmocka_unit_test(test_report_json_exact),
	        cmocka_unit_test(test_report_text),
	        cmocka_unit_test(test_report_bench_cost),
	        cmocka_unit_test(test_report_lists_each_estimate),
	        cmocka_unit_test(test_report_small_buffer),
	        cmocka_unit_test(test_report_escaping_and_empty),
	        cmocka_unit_test(test_report_json_high_bytes),
	        cmocka_unit_test(test_report_size_holds_256_bytes_of_escaped_meta),
	        cmocka_unit_test(test_report_size_widest_report),
	        cmocka_unit_test(test_dump),
	        cmocka_unit_test(test_dump_size_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
