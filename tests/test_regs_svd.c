/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every offset and field position the register headers define, checked
 * against the table extracted from the D1 SVD (tests/svd/d1_svd_table.csv,
 * made by tests/svd/extract_svd.py from the public d1-pac SVD,
 * d1_unofficial.svd; docs/hardware-facts.md "Sources").
 *
 * Blocks the SVD lacks: riscv_wdt (0x06011000) and R_WDOG (0x07020400) have
 * no SVD entry. Their register layout is the timer-block watchdog's
 * (docs/hardware-facts.md "Watchdogs": Linux binds all of them to one
 * sunxi_wdt driver with the same register table), so the watchdog offsets
 * are checked against the SVD's TIMER wdog_* registers minus the instance
 * offset 0xA0, and their bases are checked against the device-tree / U-Boot
 * values of docs/hardware-facts.md "Memory map and interrupts" below.
 *
 * Per-block expectation tables live in tests/svd/expect_<block>.inc,
 * generated with the headers by tests/svd/gen_regs.py from
 * tests/svd/regs.spec (ctest regs_generated_fresh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "d1/ccu_regs.h"
#include "d1/clint_regs.h"
#include "d1/memmap.h"
#include "d1/plic_regs.h"
#include "d1/timer_regs.h"
#include "d1/uart_regs.h"
#include "d1/wdt_regs.h"

struct row {
	char periph[16];
	char reg[40];
	char field[40];
	uint32_t base;
	uint32_t offset;
	int lsb;
	int width;
};

static struct row *rows;
static size_t nrows;
static const char *table_path = "d1_svd_table.csv";

static void load(void)
{
	FILE *f = fopen(table_path, "r");
	char line[256];
	size_t cap = 0;

	if (f == NULL) {
		fprintf(stderr, "cannot open %s\n", table_path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		struct row r = {0};
		char *cols[7] = {0};
		char *p = line;

		if (line[0] == '#' || strncmp(line, "peripheral,", 11) == 0) {
			continue;
		}
		line[strcspn(line, "\r\n")] = '\0';
		for (int i = 0; i < 7; i++) {
			cols[i] = p;
			p = strchr(p, ',');
			if (p == NULL) {
				break;
			}
			*p++ = '\0';
		}
		if (cols[6] == NULL) {
			continue;
		}
		snprintf(r.periph, sizeof(r.periph), "%s", cols[0]);
		r.base = (uint32_t)strtoul(cols[1], NULL, 16);
		snprintf(r.reg, sizeof(r.reg), "%s", cols[2]);
		r.offset = (uint32_t)strtoul(cols[3], NULL, 0);
		snprintf(r.field, sizeof(r.field), "%s", cols[4]);
		r.lsb = cols[5][0] != '\0' ? atoi(cols[5]) : -1;
		r.width = cols[6][0] != '\0' ? atoi(cols[6]) : -1;
		if (nrows == cap) {
			cap = cap != 0 ? cap * 2 : 1024;
			rows = realloc(rows, cap * sizeof(*rows));
			assert_non_null(rows);
		}
		rows[nrows++] = r;
	}
	fclose(f);
}

static const struct row *find(const char *periph, const char *reg, const char *field)
{
	for (size_t i = 0; i < nrows; i++) {
		if (strcmp(rows[i].periph, periph) == 0 && strcmp(rows[i].reg, reg) == 0 &&
		    strcmp(rows[i].field, field != NULL ? field : "") == 0) {
			return &rows[i];
		}
	}
	return NULL;
}

/* One expectation: a register offset, or a field given as LSB + mask. */
struct expect {
	const char *periph;
	const char *reg;
	const char *field; /* NULL: register row */
	uint32_t offset;   /* relative to the SVD peripheral base */
	uint32_t lsb;
	uint32_t mask;     /* field mask in register position */
	const char *macro; /* spelling of the offset / lsb argument */
	const char *mask_macro;
};

#define EXPECT_REG(p, r, off)                                                                      \
	{                                                                                          \
		p, r, NULL, (off), 0, 0, #off, ""                                                  \
	}
#define EXPECT_FIELD(p, r, f, off, lsb, mask)                                                      \
	{                                                                                          \
		p, r, f, (off), (lsb), (mask), #off " " #lsb, #mask                                \
	}

static const struct expect expects[] = {
#include "svd/expect_timer.inc"
#include "svd/expect_clint.inc"
#include "svd/expect_wdt.inc"
#include "svd/expect_ccu.inc"
#include "svd/expect_uart.inc"
#include "svd/expect_plic.inc"
};

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;
	for (; v != 0; v &= v - 1u) {
		n++;
	}
	return n;
}

static void test_every_offset_and_field_matches_svd(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		const struct expect *e = &expects[i];
		const struct row *reg = find(e->periph, e->reg, NULL);

		if (reg == NULL) {
			fprintf(stderr, "not in SVD: %s.%s (%s)\n", e->periph, e->reg, e->macro);
			bad++;
			continue;
		}
		if (reg->offset != e->offset) {
			fprintf(stderr, "%s: %s.%s offset 0x%X, SVD 0x%X\n", e->macro, e->periph,
			        e->reg, e->offset, reg->offset);
			bad++;
		}
		if (e->field != NULL) {
			const struct row *f = find(e->periph, e->reg, e->field);
			unsigned w = popcount32(e->mask);
			if (f == NULL) {
				fprintf(stderr, "not in SVD: %s.%s.%s\n", e->periph, e->reg,
				        e->field);
				bad++;
				continue;
			}
			if ((int)e->lsb != f->lsb || (int)w != f->width ||
			    e->mask != (((w >= 32u ? 0u : (1u << w)) - 1u) << e->lsb)) {
				fprintf(stderr,
				        "%s: %s.%s.%s lsb %u width %u, SVD lsb %d width %d\n",
				        e->macro, e->periph, e->reg, e->field, e->lsb, w, f->lsb,
				        f->width);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

static uint32_t svd_base(const char *periph)
{
	for (size_t i = 0; i < nrows; i++) {
		if (strcmp(rows[i].periph, periph) == 0) {
			return rows[i].base;
		}
	}
	return 0;
}

static uint32_t svd_irq(const char *periph, const char *name)
{
	char key[48];
	const struct row *r;

	snprintf(key, sizeof(key), "IRQ:%s", name);
	r = find(periph, key, NULL);
	return r != NULL ? r->offset : 0xFFFFFFFFu;
}

static void test_memory_map_and_irqs_match_svd(void **state)
{
	(void)state;
	assert_int_equal(svd_base("CCU"), D1_CCU_BASE);
	assert_int_equal(svd_base("TIMER"), D1_TIMER_BASE);
	assert_int_equal(svd_base("UART"), D1_UART0_BASE);
	assert_int_equal(svd_base("PLIC"), D1_PLIC_BASE);
	assert_int_equal(svd_base("CLINT"), D1_CLINT_BASE);
	for (unsigned n = 0; n < D1_UART_COUNT; n++) {
		char key[24];
		const struct row *r;
		snprintf(key, sizeof(key), "INSTANCE:UART%u", n);
		r = find("UART", key, NULL);
		assert_non_null(r);
		assert_int_equal(r->offset, D1_UART0_BASE + D1_UART_STRIDE * n);
		snprintf(key, sizeof(key), "UART%u", n);
		assert_int_equal(svd_irq("UART", key), D1_IRQ_UART(n));
	}
	assert_int_equal(svd_irq("TIMER", "TIMER0"), D1_IRQ_TIMER0);
	assert_int_equal(svd_irq("TIMER", "TIMER1"), D1_IRQ_TIMER1);
	assert_int_equal(svd_irq("TIMER", "WATCHDOG"), D1_IRQ_TIMER_WDT);
	/* The timer-block watchdog sits at TIMER + 0xA0 (SVD wdog_irq_en). */
	assert_int_equal(find("TIMER", "wdog_irq_en", NULL)->offset + D1_TIMER_BASE,
	                 D1_TIMER_WDT_BASE);
	/* Not in the SVD: riscv_wdt (sun20i-d1s.dtsi) and R_WDOG (U-Boot
	 * cpu_sunxi_ncat2.h); pinned to the documented values instead. */
	assert_int_equal(D1_RISCV_WDT_BASE, 0x06011000u);
	assert_int_equal(D1_IRQ_RISCV_WDT, 147u);
	assert_int_equal(D1_R_WDOG_BASE, 0x07020400u);
}

/* PLIC arrays: a priority word per source, pending/enable words per 32. */
static void test_plic_arrays_match_svd(void **state)
{
	char name[24];
	const struct row *r;

	(void)state;
	assert_int_equal(D1_PLIC_PRIO_PRIORITY_BITS, D1_PLIC_PRIO_MAX);
	for (unsigned s = 0; s <= D1_PLIC_NSOURCES; s++) {
		snprintf(name, sizeof(name), "prio[%u]", s);
		r = find("PLIC", name, NULL);
		assert_non_null(r);
		assert_int_equal(r->offset, D1_PLIC_PRIO_OFFSET(s));
	}
	for (unsigned w = 0; w <= D1_PLIC_NSOURCES / 32u; w++) {
		snprintf(name, sizeof(name), "ip[%u]", w);
		r = find("PLIC", name, NULL);
		assert_non_null(r);
		assert_int_equal(r->offset, D1_PLIC_PENDING_OFFSET(w));
		snprintf(name, sizeof(name), "mie[%u]", w);
		r = find("PLIC", name, NULL);
		assert_non_null(r);
		assert_int_equal(r->offset, D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_M, w));
		snprintf(name, sizeof(name), "sie[%u]", w);
		r = find("PLIC", name, NULL);
		assert_non_null(r);
		assert_int_equal(r->offset, D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, w));
	}
}

/* The CCU bus gate/reset table (D1_CCU_BUS_LIST, the one source of the
 * driver's table and of enum d1_ccu_bus) against the SVD: every row's
 * register offset and gate/reset bit, and, the other way round, every
 * *_bgr register and every gating / rst field the SVD lists is a row. */
static const struct bus_row {
	const char *name;
	const char *reg;
	uint32_t off;
	const char *gate_field;
	unsigned gate;
	const char *rst_field;
	unsigned rst;
} bus_rows[] = {
#define BUS_ROW_(n, r, o, gf, g, rf, rs) {#n, r, (o), gf, (g), rf, (rs)},
        D1_CCU_BUS_LIST(BUS_ROW_)
#undef BUS_ROW_
};

static bool bgr_field_named(const char *reg, const char *field)
{
	for (size_t i = 0; i < sizeof(bus_rows) / sizeof(bus_rows[0]); i++) {
		if (strcmp(bus_rows[i].reg, reg) == 0 &&
		    (strcmp(bus_rows[i].gate_field, field) == 0 ||
		     strcmp(bus_rows[i].rst_field, field) == 0)) {
			return true;
		}
	}
	return false;
}

static void check_bit(const struct bus_row *b, const char *field, unsigned lsb, unsigned *bad)
{
	const struct row *f;

	if (lsb == D1_CCU_BUS_NO_BIT) {
		if (field[0] != '\0') {
			fprintf(stderr, "D1_CCU_BUS_%s: field %s without a bit\n", b->name, field);
			(*bad)++;
		}
		return;
	}
	f = find("CCU", b->reg, field);
	if (f == NULL || f->lsb != (int)lsb || f->width != 1) {
		fprintf(stderr, "D1_CCU_BUS_%s: %s.%s bit %u, SVD %d width %d\n", b->name, b->reg,
		        field, lsb, f != NULL ? f->lsb : -1, f != NULL ? f->width : -1);
		(*bad)++;
	}
}

static void test_ccu_bus_table_matches_svd(void **state)
{
	unsigned bad = 0;
	unsigned bgr_regs = 0;

	(void)state;
	assert_int_equal(sizeof(bus_rows) / sizeof(bus_rows[0]), 62);
	for (size_t i = 0; i < sizeof(bus_rows) / sizeof(bus_rows[0]); i++) {
		const struct bus_row *b = &bus_rows[i];
		const struct row *r = find("CCU", b->reg, NULL);

		if (r == NULL || r->offset != b->off) {
			fprintf(stderr, "D1_CCU_BUS_%s: %s offset 0x%X, SVD 0x%X\n", b->name,
			        b->reg, b->off, r != NULL ? r->offset : 0xFFFFFFFFu);
			bad++;
		}
		if (b->gate == D1_CCU_BUS_NO_BIT && b->rst == D1_CCU_BUS_NO_BIT) {
			bad++; /* a row that drives nothing */
		}
		check_bit(b, b->gate_field, b->gate, &bad);
		check_bit(b, b->rst_field, b->rst, &bad);
	}
	/* completeness: the SVD's side */
	for (size_t i = 0; i < nrows; i++) {
		size_t len = strlen(rows[i].reg);

		if (strcmp(rows[i].periph, "CCU") != 0 || len < 4 ||
		    strcmp(rows[i].reg + len - 4, "_bgr") != 0) {
			continue;
		}
		if (rows[i].field[0] == '\0') {
			bgr_regs++;
			continue;
		}
		if (!bgr_field_named(rows[i].reg, rows[i].field)) {
			fprintf(stderr, "SVD %s.%s is in no D1_CCU_BUS_LIST row\n", rows[i].reg,
			        rows[i].field);
			bad++;
		}
	}
	assert_int_equal(bgr_regs, 39);
	assert_int_equal(bad, 0);
}

/* The checker itself must be able to fail. */
static void test_checker_detects_a_wrong_offset(void **state)
{
	const struct row *r = find("TIMER", "tmr1_ctrl", NULL);

	(void)state;
	assert_non_null(r);
	assert_int_not_equal(r->offset, D1_TIMER_CTRL_OFFSET(0));
	assert_null(find("TIMER", "no_such_register", NULL));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_every_offset_and_field_matches_svd),
	        cmocka_unit_test(test_memory_map_and_irqs_match_svd),
	        cmocka_unit_test(test_plic_arrays_match_svd),
	        cmocka_unit_test(test_ccu_bus_table_matches_svd),
	        cmocka_unit_test(test_checker_detects_a_wrong_offset),
	};

	if (argc > 1 && strcmp(argv[1], "--list-macros") == 0) {
		/* For tests/svd/check_coverage.py: every macro spelling checked. */
		for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
			printf("%s %s\n", expects[i].macro, expects[i].mask_macro);
		}
		printf("D1_UART0_BASE D1_UART_STRIDE D1_CCU_BASE D1_TIMER_BASE D1_PLIC_BASE\n");
		return 0;
	}
	if (argc > 1) {
		table_path = argv[1];
	}
	load();
	if (nrows < 100) {
		fprintf(stderr, "table %s has only %zu rows\n", table_path, nrows);
		return 2;
	}
	return cmocka_run_group_tests_name("regs_svd", tests, NULL, NULL);
}
