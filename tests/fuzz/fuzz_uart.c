/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the UART driver (d1/uart.h), DW APB and plain 16550
 * flavours, on the UART model. Random sequences of every public call with
 * arbitrary arguments, the ISR (called directly, when the line is up, and
 * as an interrupt taken between two driver accesses), RX characters with
 * and without line errors, CTS, and the model's faults (stuck BUSY, a
 * character starting right after an idle USR read or a DLAB write, lost
 * DLL/DLH writes, a stuck transmitter, AFCE missing, the DW empty-timeout
 * quirk). Invariants after every call: fuzz_common.h; no LCR/DLL/DLH write
 * while BUSY without an idle USR read first (DW); no THR write into a full
 * TX FIFO; every character that entered the RX FIFO is delivered or counted
 * (rx_bytes + framing + parity + brk + rx_dropped + rx_discarded = RBR pops
 * + FIFO resets); every byte accepted for TX is sent or still pending;
 * waits within their documented budgets; the documented results of
 * d1_uart_configure() (the line setting on D1_OK; IER 0 and the previous
 * LCR and divisor back on D1_ETIMEDOUT unless the handle refuses I/O).
 */
#include <string.h>

#include "d1/memmap.h"
#include "d1/uart.h"
#include "fuzz_common.h"
#include "sim.h"
#include "uart_model.h"

#define UBASE         D1_UART0_BASE
#define UNMAPPED_BASE 0x0A000000u
/* Configurations whose waits would take longer than this are not tried
 * (keeps an input fast; slow lines add no new code path). */
#define MAX_BUDGET_US 10000u

static struct uart_model um;
static uint16_t line_store[UART_MODEL_LINE_MAX];
static struct uart_model_tx_char cap_store[UART_MODEL_CAPTURE_MAX];
static struct d1_uart u;
static struct d1_uart zero_handle;
static uint8_t rxbuf[256];
static uint8_t txbuf[256];

static struct {
	bool dw;
	bool mapped;        /* the handle drives the model */
	uint32_t clk;       /* the model's input clock (the handle's too) */
	unsigned depth;     /* the model's FIFO depth (the handle's too) */
	uint32_t io_div;    /* divisor in force per the last D1_OK configure (0: none) */
	uint32_t io_half;   /* its bits per character, times 2 */
	int64_t acct;       /* RX accounting offset (model side - driver side) at init */
	uint64_t tx_accept; /* bytes accepted by write()/putc() since init */
	uint64_t tx_base;   /* stats.tx_bytes offset */
} h;

static uint32_t half_bits_of(uint32_t lcr)
{
	uint32_t data = 5u + (lcr & 3u);
	uint32_t stop = (lcr & 4u) == 0u ? 2u : data == 5u ? 3u : 4u;

	return 2u * (1u + data + ((lcr & 8u) != 0u ? 1u : 0u)) + stop;
}

/* Documented budget: (FIFO depth + 2) characters at clk / (16 div) baud,
 * or at 9600 baud with 12-bit characters when the divisor is unknown. */
static uint64_t budget_us(uint32_t div, uint32_t half)
{
	uint64_t chars = h.depth + 2u;

	if (div == 0u) {
		return (chars * 24u * 1000000u + 2u * D1_UART_FALLBACK_BAUD - 1u) /
		       (2u * D1_UART_FALLBACK_BAUD);
	}
	return (chars * half * 8u * div * 1000000u + h.clk - 1u) / h.clk;
}

static uint32_t model_div(void)
{
	return (uint32_t)um.dll | (uint32_t)um.dlh << 8;
}

static int64_t rx_driver_side(void)
{
	const struct d1_uart_stats *s = &u.stats;

	return (int64_t)(s->rx_bytes + s->framing + s->parity + s->brk + s->rx_dropped +
	                 s->rx_discarded);
}

static int64_t rx_model_side(void)
{
	return (int64_t)(um.rbr_pops + um.fifo_cleared);
}

static void check_models(void)
{
	FZ_CHECK(!h.dw || um.busy_blind_writes == 0u,
	         "LCR/DLL/DLH written while BUSY without an idle USR read first (LCR 0x%x)",
	         um.lcr);
	FZ_CHECK(um.tx_overflow == 0u, "THR written with the TX FIFO full (a byte lost)");
	if (h.mapped) {
		FZ_CHECK(rx_model_side() - rx_driver_side() == h.acct,
		         "RX characters not accounted: %lld taken from the FIFO, %lld delivered or "
		         "counted",
		         (long long)(rx_model_side() - h.acct), (long long)rx_driver_side());
		FZ_CHECK(h.tx_accept == u.stats.tx_bytes - h.tx_base + d1_uart_tx_pending(&u),
		         "TX bytes not accounted: %llu accepted, %llu written, %u pending",
		         (unsigned long long)h.tx_accept,
		         (unsigned long long)(u.stats.tx_bytes - h.tx_base),
		         d1_uart_tx_pending(&u));
	}
}

/* The interrupt, taken between two driver accesses (uart_model_irq_after). */
static bool in_isr; /* the trap runs with interrupts masked: no nesting */

static void model_isr(void *arg)
{
	(void)arg;
	if (u.irq_mode && uart_model_irq(&um) && !in_isr) {
		fz_exclude(true); /* its writes are not the interrupted call's */
		(void)d1_uart_isr(&u);
		fz_exclude(false);
	}
}

static void reset_accounting(void)
{
	h.acct = rx_model_side() - rx_driver_side();
	h.tx_accept = 0;
	h.tx_base = u.stats.tx_bytes;
	h.io_div = 0;
	h.io_half = 24;
}

static struct d1_uart *pick(struct fz_in *in, bool *valid)
{
	uint8_t k = fz_u8(in) % 10u;

	*valid = k < 8u;
	return k == 8u ? NULL : k == 9u ? &zero_handle : &u;
}

static void after(bool valid, int err, unsigned allowed, uint64_t max_us)
{
	fz_end();
	fz_check_call(max_us * FZ_TICKS_PER_US + 2u * FZ_TICKS_PER_US);
	fz_check_err_writes(err, allowed);
	if (!valid) {
		FZ_CHECK(fz_call_writes() == 0u, "a call on a NULL/uninitialised handle wrote");
	}
}

static void pick_config(struct fz_in *in, struct d1_uart_config *c)
{
	static const uint32_t bauds[] = {1500000u, 3000000u, 230400u, 921600u,   115200u,
	                                 57600u,   0u,       1u,      UINT32_MAX};
	uint8_t f = fz_u8(in);
	uint8_t g = fz_u8(in);

	c->baud = fz_pick32(in, bauds, sizeof(bauds) / sizeof(bauds[0]));
	c->data_bits = (uint8_t)(f % 8u < 5u ? 8u - f % 4u : 3u + f % 8u);
	c->parity = (enum d1_uart_parity)((f >> 3) % 4u);
	c->stop_bits = (uint8_t)(1u + (f >> 5) % 3u);
	c->fifo = (g & 1u) != 0u;
	c->rx_trigger = (uint8_t)((g >> 1) % 5u);
	c->tx_trigger = (uint8_t)((g >> 4) % 5u);
	c->rtscts = (g & 0x80u) != 0u && (g & 0x40u) != 0u;
	if (g == 0xFFu) {
		c->data_bits = fz_u8(in);
		c->stop_bits = fz_u8(in);
	}
}

static uint32_t expected_lcr(const struct d1_uart_config *c)
{
	uint32_t lcr = (uint32_t)(c->data_bits - 5u);

	if (c->stop_bits == 2u) {
		lcr |= 4u;
	}
	if (c->parity != D1_UART_PARITY_NONE) {
		lcr |= 8u;
	}
	if (c->parity == D1_UART_PARITY_EVEN) {
		lcr |= 0x10u;
	}
	return lcr;
}

static void do_configure(struct fz_in *in, struct d1_uart *p, bool valid)
{
	struct d1_uart_config c;
	struct d1_uart_baud b;
	uint32_t ach = 0;
	bool null_cfg = fz_u8(in) < 8u;
	uint32_t old_lcr = um.lcr;
	uint32_t old_div = model_div();
	uint64_t entry = budget_us(old_div, half_bits_of(old_lcr));
	int err;

	pick_config(in, &c);
	if (valid && h.mapped && !null_cfg && c.data_bits >= 5u && c.data_bits <= 8u &&
	    d1_uart_calc_baud(h.clk, c.baud, &b) == D1_OK &&
	    (entry > 100000u ||
	     budget_us(b.divisor, half_bits_of(expected_lcr(&c))) > MAX_BUDGET_US)) {
		return; /* too slow to fuzz */
	}
	fz_begin("d1_uart_configure");
	err = d1_uart_configure(p, null_cfg ? NULL : &c, fz_bool(in) ? &ach : NULL);
	after(valid, err,
	      FZ_ERRBIT(D1_ETIMEDOUT) |
	              (h.dw && valid && !null_cfg && c.rtscts ? FZ_ERRBIT(D1_ENOTSUP) : 0u),
	      2u * D1_UART_LCR_ATTEMPTS * (entry + 2u));
	if (!valid || !h.mapped) {
		return;
	}
	/* uart.h: entered with DLAB set, a configure that also lost the line
	 * leaves IER as found (offset 1 is DLH until DLAB is clear). */
	if (err == D1_OK || (err == D1_ENOTSUP && h.dw) ||
	    (err == D1_ETIMEDOUT && (!p->line_lost || (old_lcr & 0x80u) == 0u))) {
		FZ_CHECK(um.ier == 0u, "IER is 0x%x after configure returned %s", um.ier,
		         d1_strerror(err));
	}
	if (err == D1_OK || (err == D1_ENOTSUP && h.dw)) {
		(void)d1_uart_calc_baud(h.clk, c.baud, &b);
		FZ_CHECK(um.lcr == expected_lcr(&c) && model_div() == b.divisor,
		         "line is LCR 0x%x divisor %u, asked LCR 0x%x divisor %u", um.lcr,
		         model_div(), expected_lcr(&c), b.divisor);
		FZ_CHECK(((um.fcr & 1u) != 0u) == c.fifo, "FIFOE %u, asked %u", um.fcr & 1u,
		         c.fifo);
		h.io_div = b.divisor;
		h.io_half = half_bits_of(expected_lcr(&c));
	}
	if (err == D1_ETIMEDOUT && !u.line_lost) {
		FZ_CHECK(um.lcr == (old_lcr & 0x7Fu) && model_div() == old_div,
		         "after D1_ETIMEDOUT: LCR 0x%x divisor %u, was LCR 0x%x divisor %u", um.lcr,
		         model_div(), old_lcr, old_div);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t clks[] = {24000000u, 3686400u, 48000000u, 1843200u};
	static const unsigned depths[] = {64u, 16u, 32u, 8u};
	struct fz_in in;
	uint8_t setup;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	setup = fz_u8(&in);
	memset(&h, 0, sizeof(h));
	h.dw = (setup & 1u) == 0u;
	h.clk = clks[(setup >> 1) & 3u];
	h.depth = depths[(setup >> 3) & 3u];
	if (!h.dw) {
		h.depth = 16u; /* a 16550A */
	}
	uart_model_init_with(&um, UBASE, h.dw ? 2u : 0u, h.dw, h.clk, h.depth, line_store,
	                     cap_store);
	/* Firmware left the fastest line its clock gives (divisor 1: 115200 ..
	 * 3 Mbaud), so that waits for the transmitter are short. */
	um.dll = 1u;
	um.dlh = 0u;
	fz_set_input_budget(200000u);
	um.afce_supported = h.dw && (setup & 0x20u) == 0u;
	um.remote_rtscts = (setup & 0x40u) != 0u;
	memset(&u, 0, sizeof(u));
	memset(&zero_handle, 0, sizeof(zero_handle));
	(void)d1_uart_init_ex(&u, UBASE, h.dw ? 2u : 0u, h.dw ? 4u : 1u, h.clk, h.depth,
	                      h.dw ? D1_UART_FLAVOUR_DW_APB : D1_UART_FLAVOUR_16550);
	h.mapped = true;
	reset_accounting();

	while (fz_more(&in) && !fz_over_budget()) {
		uint8_t op = fz_u8(&in) % 30u;
		bool valid;
		struct d1_uart *p = pick(&in, &valid);
		uint64_t io = budget_us(h.io_div, h.io_half);
		int err = D1_OK;

		if (!h.mapped && valid && op >= 3 && op <= 8 && op != 7) {
			continue; /* the waits of a handle on no device: fallback budgets, slow */
		}
		/* A handle knows nothing of the line until configure (init touches
		 * no register): with DLAB left set (by a configure through an earlier
		 * handle that lost the line) THR/IER are DLL/DLH, and only configure
		 * may come first. A handle that lost the line itself refuses I/O. */
		if (h.mapped && p == &u && (um.lcr & 0x80u) != 0u && !u.line_lost &&
		    ((op >= 5 && op <= 15 && op != 10 && op != 13) || op == 22 || op >= 28)) {
			continue;
		}
		switch (op) {
		case 0: { /* init/init_ex: valid, or a bad argument */
			uint8_t how = fz_u8(&in) % 8u;
			uintptr_t base = how == 1u   ? 0u
			                 : how == 2u ? UNMAPPED_BASE + 2u
			                 : how == 3u ? UNMAPPED_BASE
			                             : UBASE;
			unsigned depth = how == 4u   ? 0u
			                 : how == 5u ? D1_UART_MAX_FIFO_DEPTH + 1u
			                             : h.depth;
			uint32_t clk = how == 6u ? 0u : h.clk;
			unsigned shift = how == 7u ? 3u + fz_u8(&in) : h.dw ? 2u : 0u;
			struct d1_uart scratch;

			fz_begin("d1_uart_init_ex");
			err = d1_uart_init_ex(
			        p == &zero_handle ? &scratch : p, base, shift, h.dw ? 4u : 1u, clk,
			        depth, h.dw ? D1_UART_FLAVOUR_DW_APB : D1_UART_FLAVOUR_16550);
			fz_end();
			fz_check_no_access();
			FZ_CHECK((err == D1_OK) == (p != NULL && (how == 0u || how == 3u ||
			                                          (how == 2u && !h.dw))),
			         "d1_uart_init_ex returned %s", d1_strerror(err));
			if (err == D1_OK && p == &u) {
				h.mapped = how == 0u;
				reset_accounting();
			}
			break;
		}
		case 1: { /* d1_uart_init / init_ex with arbitrary arguments */
			struct d1_uart scratch;

			fz_begin("d1_uart_init (arbitrary)");
			if (fz_bool(&in)) {
				(void)d1_uart_init(fz_bool(&in) ? NULL : &scratch, fz_u32(&in),
				                   fz_u8(&in), fz_u32(&in), fz_u16(&in));
			} else {
				(void)d1_uart_init_ex(&scratch, fz_u32(&in), fz_u8(&in), fz_u8(&in),
				                      fz_u32(&in), fz_u16(&in),
				                      (enum d1_uart_flavour)fz_u8(&in));
			}
			fz_end();
			fz_check_no_access();
			break;
		}
		case 2: { /* pure arithmetic */
			struct d1_uart_baud b;
			uint32_t clk = fz_u32(&in), baud = fz_u32(&in);

			fz_begin("d1_uart_calc_baud");
			err = d1_uart_calc_baud(clk, baud, fz_u8(&in) < 8u ? NULL : &b);
			fz_end();
			fz_check_no_access();
			if (err == D1_OK) {
				FZ_CHECK(b.divisor >= 1u && b.divisor <= 0xFFFFu &&
				                 b.err_ppm <= (int32_t)D1_UART_BAUD_TOL_PPM &&
				                 b.err_ppm >= -(int32_t)D1_UART_BAUD_TOL_PPM,
				         "calc_baud(%u, %u): divisor %u, %d ppm", clk, baud,
				         b.divisor, b.err_ppm);
			}
			break;
		}
		case 3:
		case 4:
			do_configure(&in, p, valid);
			break;
		case 5:
		case 6: {
			uint8_t c = fz_u8(&in);

			fz_begin("d1_uart_putc");
			err = d1_uart_putc(p, c);
			after(valid, err, 0u, io); /* D1_ETIMEDOUT too: nothing written */
			if (err == D1_OK && valid && h.mapped) {
				h.tx_accept++;
			}
			break;
		}
		case 7: {
			uint8_t c;

			fz_begin("d1_uart_getc");
			err = d1_uart_getc(p, fz_u8(&in) < 8u ? NULL : &c);
			after(valid, err, 0u, 0u);
			fz_check_no_write();
			break;
		}
		case 8:
			fz_begin("d1_uart_drain");
			err = d1_uart_drain(p);
			after(valid, err, 0u, io);
			fz_check_no_write();
			FZ_CHECK(err != D1_OK || !valid || !h.mapped ||
			                 (um.tx_count == 0u && !um.shifting),
			         "drained, but the transmitter is not empty");
			break;
		case 9: { /* irq_start with valid and invalid rings */
			static const uint32_t sizes[] = {0u, 2u, 4u, 16u, 256u, 3u, 1u, 128u};
			uint32_t rs = sizes[fz_u8(&in) % 8u], ts = sizes[fz_u8(&in) % 8u];
			uint8_t nb = fz_u8(&in);
			uint32_t pending = d1_uart_tx_pending(&u);

			fz_begin("d1_uart_irq_start");
			err = d1_uart_irq_start(p, (nb & 1u) != 0u ? NULL : rxbuf, rs,
			                        (nb & 2u) != 0u ? NULL : txbuf, ts);
			after(valid, err, 0u, 0u);
			if (err == D1_OK && valid && h.mapped) {
				h.tx_accept -= pending; /* the old ring was the caller's */
				FZ_CHECK(um.ier == 0x05u || (um.lcr & 0x80u) != 0u,
				         "IER 0x%x after irq_start", um.ier);
			}
			break;
		}
		case 10:
			fz_begin("d1_uart_irq_stop");
			err = d1_uart_irq_stop(p);
			after(valid, err, 0u, 0u);
			FZ_CHECK(err != D1_OK || !valid || !h.mapped || um.ier == 0u ||
			                 (um.lcr & 0x80u) != 0u,
			         "IER 0x%x after irq_stop", um.ier);
			break;
		case 11:
		case 12: {
			uint8_t buf[300];
			uint32_t len = fz_u8(&in) + (fz_bool(&in) ? 256u : 0u);
			uint32_t n;

			for (uint32_t i = 0; i < len && i < sizeof(buf); i++) {
				buf[i] = (uint8_t)(i * 7u);
			}
			if (len > sizeof(buf)) {
				len = sizeof(buf);
			}
			fz_begin("d1_uart_write");
			n = d1_uart_write(p, len == 299u ? NULL : buf, len);
			after(valid, D1_OK, 0u, 0u);
			FZ_CHECK(n <= len, "write accepted %u of %u", n, len);
			if (valid && h.mapped) {
				h.tx_accept += n;
			}
			break;
		}
		case 13: {
			uint8_t buf[300];
			uint32_t len = fz_u8(&in) + 40u;

			fz_begin("d1_uart_read");
			(void)d1_uart_read(p, fz_u8(&in) < 8u ? NULL : buf, len);
			fz_end();
			fz_check_no_access();
			break;
		}
		case 14:
		case 15: /* the ISR: directly, or as the PLIC would on the line */
			if (p == &zero_handle || (op == 15 && !uart_model_irq(&um))) {
				break; /* the ISR needs an initialised handle */
			}
			fz_begin("d1_uart_isr");
			in_isr = true;
			(void)d1_uart_isr(p);
			in_isr = false;
			after(valid, D1_OK, 0u, 0u);
			break;
		case 16: {
			struct d1_uart_stats st;

			fz_begin("d1_uart_get_stats etc.");
			err = d1_uart_get_stats(p, fz_u8(&in) < 8u ? NULL : &st);
			(void)d1_uart_tx_pending(p);
			(void)d1_uart_rx_available(p);
			fz_end();
			fz_check_no_access();
			break;
		}
		case 17:
		case 18:
		case 19: { /* characters on the RX line, some with errors */
			static const unsigned flags[] = {0u,
			                                 0u,
			                                 0u,
			                                 UART_RX_PE,
			                                 UART_RX_FE,
			                                 UART_RX_BI,
			                                 UART_RX_BI | UART_RX_FE,
			                                 0u};
			unsigned n = 1u + fz_u8(&in) % 40u;
			uint8_t f = fz_u8(&in);

			for (unsigned i = 0; i < n && uart_model_line_pending(&um) < 60000u; i++) {
				unsigned fl = flags[(f >> (i % 6u)) & 7u];

				uart_model_rx_send(
				        &um, (fl & UART_RX_BI) != 0u ? 0u : (uint8_t)(f + i), fl);
			}
			break;
		}
		case 20:
		case 21: { /* model time */
			uint64_t ct = uart_model_char_ticks(&um);
			uint64_t dt =
			        (uint64_t)fz_u16(&in) * (ct > 1000000u ? 1000000u : ct) / 256u;

			sim_advance(dt);
			check_models();
			break;
		}
		case 22: /* an interrupt between two accesses of the next call */
			uart_model_irq_after(&um, 1u + fz_u8(&in) % 24u, model_isr, NULL);
			break;
		case 23:
			uart_model_set_cts(&um, fz_bool(&in));
			break;
		case 24: { /* faults */
			uint8_t f = fz_u8(&in);

			switch (f % 8u) {
			case 0:
				um.busy_stuck = h.dw && (f & 8u) != 0u;
				break;
			case 1:
				um.race_after_usr = f >> 4;
				break;
			case 2:
				um.race_after_dlab = f >> 4;
				break;
			case 3:
				um.drop_dl_writes = f >> 4;
				break;
			case 4:
				um.busy_after_dlab = h.dw;
				break;
			case 5:
				um.tx_stuck = (f & 8u) != 0u;
				break;
			case 6:
				if (h.dw) {
					uart_model_force_timeout_empty(&um);
				}
				break;
			default:
				um.race_byte = f;
				break;
			}
			break;
		}
		case 25: /* a character straight into the FIFO */
			uart_model_rx_put(&um, fz_u8(&in), 0u);
			break;
		case 28: {                             /* byte mode: the interrupt enables */
			uint32_t ev = fz_u8(&in) % 8u; /* D1_UART_EV_ERR (4) is refused */
			uint32_t want = ((ev & D1_UART_EV_RX) != 0u ? 0x05u : 0u) |
			                ((ev & D1_UART_EV_TX) != 0u ? 0x02u : 0u);

			fz_begin("d1_uart_irq_set");
			err = d1_uart_irq_set(p, ev);
			after(valid, err, 0u, 0u);
			FZ_CHECK(err != D1_OK || !valid || !h.mapped || um.ier == want,
			         "IER 0x%x after irq_set(0x%x)", um.ier, ev);
			FZ_CHECK(err != D1_OK || ev < 4u, "irq_set(0x%x) accepted", ev);
			break;
		}
		case 29: { /* byte mode: the interrupt as an OS upper half serves it */
			uint32_t ev = 0;
			bool ok = false;
			uint8_t c;

			fz_begin("d1_uart_irq_poll");
			err = d1_uart_irq_poll(p, fz_u8(&in) < 8u ? NULL : &ev);
			after(valid, err, 0u, 0u);
			fz_check_no_write();
			if (err != D1_OK) {
				break;
			}
			if ((fz_u8(&in) & 1u) != 0u) { /* the bulk calls (NuttX recvbuf/sendbuf) */
				uint8_t b[80];
				uint32_t len = fz_u8(&in) % (uint32_t)(sizeof(b) + 1u);
				uint32_t n = UINT32_MAX;
				uint64_t ovf = um.tx_overflow;

				fz_begin("d1_uart_getn");
				err = d1_uart_getn(p, b, len, &n);
				after(valid, err, 0u, 0u);
				fz_check_no_write();
				FZ_CHECK(err != D1_OK || n <= len, "getn(%u) returned %u", len, n);
				len = fz_u8(&in) % (uint32_t)(sizeof(b) + 1u);
				memset(b, 'u', sizeof(b));
				fz_begin("d1_uart_putn");
				err = d1_uart_putn(p, b, len, &n);
				after(valid, err, 0u, 0u);
				FZ_CHECK(err != D1_OK || n <= len, "putn(%u) returned %u", len, n);
				FZ_CHECK(um.tx_overflow == ovf, "putn wrote into a full TX FIFO");
				if (err == D1_OK && valid && h.mapped) {
					h.tx_accept += n;
				}
				break;
			}
			for (unsigned k = 0; k <= h.depth; k++) {
				fz_begin("d1_uart_rx_ready");
				err = d1_uart_rx_ready(p, &ok);
				after(valid, err, 0u, 0u);
				fz_check_no_write();
				if (err != D1_OK || !ok) {
					break;
				}
				fz_begin("d1_uart_getc");
				err = d1_uart_getc(p, &c);
				after(valid, err, 0u, 0u);
				FZ_CHECK(err == D1_OK, "rx_ready said ready, getc returned %s",
				         d1_strerror(err));
			}
			fz_begin("d1_uart_tx_ready");
			err = d1_uart_tx_ready(p, fz_u8(&in) < 8u ? NULL : &ok);
			after(valid, err, 0u, 0u);
			fz_check_no_write();
			break;
		}
		default: /* back to the line as firmware left it (8N1, 115200) */
			if (fz_u8(&in) < 32u) { /* the faults end (a stuck shifter finishes now) */
				um.busy_stuck = false;
				um.tx_stuck = false;
				if (um.shifting && um.shift_end == UINT64_MAX) {
					um.shift_end = um.last_now;
				}
			}
			break;
		}
	}
	return 0;
}
