/* SPDX-License-Identifier: Apache-2.0 */
/* Console output and a small printf subset (no floating point, no heap). */
#include <stddef.h>

#include "bm.h"
#include "bm_sbi.h"
#include "d1/mmio.h"

static bm_putc_t console_putc;
static void (*console_flush)(void);

void bm_console_set(bm_putc_t putc, void (*flush)(void))
{
	console_putc = putc;
	console_flush = flush;
}

void bm_putc(char c)
{
	if (console_putc != NULL) {
		if (c == '\n') {
			console_putc('\r');
		}
		console_putc(c);
	} else {
		if (c == '\n') {
			bm_sbi_putchar('\r');
		}
		bm_sbi_putchar(c);
	}
}

void bm_puts(const char *s)
{
	while (*s != '\0') {
		bm_putc(*s++);
	}
}

static void put_u64(uint64_t v, unsigned base, unsigned width, char pad)
{
	char buf[24];
	unsigned n = 0;
	do {
		unsigned d = (unsigned)(v % base);
		buf[n++] = (char)(d < 10u ? '0' + d : 'a' + d - 10u);
		v /= base;
	} while (v != 0u);
	while (width > n) {
		bm_putc(pad);
		width--;
	}
	while (n > 0u) {
		bm_putc(buf[--n]);
	}
}

void bm_vprintf(const char *fmt, va_list ap)
{
	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			bm_putc(*fmt);
			continue;
		}
		fmt++;
		char pad = ' ';
		unsigned width = 0;
		unsigned lng = 0;
		if (*fmt == '0') {
			pad = '0';
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9') {
			width = width * 10u + (unsigned)(*fmt - '0');
			fmt++;
		}
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			bm_puts(s != NULL ? s : "(null)");
			break;
		}
		case 'c':
			bm_putc((char)va_arg(ap, int));
			break;
		case 'd': {
			int64_t v = lng != 0u ? (int64_t)va_arg(ap, long) : va_arg(ap, int);
			uint64_t mag = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
			if (v < 0) {
				bm_putc('-');
				width = width > 0u ? width - 1u : 0u;
			}
			put_u64(mag, 10u, width, pad);
			break;
		}
		case 'u':
		case 'x': {
			uint64_t v = lng != 0u ? (uint64_t)va_arg(ap, unsigned long)
			                       : va_arg(ap, unsigned);
			put_u64(v, *fmt == 'x' ? 16u : 10u, width, pad);
			break;
		}
		case '%':
			bm_putc('%');
			break;
		default:
			bm_putc('%');
			bm_putc(*fmt);
			if (*fmt == '\0') {
				return;
			}
			break;
		}
	}
}

void bm_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bm_vprintf(fmt, ap);
	va_end(ap);
}

void bm_exit(int status)
{
	if (console_flush != NULL) {
		console_flush(); /* the last lines are still in the TX FIFO */
	}
#if defined(BM_PLATFORM_QEMU_VIRT)
	if (status != 0) {
		/*
		 * OpenSBI v1.1 (bundled with QEMU 7.2) turns every SRST shutdown into
		 * the test device's "pass" code, whatever the reason. For a non-zero
		 * exit status write the device directly (QEMU hw/misc/sifive_test.c:
		 * 0x3333 | code << 16 = FAIL, QEMU exits with `code`). OpenSBI's root
		 * domain leaves the address range open to S-mode.
		 */
		uint32_t code = (uint32_t)status & 0xFFFFu;
		d1_mmio_write32(BM_QEMU_TEST_BASE, 0x3333u | code << 16);
	}
#endif
	bm_sbi_shutdown(status != 0);
}

void bm_check(d1_err_t err, const char *what)
{
	if (err != D1_OK) {
		bm_printf("FAIL %s: %s\n", what, d1_strerror(err));
		bm_exit(1);
	}
}
