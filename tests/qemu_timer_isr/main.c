/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Executed instructions of d1_timer_isr() per path, counted by QEMU virt
 * with -icount shift=0 through instret (tests/bench_timer_isr_qemu.sh). The
 * driver is the d1 build's libd1drivers.a (fenced seam, -Os); its "timer"
 * is a RAM window, so only the instruction stream is measured, not bus time.
 * Prints one line per path and exits through the virt test finisher.
 */
#include <stddef.h>
#include <stdint.h>

#include "d1/latency.h"
#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/timer.h"

uint64_t measure_call(uint32_t (*fn)(struct d1_timer *), struct d1_timer *arg);
uint32_t stub_ret(struct d1_timer *t);
uint64_t measure_call2(void (*fn)(struct d1_lat *, uint32_t), struct d1_lat *r, uint32_t v);

void d1_port_delay_us(uint32_t us)
{
	(void)us;
}

uintptr_t d1_port_critical_enter(void)
{
	return 0;
}

void d1_port_critical_exit(uintptr_t state)
{
	(void)state;
}

/* GCC may emit these for struct copies in the library. */
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	while (n-- > 0) {
		*p++ = (unsigned char)c;
	}
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	while (n-- > 0) {
		*p++ = *q++;
	}
	return d;
}

#if defined(HARNESS_D1)
/* -M allwinner-d1 (emu/): UART0 (DW APB, 32-bit registers, set up by its
 * OpenSBI). The finisher write below hits nothing there: the script stops
 * QEMU once PASS is printed. */
#define UART_THR ((volatile uint32_t *)0x02500000u)
#define UART_LSR ((volatile uint32_t *)0x02500014u)
#else
#define UART_THR ((volatile uint8_t *)0x10000000u)
#endif
#define FINISHER ((volatile uint32_t *)0x100000u)

/* D1: wait for LSR.THRE before each byte (without it the output on the
 * emulated D1 came out incomplete). */
static void uart_wait(void)
{
#if defined(HARNESS_D1)
	while ((*UART_LSR & 0x20u) == 0u) { /* LSR.THRE (d1/uart_regs.h) */
	}
#endif
}

static void put_s(const char *s)
{
	while (*s != '\0') {
		uart_wait();
		*UART_THR = (uint8_t)*s++;
	}
}

static void put_u(uint64_t v)
{
	char b[24];
	int i = 0;
	do {
		b[i++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0u);
	while (i > 0) {
		uart_wait();
		*UART_THR = (uint8_t)b[--i];
	}
}

static volatile uint32_t fake[16] __attribute__((aligned(64))); /* Timer window */

static void report(const char *what, struct d1_timer *t, uint64_t stub)
{
	uint64_t n = measure_call(d1_timer_isr, t) - (stub - 1u);
	put_s("ISR ");
	put_s(what);
	put_s(": ");
	put_u(n);
	put_s(" instructions\n");
}

static struct d1_lat lat;

/* d1_lat_record() on each of its paths (<= 30 instructions on every path). */
static void report_lat(const char *what, uint32_t v, uint64_t stub)
{
	uint64_t n = measure_call2(d1_lat_record, &lat, v) - (stub - 1u);
	put_s("LAT_RECORD ");
	put_s(what);
	put_s(": ");
	put_u(n);
	put_s(" instructions\n");
}

static void lat_paths(uint64_t stub)
{
	if (d1_lat_init(&lat, D1_OSC24M_HZ) != D1_OK) {
		put_s("FAIL d1_lat_init\n");
		*FINISHER = 0x3333u;
	}
	report_lat("exact (< 1024), new max", 500u, stub);
	report_lat("exact (< 1024), not a max", 400u, stub);
	report_lat("log-linear (< 2^17)", 70000u, stub);
	report_lat("log-linear (< 2^25)", 5000000u, stub);
	report_lat("overflow (> D1_LAT_TOP)", 0xFFFFFFFFu, stub);
	lat.bins[400] = UINT32_MAX;
	report_lat("saturated bin (lost++)", 400u, stub);
	if (lat.lost != 1u || lat.bins[D1_LAT_OVERFLOW] != 1u || lat.max != 0xFFFFFFFFu) {
		put_s("FAIL d1_lat_record counters\n");
		*FINISHER = 0x3333u;
	}
}

int main(void)
{
	struct d1_timer t;
	uint64_t stub = measure_call(stub_ret, NULL); /* 1 instruction: ret */

	put_s("calibration: a 1-instruction function measures ");
	put_u(stub);
	put_s("\n");
	if (d1_timer_init(&t, (uintptr_t)fake, 1, D1_OSC24M_HZ, D1_LOSC_HZ) != D1_OK ||
	    d1_timer_set_period_clocks(&t, 24000, NULL) != D1_OK) {
		put_s("FAIL init\n");
		*FINISHER = 0x3333u;
	}
	/* State as after d1_timer_start(PERIODIC) of an exact 24,000 clocks
	 * (start itself would poll RELOAD, which RAM never clears). */
	t.running = true;
	t.mode = D1_TIMER_PERIODIC;
	t.cur_interval = t.next_interval = 23999u;
	t.tick_slow = false;
	fake[D1_TIMER_CUR_OFFSET(1) / 4u] = 23000u;
	fake[D1_TIMER_IRQ_STA_OFFSET / 4u] = 0u;
	report("spurious (no IRQ_STA bit)", &t, stub);
	fake[D1_TIMER_IRQ_STA_OFFSET / 4u] = t.irq_bit;
	report("exact period", &t, stub);
	/* fractional: 1 kHz from LOSC (32.768 clocks) */
	(void)d1_timer_set_clock(&t, D1_TIMER_SRC_LOSC, 0);
	t.running = false;
	(void)d1_timer_set_period_hz(&t, 1000, NULL);
	t.running = true;
	t.cur_interval = t.next_interval = 31u;
	t.tick_slow = true;
	fake[D1_TIMER_CUR_OFFSET(1) / 4u] = 20u;
	report("fractional period", &t, stub);
	t.mode = D1_TIMER_ONESHOT;
	report("one-shot expiry", &t, stub);
	lat_paths(stub);
	put_s("PASS timer_isr_icount\n");
#if defined(HARNESS_D1)
	while ((*UART_LSR & 0x40u) == 0u) { /* LSR.TEMT: all sent before the end */
	}
#endif
	*FINISHER = 0x5555u;
	for (;;) {
	}
}
