/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Latency recorder, read side: percentiles, merge, time conversion and the
 * text and JSON reports, for a host or for a device with a console and no
 * host tool. A separate object: a device that only records and dumps does
 * not link it. bench/tools/d1lat_dump.py computes the same report from a dump
 * with the same integer arithmetic. Definitions: d1/latency.h,
 * docs/latency.md.
 */
#include "d1/latency.h"

#include "fmt.h"
#include "latency_layout.h"

#define PPM      1000000u
#define PS_PER_S 1000000000000ull

/* Standard percentiles of the summary and the reports, ppm. */
static const uint32_t pct_ppm[D1_LAT_NPCT] = {500000u, 900000u, 990000u, 999000u, 999900u};
static const char *const pct_name[D1_LAT_NPCT] = {"p50", "p90", "p99", "p99.9", "p99.99"};
static const char *const pct_key[D1_LAT_NPCT] = {"p50_ns", "p90_ns", "p99_ns", "p999_ns",
                                                 "p9999_ns"};

/* ---- the histogram ---------------------------------------------------- */

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
 * The value reported for bucket @i: the bucket itself when it holds one
 * value, else the midpoint of lo .. min(hi, max) (all its samples are in
 * there), rounded down; for the overflow bin max. *approx: an estimate.
 */
static uint32_t estimate(const struct d1_lat *r, uint32_t i, bool *approx)
{
	uint32_t lo, hi;

	d1_lat_bin_bounds(i, &lo, &hi);
	hi = hi > r->max ? r->max : hi;
	lo = lo > hi ? hi : lo; /* not reached with consistent counters */
	*approx = lo != hi;
	if (i == D1_LAT_OVERFLOW) {
		return hi; /* above the top: max, an upper bound */
	}
	return lo + (hi - lo) / 2u;
}

/* ceil(q * n / 10^6), at least 1, without overflow: n = a * 10^6 + b. */
static uint64_t rank_of(uint64_t n, uint32_t q_ppm)
{
	uint64_t a = n / PPM, b = n % PPM;
	uint64_t rank = a * q_ppm + (b * q_ppm + (PPM - 1u)) / PPM;

	return rank == 0u ? 1u : rank;
}

/* Value of the sample of 1-based @rank (1 .. n) in sorted order. */
static uint32_t at_rank(const struct d1_lat *r, uint64_t rank, bool *approx)
{
	uint64_t cum = 0u;
	uint32_t i, lo, hi;

	for (i = 0; i < D1_LAT_NBINS; i++) {
		if (cum + r->bins[i] >= rank) {
			break;
		}
		cum += r->bins[i];
	}
	*approx = false;
	if (i < D1_LAT_EXACT) {
		return i;
	}
	/* The last sample of the bucket that holds max is max. */
	d1_lat_bin_bounds(i, &lo, &hi);
	if (rank == cum + r->bins[i] && lo <= r->max && r->max <= hi) {
		return r->max;
	}
	return estimate(r, i, approx);
}

static uint32_t percentile_of(const struct d1_lat *r, uint64_t n, uint32_t q_ppm, bool *approx)
{
	*approx = false;
	if (n == 0u) {
		return 0u;
	}
	return at_rank(r, rank_of(n, q_ppm > PPM ? PPM : q_ppm), approx);
}

uint32_t d1_lat_percentile(const struct d1_lat *r, uint32_t q_ppm, bool *approx)
{
	bool flag = false;
	uint32_t v = 0u;

	if (r != NULL) {
		v = percentile_of(r, held(r), q_ppm, &flag);
	}
	if (approx != NULL) {
		*approx = flag;
	}
	return v;
}

static uint64_t sat_add64(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* lost as a merge leaves it: a + b, but at most D1_LAT_LOST_SAT, or dst's
 * own count if that is already above it (its own samples recorded after an
 * earlier saturation: kept, never lowered). Any value at or above the cap
 * means "saturated"; no value wraps. */
static uint64_t sat_lost(uint64_t a, uint64_t b)
{
	uint64_t s = sat_add64(a, b);
	uint64_t cap = a > D1_LAT_LOST_SAT ? a : D1_LAT_LOST_SAT;

	return s > cap ? cap : s;
}

d1_err_t d1_lat_merge(struct d1_lat *dst, const struct d1_lat *src)
{
	uint64_t lost, missed;
	uint32_t i, mx;

	if (dst == NULL || src == NULL || dst->clock_hz != src->clock_hz) {
		return D1_EINVAL;
	}
	/* Read src's scalars before writing dst's (dst may be src). */
	lost = src->lost;
	missed = src->missed;
	mx = src->max;
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		uint32_t a = dst->bins[i], b = src->bins[i];
		uint32_t room = UINT32_MAX - a;

		dst->bins[i] = b < room ? a + b : UINT32_MAX;
		lost = sat_add64(lost, b < room ? 0u : b - room);
	}
	dst->lost = sat_lost(dst->lost, lost);
	dst->missed = sat_add64(dst->missed, missed);
	dst->max = mx > dst->max ? mx : dst->max;
	return D1_OK;
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

/* a * b for a < 2^128 / b (the caller's bound), low 128 bits. */
static struct u128 mul128(struct u128 a, uint64_t b)
{
	struct u128 r = mul64(a.lo, b);

	r.hi += a.hi * b;
	return r;
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
	struct u128 sum = {0u, 0u};
	uint64_t n;
	uint32_t i;
	bool a;

	if (r == NULL || s == NULL) {
		return D1_EINVAL;
	}
	n = held(r);
	s->samples = sat_add64(n, r->lost);
	s->missed = r->missed;
	s->saturated = r->lost;
	s->above_exact = 0u;
	s->overflow = r->bins[D1_LAT_OVERFLOW];
	s->clock_hz = r->clock_hz;
	s->mean_approx = false;
	for (i = 0; i <= D1_LAT_NBINS; i++) {
		struct u128 part;

		if (r->bins[i] == 0u) {
			continue;
		}
		part = mul64(i < D1_LAT_EXACT ? i : estimate(r, i, &a), r->bins[i]);
		sum = add128(sum, part);
		if (i >= D1_LAT_EXACT) {
			s->above_exact += r->bins[i];
			s->mean_approx = true;
		}
	}
	s->min = percentile_of(r, n, 0u, &s->min_approx);
	s->max = n == 0u ? 0u : r->max;
	s->approx = s->min_approx;
	for (i = 0; i < D1_LAT_NPCT; i++) {
		s->pct[i] = percentile_of(r, n, pct_ppm[i], &s->pct_approx[i]);
		s->pct_ps[i] = d1_lat_counts_to_ps(r, s->pct[i]);
		s->approx = s->approx || s->pct_approx[i];
	}
	s->resolution_ps = d1_lat_counts_to_ps(r, 1u);
	s->min_ps = d1_lat_counts_to_ps(r, s->min);
	s->max_ps = d1_lat_counts_to_ps(r, s->max);
	if (n == 0u || r->clock_hz == 0u) {
		s->mean_ps = 0u;
	} else {
		/* sum < 2^75 (1985 bins of < 2^32 samples of < 2^32): * 10^12 fits. */
		s->mean_ps = divround128(mul128(sum, PS_PER_S), mul64(n, r->clock_hz));
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

static void put_json_str(struct d1_fmt *o, const char *s)
{
	char e[6];

	d1_fmt_c(o, '"');
	for (; *s != '\0'; s++) {
		size_t n = d1_fmt_json_char((unsigned char)*s, e);

		for (size_t i = 0; i < n; i++) {
			d1_fmt_c(o, e[i]);
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
	static const struct d1_lat_meta none; /* every string NULL ("unknown"), period 0 */

	if (r == NULL || buf == NULL || len == 0u) {
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
                     uint64_t ps, bool approx)
{
	d1_fmt_s(o, "  ");
	put_left(o, name, 8u);
	if (have_counts) {
		put_u64_right(o, counts, 12u);
	} else {
		put_left(o, "           -", 12u);
	}
	put_ns3_right(o, ps, 18u);
	d1_fmt_s(o, approx ? " ~\n" : "\n");
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
	text_kv(&o, "measurement");
	d1_fmt_s(&o, or_unknown(meta->measurement));
	d1_fmt_c(&o, '\n');
	text_kv(&o, "wake");
	d1_fmt_s(&o, or_unknown(meta->wake));
	d1_fmt_c(&o, '\n');
	if (meta->bench_instr_max != 0u) {
		text_kv(&o, "bench cost");
		d1_fmt_u64(&o, meta->bench_instr_min);
		d1_fmt_s(&o, " .. ");
		d1_fmt_u64(&o, meta->bench_instr_max);
		d1_fmt_s(&o, " instructions in the interrupt per sample (instret)\n");
	}
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
	text_kv(&o, "layout");
	d1_fmt_s(&o, "exact 0 .. 1023 counts, 64 buckets per octave to 33554431 (<= 0.79 %)\n");
	text_kv(&o, "above exact");
	d1_fmt_u64(&o, s.above_exact);
	d1_fmt_s(&o, " samples, ");
	d1_fmt_u64(&o, s.overflow);
	d1_fmt_s(&o, " above the top\n");
	text_kv(&o, "saturated");
	d1_fmt_u64(&o, s.saturated);
	d1_fmt_c(&o, '\n');
	d1_fmt_s(&o, "  stat          counts                ns\n");
	text_row(&o, "min", s.min, true, s.min_ps, s.min_approx);
	for (i = 0; i < D1_LAT_NPCT; i++) {
		text_row(&o, pct_name[i], s.pct[i], true, s.pct_ps[i], s.pct_approx[i]);
	}
	text_row(&o, "max", s.max, true, s.max_ps, false);
	text_row(&o, "mean", 0u, false, s.mean_ps, s.mean_approx);
	d1_fmt_s(&o, "  percentile: nearest rank, smallest v with >= ceil(q*N) samples <= v;\n"
	             "  ns = counts * 1e9 / clock_hz rounded to nearest 0.001 ns.\n");
	if (s.approx || s.mean_approx) {
		d1_fmt_s(&o, "  ~ bucket estimate: within 0.79 % below the top, an upper bound "
		             "above.\n");
	}
	return finish(&o, written);
}

static void json_key(struct d1_fmt *o, const char *key)
{
	d1_fmt_s(o, ",\"");
	d1_fmt_s(o, key);
	d1_fmt_s(o, "\":");
}

static void json_name(struct d1_fmt *o, const char *key, bool *first)
{
	if (!*first) {
		d1_fmt_c(o, ',');
	}
	d1_fmt_c(o, '"');
	d1_fmt_s(o, key);
	d1_fmt_c(o, '"');
	*first = false;
}

d1_err_t d1_lat_report_json(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written)
{
	struct d1_lat_summary s;
	struct d1_fmt o;
	d1_err_t err;
	uint32_t i;
	bool first = true;

	err = begin(&o, r, &meta, buf, len, &s);
	if (err != D1_OK) {
		return err;
	}
	d1_fmt_s(&o, "{\"tool\":\"d1lat\",\"format\":3");
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
	json_key(&o, "measurement");
	put_json_str(&o, or_unknown(meta->measurement));
	json_key(&o, "wake");
	put_json_str(&o, or_unknown(meta->wake));
	if (meta->bench_instr_max != 0u) {
		json_key(&o, "bench_instr_min");
		d1_fmt_u64(&o, meta->bench_instr_min);
		json_key(&o, "bench_instr_max");
		d1_fmt_u64(&o, meta->bench_instr_max);
	}
	json_key(&o, "resolution_ns");
	put_ns3(&o, s.resolution_ps);
	json_key(&o, "exact_max_ns");
	put_ns3(&o, d1_lat_counts_to_ps(r, D1_LAT_EXACT - 1u));
	json_key(&o, "top_ns");
	put_ns3(&o, d1_lat_counts_to_ps(r, D1_LAT_TOP));
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
	json_key(&o, "approx");
	d1_fmt_s(&o, s.approx || s.mean_approx ? "true" : "false");
	json_key(&o, "approx_fields");
	d1_fmt_c(&o, '[');
	if (s.min_approx) {
		json_name(&o, "min_ns", &first);
	}
	for (i = 0; i < D1_LAT_NPCT; i++) {
		if (s.pct_approx[i]) {
			json_name(&o, pct_key[i], &first);
		}
	}
	if (s.mean_approx) {
		json_name(&o, "mean_ns", &first);
	}
	d1_fmt_c(&o, ']');
	json_key(&o, "above_exact");
	d1_fmt_u64(&o, s.above_exact);
	json_key(&o, "above_top");
	d1_fmt_u64(&o, s.overflow);
	json_key(&o, "saturated");
	d1_fmt_u64(&o, s.saturated);
	d1_fmt_s(&o, "}\n");
	return finish(&o, written);
}
