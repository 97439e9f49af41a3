/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 CCU bus clock gates and resets: one function family over the table of
 * every *_BGR gate/reset pair (D1_CCU_BUS_LIST in d1/ccu_regs.h, checked
 * against the SVD), and the UART wrappers. Its own object: a kernel that
 * never gates a clock does not link the table.
 */
#include <stddef.h>

#include "d1/ccu.h"
#include "d1/mmio.h"
#include "d1/port.h"

struct bus_row {
	uint16_t off; /* *_BGR offset */
	uint8_t gate; /* gate bit, or D1_CCU_BUS_NO_BIT */
	uint8_t rst;  /* reset bit, or D1_CCU_BUS_NO_BIT */
};

#define ROW_(name, svd, off, gf, gate, rf, rst) {(off), (gate), (rst)},
static const struct bus_row rows[] = {D1_CCU_BUS_LIST(ROW_)};
#undef ROW_

/* enum d1_ccu_bus names the rows in table order. */
#define IDX_(name, ...) IDX_##name,
enum { D1_CCU_BUS_LIST(IDX_) IDX_COUNT_ };
#undef IDX_
#define CHECK_(name, ...) _Static_assert((int)D1_CCU_BUS_##name == (int)IDX_##name, #name);
D1_CCU_BUS_LIST(CHECK_)
#undef CHECK_
_Static_assert(IDX_COUNT_ == D1_CCU_BUS_COUNT && sizeof(rows) / sizeof(rows[0]) == IDX_COUNT_,
               "D1_CCU_BUS_COUNT");
_Static_assert(D1_CCU_BUS_UART5 - D1_CCU_BUS_UART0 + 1 == D1_CCU_UART_COUNT,
               "UART rows are consecutive");

static bool valid(const struct d1_ccu *c)
{
	return c != NULL && c->base != 0u && (c->base & 3u) == 0u && c->osc24m_hz != 0u;
}

static uint32_t bit(uint8_t n)
{
	return n == D1_CCU_BUS_NO_BIT ? 0u : 1u << n;
}

/* Blocks the running system needs: never gated off by this driver (code
 * and data live in DRAM; RISCV_CFG configures the core itself). */
static bool protected_bus(enum d1_ccu_bus bus)
{
	return bus == D1_CCU_BUS_DRAM || bus == D1_CCU_BUS_RISCV_CFG;
}

/* Set (on) or clear the bits @m of the register at @a; no access if m = 0. */
__attribute__((noinline)) static void set_bits(uintptr_t a, uint32_t m, bool on)
{
	if (m != 0u) {
		d1_mmio_modify32(a, m, on ? m : 0u);
	}
}

static d1_err_t bus_set(const struct d1_ccu *c, enum d1_ccu_bus bus, bool on)
{
	const struct bus_row *r;
	uintptr_t a;
	uintptr_t s;
	uint32_t g;
	uint32_t rst;

	if (!valid(c) || (unsigned)bus >= D1_CCU_BUS_COUNT) {
		return D1_EINVAL;
	}
	if (!on && protected_bus(bus)) {
		return D1_EBUSY;
	}
	r = &rows[bus];
	a = c->base + r->off;
	g = bit(r->gate);
	rst = bit(r->rst);
	s = d1_port_critical_enter(); /* a *_BGR word can hold several instances */
	/* On, U-Boot order (clock_init_uart): clock first, then release the
	 * reset. Off, the reverse: hold in reset, then stop the clock. */
	set_bits(a, on ? g : rst, on);
	set_bits(a, on ? rst : g, on);
	d1_port_critical_exit(s);
	return D1_OK;
}

d1_err_t d1_ccu_bus_enable(const struct d1_ccu *c, enum d1_ccu_bus bus)
{
	return bus_set(c, bus, true);
}

d1_err_t d1_ccu_bus_disable(const struct d1_ccu *c, enum d1_ccu_bus bus)
{
	return bus_set(c, bus, false);
}

d1_err_t d1_ccu_bus_is_enabled(const struct d1_ccu *c, enum d1_ccu_bus bus, bool *on)
{
	uint32_t both;

	if (!valid(c) || (unsigned)bus >= D1_CCU_BUS_COUNT || on == NULL) {
		return D1_EINVAL;
	}
	both = bit(rows[bus].gate) | bit(rows[bus].rst);
	*on = (d1_mmio_read32(c->base + rows[bus].off) & both) == both;
	return D1_OK;
}

/* UART wrappers: UARTn is row D1_CCU_BUS_UART0 + n. */

static enum d1_ccu_bus uart_bus(unsigned uart)
{
	/* Out of range maps past the table: refused by the checks above. */
	return uart < D1_CCU_UART_COUNT ? (enum d1_ccu_bus)(D1_CCU_BUS_UART0 + uart)
	                                : (enum d1_ccu_bus)D1_CCU_BUS_COUNT;
}

d1_err_t d1_ccu_uart_enable(const struct d1_ccu *c, unsigned uart)
{
	return bus_set(c, uart_bus(uart), true);
}

d1_err_t d1_ccu_uart_disable(const struct d1_ccu *c, unsigned uart)
{
	return bus_set(c, uart_bus(uart), false);
}

d1_err_t d1_ccu_uart_is_enabled(const struct d1_ccu *c, unsigned uart, bool *on)
{
	return d1_ccu_bus_is_enabled(c, uart_bus(uart), on);
}
