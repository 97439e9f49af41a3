/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency recorder against known distributions: every percentile is compared
 * with a reference computed from the sorted samples (nearest rank), overflow
 * buckets must bound the true value, merge must equal recording the union,
 * missed periods stay out of the histogram, counters saturate, and the
 * reports are checked byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "d1/latency.h"

#define NMAX 200000u

static uint32_t samples[NMAX];
static uint32_t sorted[NMAX];
static uint32_t bins_a[D1_LAT_NBINS(30000)];
static uint32_t bins_b[D1_LAT_NBINS(30000)];
static uint32_t bins_c[D1_LAT_NBINS(30000)];

static uint64_t lcg_state;

static uint32_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(lcg_state >> 33);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Reference nearest rank: sort, take element ceil(q * n / 1e6) (1-based). */
static uint32_t ref_percentile(const uint32_t *v, size_t n, uint32_t q_ppm)
{
	uint64_t rank;

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_u32);
	rank = ((uint64_t)q_ppm * n + 999999u) / 1000000u;
	if (rank == 0u) {
		rank = 1u;
	}
	return sorted[rank - 1u];
}

static const uint32_t qs[] = {0u,      1u,      10000u,  250000u, 500000u, 500001u, 900000u,
                              990000u, 999000u, 999900u, 999990u, 999999u, 1000000u};

static void test_init_errors(void **state)
{
	struct d1_lat r;

	(void)state;
	assert_int_equal(d1_lat_init(NULL, bins_a, 10u, 1000u), D1_EINVAL);
	assert_int_equal(d1_lat_init(&r, NULL, 10u, 1000u), D1_EINVAL);
	assert_int_equal(d1_lat_init(&r, bins_a, 0u, 1000u), D1_EINVAL);
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 999u), D1_ERANGE);
	bins_a[3] = 77u;
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 1000u), D1_OK);
	assert_int_equal(bins_a[3], 0u); /* cleared */
	assert_int_equal(r.count, 0u);
	assert_int_equal(d1_lat_percentile(&r, 500000u, NULL), 0u);
}

static void test_uniform_exact(void **state)
{
	struct d1_lat r;
	struct d1_lat_summary s;
	uint32_t v;
	bool ovf = true;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, D1_LAT_NBINS(20000), 24000000u), D1_OK);
	for (v = 1; v <= 10000u; v++) {
		d1_lat_record(&r, v);
	}
	/* Nearest rank over 1..10000: pXX is exactly ceil(q * 10000). */
	assert_int_equal(d1_lat_percentile(&r, 500000u, &ovf), 5000u);
	assert_false(ovf);
	assert_int_equal(d1_lat_percentile(&r, 900000u, NULL), 9000u);
	assert_int_equal(d1_lat_percentile(&r, 990000u, NULL), 9900u);
	assert_int_equal(d1_lat_percentile(&r, 999000u, NULL), 9990u);
	assert_int_equal(d1_lat_percentile(&r, 999900u, NULL), 9999u);
	assert_int_equal(d1_lat_percentile(&r, 1000000u, NULL), 10000u);
	assert_int_equal(d1_lat_percentile(&r, 2000000u, NULL), 10000u); /* clamped */
	assert_int_equal(d1_lat_percentile(&r, 0u, NULL), 1u);           /* rank 1: min */
	assert_int_equal(d1_lat_percentile(&r, 500001u, NULL), 5001u);
	assert_int_equal(d1_lat_summarize(&r, &s), D1_OK);
	assert_int_equal(s.samples, 10000u);
	assert_int_equal(s.min, 1u);
	assert_int_equal(s.max, 10000u);
	assert_false(s.overflow);
	/* 1 count at 24 MHz = 41666.67 ps -> 41667; mean 5000.5 counts =
	 * 208354166.67 ps -> 208354167; p50 5000 counts = 208333333.3 -> 208333333. */
	assert_int_equal(s.resolution_ps, 41667u);
	assert_int_equal(s.mean_ps, 208354167u);
	assert_int_equal(s.pct_ps[0], 208333333u);
	assert_int_equal(s.max_ps, 416666667u);
}

static void check_against_reference(uint32_t nbins, uint32_t n, uint32_t (*gen)(void))
{
	static uint32_t bins[D1_LAT_NBINS(30000)];
	struct d1_lat r;
	uint32_t i;
	uint64_t sum = 0u;

	assert_true(nbins <= D1_LAT_NBINS(30000));
	assert_int_equal(d1_lat_init(&r, bins, nbins, 1000000000u), D1_OK);
	for (i = 0; i < n; i++) {
		samples[i] = gen();
		sum += samples[i];
		d1_lat_record(&r, samples[i]);
	}
	assert_int_equal(r.sum, sum);
	assert_int_equal(r.count, n);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		bool ovf;
		uint32_t got = d1_lat_percentile(&r, qs[i], &ovf);
		uint32_t want = ref_percentile(samples, n, qs[i]);

		if (want < nbins) {
			/* Inside the exact range: exact. */
			assert_false(ovf);
			assert_int_equal(got, want);
		} else {
			/* Overflow: an upper bound within one bucket (<= 1/8 wider). */
			uint32_t lo, hi;

			d1_lat_bucket_bounds(d1_lat_bucket_index(want), &lo, &hi);
			assert_true(got >= want);
			assert_true(got <= hi);
			assert_true((uint64_t)got - want <= want / 8u);
			if (!ovf) {
				assert_int_equal(got, want);
			}
		}
	}
}

/* Latency-like: a floor, a body and a rare long tail. */
static uint32_t gen_tail(void)
{
	uint32_t u = lcg();
	uint32_t v = 50u + (u & 0xFFu) + ((u >> 8) & 0x3Fu);

	if ((u >> 16) % 1000u == 0u) {
		v += (lcg() % 200000u); /* ~0.1 % far above the exact range */
	}
	return v;
}

static uint32_t gen_small(void)
{
	return lcg() % 37u;
}

static uint32_t gen_wide(void)
{
	return lcg() >> (lcg() % 31u);
}

static void test_reference_distributions(void **state)
{
	(void)state;
	lcg_state = 1u;
	check_against_reference(30001u, NMAX, gen_tail); /* all exact but the tail */
	lcg_state = 2u;
	check_against_reference(1000u, 50000u, gen_tail);
	lcg_state = 3u;
	check_against_reference(37u, 20000u, gen_small); /* all exact */
	lcg_state = 4u;
	check_against_reference(10u, 20000u, gen_small); /* 10..36: mostly overflow */
	lcg_state = 5u;
	check_against_reference(1u, 50000u, gen_wide); /* only value 0 exact */
	lcg_state = 6u;
	check_against_reference(4096u, 100000u, gen_wide);
}

static void test_buckets_tile_u32(void **state)
{
	uint32_t i, lo, hi, prev_hi = 0u;
	uint64_t v;

	(void)state;
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		d1_lat_bucket_bounds(i, &lo, &hi);
		if (i == 0u) {
			assert_int_equal(lo, 0u);
		} else {
			assert_int_equal(lo, prev_hi + 1u); /* contiguous */
		}
		assert_true(hi >= lo);
		if (i >= 16u) {
			assert_true(hi - lo + 1u <= lo / 8u); /* <= 12.5 % */
		}
		assert_int_equal(d1_lat_bucket_index(lo), i);
		assert_int_equal(d1_lat_bucket_index(hi), i);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, UINT32_MAX);
	for (v = 0; v <= UINT32_MAX; v += 7919u) {
		d1_lat_bucket_bounds(d1_lat_bucket_index((uint32_t)v), &lo, &hi);
		assert_true(lo <= v && v <= hi);
	}
	d1_lat_bucket_bounds(100000u, &lo, &hi); /* out of range: last bucket */
	assert_int_equal(hi, UINT32_MAX);
}

static void test_overflow_flag_and_clamp(void **state)
{
	struct d1_lat r;
	struct d1_lat_summary s;
	bool ovf;
	uint32_t i, lo, hi;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 100u, 1000000000u), D1_OK);
	for (i = 0; i < 98u; i++) {
		d1_lat_record(&r, 10u);
	}
	d1_lat_record(&r, 1000u);
	d1_lat_record(&r, 1003u);
	/* p99 = rank 99 -> 1000, in bucket [960, 1023], clamped to max 1003. */
	d1_lat_bucket_bounds(d1_lat_bucket_index(1000u), &lo, &hi);
	assert_int_equal(lo, 960u);
	assert_int_equal(hi, 1023u);
	assert_int_equal(d1_lat_percentile(&r, 990000u, &ovf), 1003u);
	assert_true(ovf);
	assert_int_equal(d1_lat_percentile(&r, 500000u, &ovf), 10u);
	assert_false(ovf);
	assert_int_equal(d1_lat_summarize(&r, &s), D1_OK);
	assert_true(s.overflow);
	assert_false(s.pct_overflow[0]);
	assert_false(s.pct_overflow[1]);
	assert_true(s.pct_overflow[2]);
	assert_int_equal(s.overflow_samples, 2u);
	assert_int_equal(s.max, 1003u); /* max stays exact */

	/* A single value in a wide bucket is exact after clamping to max. */
	assert_int_equal(d1_lat_init(&r, bins_a, 100u, 1000000000u), D1_OK);
	d1_lat_record(&r, 5000u);
	assert_int_equal(d1_lat_percentile(&r, 500000u, &ovf), 5000u);
	assert_false(ovf);
	/* Exact range below 16: one-value buckets are exact. */
	assert_int_equal(d1_lat_init(&r, bins_a, 3u, 1000000000u), D1_OK);
	d1_lat_record(&r, 7u);
	d1_lat_record(&r, 9u);
	assert_int_equal(d1_lat_percentile(&r, 500000u, &ovf), 7u);
	assert_false(ovf);
}

/* min in the exact range, the rank in the overflow bucket whose index min
 * would have: the first sample of that bucket is not min (min is in its exact
 * bin), so the shortcut must not fire. nbins 21: 20 is exact, 21 is in
 * bucket [20, 21] with it. */
static void test_min_exact_shares_bucket_index(void **state)
{
	struct d1_lat r;
	bool ovf = true;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 21u, 1000000000u), D1_OK);
	d1_lat_record(&r, 20u);
	d1_lat_record(&r, 21u);
	assert_int_equal(d1_lat_bucket_index(20u), d1_lat_bucket_index(21u));
	assert_int_equal(d1_lat_percentile(&r, 1000000u, &ovf), 21u); /* = max */
	assert_false(ovf);
	assert_int_equal(d1_lat_percentile(&r, 500000u, &ovf), 20u); /* = min */
	assert_false(ovf);
}

/* Every pair of small values, every exact range from 1 to 40 bins, against
 * the sorted reference: exact where the reference is exact, otherwise an
 * upper bound inside the reference's bucket (and exact when not flagged). */
static void test_small_pairs_exhaustive(void **state)
{
	static const uint32_t q3[] = {0u, 500000u, 1000000u};
	struct d1_lat r;
	uint32_t nb, a, b, i, v[2];

	(void)state;
	for (nb = 1u; nb <= 40u; nb++) {
		for (a = 0u; a < 64u; a++) {
			for (b = a; b < 64u; b++) {
				assert_int_equal(d1_lat_init(&r, bins_a, nb, 1000000000u), D1_OK);
				v[0] = b;
				v[1] = a;
				d1_lat_record(&r, v[0]);
				d1_lat_record(&r, v[1]);
				for (i = 0; i < 3u; i++) {
					bool ovf;
					uint32_t got = d1_lat_percentile(&r, q3[i], &ovf);
					uint32_t want = ref_percentile(v, 2u, q3[i]);
					uint32_t lo, hi;

					d1_lat_bucket_bounds(d1_lat_bucket_index(want), &lo, &hi);
					assert_true(got >= want);
					assert_true(want < nb ? got == want : got <= hi);
					if (!ovf) {
						assert_int_equal(got, want);
					}
				}
			}
		}
	}
}

static void test_missed_not_in_histogram(void **state)
{
	struct d1_lat r;
	uint32_t i;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 100u, 1000000000u), D1_OK);
	d1_lat_record(&r, 5u);
	d1_lat_missed(&r, 3u);
	d1_lat_missed(&r, 0u);
	d1_lat_missed(&r, 4u);
	assert_int_equal(r.missed, 7u);
	assert_int_equal(r.count, 1u);
	assert_int_equal(r.sum, 5u);
	for (i = 0; i < 100u; i++) {
		assert_int_equal(bins_a[i], i == 5u ? 1u : 0u);
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		assert_int_equal(r.ovf[i], 0u);
	}
	assert_int_equal(d1_lat_percentile(&r, 1000000u, NULL), 5u);
	/* Saturation of the missed counter is counted. */
	r.missed = UINT64_MAX - 1u;
	d1_lat_missed(&r, 5u);
	assert_true(r.missed == UINT64_MAX);
	assert_int_equal(r.saturated, 4u);
}

static void test_saturation(void **state)
{
	struct d1_lat r;
	struct d1_lat_summary s;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 100u, 1000000000u), D1_OK);
	bins_a[5] = UINT32_MAX - 1u;
	d1_lat_record(&r, 5u);
	d1_lat_record(&r, 5u);
	d1_lat_record(&r, 5u);
	assert_true(bins_a[5] == UINT32_MAX);
	assert_int_equal(r.saturated, 2u);
	r.ovf[d1_lat_bucket_index(200u)] = UINT32_MAX;
	d1_lat_record(&r, 200u);
	assert_int_equal(r.saturated, 3u);
	r.sum = UINT64_MAX - 10u;
	d1_lat_record(&r, 20u);
	assert_true(r.sum == UINT64_MAX);
	assert_int_equal(r.saturated, 4u);
	d1_lat_record(&r, 1u);
	assert_true(r.sum == UINT64_MAX);
	assert_int_equal(r.saturated, 5u);
	assert_int_equal(d1_lat_summarize(&r, &s), D1_OK);
	assert_true(s.mean_saturated);
	assert_int_equal(s.saturated, 5u);
	assert_int_equal(r.count, 6u);
}

static void record_all(struct d1_lat *r, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		d1_lat_record(r, v[i]);
	}
}

static void assert_same(const struct d1_lat *a, const struct d1_lat *b)
{
	uint32_t i;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->missed, b->missed);
	assert_int_equal(a->saturated, b->saturated);
	assert_int_equal(a->nbins, b->nbins);
	for (i = 0; i < a->nbins; i++) {
		assert_int_equal(a->bins[i], b->bins[i]);
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		assert_int_equal(a->ovf[i], b->ovf[i]);
	}
}

static void test_merge_equals_union(void **state)
{
	struct d1_lat a, b, u;
	uint32_t i;

	(void)state;
	lcg_state = 42u;
	for (i = 0; i < 40000u; i++) {
		samples[i] = gen_tail();
	}
	/* Same range. */
	assert_int_equal(d1_lat_init(&a, bins_a, 1000u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&b, bins_b, 1000u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&u, bins_c, 1000u, 24000000u), D1_OK);
	record_all(&a, samples, 25000u);
	record_all(&b, samples + 25000u, 15000u);
	d1_lat_missed(&a, 2u);
	d1_lat_missed(&b, 3u);
	record_all(&u, samples, 40000u);
	d1_lat_missed(&u, 5u);
	assert_int_equal(d1_lat_merge(&a, &b), D1_OK);
	assert_same(&a, &u);

	/* src with a larger exact range: its extra bins fold into dst's buckets. */
	assert_int_equal(d1_lat_init(&a, bins_a, 1000u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&b, bins_b, 30001u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&u, bins_c, 1000u, 24000000u), D1_OK);
	record_all(&a, samples, 25000u);
	record_all(&b, samples + 25000u, 15000u);
	record_all(&u, samples, 40000u);
	assert_int_equal(d1_lat_merge(&a, &b), D1_OK);
	assert_same(&a, &u);

	/* Merging into itself doubles every count. */
	assert_int_equal(d1_lat_init(&a, bins_a, 1000u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&u, bins_c, 1000u, 24000000u), D1_OK);
	record_all(&a, samples, 1000u);
	record_all(&u, samples, 1000u);
	record_all(&u, samples, 1000u);
	assert_int_equal(d1_lat_merge(&a, &a), D1_OK);
	assert_same(&a, &u);
}

static void test_merge_refusals(void **state)
{
	struct d1_lat a, b;
	uint32_t before[64];

	(void)state;
	assert_int_equal(d1_lat_init(&a, bins_a, 10000u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_init(&b, bins_b, 100u, 24000000u), D1_OK);
	d1_lat_record(&a, 50u);
	/* b's bucket [2048, 2303] lies inside a's exact range: cannot split. */
	d1_lat_record(&b, 2100u);
	d1_lat_record(&b, 2200u);
	memcpy(before, bins_a, sizeof(before));
	assert_int_equal(d1_lat_merge(&a, &b), D1_ERANGE);
	assert_int_equal(a.count, 1u);
	assert_memory_equal(before, bins_a, sizeof(before));
	assert_int_equal(a.max, 50u);
	/* A bucket of one possible value (below 16) can be placed exactly. */
	assert_int_equal(d1_lat_init(&b, bins_b, 4u, 24000000u), D1_OK);
	d1_lat_record(&b, 9u);
	d1_lat_record(&b, 20000u); /* above a's range: same bucket in a */
	assert_int_equal(d1_lat_merge(&a, &b), D1_OK);
	assert_int_equal(bins_a[9], 1u);
	assert_int_equal(a.ovf[d1_lat_bucket_index(20000u)], 1u);
	assert_int_equal(a.count, 3u);
	assert_int_equal(a.min, 9u);
	assert_int_equal(a.max, 20000u);
	/* Different clocks. */
	assert_int_equal(d1_lat_init(&b, bins_b, 100u, 1000000000u), D1_OK);
	assert_int_equal(d1_lat_merge(&a, &b), D1_EINVAL);
	assert_int_equal(d1_lat_merge(NULL, &b), D1_EINVAL);
	assert_int_equal(d1_lat_merge(&a, NULL), D1_EINVAL);
}

static void test_conversion(void **state)
{
	struct d1_lat r;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 24000000u), D1_OK);
	assert_int_equal(d1_lat_counts_to_ps(&r, 1u), 41667u);  /* 41666.67 */
	assert_int_equal(d1_lat_counts_to_ps(&r, 2u), 83333u);  /* 83333.33 */
	assert_int_equal(d1_lat_counts_to_ps(&r, 3u), 125000u); /* exact */
	assert_int_equal(d1_lat_counts_to_ps(&r, 24000000u), 1000000000000u);
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 1000u), D1_OK);
	assert_true(d1_lat_counts_to_ps(&r, UINT32_MAX) == 4294967295000000000ull);
	assert_true(d1_lat_counts_to_ps(&r, UINT64_MAX) == UINT64_MAX); /* saturates */
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 3000u), D1_OK);
	/* 1/3000 s = 333333333.33 ps; 2/3000 s = 666666666.67 ps: both ways. */
	assert_int_equal(d1_lat_counts_to_ps(&r, 1u), 333333333u);
	assert_int_equal(d1_lat_counts_to_ps(&r, 2u), 666666667u);
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 8192u), D1_OK);
	/* 10^12 / 8192 = 122070312.5 ps: halves round up. */
	assert_int_equal(d1_lat_counts_to_ps(&r, 1u), 122070313u);
	assert_int_equal(d1_lat_counts_to_ps(&r, 2u), 244140625u);
}

static void fill_known(struct d1_lat *r)
{
	uint32_t v;

	assert_int_equal(d1_lat_init(r, bins_a, D1_LAT_NBINS(2000), 24000000u), D1_OK);
	for (v = 1; v <= 1000u; v++) {
		d1_lat_record(r, v);
	}
	d1_lat_record(r, 5000u); /* one above the exact range */
	d1_lat_missed(r, 2u);
}

static const struct d1_lat_meta meta = {"baremetal", "lichee-rv-86", "none", 1000000u};

static const char expect_json[] =
        "{\"tool\":\"d1lat\",\"format\":1,\"os\":\"baremetal\",\"board\":\"lichee-rv-86\","
        "\"clock_hz\":24000000,\"period_ns\":1000000,\"samples\":1001,\"missed\":2,"
        "\"load\":\"none\",\"resolution_ns\":41.667,\"exact_max_ns\":83333.333,"
        "\"min_ns\":41.667,\"p50_ns\":20875.000,\"p90_ns\":37541.667,\"p99_ns\":41291.667,"
        "\"p999_ns\":41666.667,\"p9999_ns\":208333.333,\"max_ns\":208333.333,"
        "\"mean_ns\":21041.459,\"overflow\":false,\"overflow_fields\":[],\"above_range\":1,"
        "\"saturated\":0,\"mean_saturated\":false}\n";

static const char expect_text[] =
        "d1lat latency report\n"
        "  os           : baremetal\n"
        "  board        : lichee-rv-86\n"
        "  load         : none\n"
        "  clock        : 24000000 Hz, resolution 41.667 ns per count\n"
        "  period       : 1000000 ns\n"
        "  samples      : 1001\n"
        "  missed       : 2 periods (not in the histogram)\n"
        "  exact range  : 0 .. 2000 counts (83333.333 ns), 8 buckets per octave above\n"
        "  above range  : 1 samples\n"
        "  saturated    : 0\n"
        "  stat          counts                ns\n"
        "  min                1            41.667\n"
        "  p50              501         20875.000\n"
        "  p90              901         37541.667\n"
        "  p99              991         41291.667\n"
        "  p99.9           1000         41666.667\n"
        "  p99.99          5000        208333.333\n"
        "  max             5000        208333.333\n"
        "  mean               -         21041.459\n"
        "  percentile: nearest rank, smallest v with >= ceil(q*N) samples <= v;\n"
        "  ns = counts * 1e9 / clock_hz rounded to nearest 0.001 ns.\n";

static void test_report_json_exact(void **state)
{
	struct d1_lat r;
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 0;

	(void)state;
	fill_known(&r);
	assert_int_equal(d1_lat_report_json(&r, &meta, buf, sizeof(buf), &n), D1_OK);
	/* p50: rank 501 -> 501 counts = 20875 ns; p99.99: rank 1001 -> 5000
	 * (the last sample of the bucket that holds max: exact); mean =
	 * 505500 / 1001 counts = 504.995 counts -> 21041.459 ns. */
	assert_string_equal(buf, expect_json);
	assert_int_equal(n, strlen(expect_json));
}

static void test_report_text(void **state)
{
	struct d1_lat r;
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 0;

	(void)state;
	fill_known(&r);
	assert_int_equal(d1_lat_report_text(&r, &meta, buf, sizeof(buf), &n), D1_OK);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, expect_text); /* byte for byte */
	assert_non_null(strstr(buf, "  os           : baremetal\n"));
	assert_non_null(
	        strstr(buf, "  clock        : 24000000 Hz, resolution 41.667 ns per count\n"));
	assert_non_null(strstr(buf, "  samples      : 1001\n"));
	assert_non_null(strstr(buf, "  missed       : 2 periods (not in the histogram)\n"));
	assert_non_null(strstr(buf, "  p50              501         20875.000\n"));
	assert_non_null(strstr(buf, "  max             5000        208333.333\n"));
	assert_non_null(strstr(buf, "  mean               -         21041.459\n"));
	assert_null(strstr(buf, "overflow bucket"));
	/* With a flagged percentile the table marks it and says what it means. */
	d1_lat_record(&r, 6000u);
	d1_lat_record(&r, 6001u);
	d1_lat_record(&r, 6002u);
	assert_int_equal(d1_lat_report_text(&r, &meta, buf, sizeof(buf), &n), D1_OK);
	assert_non_null(strstr(buf, " *\n"));
	assert_non_null(strstr(buf, "overflow bucket: the bucket's upper bound"));
}

static void test_report_small_buffer(void **state)
{
	struct d1_lat r;
	char buf[D1_LAT_REPORT_SIZE];
	size_t n = 12345u;
	size_t len;

	(void)state;
	fill_known(&r);
	for (len = 1; len < sizeof(expect_json); len += 37u) {
		memset(buf, 'X', sizeof(buf));
		assert_int_equal(d1_lat_report_json(&r, &meta, buf, len, &n), D1_ERANGE);
		assert_int_equal(n, len - 1u);
		assert_int_equal(buf[len - 1u], '\0');
		assert_memory_equal(buf, expect_json, len - 1u); /* a clean prefix */
		assert_int_equal(d1_lat_report_text(&r, &meta, buf, len, &n), D1_ERANGE);
		assert_int_equal(n, len - 1u);
		assert_int_equal(buf[len - 1u], '\0');
		assert_memory_equal(buf, expect_text, len - 1u);
	}
	/* Exactly large enough: fits with its NUL. */
	assert_int_equal(d1_lat_report_json(&r, &meta, buf, sizeof(expect_json), &n), D1_OK);
	assert_int_equal(d1_lat_report_json(&r, &meta, buf, sizeof(expect_json) - 1u, &n),
	                 D1_ERANGE);
	assert_int_equal(d1_lat_report_json(&r, &meta, buf, 0u, &n), D1_EINVAL);
	assert_int_equal(d1_lat_report_json(NULL, &meta, buf, 10u, &n), D1_EINVAL);
	assert_int_equal(d1_lat_report_text(&r, &meta, NULL, 10u, &n), D1_EINVAL);
}

static void test_report_escaping_and_empty(void **state)
{
	struct d1_lat r;
	char buf[D1_LAT_REPORT_SIZE];
	static const struct d1_lat_meta odd = {"li\"nux", "a\\b", "cpu\nload\t2", 0u};
	char big[257];
	struct d1_lat_meta m;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 1000000000u), D1_OK);
	assert_int_equal(d1_lat_report_json(&r, &odd, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "\"os\":\"li\\\"nux\",\"board\":\"a\\\\b\""));
	assert_non_null(strstr(buf, "\"load\":\"cpu\\u000aload\\u00092\""));
	assert_non_null(strstr(buf, "\"samples\":0,\"missed\":0"));
	assert_non_null(strstr(buf, "\"min_ns\":0.000,\"p50_ns\":0.000"));
	assert_non_null(strstr(buf, "\"mean_ns\":0.000"));
	assert_int_equal(d1_lat_report_json(&r, NULL, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "\"os\":\"unknown\""));
	assert_int_equal(d1_lat_report_text(&r, NULL, buf, sizeof(buf), NULL), D1_OK);
	assert_non_null(strstr(buf, "  os           : unknown\n  board        : unknown\n"
	                            "  load         : unknown\n"));
	assert_non_null(strstr(buf, "  period       : 0 ns\n"));
	/* D1_LAT_REPORT_SIZE holds 256 bytes of meta strings, worst-case escaped
	 * JSON is 6 bytes per byte: 3 strings of ~14 control chars + the rest. */
	memset(big, 'x', sizeof(big) - 1u);
	big[sizeof(big) - 1u] = '\0';
	m.os = big + 200;    /* 56 */
	m.board = big + 100; /* 156 */
	m.load = big + 212;  /* 44 -> 256 in all */
	m.period_ns = UINT64_MAX;
	fill_known(&r);
	r.missed = UINT64_MAX;
	assert_int_equal(d1_lat_report_json(&r, &m, buf, sizeof(buf), NULL), D1_OK);
	assert_int_equal(d1_lat_report_text(&r, &m, buf, sizeof(buf), NULL), D1_OK);
}

static void test_many_samples_constant_memory(void **state)
{
	struct d1_lat r;
	uint32_t i;

	(void)state;
	/* 5 * 10^6 samples in the same memory as 20,000: only counts grow. */
	assert_int_equal(d1_lat_init(&r, bins_a, 100u, 24000000u), D1_OK);
	for (i = 0; i < 5000000u; i++) {
		d1_lat_record(&r, i % 300u);
	}
	assert_int_equal(r.count, 5000000u);
	assert_int_equal(bins_a[7], 16667u); /* 5e6 = 300 * 16666 + 200 */
	assert_int_equal(d1_lat_percentile(&r, 100000u, NULL), 29u);
	assert_int_equal(r.saturated, 0u);
}

/* Issue 11 item 11: NULL arguments get a documented behaviour, no crash. */
static void test_null_arguments(void **state)
{
	struct d1_lat r;
	uint32_t lo = 7u, hi = 7u;

	(void)state;
	d1_lat_reset(NULL); /* no-op */
	assert_true(d1_lat_counts_to_ps(NULL, 5u) == 0u);
	d1_lat_bucket_bounds(3u, NULL, NULL); /* no-op */
	d1_lat_bucket_bounds(3u, &lo, NULL);
	assert_int_equal(lo, 3u);
	d1_lat_bucket_bounds(3u, NULL, &hi);
	assert_int_equal(hi, 3u);
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 1000u), D1_OK);
	r.bins = NULL;
	d1_lat_reset(&r); /* a recorder without bins: no-op */
	d1_lat_record(NULL, 5u);
	d1_lat_missed(NULL, 5u);
}

/* Issue 11 item 12: `saturated` itself saturates, on record and in merge. */
static void test_saturated_saturates(void **state)
{
	struct d1_lat a;

	(void)state;
	assert_int_equal(d1_lat_init(&a, bins_a, 10u, 1000u), D1_OK);
	bins_a[5] = UINT32_MAX;
	a.saturated = UINT64_MAX;
	d1_lat_record(&a, 5u); /* one more lost increment */
	assert_true(a.saturated == UINT64_MAX);
}

static void test_merge_saturated_saturates(void **state)
{
	struct d1_lat a, b;

	(void)state;
	assert_int_equal(d1_lat_init(&a, bins_a, 10u, 1000u), D1_OK);
	assert_int_equal(d1_lat_init(&b, bins_b, 10u, 1000u), D1_OK);
	b.saturated = UINT64_MAX;
	b.sum = UINT64_MAX;
	a.sum = 5u;
	assert_int_equal(d1_lat_merge(&a, &b), D1_OK);
	assert_true(a.saturated == UINT64_MAX);
}

/* Issue 11 item 12: meta bytes >= 0x80 are escaped, the line is ASCII. */
static void test_report_json_high_bytes(void **state)
{
	struct d1_lat r;
	char buf[D1_LAT_REPORT_SIZE];
	static const struct d1_lat_meta m = {"os\xff", "b\xc3\xa9", "\x80\x7f", 0u};
	size_t i, n = 0;

	(void)state;
	assert_int_equal(d1_lat_init(&r, bins_a, 10u, 1000000000u), D1_OK);
	assert_int_equal(d1_lat_report_json(&r, &m, buf, sizeof(buf), &n), D1_OK);
	for (i = 0; i < n; i++) {
		assert_true((unsigned char)buf[i] < 0x80u);
	}
	assert_non_null(strstr(buf, "\"os\":\"os\\u00ff\",\"board\":\"b\\u00c3\\u00a9\""));
	assert_non_null(strstr(buf, "\"load\":\"\\u0080\x7f\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_init_errors),
	        cmocka_unit_test(test_uniform_exact),
	        cmocka_unit_test(test_reference_distributions),
	        cmocka_unit_test(test_buckets_tile_u32),
	        cmocka_unit_test(test_overflow_flag_and_clamp),
	        cmocka_unit_test(test_min_exact_shares_bucket_index),
	        cmocka_unit_test(test_small_pairs_exhaustive),
	        cmocka_unit_test(test_missed_not_in_histogram),
	        cmocka_unit_test(test_saturation),
	        cmocka_unit_test(test_merge_equals_union),
	        cmocka_unit_test(test_merge_refusals),
	        cmocka_unit_test(test_conversion),
	        cmocka_unit_test(test_report_json_exact),
	        cmocka_unit_test(test_report_text),
	        cmocka_unit_test(test_report_small_buffer),
	        cmocka_unit_test(test_report_escaping_and_empty),
	        cmocka_unit_test(test_many_samples_constant_memory),
	        cmocka_unit_test(test_saturated_saturates),
	        cmocka_unit_test(test_merge_saturated_saturates),
	        cmocka_unit_test(test_report_json_high_bytes),
	        cmocka_unit_test(test_null_arguments), /* last: ASan aborts on today's code */
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
