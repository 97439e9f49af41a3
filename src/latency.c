/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency recorder: exact histogram + log-linear overflow buckets, and the
 * two reports, written with our own integer formatting (no libc). The
 * definitions (percentile, rounding, saturation) are in d1/latency.h and
 * docs/latency.md.
 */
#include "d1/latency.h"

#include "fmt.h"

/* The sample path must not call out (no frame, no saved registers at -Os). */
#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

#define PPM      1000000u
#define PS_PER_S 1000000000000ull

/* Standard percentiles of the summary and the reports, ppm. */
static const uint32_t pct_ppm[D1_LAT_NPCT] = {500000u, 900000u, 990000u, 999000u, 999900u};
static const char *const pct_name[D1_LAT_NPCT] = {"p50", "p90", "p99", "p99.9", "p99.99"};
static const char *const pct_key[D1_LAT_NPCT] = {"p50_ns", "p90_ns", "p99_ns", "p999_ns",
                                                 "p9999_ns"};

/* ---- buckets ---------------------------------------------------------- */

/* floor(log2(v)) for v > 0, in five branch-free steps. */
static HOT_INLINE uint32_t log2_u32(uint32_t v)
{
	uint32_t r, s;

	r = (uint32_t)(v > 0xFFFFu) << 4;
	v >>= r;
	s = (uint32_t)(v > 0xFFu) << 3;
	v >>= s;
	r |= s;
	s = (uint32_t)(v > 0xFu) << 2;
	v >>= s;
	r |= s;
	s = (uint32_t)(v > 0x3u) << 1;
	v >>= s;
	r |= s;
	return r | (v >> 1);
}

/* Values below 2 * SUB map to themselves; above, octave k (2^k .. 2^(k+1)-1,
 * k >= SUB_LOG2 + 1) is split into SUB equal buckets of 2^(k - SUB_LOG2). */
static HOT_INLINE uint32_t ovf_index(uint32_t counts)
{
	uint32_t k, sub;

	if (counts < 2u * D1_LAT_OVF_SUB) {
		return counts;
	}
	k = log2_u32(counts);
	sub = (counts >> (k - D1_LAT_OVF_SUB_LOG2)) & (D1_LAT_OVF_SUB - 1u);
	return 2u * D1_LAT_OVF_SUB + (k - D1_LAT_OVF_SUB_LOG2 - 1u) * D1_LAT_OVF_SUB + sub;
}

uint32_t d1_lat_bucket_index(uint32_t counts)
{
	return ovf_index(counts);
}

void d1_lat_bucket_bounds(uint32_t idx, uint32_t *lo, uint32_t *hi)
{
	uint32_t j, shift, l, dummy;

	lo = lo == NULL ? &dummy : lo;
	hi = hi == NULL ? &dummy : hi;
	if (idx >= D1_LAT_OVF_BUCKETS) {
		idx = D1_LAT_OVF_BUCKETS - 1u;
	}
	if (idx < 2u * D1_LAT_OVF_SUB) {
		*lo = idx;
		*hi = idx;
		return;
	}
	j = idx - 2u * D1_LAT_OVF_SUB;
	shift = j / D1_LAT_OVF_SUB + 1u; /* k - SUB_LOG2 */
	l = (D1_LAT_OVF_SUB + j % D1_LAT_OVF_SUB) << shift;
	*lo = l;
	*hi = l + ((1u << shift) - 1u);
}

/* ---- recording -------------------------------------------------------- */

d1_err_t d1_lat_init(struct d1_lat *r, uint32_t *bins, uint32_t nbins_exact, uint32_t clock_hz)
{
	if (r == NULL || bins == NULL || nbins_exact == 0u) {
		return D1_EINVAL;
	}
	if (clock_hz < D1_LAT_CLOCK_MIN_HZ) {
		return D1_ERANGE;
	}
	r->bins = bins;
	r->nbins = nbins_exact;
	r->clock_hz = clock_hz;
	d1_lat_reset(r);
	return D1_OK;
}

void d1_lat_reset(struct d1_lat *r)
{
	uint32_t i;

	if (r == NULL || r->bins == NULL) {
		return;
	}
	for (i = 0; i < r->nbins; i++) {
		r->bins[i] = 0u;
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		r->ovf[i] = 0u;
	}
	r->min = UINT32_MAX;
	r->max = 0u;
	r->count = 0u;
	r->sum = 0u;
	r->missed = 0u;
	r->saturated = 0u;
}

/* Saturating increment by @add; returns the amount lost. */
static uint32_t sat_add32(uint32_t *cell, uint32_t add)
{
	uint32_t old = *cell;
	uint32_t room = UINT32_MAX - old;
	uint32_t take = add < room ? add : room;

	*cell = old + take;
	return add - take;
}

static uint64_t sat_add64(uint64_t *cell, uint64_t add)
{
	uint64_t old = *cell;
	uint64_t room = UINT64_MAX - old;
	uint64_t take = add < room ? add : room;

	*cell = old + take;
	return add - take;
}

void d1_lat_record(struct d1_lat *r, uint32_t counts)
{
	uint32_t *cell;
	uint32_t old;
	uint64_t full;
	uint64_t s, wrapped, lost;

	if (r == NULL) {
		return;
	}
	/* The only data-dependent branch: exact bin or overflow bucket. */
	cell = counts < r->nbins ? &r->bins[counts] : &r->ovf[ovf_index(counts)];
	old = *cell;
	full = (uint64_t)(old == UINT32_MAX);
	*cell = old + (uint32_t)(full ^ 1u);
	s = r->sum + counts;
	wrapped = (uint64_t)(s < counts);
	r->sum = s | (0u - wrapped); /* saturate at UINT64_MAX */
	lost = r->saturated + full + wrapped;
	r->saturated = lost | (0u - (uint64_t)(lost < r->saturated)); /* saturate */
	r->count++;
	r->min = counts < r->min ? counts : r->min;
	r->max = counts > r->max ? counts : r->max;
}

void d1_lat_missed(struct d1_lat *r, uint32_t n)
{
	if (r == NULL) {
		return;
	}
	(void)sat_add64(&r->saturated, sat_add64(&r->missed, n));
}

/* ---- merge ------------------------------------------------------------ */

/* Where a nonempty src overflow bucket goes in dst: -1 refused, 0 dst's
 * bucket of the same index, 1 dst exact bin *bin. */
static int merge_target(const struct d1_lat *dst, const struct d1_lat *src, uint32_t idx,
                        uint32_t *bin)
{
	uint32_t lo, hi;

	d1_lat_bucket_bounds(idx, &lo, &hi);
	if (lo < src->nbins) {
		lo = src->nbins; /* src holds only values above its exact range here */
	}
	if (lo >= dst->nbins) {
		return 0;
	}
	if (lo == hi) {
		*bin = lo;
		return 1;
	}
	return -1;
}

d1_err_t d1_lat_merge(struct d1_lat *dst, const struct d1_lat *src)
{
	uint32_t i, n, bin = 0u;
	uint64_t lost = 0u, lost64;

	if (dst == NULL || src == NULL || dst->bins == NULL || src->bins == NULL) {
		return D1_EINVAL;
	}
	if (dst->clock_hz != src->clock_hz) {
		return D1_EINVAL;
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		if (src->ovf[i] != 0u && merge_target(dst, src, i, &bin) < 0) {
			return D1_ERANGE;
		}
	}
	/* Exact bins. */
	n = src->nbins < dst->nbins ? src->nbins : dst->nbins;
	for (i = 0; i < n; i++) {
		lost += sat_add32(&dst->bins[i], src->bins[i]);
	}
	for (i = n; i < src->nbins; i++) {
		if (src->bins[i] != 0u) {
			lost += sat_add32(&dst->ovf[d1_lat_bucket_index(i)], src->bins[i]);
		}
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		uint32_t v = src->ovf[i];

		if (v == 0u) {
			continue;
		}
		if (merge_target(dst, src, i, &bin) == 0) {
			lost += sat_add32(&dst->ovf[i], v);
		} else {
			lost += sat_add32(&dst->bins[bin], v);
		}
	}
	/* Read everything of src before writing dst's scalars (dst may be src). */
	lost64 = src->saturated;
	{
		uint64_t sum = src->sum, cnt = src->count, missed = src->missed;
		uint32_t mn = src->min, mx = src->max;
		uint64_t l1, l2;

		l1 = sat_add64(&dst->sum, sum);
		l2 = sat_add64(&dst->missed, missed);
		(void)sat_add64(&lost64, l1); /* the temporaries saturate too */
		(void)sat_add64(&lost64, l2);
		(void)sat_add64(&lost64, lost);
		(void)sat_add64(&dst->count, cnt);
		dst->min = mn < dst->min ? mn : dst->min;
		dst->max = mx > dst->max ? mx : dst->max;
	}
	(void)sat_add64(&dst->saturated, lost64);
	return D1_OK;
}

/* ---- percentiles ------------------------------------------------------ */

static uint64_t held(const struct d1_lat *r)
{
	uint64_t n = 0u;
	uint32_t i;

	for (i = 0; i < r->nbins; i++) {
		n += r->bins[i];
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		n += r->ovf[i];
	}
	return n;
}

/* ceil(q * n / 10^6) without overflowing: n = a * 10^6 + b. */
static uint64_t rank_of(uint64_t n, uint32_t q_ppm)
{
	uint64_t a = n / PPM, b = n % PPM;
	uint64_t rank = a * q_ppm + (b * q_ppm + (PPM - 1u)) / PPM;

	return rank == 0u ? 1u : rank;
}

static uint32_t percentile_of(const struct d1_lat *r, uint64_t n, uint32_t q_ppm, bool *flag)
{
	uint64_t rank, cum = 0u;
	uint32_t i, lo, hi;

	*flag = false;
	if (n == 0u) {
		return 0u;
	}
	if (q_ppm > PPM) {
		q_ppm = PPM;
	}
	rank = rank_of(n, q_ppm);
	for (i = 0; i < r->nbins; i++) {
		cum += r->bins[i];
		if (cum >= rank) {
			return i;
		}
	}
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		if (cum + r->ovf[i] >= rank) {
			break;
		}
		cum += r->ovf[i];
	}
	if (i >= D1_LAT_OVF_BUCKETS) {
		i = D1_LAT_OVF_BUCKETS - 1u; /* not reached: n counts every bucket */
	}
	/* Known exactly: when min is above the exact range, the first sample of
	 * the bucket holding min is min (a min in the exact range is in its
	 * exact bin, not in the bucket of the same index); the last sample of
	 * the bucket holding max is max (max is above the exact range here). */
	if (rank == cum + 1u && r->min >= r->nbins && i == ovf_index(r->min)) {
		return r->min;
	}
	if (rank == cum + r->ovf[i] && i == ovf_index(r->max)) {
		return r->max;
	}
	d1_lat_bucket_bounds(i, &lo, &hi);
	/* The bucket holds values >= nbins and <= max only: clamp both ends. */
	lo = lo < r->nbins ? r->nbins : lo;
	hi = hi > r->max ? r->max : hi;
	*flag = lo < hi;
	return hi;
}

uint32_t d1_lat_percentile(const struct d1_lat *r, uint32_t q_ppm, bool *in_overflow)
{
	bool flag = false;
	uint32_t v = 0u;

	if (r != NULL && r->bins != NULL) {
		v = percentile_of(r, held(r), q_ppm, &flag);
	}
	if (in_overflow != NULL) {
		*in_overflow = flag;
	}
	return v;
}

/* ---- exact time conversion (128-bit by two 64-bit halves) ------------- */

struct u128 {
	uint64_t hi, lo;
};

static struct u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
	struct u128 r;

	r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

static bool ge128(struct u128 a, struct u128 b)
{
	return a.hi != b.hi ? a.hi > b.hi : a.lo >= b.lo;
}

static struct u128 sub128(struct u128 a, struct u128 b)
{
	struct u128 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (uint64_t)(a.lo < b.lo);
	return r;
}

static struct u128 add128(struct u128 a, struct u128 b)
{
	struct u128 r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (uint64_t)(r.lo < a.lo);
	return r;
}

/* round(num / den), halves up, saturating at UINT64_MAX; den != 0 and
 * den < 2^127 (so den / 2 + num does not overflow for our inputs). */
static uint64_t divround128(struct u128 num, struct u128 den)
{
	struct u128 rem = {0u, 0u}, half;
	uint64_t q = 0u;
	int bit;

	half.lo = (den.lo >> 1) | (den.hi << 63);
	half.hi = den.hi >> 1;
	num = add128(num, half);
	for (bit = 127; bit >= 0; bit--) {
		uint64_t in = bit >= 64 ? (num.hi >> (bit - 64)) & 1u : (num.lo >> bit) & 1u;

		rem.hi = (rem.hi << 1) | (rem.lo >> 63);
		rem.lo = (rem.lo << 1) | in;
		if (ge128(rem, den)) {
			rem = sub128(rem, den);
			if (bit >= 64) {
				return UINT64_MAX; /* quotient needs more than 64 bits */
			}
			q |= (uint64_t)1u << bit;
		}
	}
	return q;
}

uint64_t d1_lat_counts_to_ps(const struct d1_lat *r, uint64_t counts)
{
	struct u128 den = {0u, 0u};

	if (r == NULL || r->clock_hz == 0u) {
		return 0u;
	}
	den.lo = r->clock_hz;
	return divround128(mul64(counts, PS_PER_S), den);
}

d1_err_t d1_lat_summarize(const struct d1_lat *r, struct d1_lat_summary *s)
{
	uint64_t n;
	uint32_t i;

	if (r == NULL || s == NULL || r->bins == NULL) {
		return D1_EINVAL;
	}
	n = held(r);
	s->samples = r->count;
	s->missed = r->missed;
	s->saturated = r->saturated;
	s->overflow_samples = 0u;
	for (i = 0; i < D1_LAT_OVF_BUCKETS; i++) {
		s->overflow_samples += r->ovf[i];
	}
	s->clock_hz = r->clock_hz;
	s->exact_max = r->nbins - 1u;
	s->min = r->count == 0u ? 0u : r->min;
	s->max = r->count == 0u ? 0u : r->max;
	s->overflow = false;
	for (i = 0; i < D1_LAT_NPCT; i++) {
		s->pct[i] = percentile_of(r, n, pct_ppm[i], &s->pct_overflow[i]);
		s->pct_ps[i] = d1_lat_counts_to_ps(r, s->pct[i]);
		s->overflow = s->overflow || s->pct_overflow[i];
	}
	s->mean_saturated = r->sum == UINT64_MAX;
	s->resolution_ps = d1_lat_counts_to_ps(r, 1u);
	s->exact_max_ps = d1_lat_counts_to_ps(r, s->exact_max);
	s->min_ps = d1_lat_counts_to_ps(r, s->min);
	s->max_ps = d1_lat_counts_to_ps(r, s->max);
	if (r->count == 0u) {
		s->mean_ps = 0u;
	} else {
		s->mean_ps = divround128(mul64(r->sum, PS_PER_S), mul64(r->count, r->clock_hz));
	}
	return D1_OK;
}

/* ---- formatting into a caller buffer (bounded writer: src/fmt.h) ------ */

/* Picoseconds as nanoseconds with exactly 3 decimals: 41667 -> "41.667". */
static void put_ns3(struct d1_fmt *o, uint64_t ps)
{
	uint64_t frac = ps % 1000u;

	d1_fmt_u64(o, ps / 1000u);
	d1_fmt_c(o, '.');
	d1_fmt_c(o, (char)('0' + (int)(frac / 100u)));
	d1_fmt_c(o, (char)('0' + (int)(frac / 10u % 10u)));
	d1_fmt_c(o, (char)('0' + (int)(frac % 10u)));
}

static size_t ns3_width(uint64_t ps)
{
	return d1_fmt_u64_width(ps / 1000u) + 4u;
}

static void put_spaces(struct d1_fmt *o, size_t n)
{
	while (n-- > 0u) {
		d1_fmt_c(o, ' ');
	}
}

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	return n;
}

/* Left-aligned text in a field of @w characters. */
static void put_left(struct d1_fmt *o, const char *s, size_t w)
{
	size_t n = str_len(s);

	d1_fmt_s(o, s);
	put_spaces(o, n < w ? w - n : 0u);
}

static void put_u64_right(struct d1_fmt *o, uint64_t v, size_t w)
{
	size_t n = d1_fmt_u64_width(v);

	put_spaces(o, n < w ? w - n : 0u);
	d1_fmt_u64(o, v);
}

static void put_ns3_right(struct d1_fmt *o, uint64_t ps, size_t w)
{
	size_t n = ns3_width(ps);

	put_spaces(o, n < w ? w - n : 0u);
	put_ns3(o, ps);
}

/* A JSON string: quotes, \" \\ and control characters escaped. */
static void put_json_str(struct d1_fmt *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	d1_fmt_c(o, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			d1_fmt_c(o, '\\');
			d1_fmt_c(o, (char)c);
		} else if (c < 0x20u || c >= 0x80u) {
			/* Control bytes and every byte >= 0x80 (taken as the code
			 * point U+00XX): the line stays ASCII, hence valid UTF-8. */
			d1_fmt_s(o, "\\u00");
			d1_fmt_c(o, hex[c >> 4]);
			d1_fmt_c(o, hex[c & 0xFu]);
		} else {
			d1_fmt_c(o, (char)c);
		}
	}
	d1_fmt_c(o, '"');
}

static const char *or_unknown(const char *s)
{
	return s == NULL ? "unknown" : s;
}

/* The preamble of both reports: check the arguments, start the text, take
 * the summary, and stand in "unknown" meta for a NULL @meta. */
static d1_err_t begin(struct d1_fmt *o, const struct d1_lat *r, const struct d1_lat_meta **meta,
                      char *buf, size_t len, struct d1_lat_summary *s)
{
	static const struct d1_lat_meta none = {NULL, NULL, NULL, 0u};

	if (r == NULL || buf == NULL || len == 0u || r->bins == NULL) {
		return D1_EINVAL;
	}
	if (*meta == NULL) {
		*meta = &none;
	}
	d1_fmt_init(o, buf, len);
	return d1_lat_summarize(r, s);
}

static d1_err_t finish(const struct d1_fmt *o, size_t *written)
{
	if (written != NULL) {
		*written = o->pos;
	}
	return o->full ? D1_ERANGE : D1_OK;
}

/* One row of the text table: name, counts, ns, flag. */
static void text_row(struct d1_fmt *o, const char *name, uint64_t counts, bool have_counts,
                     uint64_t ps, const char *flag)
{
	d1_fmt_s(o, "  ");
	put_left(o, name, 8u);
	if (have_counts) {
		put_u64_right(o, counts, 12u);
	} else {
		put_left(o, "           -", 12u);
	}
	put_ns3_right(o, ps, 18u);
	d1_fmt_s(o, flag);
	d1_fmt_c(o, '\n');
}

static void text_kv(struct d1_fmt *o, const char *key)
{
	d1_fmt_s(o, "  ");
	put_left(o, key, 13u);
	d1_fmt_s(o, ": ");
}

d1_err_t d1_lat_report_text(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written)
{
	struct d1_lat_summary s;
	struct d1_fmt o;
	d1_err_t err;
	uint32_t i;

	err = begin(&o, r, &meta, buf, len, &s);
	if (err != D1_OK) {
		return err;
	}
	d1_fmt_s(&o, "d1lat latency report\n");
	text_kv(&o, "os");
	d1_fmt_s(&o, or_unknown(meta->os));
	d1_fmt_c(&o, '\n');
	text_kv(&o, "board");
	d1_fmt_s(&o, or_unknown(meta->board));
	d1_fmt_c(&o, '\n');
	text_kv(&o, "load");
	d1_fmt_s(&o, or_unknown(meta->load));
	d1_fmt_c(&o, '\n');
	text_kv(&o, "clock");
	d1_fmt_u64(&o, s.clock_hz);
	d1_fmt_s(&o, " Hz, resolution ");
	put_ns3(&o, s.resolution_ps);
	d1_fmt_s(&o, " ns per count\n");
	text_kv(&o, "period");
	d1_fmt_u64(&o, meta->period_ns);
	d1_fmt_s(&o, " ns\n");
	text_kv(&o, "samples");
	d1_fmt_u64(&o, s.samples);
	d1_fmt_c(&o, '\n');
	text_kv(&o, "missed");
	d1_fmt_u64(&o, s.missed);
	d1_fmt_s(&o, " periods (not in the histogram)\n");
	text_kv(&o, "exact range");
	d1_fmt_s(&o, "0 .. ");
	d1_fmt_u64(&o, s.exact_max);
	d1_fmt_s(&o, " counts (");
	put_ns3(&o, s.exact_max_ps);
	d1_fmt_s(&o, " ns), 8 buckets per octave above\n");
	text_kv(&o, "above range");
	d1_fmt_u64(&o, s.overflow_samples);
	d1_fmt_s(&o, " samples\n");
	text_kv(&o, "saturated");
	d1_fmt_u64(&o, s.saturated);
	d1_fmt_c(&o, '\n');
	d1_fmt_s(&o, "  stat          counts                ns\n");
	text_row(&o, "min", s.min, true, s.min_ps, "");
	for (i = 0; i < D1_LAT_NPCT; i++) {
		text_row(&o, pct_name[i], s.pct[i], true, s.pct_ps[i],
		         s.pct_overflow[i] ? " *" : "");
	}
	text_row(&o, "max", s.max, true, s.max_ps, "");
	text_row(&o, "mean", 0u, false, s.mean_ps, s.mean_saturated ? " (sum saturated)" : "");
	d1_fmt_s(&o, "  percentile: nearest rank, smallest v with >= ceil(q*N) samples <= v;\n"
	             "  ns = counts * 1e9 / clock_hz rounded to nearest 0.001 ns.\n");
	if (s.overflow) {
		d1_fmt_s(&o, "  * in an overflow bucket: the bucket's upper bound, not exact.\n");
	}
	return finish(&o, written);
}

static void json_key(struct d1_fmt *o, const char *key)
{
	d1_fmt_s(o, ",\"");
	d1_fmt_s(o, key);
	d1_fmt_s(o, "\":");
}

d1_err_t d1_lat_report_json(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written)
{
	struct d1_lat_summary s;
	struct d1_fmt o;
	d1_err_t err;
	uint32_t i;

	err = begin(&o, r, &meta, buf, len, &s);
	if (err != D1_OK) {
		return err;
	}
	d1_fmt_s(&o, "{\"tool\":\"d1lat\",\"format\":1");
	json_key(&o, "os");
	put_json_str(&o, or_unknown(meta->os));
	json_key(&o, "board");
	put_json_str(&o, or_unknown(meta->board));
	json_key(&o, "clock_hz");
	d1_fmt_u64(&o, s.clock_hz);
	json_key(&o, "period_ns");
	d1_fmt_u64(&o, meta->period_ns);
	json_key(&o, "samples");
	d1_fmt_u64(&o, s.samples);
	json_key(&o, "missed");
	d1_fmt_u64(&o, s.missed);
	json_key(&o, "load");
	put_json_str(&o, or_unknown(meta->load));
	json_key(&o, "resolution_ns");
	put_ns3(&o, s.resolution_ps);
	json_key(&o, "exact_max_ns");
	put_ns3(&o, s.exact_max_ps);
	json_key(&o, "min_ns");
	put_ns3(&o, s.min_ps);
	for (i = 0; i < D1_LAT_NPCT; i++) {
		json_key(&o, pct_key[i]);
		put_ns3(&o, s.pct_ps[i]);
	}
	json_key(&o, "max_ns");
	put_ns3(&o, s.max_ps);
	json_key(&o, "mean_ns");
	put_ns3(&o, s.mean_ps);
	json_key(&o, "overflow");
	d1_fmt_s(&o, s.overflow ? "true" : "false");
	json_key(&o, "overflow_fields");
	d1_fmt_c(&o, '[');
	{
		bool first = true;

		for (i = 0; i < D1_LAT_NPCT; i++) {
			if (s.pct_overflow[i]) {
				if (!first) {
					d1_fmt_c(&o, ',');
				}
				d1_fmt_c(&o, '"');
				d1_fmt_s(&o, pct_key[i]);
				d1_fmt_c(&o, '"');
				first = false;
			}
		}
	}
	d1_fmt_c(&o, ']');
	json_key(&o, "above_range");
	d1_fmt_u64(&o, s.overflow_samples);
	json_key(&o, "saturated");
	d1_fmt_u64(&o, s.saturated);
	json_key(&o, "mean_saturated");
	d1_fmt_s(&o, s.mean_saturated ? "true" : "false");
	d1_fmt_s(&o, "}\n");
	return finish(&o, written);
}
