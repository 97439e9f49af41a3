/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the latency recorder (d1/latency.h) - init, reset,
 * record, missed, merge (also into itself, which doubles: bins reach their
 * UINT32_MAX ceiling quickly), percentiles, summary, bucket mapping, the
 * binary-free JSON dump. Invariants after every call: the recorder's
 * totals equal the samples fed (sum of the bins + lost = fed, saturating),
 * summary samples = fed, saturated = lost, max = the largest value fed,
 * missed = the periods fed (saturating), percentiles ordered and within
 * [min, max], every value inside the bounds of its bucket, a rejected init
 * or merge leaves the recorder untouched, the dump is one line of at most
 * 64-byte pieces, ASCII, ending in a newline.
 */
#include <string.h>

#include "d1/latency.h"
#include "fuzz_common.h"

struct shadow {
	unsigned __int128 fed; /* samples fed since init/reset (merges add) */
	unsigned __int128 missed;
	uint32_t max;
	bool any;
	bool inited;
};

static struct d1_lat rec[2];
static struct shadow sh[2];
static char dump_buf[65536];
static size_t dump_len;
static bool dump_bad_piece;

static void put(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (n == 0u || n > 64u) {
		dump_bad_piece = true;
	}
	if (dump_len + n < sizeof(dump_buf)) {
		memcpy(dump_buf + dump_len, s, n);
	}
	dump_len += n;
}

static uint64_t sat64(unsigned __int128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* The totals after every call; the summary (O(bins) per percentile) when
 * @p full. */
static void check(unsigned k, bool full)
{
	const struct d1_lat *r = &rec[k];
	const struct shadow *s = &sh[k];
	unsigned __int128 held = 0;
	struct d1_lat_summary sum;
	uint32_t prev = 0;

	if (!s->inited) {
		return;
	}
	for (uint32_t i = 0; i <= D1_LAT_NBINS; i++) {
		held += r->bins[i];
	}
	/* Self-merges get past 2^63 samples: a merge stops lost at
	 * D1_LAT_LOST_SAT (docs/latency.md), so from there the totals are a
	 * saturated count: at least the cap, never wrapped (a record's lost++
	 * once wrapped a lost saturated at UINT64_MAX to 0). */
	if (s->fed > D1_LAT_LOST_SAT) {
		FZ_CHECK(held + r->lost >= D1_LAT_LOST_SAT,
		         "recorder %u: bins %llu + lost %llu below the saturation of %llu fed", k,
		         (unsigned long long)held, (unsigned long long)r->lost,
		         (unsigned long long)(s->fed > UINT64_MAX ? UINT64_MAX : s->fed));
		return;
	}
	FZ_CHECK(held + r->lost == s->fed, "recorder %u: bins %llu + lost %llu, fed %llu", k,
	         (unsigned long long)held, (unsigned long long)r->lost, (unsigned long long)s->fed);
	FZ_CHECK(r->max == (s->any ? s->max : 0u), "recorder %u: max %u, fed max %u", k, r->max,
	         s->max);
	FZ_CHECK(r->missed == sat64(s->missed), "recorder %u: missed %llu", k,
	         (unsigned long long)r->missed);
	FZ_CHECK(r->reserved == 0u, "reserved is %u", r->reserved);
	if (!full) {
		return;
	}
	FZ_CHECK(d1_lat_summarize(r, &sum) == D1_OK, "summarize failed");
	FZ_CHECK(sum.samples == sat64(s->fed) && sum.saturated == r->lost,
	         "summary: samples %llu saturated %llu, fed %llu", (unsigned long long)sum.samples,
	         (unsigned long long)sum.saturated, (unsigned long long)sat64(s->fed));
	FZ_CHECK(sum.max == (held != 0u ? r->max : 0u) && sum.min <= sum.max,
	         "summary min %u max %u", sum.min, sum.max);
	for (unsigned i = 0; i < D1_LAT_NPCT; i++) {
		FZ_CHECK(sum.pct[i] >= prev && sum.pct[i] <= sum.max && sum.pct[i] >= sum.min,
		         "percentile %u is %u (min %u, max %u, previous %u)", i, sum.pct[i],
		         sum.min, sum.max, prev);
		prev = sum.pct[i];
	}
	FZ_CHECK(sum.overflow == r->bins[D1_LAT_OVERFLOW], "overflow count");
}

static uint32_t pick_value(struct fz_in *in)
{
	static const uint32_t tab[] = {
	        0u,      1u,         1023u,           1024u,      1025u,       131071u,
	        131072u, D1_LAT_TOP, D1_LAT_TOP + 1u, UINT32_MAX, 0x80000000u, 2047u};

	return fz_pick32(in, tab, sizeof(tab) / sizeof(tab[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in;
	unsigned nops = 0;

	fz_in_init(&in, data, size);
	memset(sh, 0, sizeof(sh));
	memset(rec, 0, sizeof(rec));
	for (unsigned k = 0; k < 2u; k++) {
		(void)d1_lat_init(&rec[k], 24000000u);
		sh[k].inited = true;
	}
	while (fz_more(&in)) {
		uint8_t op = fz_u8(&in) % 14u;
		unsigned k = fz_u8(&in) & 1u;
		struct d1_lat *r = &rec[k];

		switch (op) {
		case 0: { /* init: a rejected one leaves the recorder untouched */
			static struct d1_lat before;
			uint32_t hz =
			        fz_pick32(&in, (const uint32_t[]){24000000u, 1000u, 999u, 0u}, 4u);
			d1_err_t e;

			before = *r;
			e = d1_lat_init(fz_u8(&in) < 8u ? NULL : r, hz);
			if (e == D1_OK) {
				sh[k] = (struct shadow){.inited = true};
			} else {
				FZ_CHECK(memcmp(&before, r, sizeof(before)) == 0,
				         "rejected init wrote");
				FZ_CHECK(hz < D1_LAT_CLOCK_MIN_HZ || e == D1_EINVAL, "init(%u) %s",
				         hz, d1_strerror(e));
			}
			break;
		}
		case 1:
			d1_lat_reset(r);
			d1_lat_reset(NULL);
			sh[k].fed = 0;
			sh[k].missed = 0;
			sh[k].max = 0;
			sh[k].any = false;
			break;
		case 2:
		case 3:
		case 4: { /* samples */
			uint32_t v = pick_value(&in);
			unsigned n = 1u + fz_u8(&in) % 8u;
			uint32_t lo, hi, idx = d1_lat_bucket_index(v);

			for (unsigned i = 0; i < n; i++) {
				d1_lat_record(r, v);
			}
			d1_lat_record(NULL, v);
			sh[k].fed += n;
			sh[k].max = v > sh[k].max ? v : sh[k].max;
			sh[k].any = true;
			d1_lat_bucket_bounds(idx, &lo, &hi);
			FZ_CHECK(idx <= D1_LAT_OVERFLOW && lo <= v && v <= hi,
			         "value %u in bucket %u [%u, %u]", v, idx, lo, hi);
			FZ_CHECK(v == 0u || d1_lat_bucket_index(v - 1u) <= idx,
			         "buckets not ordered");
			break;
		}
		case 5: {
			uint32_t n = fz_u32(&in);

			d1_lat_missed(r, n);
			d1_lat_missed(NULL, n);
			sh[k].missed += n;
			break;
		}
		case 6:
		case 7: { /* merge, also into itself */
			unsigned j = fz_u8(&in) & 1u;
			static struct d1_lat before;
			d1_err_t e;
			bool nul = fz_u8(&in) < 8u;

			before = rec[k];
			e = d1_lat_merge(r, nul ? NULL : &rec[j]);
			if (e == D1_OK) {
				sh[k].fed += sh[j].fed; /* j == k: doubles */
				sh[k].missed += sh[j].missed;
				if (sh[j].any) {
					sh[k].max = sh[j].max > sh[k].max ? sh[j].max : sh[k].max;
					sh[k].any = true;
				}
			} else {
				FZ_CHECK(memcmp(&before, r, sizeof(before)) == 0,
				         "rejected merge wrote");
				FZ_CHECK(nul || rec[j].clock_hz != r->clock_hz, "merge refused: %s",
				         d1_strerror(e));
			}
			break;
		}
		case 8: {
			uint32_t q = fz_u32(&in) % 1100000u;
			uint32_t q2 = q + fz_u16(&in);
			bool a;

			FZ_CHECK(d1_lat_percentile(r, q, &a) <= d1_lat_percentile(r, q2, NULL),
			         "percentile not monotonic (%u, %u)", q, q2);
			FZ_CHECK(d1_lat_percentile(NULL, q, &a) == 0u, "percentile of NULL");
			break;
		}
		case 9: {
			uint64_t c = fz_u64(&in);
			uint64_t ps = d1_lat_counts_to_ps(r, c);

			FZ_CHECK(c == 0u || ps >= d1_lat_counts_to_ps(r, c - 1u),
			         "counts_to_ps order");
			break;
		}
		case 10: { /* the dump */
			struct d1_lat_meta meta = {
			        .os = "os\"\\\x01",
			        .board = NULL,
			        .load = "load",
			        .period_ns = fz_u64(&in),
			        .measurement = "task-wakeup",
			        .wake = "\x7f\xc3\xa9\"",
			};

			dump_len = 0;
			dump_bad_piece = false;
			FZ_CHECK(d1_lat_dump(r, fz_bool(&in) ? &meta : NULL, put, NULL) == D1_OK,
			         "dump failed");
			FZ_CHECK(!dump_bad_piece, "a dump piece of 0 or more than 64 bytes");
			FZ_CHECK(dump_len > 1u && dump_len < sizeof(dump_buf) &&
			                 dump_buf[dump_len - 1u] == '\n',
			         "the dump is not one line");
			for (size_t i = 0; i + 1u < dump_len; i++) {
				FZ_CHECK(dump_buf[i] >= 0x20 && (uint8_t)dump_buf[i] < 0x80u,
				         "dump byte 0x%02x at %zu", (unsigned)(uint8_t)dump_buf[i],
				         i);
			}
			FZ_CHECK(d1_lat_dump(NULL, NULL, put, NULL) == D1_EINVAL &&
			                 d1_lat_dump(r, NULL, NULL, NULL) == D1_EINVAL,
			         "dump of NULL");
			break;
		}
		case 11:
			break; /* the full check below */
		default: {
			struct d1_lat_summary s;

			FZ_CHECK(d1_lat_summarize(NULL, &s) == D1_EINVAL &&
			                 d1_lat_summarize(r, NULL) == D1_EINVAL,
			         "summarize(NULL)");
			break;
		}
		}
		check(k, op == 11u); /* the one recorder the call changed */
		if (++nops == 32u) {
			break; /* a bounded input: every check is O(bins) */
		}
	}
	check(0, true);
	check(1, true);
	return 0;
}
