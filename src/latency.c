/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency recorder, device core: the log-linear layout, the sample path
 * and the dump. Everything that only reads a finished recorder is in
 * latency_report.c (or on the host: tools/d1lat_dump.py). The layout and
 * its error bound: docs/latency.md.
 */
#include "d1/latency.h"

#include "fmt.h"
#include "latency_layout.h"

/*
 * The shift s = k - 6 of a value in octave k (2^k <= v < 2^(k+1)) without a
 * count-leading-zeros instruction (rv64imafdc has none), two halves of one
 * table: [i] = 4 + floor(log2(i)) for i = v >> 10 = 1 .. 127 (v < 2^17), and
 * [128 + j] = 12 + floor(log2(j)), 11 for j = 0, for j = v >> 18 (2^17 <= v
 * < 2^25). k - 6 makes m = v >> s the leading 1 and the 6 bits below it.
 */
static const uint8_t shift_of[256] = {
        0,  4,  5,  5,  6,  6,  6,  6,  7,  7,  7,  7,  7,  7,  7,  7,  8,  8,  8,  8,  8,  8,
        8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,
        9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  10, 10,
        10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,
        10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,
        10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 12, 13, 13,
        14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
        16, 16, 16, 16, 16, 16, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17,
        17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18, 18,
        18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
        18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
        18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
};

/*
 * Bin of @v: itself below 2^10; for 2^k <= v < 2^(k+1) (k = 10 .. 24) bin
 * 1024 + 64 (k - 10) + (m - 64) with m = v >> s, s = k - 6, which is
 * 64 s + 704 + m; above D1_LAT_TOP the overflow bin D1_LAT_OVERFLOW.
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint32_t
bin_of(uint32_t v)
{
	uint32_t s;

	if (v < D1_LAT_EXACT) {
		return v;
	}
	if (v < (1u << 17)) {
		s = shift_of[v >> 10];
	} else if (v <= D1_LAT_TOP) {
		s = shift_of[128u + (v >> 18)];
	} else {
		return D1_LAT_OVERFLOW;
	}
	return (s << D1_LAT_SUB_LOG2) + 704u + (v >> s);
}

uint32_t d1_lat_bucket_index(uint32_t counts)
{
	return bin_of(counts);
}

void d1_lat_bucket_bounds(uint32_t idx, uint32_t *lo, uint32_t *hi)
{
	uint32_t l, h;

	d1_lat_bin_bounds(idx, &l, &h);
	if (lo != NULL) {
		*lo = l;
	}
	if (hi != NULL) {
		*hi = h;
	}
}

d1_err_t d1_lat_init(struct d1_lat *r, uint32_t clock_hz)
{
	if (r == NULL) {
		return D1_EINVAL;
	}
	if (clock_hz < D1_LAT_CLOCK_MIN_HZ) {
		return D1_ERANGE;
	}
	r->clock_hz = clock_hz;
	d1_lat_reset(r);
	return D1_OK;
}

void d1_lat_reset(struct d1_lat *r)
{
	uint32_t i;

	if (r == NULL) {
		return;
	}
	r->lost = 0u;
	r->missed = 0u;
	r->max = 0u;
	r->reserved = 0u;
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		r->bins[i] = 0u;
	}
}

/*
 * The sample path: one bin (the overflow bin above the top) and max. A bin
 * at UINT32_MAX stays there and the sample is counted in `lost` instead,
 * so the samples fed are always sum(bins) + lost, without a count update
 * per sample. No sum and no min: the report derives them from the bins.
 * docs/latency.md counts the instructions of each path.
 */
void d1_lat_record(struct d1_lat *r, uint32_t counts)
{
	/* The value as rv64 holds a uint32_t argument: sign-extended (the
	 * conversion to int32_t is modulo 2^32 in GCC and Clang). Unsigned
	 * 64-bit compares keep the uint32_t order and every value used as an
	 * offset is below 2^25: no zero-extension on any path. */
	uintptr_t x = (uintptr_t)(intptr_t)(int32_t)counts;
	uintptr_t i;
	uint32_t n;

	if (r == NULL) {
		return;
	}
	if (x < D1_LAT_EXACT) {
		i = x;
	} else if (x < (1u << 17)) {
		uintptr_t s = shift_of[x >> 10];

		i = (s << D1_LAT_SUB_LOG2) + (x >> s) + 704u;
	} else if (x <= D1_LAT_TOP) {
		uintptr_t s = shift_of[128u + (x >> 18)];

		i = (s << D1_LAT_SUB_LOG2) + (x >> s) + 704u;
	} else {
		i = D1_LAT_OVERFLOW;
	}
	if (counts > r->max) {
		r->max = counts;
	}
	/* Last, so that the rare saturated branch ends in its own return. */
	n = r->bins[i] + 1u;
	if (__builtin_expect(n != 0u, 1)) {
		r->bins[i] = n;
	} else {
		r->lost++; /* 64-bit: 2^64 samples do not happen */
	}
}

void d1_lat_missed(struct d1_lat *r, uint32_t n)
{
	uint64_t m;

	if (r == NULL) {
		return;
	}
	m = r->missed + n;
	r->missed = m < n ? UINT64_MAX : m;
}

/* ---- the dump: one JSON line, written in small pieces ----------------- */

struct out {
	d1_lat_put_fn put;
	void *ctx;
};

static void out_s(const struct out *o, const char *s)
{
	size_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	o->put(o->ctx, s, n);
}

static void out_u(const struct out *o, uint64_t v)
{
	char d[20], t[20];
	unsigned n = d1_fmt_digits(v, d), i;

	for (i = 0; i < n; i++) {
		t[i] = d[n - 1u - i];
	}
	o->put(o->ctx, t, n);
}

/* ,"key":  */
static void out_key(const struct out *o, const char *key)
{
	out_s(o, ",\"");
	out_s(o, key);
	out_s(o, "\":");
}

static void out_str(const struct out *o, const char *key, const char *s)
{
	char e[8];

	out_key(o, key);
	o->put(o->ctx, "\"", 1u);
	for (s = s == NULL ? "unknown" : s; *s != '\0'; s++) {
		o->put(o->ctx, e, d1_fmt_json_char((unsigned char)*s, e));
	}
	o->put(o->ctx, "\"", 1u);
}

d1_err_t d1_lat_dump(const struct d1_lat *r, const struct d1_lat_meta *meta, d1_lat_put_fn put,
                     void *ctx)
{
	static const struct d1_lat_meta none = {NULL, NULL, NULL, 0u};
	const struct out o = {put, ctx};
	const char *sep = "";
	uint32_t i;

	if (r == NULL || put == NULL) {
		return D1_EINVAL;
	}
	meta = meta == NULL ? &none : meta;
	out_s(&o, "{\"tool\":\"d1lat-dump\",\"format\":1");
	out_str(&o, "os", meta->os);
	out_str(&o, "board", meta->board);
	out_str(&o, "load", meta->load);
	out_key(&o, "period_ns");
	out_u(&o, meta->period_ns);
	out_key(&o, "clock_hz");
	out_u(&o, r->clock_hz);
	out_key(&o, "layout");
	out_s(&o, "[10,6,15]"); /* D1_LAT_EXACT_LOG2, D1_LAT_SUB_LOG2, D1_LAT_OCTAVES */
	out_key(&o, "lost");
	out_u(&o, r->lost);
	out_key(&o, "missed");
	out_u(&o, r->missed);
	out_key(&o, "max");
	out_u(&o, r->max);
	out_key(&o, "bins");
	out_s(&o, "[");
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		if (r->bins[i] != 0u) {
			out_s(&o, sep);
			out_u(&o, i);
			out_s(&o, ",");
			out_u(&o, r->bins[i]);
			sep = ",";
		}
	}
	out_s(&o, "]}\n");
	return D1_OK;
}
