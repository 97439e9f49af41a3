/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Internal (not installed): a bounded string writer into a caller buffer,
 * shared by the drivers' text formatters (wdt.c, latency.c). Freestanding,
 * no libc, no state outside the caller's struct d1_fmt.
 *
 * The buffer always holds a NUL-terminated prefix of the full text: a
 * character is stored only when it and the NUL fit; anything that does not
 * fit is dropped and remembered in `full`, so the caller can report
 * D1_ERANGE with a clean, terminated prefix in the buffer.
 */
#ifndef D1_SRC_FMT_H
#define D1_SRC_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct d1_fmt {
	char *buf;  /* caller buffer */
	size_t len; /* capacity including the NUL, > 0 */
	size_t pos; /* characters stored (buf[pos] is the NUL) */
	bool full;  /* something did not fit */
};

/* Start an empty text in @buf of @len bytes (@buf != NULL, @len > 0). */
static inline void d1_fmt_init(struct d1_fmt *f, char *buf, size_t len)
{
	f->buf = buf;
	f->len = len;
	f->pos = 0u;
	f->full = false;
	buf[0] = '\0';
}

static inline void d1_fmt_c(struct d1_fmt *f, char c)
{
	if (f->pos + 1u < f->len) {
		f->buf[f->pos++] = c;
		f->buf[f->pos] = '\0';
	} else {
		f->full = true;
	}
}

static inline void d1_fmt_s(struct d1_fmt *f, const char *s)
{
	while (*s != '\0') {
		d1_fmt_c(f, *s++);
	}
}

/* Decimal digits of @v into @d (least significant first); returns count. */
static inline unsigned d1_fmt_digits(uint64_t v, char d[20])
{
	unsigned n = 0;

	do {
		d[n++] = (char)('0' + (int)(v % 10u));
		v /= 10u;
	} while (v != 0u);
	return n;
}

/* Number of decimal digits of @v. */
static inline size_t d1_fmt_u64_width(uint64_t v)
{
	char d[20];

	return d1_fmt_digits(v, d);
}

/* @v in decimal, no padding. */
static inline void d1_fmt_u64(struct d1_fmt *f, uint64_t v)
{
	char d[20];
	unsigned n = d1_fmt_digits(v, d);

	while (n > 0u) {
		d1_fmt_c(f, d[--n]);
	}
}

/*
 * One byte of a JSON string into @e (no quotes): \" \\, and \u00XX for
 * control bytes and every byte >= 0x80 (taken as U+0080 .. U+00FF), so the
 * text stays ASCII and therefore valid UTF-8. Returns the length (1, 2, 6).
 */
static inline size_t d1_fmt_json_char(unsigned char c, char e[6])
{
	static const char hex[] = "0123456789abcdef";

	if (c == '"' || c == '\\') {
		e[0] = '\\';
		e[1] = (char)c;
		return 2u;
	}
	if (c < 0x20u || c >= 0x80u) {
		e[0] = '\\';
		e[1] = 'u';
		e[2] = '0';
		e[3] = '0';
		e[4] = hex[c >> 4];
		e[5] = hex[c & 0xFu];
		return 6u;
	}
	e[0] = (char)c;
	return 1u;
}

#endif /* D1_SRC_FMT_H */
