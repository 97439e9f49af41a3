/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drivers against hardware that misbehaves in ways the block models do
 * not produce by themselves. A register is taken over by a small window
 * mapped in front of its model (the bus routes to the first match):
 *  - a UART whose interrupt identity never clears (busy detect or modem
 *    status stuck): the ISR serves D1_UART_ISR_ROUNDS reports and returns;
 *  - a PLIC that drops an S-mode priority write without a bus fault: the
 *    delegation check sees the write vanish, init refuses with D1_ENODELEG
 *    and writes nothing else;
 *  - APB1 left on a source that gives no clock (PLL_PERI0 off): the UART
 *    clock query says so, and a reconfigure away from it works and never
 *    runs APB1 above the new rate.
 * And d1_uart_calc_baud() at the ends of its range (divisor clamped to 1 and
 * to 0xFFFF, error clamped to INT32_MAX ppm).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ccu_model.h"
#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/mmio.h"
#include "d1/plic.h"
#include "d1/uart.h"
#include "plic_model.h"
#include "sim.h"
#include "uart_model.h"

/* --- one register taken over in front of its model --- */

struct takeover {
	struct sim_region region;
	const struct sim_region *model; /* where the other accesses go */
	uint32_t off_in_model;          /* the register's offset in the model */
	bool on;                        /* false: pass through */
	uint32_t value;                 /* read while on */
	bool drop_writes;               /* writes while on are lost */
	uint64_t reads, writes_dropped;
};

static uint32_t takeover_read(void *ctx, uint32_t off)
{
	struct takeover *t = ctx;

	(void)off;
	if (!t->on) {
		return t->model->read(t->model->ctx, t->off_in_model);
	}
	t->reads++;
	return t->value;
}

static void takeover_write(void *ctx, uint32_t off, uint32_t value)
{
	struct takeover *t = ctx;

	(void)off;
	if (t->on && t->drop_writes) {
		t->writes_dropped++;
		return;
	}
	t->model->write(t->model->ctx, t->off_in_model, value);
}

/* Map the window for the register at @p addr of the model at @p base. Call
 * before the model's init maps the model (first match wins). */
static void takeover_map(struct takeover *t, const struct sim_region *model, uintptr_t base,
                         uintptr_t addr)
{
	*t = (struct takeover){0};
	t->model = model;
	t->off_in_model = (uint32_t)(addr - base);
	t->region = (struct sim_region){
	        .name = "takeover",
	        .base = addr,
	        .size = 4u,
	        .read = takeover_read,
	        .write = takeover_write,
	        .ctx = t,
	};
	sim_map(&t->region);
}

/* --- UART: an interrupt identity that never clears --- */

#define UBASE D1_UART0_BASE
#define UCLK  24000000u

static struct uart_model um;
static struct d1_uart u;
static struct takeover iir;
static uint8_t rxbuf[256];
static uint8_t txbuf[256];

static int uart_setup(void **state)
{
	static const struct d1_uart_config cfg = {
	        .baud = 115200, .data_bits = 8, .stop_bits = 1, .fifo = true, .rx_trigger = 2};
	(void)state;
	sim_reset();
	takeover_map(&iir, &um.region, UBASE, UBASE + D1_UART_IIR_OFFSET);
	uart_model_init(&um, UBASE, 2, true, UCLK, D1_UART_FIFO_DEPTH);
	assert_int_equal(d1_uart_init(&u, UBASE, 2, UCLK, D1_UART_FIFO_DEPTH), D1_OK);
	/* Configured, as a driver runs it: an unconfigured handle also reads LCR
	 * on each call (uart.h "Unusable line"), which would change the access
	 * counts asserted below. */
	assert_int_equal(d1_uart_configure(&u, &cfg, NULL), D1_OK);
	assert_int_equal(d1_uart_irq_start(&u, rxbuf, sizeof(rxbuf), txbuf, sizeof(txbuf)), D1_OK);
	return 0;
}

static int uart_teardown(void **state)
{
	(void)state;
	uart_model_free(&um);
	assert_int_equal(sim_unmapped(), 0);
	return 0;
}

/* Busy detect that reading USR does not clear: every report is served
 * (counted, USR read), the call ends after D1_UART_ISR_ROUNDS of them
 * (uart.h) and leaves the last one read for the next call. */
static void test_uart_isr_bounded_on_stuck_busy_detect(void **state)
{
	uint64_t usr0;
	struct d1_uart_stats st;

	(void)state;
	iir.on = true;
	iir.value = D1_UART_IID_BUSY;
	usr0 = um.region.reads;
	assert_int_equal(d1_uart_isr(&u), D1_UART_EV_BUSY);
	assert_int_equal(iir.reads, D1_UART_ISR_ROUNDS + 1u); /* bounded, yet kept serving */
	assert_int_equal(d1_uart_get_stats(&u, &st), D1_OK);
	assert_int_equal(st.busy_detect, D1_UART_ISR_ROUNDS);     /* one per report served */
	assert_int_equal(um.region.reads - usr0, st.busy_detect); /* USR read for each */
	/* the line works again once the identity clears */
	iir.on = false;
	assert_int_equal(d1_uart_isr(&u), 0u);
	assert_int_equal(d1_uart_get_stats(&u, &st), D1_OK);
	assert_int_equal(st.isr_idle, 1u);
}

/* Modem status that reading MSR does not clear (the D1's UARTs have no
 * modem lines in use): no event, MSR read for each report, bounded. */
static void test_uart_isr_bounded_on_stuck_modem_status(void **state)
{
	uint64_t reads0;
	struct d1_uart_stats st;

	(void)state;
	iir.on = true;
	iir.value = D1_UART_IID_MODEM;
	reads0 = um.region.reads;
	assert_int_equal(d1_uart_isr(&u), 0u);
	assert_int_equal(iir.reads, D1_UART_ISR_ROUNDS + 1u);
	assert_int_equal(um.region.reads - reads0, D1_UART_ISR_ROUNDS); /* the MSR reads */
	assert_int_equal(d1_uart_get_stats(&u, &st), D1_OK);
	assert_int_equal(st.busy_detect, 0u);
	assert_int_equal(st.isr_idle, 0u);
	assert_int_equal(st.rx_bytes, 0u);
}

/* Byte mode (d1_uart_irq_poll()) against identities that do not clear:
 * modem status and busy detect are served by the ring ISR's loop (each
 * report served, D1_UART_ISR_ROUNDS of them, MSR or USR read for each);
 * a line-status identity with nothing in LSR (no error, no data) ends the
 * call after its one LSR read. */
static void test_uart_irq_poll_bounded_on_stuck_identities(void **state)
{
	static const struct {
		uint32_t iid, ev, busy, iir_reads, reg_reads;
	} rows[] = {
	        {D1_UART_IID_MODEM, 0u, 0u, D1_UART_ISR_ROUNDS + 1u, D1_UART_ISR_ROUNDS},
	        {D1_UART_IID_BUSY, D1_UART_EV_BUSY, D1_UART_ISR_ROUNDS, D1_UART_ISR_ROUNDS + 1u,
	         D1_UART_ISR_ROUNDS},
	        {D1_UART_IID_RLS, 0u, 0u, 1u, 1u},
	};
	struct d1_uart_stats st;

	(void)state;
	assert_int_equal(d1_uart_irq_stop(&u), D1_OK);
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t ev = 0xFFu;
		uint64_t reads0 = um.region.reads;

		u.stats.busy_detect = 0;
		iir.reads = 0;
		iir.on = true;
		iir.value = rows[i].iid;
		assert_int_equal(d1_uart_irq_poll(&u, &ev), D1_OK);
		assert_int_equal(ev, rows[i].ev);
		assert_int_equal(iir.reads, rows[i].iir_reads); /* bounded */
		/* MSR, USR or LSR read once per report served */
		assert_int_equal(um.region.reads - reads0, rows[i].reg_reads);
		assert_int_equal(d1_uart_get_stats(&u, &st), D1_OK);
		assert_int_equal(st.busy_detect, rows[i].busy);
		assert_int_equal(st.isr_idle, 0u);
		assert_int_equal(st.rx_bytes, 0u);
	}
	iir.on = false;
}

/* --- PLIC: an S-mode write dropped without a fault --- */

#define PBASE D1_PLIC_BASE
#define NSRC  D1_PLIC_NSOURCES

static struct plic_model pm;
static struct takeover prio;

static void test_plic_write_dropped_is_not_delegated(void **state)
{
	struct d1_plic p;
	uint64_t w0;

	(void)state;
	sim_reset();
	takeover_map(&prio, &pm.region, PBASE, PBASE + D1_PLIC_PRIO_OFFSET(NSRC));
	plic_model_init(&pm, PBASE, NSRC, 5, true);
	pm.ctrl = D1_PLIC_CTRL_S_PER_BITS; /* reads are answered: no fault to see */
	pm.s_mode = true;
	pm.prio[NSRC] = 5;
	prio.on = true;
	prio.value = 5; /* reads back the old value */
	prio.drop_writes = true;
	w0 = sim_writes();
	assert_int_equal(d1_plic_init(&p, PBASE, D1_PLIC_CTX_S, NSRC, 0), D1_ENODELEG);
	/* the probe's one write, lost; no priority, enable or threshold written */
	assert_int_equal(prio.writes_dropped, 1u);
	assert_int_equal(sim_writes() - w0, 1u);
	assert_int_equal(pm.prio[NSRC], 5u);
	assert_int_equal(sim_unhandled_faults(), 0u);
	assert_int_equal(sim_critical_depth(), 0u);
	/* the same PLIC keeping the write: delegated */
	prio.on = false;
	assert_int_equal(d1_plic_init(&p, PBASE, D1_PLIC_CTX_S, NSRC, 0), D1_OK);
	assert_int_equal(pm.prio[NSRC], 0u); /* init's known state */
}

/* --- CCU: APB1 on a source that gives no clock --- */

static struct ccu_model cm;

static void test_ccu_apb1_from_a_dead_source(void **state)
{
	struct d1_ccu c;
	uint32_t hz = 0xDEADBEEFu;
	const uint32_t on_peri0 = (uint32_t)D1_CCU_APB_SRC_PERI0_1X
	                          << D1_CCU_APB_CLK_CLK_SRC_SEL_LSB;

	(void)state;
	sim_reset();
	ccu_model_init(&cm, D1_CCU_BASE); /* power-on: PLL_PERI0 off */
	ccu_model_poke(&cm, D1_CCU_APB1_CLK_OFFSET, on_peri0);
	cm.apb1_max_hz = 0;
	assert_int_equal(d1_ccu_init(&c, D1_CCU_BASE, D1_OSC24M_HZ), D1_OK);
	assert_int_equal(ccu_model_apb1_hz(&cm), 0u);
	/* the UARTs have no clock: said so, and 0 Hz (ccu.h: 0 on error) */
	assert_int_equal(d1_ccu_uart_clock_hz(&c, 0, &hz), D1_ESTATE);
	assert_int_equal(hz, 0u);
	/* onto OSC24M / 2: works, and no step runs APB1 above 12 MHz */
	assert_int_equal(d1_ccu_apb1_config(&c, D1_CCU_APB_SRC_OSC24M, 2, 0, &hz), D1_OK);
	assert_int_equal(hz, 12000000u);
	assert_int_equal(ccu_model_apb1_hz(&cm), 12000000u);
	assert_true(cm.apb1_max_hz <= 12000000u);
	assert_int_equal(d1_ccu_uart_clock_hz(&c, 0, &hz), D1_OK);
	assert_int_equal(hz, 12000000u);
	assert_int_equal(sim_unmapped(), 0);
}

/* --- d1_uart_calc_baud() at the ends of its range --- */

static void test_calc_baud_divisor_clamped_to_1(void **state)
{
	struct d1_uart_baud b;

	(void)state;
	/* 4 MBd from 24 MHz: the nearest divisor would be 0; 1 gives 1.5 MBd,
	 * 62.5 % slow: reported, and refused */
	assert_int_equal(d1_uart_calc_baud(24000000u, 4000000u, &b), D1_ERANGE);
	assert_int_equal(b.divisor, 1u);
	assert_int_equal(b.achieved, 1500000u);
	assert_int_equal(b.err_ppm, -625000);
}

static void test_calc_baud_error_clamped(void **state)
{
	struct d1_uart_baud b;

	(void)state;
	/* 1 Bd from 4 GHz: divisor capped at 0xFFFF, the rate ~3814 times too
	 * fast: the error saturates at INT32_MAX ppm instead of wrapping */
	assert_int_equal(d1_uart_calc_baud(4000000000u, 1u, &b), D1_ERANGE);
	assert_int_equal(b.divisor, 0xFFFFu);
	assert_int_equal(b.achieved, (4000000000u + 8u * 0xFFFFu) / (16u * 0xFFFFu));
	assert_int_equal(b.err_ppm, INT32_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test_setup_teardown(test_uart_isr_bounded_on_stuck_busy_detect,
	                                        uart_setup, uart_teardown),
	        cmocka_unit_test_setup_teardown(test_uart_irq_poll_bounded_on_stuck_identities,
	                                        uart_setup, uart_teardown),
	        cmocka_unit_test_setup_teardown(test_uart_isr_bounded_on_stuck_modem_status,
	                                        uart_setup, uart_teardown),
	        cmocka_unit_test(test_plic_write_dropped_is_not_delegated),
	        cmocka_unit_test(test_ccu_apb1_from_a_dead_source),
	        cmocka_unit_test(test_calc_baud_divisor_clamped_to_1),
	        cmocka_unit_test(test_calc_baud_error_clamped),
	};
	return cmocka_run_group_tests_name("broken_hw", tests, NULL, NULL);
}
