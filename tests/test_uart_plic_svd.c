/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The UART and PLIC register headers against the table extracted from
 * d1_unofficial.svd (tests/svd/d1_svd_table.csv): every offset, field LSB
 * and field mask the drivers use, plus instance bases and IRQ numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "d1/memmap.h"
#include "d1/plic_regs.h"
#include "d1/uart_regs.h"

struct row {
	char periph[16];
	char reg[32];
	unsigned long off;
	char field[32];
	int lsb;
	int width;
};

static struct row rows[4096];
static unsigned nrows;

static int load(void **state)
{
	char path[1024];
	char line[256];
	const char *slash = strrchr(__FILE__, '/');
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%.*s/svd/d1_svd_table.csv",
	         slash != NULL ? (int)(slash - __FILE__) : 1, slash != NULL ? __FILE__ : ".");
	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL && nrows < 4096) {
		struct row *r = &rows[nrows];
		char *tok[7] = {0};
		char *p = line;
		unsigned n = 0;

		if (line[0] == '#' || strncmp(line, "peripheral,", 11) == 0) {
			continue;
		}
		line[strcspn(line, "\r\n")] = '\0';
		while (n < 7) {
			tok[n++] = p;
			p = strchr(p, ',');
			if (p == NULL) {
				break;
			}
			*p++ = '\0';
		}
		if (n < 4) {
			continue;
		}
		snprintf(r->periph, sizeof(r->periph), "%s", tok[0]);
		snprintf(r->reg, sizeof(r->reg), "%s", tok[2]);
		r->off = strtoul(tok[3], NULL, 0);
		snprintf(r->field, sizeof(r->field), "%s", n > 4 ? tok[4] : "");
		r->lsb = n > 5 && tok[5][0] != '\0' ? atoi(tok[5]) : -1;
		r->width = n > 6 && tok[6][0] != '\0' ? atoi(tok[6]) : -1;
		nrows++;
	}
	fclose(f);
	return nrows > 0 ? 0 : -1;
}

static const struct row *find(const char *periph, const char *reg, const char *field)
{
	for (unsigned i = 0; i < nrows; i++) {
		if (strcmp(rows[i].periph, periph) == 0 && strcmp(rows[i].reg, reg) == 0 &&
		    strcmp(rows[i].field, field) == 0) {
			return &rows[i];
		}
	}
	fail_msg("%s.%s.%s not in the SVD table", periph, reg, field);
	return NULL;
}

static void reg_at(const char *periph, const char *reg, unsigned long off)
{
	const struct row *r = find(periph, reg, "");
	if (r->off != off) {
		fail_msg("%s.%s: SVD 0x%lx, header 0x%lx", periph, reg, r->off, off);
	}
}

static void field_is(const char *periph, const char *reg, const char *field, unsigned lsb,
                     uint32_t mask)
{
	const struct row *r = find(periph, reg, field);
	uint32_t svd_mask = (uint32_t)(((1ull << r->width) - 1u) << r->lsb);

	if ((unsigned)r->lsb != lsb || svd_mask != mask) {
		fail_msg("%s.%s.%s: SVD lsb %d width %d, header lsb %u mask 0x%x", periph, reg,
		         field, r->lsb, r->width, lsb, mask);
	}
}

static void test_uart_offsets(void **state)
{
	(void)state;
	reg_at("UART", "rbr", D1_UART_RBR_OFFSET);
	reg_at("UART", "thr", D1_UART_THR_OFFSET);
	reg_at("UART", "dll", D1_UART_DLL_OFFSET);
	reg_at("UART", "ier", D1_UART_IER_OFFSET);
	reg_at("UART", "dlh", D1_UART_DLH_OFFSET);
	reg_at("UART", "iir", D1_UART_IIR_OFFSET);
	reg_at("UART", "fcr", D1_UART_FCR_OFFSET);
	reg_at("UART", "lcr", D1_UART_LCR_OFFSET);
	reg_at("UART", "mcr", D1_UART_MCR_OFFSET);
	reg_at("UART", "lsr", D1_UART_LSR_OFFSET);
	reg_at("UART", "msr", D1_UART_MSR_OFFSET);
	reg_at("UART", "sch", D1_UART_SCH_OFFSET);
	reg_at("UART", "usr", D1_UART_USR_OFFSET);
	reg_at("UART", "tfl", D1_UART_TFL_OFFSET);
	reg_at("UART", "rfl", D1_UART_RFL_OFFSET);
	reg_at("UART", "halt", D1_UART_HALT_OFFSET);
}

static void test_uart_fields(void **state)
{
	(void)state;
	field_is("UART", "ier", "erbfi", D1_UART_IER_ERBFI_LSB, D1_UART_IER_ERBFI_BITS);
	field_is("UART", "ier", "etbei", D1_UART_IER_ETBEI_LSB, D1_UART_IER_ETBEI_BITS);
	field_is("UART", "ier", "elsi", D1_UART_IER_ELSI_LSB, D1_UART_IER_ELSI_BITS);
	field_is("UART", "ier", "edssi", D1_UART_IER_EDSSI_LSB, D1_UART_IER_EDSSI_BITS);
	field_is("UART", "ier", "ptime", D1_UART_IER_PTIME_LSB, D1_UART_IER_PTIME_BITS);
	field_is("UART", "iir", "iid", D1_UART_IIR_IID_LSB, D1_UART_IIR_IID_BITS);
	field_is("UART", "iir", "feflag", D1_UART_IIR_FEFLAG_LSB, D1_UART_IIR_FEFLAG_BITS);
	field_is("UART", "fcr", "fifoe", D1_UART_FCR_FIFOE_LSB, D1_UART_FCR_FIFOE_BITS);
	field_is("UART", "fcr", "rfifor", D1_UART_FCR_RFIFOR_LSB, D1_UART_FCR_RFIFOR_BITS);
	field_is("UART", "fcr", "xfifor", D1_UART_FCR_XFIFOR_LSB, D1_UART_FCR_XFIFOR_BITS);
	field_is("UART", "fcr", "dmam", D1_UART_FCR_DMAM_LSB, D1_UART_FCR_DMAM_BITS);
	field_is("UART", "fcr", "tft", D1_UART_FCR_TFT_LSB, D1_UART_FCR_TFT_BITS);
	field_is("UART", "fcr", "rt", D1_UART_FCR_RT_LSB, D1_UART_FCR_RT_BITS);
	field_is("UART", "lcr", "dls", D1_UART_LCR_DLS_LSB, D1_UART_LCR_DLS_BITS);
	field_is("UART", "lcr", "stop", D1_UART_LCR_STOP_LSB, D1_UART_LCR_STOP_BITS);
	field_is("UART", "lcr", "pen", D1_UART_LCR_PEN_LSB, D1_UART_LCR_PEN_BITS);
	field_is("UART", "lcr", "eps", D1_UART_LCR_EPS_LSB, D1_UART_LCR_EPS_BITS);
	field_is("UART", "lcr", "bc", D1_UART_LCR_BC_LSB, D1_UART_LCR_BC_BITS);
	field_is("UART", "lcr", "dlab", D1_UART_LCR_DLAB_LSB, D1_UART_LCR_DLAB_BITS);
	field_is("UART", "mcr", "dtr", 0, D1_UART_MCR_DTR_BITS);
	field_is("UART", "mcr", "rts", 1, D1_UART_MCR_RTS_BITS);
	field_is("UART", "mcr", "loop", 4, D1_UART_MCR_LOOP_BITS);
	field_is("UART", "mcr", "afce", 5, D1_UART_MCR_AFCE_BITS);
	field_is("UART", "lsr", "dr", D1_UART_LSR_DR_LSB, D1_UART_LSR_DR_BITS);
	field_is("UART", "lsr", "oe", D1_UART_LSR_OE_LSB, D1_UART_LSR_OE_BITS);
	field_is("UART", "lsr", "pe", D1_UART_LSR_PE_LSB, D1_UART_LSR_PE_BITS);
	field_is("UART", "lsr", "fe", D1_UART_LSR_FE_LSB, D1_UART_LSR_FE_BITS);
	field_is("UART", "lsr", "bi", D1_UART_LSR_BI_LSB, D1_UART_LSR_BI_BITS);
	field_is("UART", "lsr", "thre", D1_UART_LSR_THRE_LSB, D1_UART_LSR_THRE_BITS);
	field_is("UART", "lsr", "temt", D1_UART_LSR_TEMT_LSB, D1_UART_LSR_TEMT_BITS);
	field_is("UART", "lsr", "fifoerr", D1_UART_LSR_FIFOERR_LSB, D1_UART_LSR_FIFOERR_BITS);
	field_is("UART", "usr", "busy", D1_UART_USR_BUSY_LSB, D1_UART_USR_BUSY_BITS);
	field_is("UART", "usr", "tfnf", 1, D1_UART_USR_TFNF_BITS);
	field_is("UART", "usr", "tfe", 2, D1_UART_USR_TFE_BITS);
	field_is("UART", "usr", "rfne", 3, D1_UART_USR_RFNE_BITS);
	field_is("UART", "usr", "rff", 4, D1_UART_USR_RFF_BITS);
	field_is("UART", "rfl", "rfl", D1_UART_RFL_RFL_LSB, D1_UART_RFL_RFL_BITS);
	field_is("UART", "tfl", "tfl", D1_UART_TFL_TFL_LSB, D1_UART_TFL_TFL_BITS);
	field_is("UART", "halt", "halt_tx", 0, D1_UART_HALT_HALT_TX_BITS);
	field_is("UART", "halt", "chcfg_at_busy", 1, D1_UART_HALT_CHCFG_AT_BUSY_BITS);
	field_is("UART", "halt", "change_update", 2, D1_UART_HALT_CHANGE_UPDATE_BITS);
}

static void test_uart_instances_and_irqs(void **state)
{
	char name[16];

	(void)state;
	for (unsigned n = 0; n < D1_UART_COUNT; n++) {
		snprintf(name, sizeof(name), "INSTANCE:UART%u", n);
		reg_at("UART", name, D1_UART0_BASE + D1_UART_STRIDE * n);
		snprintf(name, sizeof(name), "IRQ:UART%u", n);
		reg_at("UART", name, D1_IRQ_UART(n));
	}
}

static void test_plic_layout(void **state)
{
	char name[16];

	(void)state;
	for (unsigned s = 0; s <= D1_PLIC_NSOURCES; s++) {
		snprintf(name, sizeof(name), "prio[%u]", s);
		reg_at("PLIC", name, D1_PLIC_PRIO_OFFSET(s));
	}
	field_is("PLIC", "prio[18]", "priority", D1_PLIC_PRIO_PRIORITY_LSB,
	         D1_PLIC_PRIO_PRIORITY_BITS);
	assert_int_equal(D1_PLIC_PRIO_PRIORITY_BITS, D1_PLIC_PRIO_MAX);
	for (unsigned w = 0; w <= D1_PLIC_NSOURCES / 32u; w++) {
		snprintf(name, sizeof(name), "ip[%u]", w);
		reg_at("PLIC", name, D1_PLIC_PENDING_OFFSET(w));
		snprintf(name, sizeof(name), "mie[%u]", w);
		reg_at("PLIC", name, D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_M, w));
		snprintf(name, sizeof(name), "sie[%u]", w);
		reg_at("PLIC", name, D1_PLIC_ENABLE_OFFSET(D1_PLIC_CTX_S, w));
	}
	reg_at("PLIC", "ctrl", D1_PLIC_CTRL_OFFSET);
	field_is("PLIC", "ctrl", "ctrl", D1_PLIC_CTRL_S_PER_LSB, D1_PLIC_CTRL_S_PER_BITS);
	reg_at("PLIC", "mth", D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_M));
	reg_at("PLIC", "mclaim", D1_PLIC_CLAIM_OFFSET(D1_PLIC_CTX_M));
	reg_at("PLIC", "sth", D1_PLIC_THRESHOLD_OFFSET(D1_PLIC_CTX_S));
	reg_at("PLIC", "sclaim", D1_PLIC_CLAIM_OFFSET(D1_PLIC_CTX_S));
	field_is("PLIC", "mth", "priority", 0, D1_PLIC_PRIO_PRIORITY_BITS);
	field_is("PLIC", "mclaim", "mclaim", D1_PLIC_CLAIM_ID_LSB, D1_PLIC_CLAIM_ID_BITS);
	field_is("PLIC", "sclaim", "sclaim", D1_PLIC_CLAIM_ID_LSB, D1_PLIC_CLAIM_ID_BITS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_uart_offsets),
	        cmocka_unit_test(test_uart_fields),
	        cmocka_unit_test(test_uart_instances_and_irqs),
	        cmocka_unit_test(test_plic_layout),
	};
	return cmocka_run_group_tests(tests, load, NULL);
}
