/* SPDX-License-Identifier: Apache-2.0 */
#include "sim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "d1/mmio.h"
#include "d1/port.h"
#include "d1/bench.h"
#include "d1/time.h"

static struct {
	struct sim_region *regions[SIM_MAX_REGIONS];
	unsigned n;
	uint64_t now;
	uint64_t cost;
	uint64_t unmapped;
	uint64_t delay_us;
	uint64_t delay_us_max;
	unsigned depth;
	uint64_t entries;
	sim_trace_fn trace;
	void *trace_arg;
	uint64_t time_offset;
	uint64_t time_step;
	uint64_t time_reads;
	uint64_t time_rescue_at; /* time_reads from which the rescue steps apply (0: off) */
	uint64_t instret;        /* the `instret` stand-in (d1_bench_hook_instret) */
	uint64_t instret_step;   /* added by each read */
	jmp_buf *probe_jmp;      /* the innermost active d1_port_probe32() */
	bool probe_off;
	uint64_t probe_calls;
	uint64_t probe_faults;
	uint64_t unhandled_faults;
	/* interrupt injection */
	sim_isr_fn irq_fn;
	void *irq_arg;
	uint64_t irq_point;
	uint64_t irq_events;
	bool irq_raised;
	bool irq_pending;
	bool irq_deferred;
	bool in_isr;
	unsigned irq_taken;
} sim = {.time_step = 1};

/* --- interrupt injection --- */

/* Take the raised interrupt if the thread has interrupts enabled. */
static void irq_deliver(void)
{
	if (!sim.irq_pending || sim.in_isr) {
		return;
	}
	if (sim.depth != 0u) {
		sim.irq_deferred = true; /* masked: taken at the outermost exit */
		return;
	}
	sim.irq_pending = false;
	sim.in_isr = true;
	sim.irq_taken++;
	sim.irq_fn(sim.irq_arg);
	sim.in_isr = false;
}

static void irq_at(uint64_t point)
{
	if (sim.irq_fn != NULL && !sim.irq_raised && point == sim.irq_point) {
		sim.irq_raised = true;
		sim.irq_pending = true;
		irq_deliver();
	}
}

/* Around every thread-side event: the point before it, then after it. */
static void ev_before(void)
{
	if (!sim.in_isr) {
		irq_at(2u * sim.irq_events);
	}
}

static void ev_after(void)
{
	if (!sim.in_isr) {
		irq_at(2u * sim.irq_events + 1u);
		sim.irq_events++;
	}
}

void sim_irq_arm(uint64_t point, sim_isr_fn fn, void *arg)
{
	sim.irq_fn = fn;
	sim.irq_arg = arg;
	sim.irq_point = point;
	sim.irq_events = 0;
	sim.irq_raised = false;
	sim.irq_pending = false;
	sim.irq_deferred = false;
	sim.irq_taken = 0;
}

void sim_irq_disarm(void)
{
	sim.irq_fn = NULL;
	sim.irq_pending = false;
}

uint64_t sim_irq_events(void)
{
	return sim.irq_events;
}

bool sim_irq_raised(void)
{
	return sim.irq_raised;
}

bool sim_irq_was_deferred(void)
{
	return sim.irq_deferred;
}

unsigned sim_irq_taken(void)
{
	return sim.irq_taken;
}

bool sim_in_isr(void)
{
	return sim.in_isr;
}

void sim_reset(void)
{
	sim.n = 0;
	sim.now = 0;
	sim.cost = 0;
	sim.unmapped = 0;
	sim.delay_us = 0;
	sim.delay_us_max = 0;
	sim.depth = 0;
	sim.entries = 0;
	sim.trace = NULL;
	sim.time_offset = 0;
	sim.time_step = 1;
	sim.time_reads = 0;
	sim.instret = 0;
	sim.instret_step = 0;
	sim.time_rescue_at = 0;
	sim.probe_jmp = NULL;
	sim.probe_off = false;
	sim.probe_calls = 0;
	sim.probe_faults = 0;
	sim.unhandled_faults = 0;
	sim_irq_arm(SIM_IRQ_NEVER, NULL, NULL);
	sim.in_isr = false;
}

void sim_map(struct sim_region *r)
{
	if (sim.n >= SIM_MAX_REGIONS) {
		fprintf(stderr, "sim: too many regions\n");
		abort();
	}
	r->reads = 0;
	r->writes = 0;
	sim.regions[sim.n++] = r;
}

uint64_t sim_now(void)
{
	return sim.now;
}

void sim_advance(uint64_t ticks)
{
	sim.now += ticks;
	for (unsigned i = 0; i < sim.n; i++) {
		if (sim.regions[i]->advance != NULL) {
			sim.regions[i]->advance(sim.regions[i]->ctx, sim.now);
		}
	}
}

void sim_set_access_cost(uint64_t ticks)
{
	sim.cost = ticks;
}

static struct sim_region *find(uintptr_t addr)
{
	for (unsigned i = 0; i < sim.n; i++) {
		struct sim_region *r = sim.regions[i];
		if (addr >= r->base && addr - r->base < r->size) {
			return r;
		}
	}
	return NULL;
}

/* One bus access of @p align-byte alignment (4 for the 32-bit seam, 1 for
 * the 8-bit one): route to the region, count, let time pass, trace. */
static uint32_t bus_access(uintptr_t addr, bool write, uint32_t value, uintptr_t align)
{
	struct sim_region *r = find(addr);
	uint32_t v = value;

	ev_before();
	if (r == NULL || (addr & (align - 1u)) != 0) {
		sim.unmapped++;
		v = 0;
	} else if (write) {
		r->writes++;
		r->write(r->ctx, (uint32_t)(addr - r->base), value);
	} else {
		r->reads++;
		v = r->read(r->ctx, (uint32_t)(addr - r->base));
	}
	if (sim.cost != 0) {
		sim_advance(sim.cost); /* the access takes effect, then time passes */
	}
	if (sim.trace != NULL) {
		sim.trace(sim.trace_arg, write, addr, write ? value : v);
	}
	ev_after();
	return v;
}

uint32_t d1_mmio_hook_read32(uintptr_t addr)
{
	return bus_access(addr, false, 0, 4u);
}

void d1_mmio_hook_write32(uintptr_t addr, uint32_t value)
{
	(void)bus_access(addr, true, value, 4u);
}

uint64_t sim_reads(void)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < sim.n; i++) {
		t += sim.regions[i]->reads;
	}
	return t;
}

uint64_t sim_writes(void)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < sim.n; i++) {
		t += sim.regions[i]->writes;
	}
	return t;
}

uint64_t sim_unmapped(void)
{
	return sim.unmapped;
}

void sim_set_trace(sim_trace_fn fn, void *arg)
{
	sim.trace = fn;
	sim.trace_arg = arg;
}

uint64_t sim_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* --- the `time` CSR (d1/time.h) on model time --- */

uint64_t d1_bench_hook_instret(void)
{
	uint64_t n = sim.instret;

	sim.instret += sim.instret_step;
	return n;
}

void sim_set_instret_step(uint64_t step)
{
	sim.instret_step = step;
}

uint64_t d1_time_hook_now(void)
{
	uint64_t t;

	ev_before();
	t = sim.now + sim.time_offset; /* wraps like the CSR */
	sim.time_reads++;
	if (sim.time_rescue_at != 0 && sim.time_reads >= sim.time_rescue_at) {
		sim_advance(1ull << 30);
	} else if (sim.time_step != 0) {
		sim_advance(sim.time_step);
	}
	ev_after();
	return t;
}

void sim_set_time_rescue(uint64_t reads)
{
	sim.time_rescue_at = reads != 0 ? sim.time_reads + reads : 0;
}

void sim_set_time_offset(uint64_t offset)
{
	sim.time_offset = offset;
}

void sim_set_time_step(uint64_t step)
{
	sim.time_step = step;
}

uint64_t sim_time_reads(void)
{
	return sim.time_reads;
}

/* --- bus faults and the fault-safe probe (d1/port.h d1_port_probe32) --- */

void sim_bus_fault(void)
{
	if (sim.probe_jmp != NULL) {
		longjmp(*sim.probe_jmp, 1); /* the "exception fixup" */
	}
	sim.unhandled_faults++;
}

d1_err_t d1_port_probe32(uintptr_t addr, bool write, uint32_t *value)
{
	jmp_buf env;
	jmp_buf *const prev = sim.probe_jmp;

	if (sim.probe_off) {
		return D1_ENOTSUP;
	}
	sim.probe_calls++;
	if (setjmp(env) != 0) {
		sim.probe_jmp = prev;
		sim.probe_faults++;
		return D1_ENODELEG;
	}
	sim.probe_jmp = &env;
	if (write) {
		d1_mmio_hook_write32(addr, *value);
	} else {
		*value = d1_mmio_hook_read32(addr);
	}
	sim.probe_jmp = prev;
	return D1_OK;
}

uint64_t sim_unhandled_faults(void)
{
	return sim.unhandled_faults;
}

uint64_t sim_probe_faults(void)
{
	return sim.probe_faults;
}

uint64_t sim_probe_calls(void)
{
	return sim.probe_calls;
}

void sim_set_probe_supported(bool on)
{
	sim.probe_off = !on;
}

/* --- the port contract, on model time --- */

void d1_port_delay_us(uint32_t us)
{
	ev_before();
	sim.delay_us += us;
	if (us > sim.delay_us_max) {
		sim.delay_us_max = us;
	}
	sim_advance((uint64_t)us * (SIM_HZ / 1000000u));
	ev_after();
}

uintptr_t d1_port_critical_enter(void)
{
	uintptr_t state;

	ev_before(); /* interrupts still enabled: an interrupt here runs */
	sim.entries++;
	state = sim.depth++;
	ev_after(); /* masked from here on */
	return state;
}

void d1_port_critical_exit(uintptr_t state)
{
	if (sim.depth == 0 || state != sim.depth - 1u) {
		fprintf(stderr, "sim: unbalanced critical section\n");
		abort();
	}
	ev_before(); /* still masked */
	sim.depth--;
	irq_deliver(); /* a held interrupt is taken as the outermost exit unmasks */
	ev_after();
}

uint64_t sim_delay_us_total(void)
{
	return sim.delay_us;
}

uint64_t sim_delay_us_max(void)
{
	return sim.delay_us_max;
}

unsigned sim_critical_depth(void)
{
	return sim.depth;
}

uint64_t sim_critical_entries(void)
{
	return sim.entries;
}

/* --- 8-bit accesses (byte-wide register files, e.g. the QEMU virt ns16550a
 * model at reg-shift 0): routed to the same region callbacks with the byte
 * offset, which may be unaligned; models that are 32-bit only return 0 for
 * offsets they do not decode. --- */

uint8_t d1_mmio_hook_read8(uintptr_t addr)
{
	return (uint8_t)bus_access(addr, false, 0, 1u);
}

void d1_mmio_hook_write8(uintptr_t addr, uint8_t value)
{
	(void)bus_access(addr, true, value, 1u);
}
