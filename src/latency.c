/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Latency recorder, device core: the log-linear layout, the sample path
 * and the dump. Everything that only reads a finished recorder is in
 * latency_report.c (or on the host: bench/tools/d1lat_dump.py). The layout and
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
		/* No check: d1_lat_merge() saturates lost at D1_LAT_LOST_SAT
		 * (2^63), so a wrap needs 2^63 more samples, which do not happen
		 * (292 years at one a nanosecond). */
		r->lost++;
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

/* Characters are gathered in a 64-byte buffer and handed to put() when it
 * is full and at the end: pieces of at most 64 bytes (latency.h), and one
 * call site of put(), not one call sequence per piece of text. */
struct out {
	d1_lat_put_fn put;
	void *ctx;
	unsigned n;
	char b[64];
};

static void out_flush(struct out *o)
{
	if (o->n != 0u) {
		o->put(o->ctx, o->b, o->n);
		o->n = 0u;
	}
}

static void out_c(struct out *o, char c)
{
	if (o->n == sizeof o->b) {
		out_flush(o);
	}
	o->b[o->n++] = c;
}

static void out_u(struct out *o, uint64_t v)
{
	char d[20];
	unsigned n = d1_fmt_digits(v, d);

	while (n > 0u) {
		out_c(o, d[--n]);
	}
}

/* Literal ASCII, as is. */
static void out_s(struct out *o, const char *s)
{
	while (*s != '\0') {
		out_c(o, *s++);
	}
}

/* A JSON string: quoted and escaped; NULL is "unknown". */
static void out_str(struct out *o, const char *s)
{
	char e[8];

	out_c(o, '"');
	for (s = s == NULL ? "unknown" : s; *s != '\0'; s++) {
		size_t n = d1_fmt_json_char((unsigned char)*s, e);

		for (size_t k = 0; k < n; k++) {
			out_c(o, e[k]);
		}
	}
	out_c(o, '"');
}

/* The line up to the bins: \001 stands for the next string of the meta
 * (os, board, load, measurement, wake), \002 for the next number
 * (period_ns, clock_hz, lost, missed, max), \003 for the bench's cost when
 * the meta has one (bench_instr_min and _max, as in the JSON report). The
 * layout is D1_LAT_EXACT_LOG2, D1_LAT_SUB_LOG2, D1_LAT_OCTAVES. */
static const char head[] = "{\"tool\":\"d1lat-dump\",\"format\":2,\"os\":\001,\"board\":\001,"
                           "\"load\":\001,\"measurement\":\001,\"wake\":\001,\003"
                           "\"period_ns\":\002,\"clock_hz\":\002,\"layout\":[10,6,15],"
                           "\"lost\":\002,\"missed\":\002,\"max\":\002,\"bins\":[";

d1_err_t d1_lat_dump(const struct d1_lat *r, const struct d1_lat_meta *meta, d1_lat_put_fn put,
                     void *ctx)
{
	static const struct d1_lat_meta none; /* every string NULL ("unknown"), period 0 */
	struct out o;
	const char *str[5];
	uint64_t num[5];
	unsigned ns = 0;
	unsigned nn = 0;
	bool first = true;

	if (r == NULL || put == NULL) {
		return D1_EINVAL;
	}
	meta = meta == NULL ? &none : meta;
	o.put = put;
	o.ctx = ctx;
	o.n = 0u;
	str[0] = meta->os;
	str[1] = meta->board;
	str[2] = meta->load;
	str[3] = meta->measurement;
	str[4] = meta->wake;
	num[0] = meta->period_ns;
	num[1] = r->clock_hz;
	num[2] = r->lost;
	num[3] = r->missed;
	num[4] = r->max;
	for (const char *h = head; *h != '\0'; h++) {
		if (*h == '\001') {
			out_str(&o, str[ns++]);
		} else if (*h == '\002') {
			out_u(&o, num[nn++]);
		} else if (*h == '\003') {
			if (meta->bench_instr_max != 0u) {
				out_s(&o, "\"bench_instr_min\":");
				out_u(&o, meta->bench_instr_min);
				out_s(&o, ",\"bench_instr_max\":");
				out_u(&o, meta->bench_instr_max);
				out_c(&o, ',');
			}
		} else {
			out_c(&o, *h);
		}
	}
	for (uint32_t i = 0; i <= D1_LAT_NBINS; i++) {
		if (r->bins[i] != 0u) {
			if (!first) {
				out_c(&o, ',');
			}
			first = false;
			out_u(&o, i);
			out_c(&o, ',');
			out_u(&o, r->bins[i]);
		}
	}
	out_c(&o, ']');
	out_c(&o, '}');
	out_c(&o, '\n');
	out_flush(&o);
	return D1_OK;
}
