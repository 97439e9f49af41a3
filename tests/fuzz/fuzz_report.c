/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the reports - d1_lat_report_json(), d1_lat_report_text()
 * (latency_report.c) and d1_wdt_format_state() (wdt_format.c) - with
 * recorders built from the input, arbitrary meta strings (any byte but NUL:
 * quotes, backslashes, control and non-ASCII bytes), NULL meta and strings,
 * arbitrary watchdog states, and every buffer size. Invariants: a NULL or
 * empty buffer is refused and left untouched; the result is D1_OK exactly
 * when the whole text fits, D1_ERANGE otherwise, and the buffer then holds
 * the longest prefix of the whole text that fits, NUL-terminated, with
 * written = its length; D1_LAT_REPORT_SIZE holds either report when the
 * five meta strings total <= 256 bytes and D1_WDT_STATE_STR_MAX holds every state
 * d1_wdt_get_state() can return (their documentation); the JSON report is
 * one line of ASCII without control characters, a valid JSON object whose strings decode
 * back to the meta strings and whose samples/missed/saturated equal the
 * summary.
 */
#include <string.h>

#include "d1/latency.h"
#include "d1/wdt.h"
#include "fuzz_common.h"

#define BIG 65536u

static struct d1_lat rec;
static char full[BIG];
static char part[BIG];

/* --- a small JSON checker: the grammar of RFC 8259 (no depth > 4 needed) --- */

struct js {
	const char *p;
	const char *end;
};

static void ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) {
		j->p++;
	}
}

static int hexv(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                              : -1;
}

/* A string; decoded into @p out (code points < 256 only) when non-NULL. */
static bool jstring(struct js *j, char *out, size_t cap, size_t *n)
{
	size_t k = 0;

	if (j->p >= j->end || *j->p != '"') {
		return false;
	}
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		unsigned c = (unsigned char)*j->p++;

		if (c < 0x20u) {
			return false;
		}
		if (c == '\\') {
			char e;

			if (j->p >= j->end) {
				return false;
			}
			e = *j->p++;
			if (e == 'u') {
				int v = 0;

				for (int i = 0; i < 4; i++) {
					int h = j->p < j->end ? hexv(*j->p++) : -1;
					if (h < 0) {
						return false;
					}
					v = v * 16 + h;
				}
				c = (unsigned)v;
			} else {
				const char *m = strchr("\"\\/bfnrt", e);
				if (m == NULL || e == '\0') {
					return false;
				}
				c = (unsigned char)"\"\\/\b\f\n\r\t"[m - "\"\\/bfnrt"];
			}
		}
		if (out != NULL && k < cap) {
			out[k] = (char)c;
		}
		k++;
	}
	if (j->p >= j->end) {
		return false;
	}
	j->p++;
	if (n != NULL) {
		*n = k;
	}
	return true;
}

static bool jnumber(struct js *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-') {
		j->p++;
	}
	if (j->p >= j->end || *j->p < '0' || *j->p > '9') {
		return false;
	}
	if (*j->p == '0') {
		j->p++;
	} else {
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
			j->p++;
		}
	}
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9') {
			return false;
		}
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
			j->p++;
		}
	}
	return j->p > s;
}

static bool jvalue(struct js *j, int depth);

static bool jarray(struct js *j, int depth)
{
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return true;
	}
	for (;;) {
		if (!jvalue(j, depth + 1)) {
			return false;
		}
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return true;
		}
		return false;
	}
}

static bool jvalue(struct js *j, int depth)
{
	ws(j);
	if (depth > 4 || j->p >= j->end) {
		return false;
	}
	switch (*j->p) {
	case '"':
		return jstring(j, NULL, 0, NULL);
	case '[':
		return jarray(j, depth);
	case 't':
		j->p += 4;
		return j->p <= j->end && memcmp(j->p - 4, "true", 4) == 0;
	case 'f':
		j->p += 5;
		return j->p <= j->end && memcmp(j->p - 5, "false", 5) == 0;
	default:
		return jnumber(j);
	}
}

/* The top-level object: every member checked; the meta strings decoded
 * and compared; samples/missed/saturated compared. */
static void check_json(const char *s, size_t n, const struct d1_lat_meta *meta,
                       const struct d1_lat_summary *sum)
{
	struct js j = {s, s + n};
	char key[64];
	static char val[4096];
	size_t kn, vn;
	unsigned seen = 0;

	FZ_CHECK(n > 2u && s[n - 1u] == '\n', "the JSON report does not end in one newline");
	for (size_t i = 0; i + 1u < n; i++) {
		/* ASCII (latency.h), no control character (RFC 8259; DEL is allowed) */
		FZ_CHECK(s[i] >= 0x20 && (uint8_t)s[i] < 0x80u, "JSON byte 0x%02x at %zu",
		         (unsigned)(uint8_t)s[i], i);
	}
	j.end = s + n - 1u;
	FZ_CHECK(*j.p == '{', "not an object");
	j.p++;
	for (;;) {
		const char *v0;

		ws(&j);
		FZ_CHECK(jstring(&j, key, sizeof(key) - 1u, &kn) && kn < sizeof(key),
		         "bad key at %td", j.p - s);
		key[kn] = '\0';
		ws(&j);
		FZ_CHECK(j.p < j.end && *j.p == ':', "no ':' after \"%s\"", key);
		j.p++;
		ws(&j);
		v0 = j.p;
		if (*j.p == '"') {
			const char *want = NULL;

			FZ_CHECK(jstring(&j, val, sizeof(val), &vn), "bad string for \"%s\"", key);
			if (strcmp(key, "os") == 0) {
				want = meta != NULL && meta->os != NULL ? meta->os : "unknown";
				seen |= 1u;
			} else if (strcmp(key, "board") == 0) {
				want = meta != NULL && meta->board != NULL ? meta->board
				                                           : "unknown";
				seen |= 2u;
			} else if (strcmp(key, "load") == 0) {
				want = meta != NULL && meta->load != NULL ? meta->load : "unknown";
				seen |= 4u;
			} else if (strcmp(key, "measurement") == 0) {
				want = meta != NULL && meta->measurement != NULL ? meta->measurement
				                                                 : "unknown";
				seen |= 64u;
			} else if (strcmp(key, "wake") == 0) {
				want = meta != NULL && meta->wake != NULL ? meta->wake : "unknown";
				seen |= 128u;
			}
			if (want != NULL) {
				FZ_CHECK(vn == strlen(want) && vn <= sizeof(val) &&
				                 memcmp(val, want, vn) == 0,
				         "\"%s\" does not decode to the meta string", key);
			}
		} else {
			FZ_CHECK(jvalue(&j, 1), "bad value for \"%s\" at %td", key, v0 - s);
			if (strcmp(key, "samples") == 0) {
				FZ_CHECK(strtoull(v0, NULL, 10) == sum->samples, "samples");
				seen |= 8u;
			} else if (strcmp(key, "missed") == 0) {
				FZ_CHECK(strtoull(v0, NULL, 10) == sum->missed, "missed");
				seen |= 16u;
			} else if (strcmp(key, "saturated") == 0) {
				FZ_CHECK(strtoull(v0, NULL, 10) == sum->saturated, "saturated");
				seen |= 32u;
			}
		}
		ws(&j);
		if (j.p < j.end && *j.p == ',') {
			j.p++;
			continue;
		}
		FZ_CHECK(j.p < j.end && *j.p == '}' && j.p + 1 == j.end, "object not closed");
		break;
	}
	FZ_CHECK(seen == 255u, "members missing (0x%x)", seen);
}

typedef d1_err_t (*report_fn)(const struct d1_lat *, const struct d1_lat_meta *, char *, size_t,
                              size_t *);

/* The full text, then the same call into a buffer of @p len bytes. */
static size_t check_prefix(report_fn fn, const struct d1_lat_meta *meta, size_t len,
                           const char *what)
{
	size_t wfull = 0, wpart = 12345;
	d1_err_t e = fn(&rec, meta, full, sizeof(full), &wfull);
	d1_err_t e2;

	FZ_CHECK(e == D1_OK && wfull == strlen(full), "%s into %u bytes: %s", what, BIG,
	         d1_strerror(e));
	memset(part, 0x5A, len + 1u);
	e2 = fn(&rec, meta, part, len, (len & 1u) != 0u ? &wpart : NULL);
	FZ_CHECK(e2 == (wfull < len ? D1_OK : D1_ERANGE), "%s into %zu bytes (needs %zu): %s", what,
	         len, wfull + 1u, d1_strerror(e2));
	{
		size_t keep = wfull < len ? wfull : len - 1u;

		FZ_CHECK(memcmp(part, full, keep) == 0 && part[keep] == '\0',
		         "%s into %zu bytes: not the prefix", what, len);
		FZ_CHECK((uint8_t)part[len] == 0x5Au, "%s wrote past its buffer", what);
		FZ_CHECK((len & 1u) == 0u || wpart == keep, "%s: written %zu, stored %zu", what,
		         wpart, keep);
	}
	return wfull;
}

static void fuzz_wdt_line(struct fz_in *in)
{
	static const char *const names[] = {"timer_wdt", "riscv_wdt", "r_wdog", "wdt?"};
	static char name[128];
	struct d1_wdt_state st;
	char buf[512];
	char small[512];
	size_t len = fz_u8(in) % 200u;
	uint8_t f = fz_u8(in);
	size_t nl = fz_u8(in) % 100u;
	d1_err_t e, e2;
	bool realistic;

	for (size_t i = 0; i < nl; i++) {
		name[i] = (char)(fz_u8(in) | 1u);
	}
	name[nl] = '\0';
	st = (struct d1_wdt_state){
	        .name = f % 8u < 4u    ? names[f % 4u]
	                : f % 8u == 4u ? NULL
	                               : name,
	        .running = (f & 8u) != 0u,
	        .timeout_ms = (f & 16u) != 0u ? fz_u32(in) : fz_u16(in) % 16001u,
	        .action = (enum d1_wdt_action)(fz_u8(in) % 4u),
	        .cfg_mode = fz_u8(in),
	        .interval_index = fz_u8(in),
	        .losc = (f & 32u) != 0u,
	        .irq_enabled = (f & 64u) != 0u,
	        .irq_pending = (f & 128u) != 0u,
	};
	/* what d1_wdt_get_state() can return: a real name, index <= 15, cfg <= 3,
	 * timeout <= 16000 ms (or unknown), action 0..2 */
	realistic = f % 8u < 3u && st.interval_index <= 15u && st.cfg_mode <= 3u &&
	            st.timeout_ms <= 16500u && (unsigned)st.action <= 2u;
	e = d1_wdt_format_state(&st, buf, sizeof(buf));
	FZ_CHECK(e == D1_OK && strlen(buf) < sizeof(buf), "the state line into 512 bytes: %s",
	         d1_strerror(e));
	if (realistic) {
		FZ_CHECK(strlen(buf) < D1_WDT_STATE_STR_MAX, "a state line of %zu bytes (max %u)",
		         strlen(buf), D1_WDT_STATE_STR_MAX);
	}
	if (len == 0u) {
		FZ_CHECK(d1_wdt_format_state(&st, small, 0u) == D1_EINVAL &&
		                 d1_wdt_format_state(NULL, small, 8u) == D1_EINVAL &&
		                 d1_wdt_format_state(&st, NULL, 8u) == D1_EINVAL,
		         "format_state accepted a NULL/empty argument");
		return;
	}
	memset(small, 0x5A, sizeof(small));
	e2 = d1_wdt_format_state(&st, small, len);
	FZ_CHECK(e2 == (strlen(buf) < len ? D1_OK : D1_ERANGE), "state line into %zu bytes: %s",
	         len, d1_strerror(e2));
	{
		size_t keep = strlen(buf) < len ? strlen(buf) : len - 1u;

		FZ_CHECK(memcmp(small, buf, keep) == 0 && small[keep] == '\0' &&
		                 (uint8_t)small[len] == 0x5Au,
		         "state line into %zu bytes: not the prefix", len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char os[1024], board[1024], load[1024], measurement[1024], wake[1024];
	char *const strs[5] = {os, board, load, measurement, wake};
	struct fz_in in;
	struct d1_lat_meta meta;
	struct d1_lat_summary sum;
	uint8_t how, nulls;
	size_t total = 0;
	size_t len;
	unsigned nsamp;

	fz_in_init(&in, data, size);
	how = fz_u8(&in);
	if ((how & 0x80u) != 0u) {
		fuzz_wdt_line(&in);
		return 0;
	}
	(void)d1_lat_init(&rec, (how & 1u) != 0u ? fz_u32(&in) | 1000u : 24000000u);
	nsamp = fz_u8(&in);
	for (unsigned i = 0; i < nsamp && fz_more(&in); i++) {
		uint8_t b = fz_u8(&in);
		uint32_t v = (b & 3u) == 0u ? fz_u32(&in) : (b & 3u) == 1u ? fz_u16(&in) : b;

		d1_lat_record(&rec, v);
	}
	for (unsigned i = 0; i < (how >> 4 & 7u); i++) {
		(void)d1_lat_merge(&rec, &rec); /* doubling: large counts */
	}
	d1_lat_missed(&rec, fz_u32(&in));
	for (unsigned k = 0; k < 5u; k++) {
		size_t n = fz_u8(&in) % 120u;

		if (fz_u8(&in) > 250u) {
			n = 1000u;
		}
		for (size_t i = 0; i < n; i++) {
			strs[k][i] = (char)(fz_u8(&in) % 255u + 1u); /* any byte but NUL */
		}
		strs[k][n] = '\0';
		total += n;
	}
	nulls = fz_u8(&in);
	meta = (struct d1_lat_meta){
	        .os = (how & 2u) != 0u ? NULL : os,
	        .board = board,
	        .load = (how & 4u) != 0u ? NULL : load,
	        .period_ns = fz_u64(&in),
	        .measurement = (nulls & 1u) != 0u ? NULL : measurement,
	        .wake = (nulls & 2u) != 0u ? NULL : wake,
	};
	len = fz_u16(&in) % (BIG - 1u);
	FZ_CHECK(d1_lat_summarize(&rec, &sum) == D1_OK, "summarize");

	/* JSON */
	{
		size_t n;

		FZ_CHECK(d1_lat_report_json(&rec, &meta, NULL, 10u, NULL) == D1_EINVAL &&
		                 d1_lat_report_json(NULL, &meta, part, 10u, NULL) == D1_EINVAL,
		         "json accepted NULL");
		part[0] = 'x';
		FZ_CHECK(d1_lat_report_json(&rec, &meta, part, 0u, NULL) == D1_EINVAL &&
		                 part[0] == 'x',
		         "json into 0 bytes");
		n = check_prefix(d1_lat_report_json, (how & 8u) != 0u ? NULL : &meta,
		                 len == 0u ? 1u : len, "json");
		check_json(full, n, (how & 8u) != 0u ? NULL : &meta, &sum);
		if (total <= 256u) {
			FZ_CHECK(n < D1_LAT_REPORT_SIZE, "json of %zu bytes with %zu bytes of meta",
			         n, total);
		}
	}
	/* text */
	{
		size_t n = check_prefix(d1_lat_report_text, &meta, len == 0u ? 1u : len, "text");

		if (total <= 256u) {
			FZ_CHECK(n < D1_LAT_REPORT_SIZE, "text of %zu bytes with %zu bytes of meta",
			         n, total);
		}
	}
	if (fz_more(&in)) {
		fuzz_wdt_line(&in); /* the rest of the input: a watchdog state */
	}
	return 0;
}
