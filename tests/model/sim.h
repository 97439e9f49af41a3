/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulated bus for host tests: implements d1_mmio_hook_read32/write32 and
 * the port contract (d1/port.h), and routes each access to the behavioural
 * model of the block that owns the address. Model time is counted in ticks
 * of the 24 MHz oscillator (SIM_HZ) and moves only when a test (or the
 * driver's d1_port_delay_us()) advances it.
 */
#ifndef D1_TEST_SIM_H
#define D1_TEST_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_HZ          24000000u
#define SIM_MAX_REGIONS 16

struct sim_region {
	const char *name;
	uintptr_t base;
	uintptr_t size;
	uint32_t (*read)(void *ctx, uint32_t off);
	void (*write)(void *ctx, uint32_t off, uint32_t value);
	/* Called whenever model time moves, with the new time. May be NULL. */
	void (*advance)(void *ctx, uint64_t now);
	void *ctx;
	/* Counters kept by the bus. */
	uint64_t reads;
	uint64_t writes;
};

/* Forget all regions and counters; time back to 0. */
void sim_reset(void);
/* Route [base, base + size) to the region (first match wins; map smaller
 * windows first when they nest). */
void sim_map(struct sim_region *r);
/* Current model time, SIM_HZ ticks. */
uint64_t sim_now(void);
/* Move model time forward. */
void sim_advance(uint64_t ticks);
/* Model time each MMIO access costs (default 0). An access takes effect at
 * the start of its cost, so a device event during the access's time lands
 * after it: a status bit set while a W1C write is in flight stays set (set
 * wins over a simultaneous clear, the usual W1C design). */
void sim_set_access_cost(uint64_t ticks);

/* Totals over all regions, and accesses that hit no region. */
uint64_t sim_reads(void);
uint64_t sim_writes(void);
uint64_t sim_unmapped(void);

/* The RISC-V `time` CSR as d1_time_now() sees it in hooked builds
 * (d1_time_hook_now): model time plus an offset (to place the counter near
 * its 2^64 wrap), at SIM_HZ (= D1_TIME_HZ). Each reading returns the
 * current value, then lets @p step ticks of model time pass (default 1), so
 * a polling loop makes progress. sim_reset() restores offset 0, step 1. */
void sim_set_time_offset(uint64_t offset);
void sim_set_time_step(uint64_t step);
/* The `instret` stand-in of hooked builds (d1_bench_hook_instret(), read by
 * d1_bench_instret()): each read returns the count, then adds @p step
 * (default 0: every read the same, nothing measured). */
void sim_set_instret_step(uint64_t step);
/* Rescue for a test of code that may spin on a stopped `time` (step 0) for
 * ever: after @p reads more readings from now, each reading lets 2^30 ticks
 * pass, so the spin ends and the test can report how long it took (0: off;
 * sim_reset() turns it off). */
void sim_set_time_rescue(uint64_t reads);
uint64_t sim_time_reads(void);

/* Bus faults (an access the device answers with an error response, e.g.
 * PSLVERR -> load/store access fault). A model calls sim_bus_fault() from
 * its read/write callback. Inside the port's fault-safe probe
 * (d1_port_probe32(), implemented here with setjmp/longjmp, as an OS's
 * exception fixup would) the access is abandoned and the probe returns
 * D1_ENODELEG; anywhere else the fault is an unhandled trap: counted in
 * sim_unhandled_faults() (the read returns 0, the write is dropped) so a test
 * can assert there were none. sim_set_probe_supported(false) makes
 * d1_port_probe32() behave like a port without a fixup (D1_ENOTSUP, no
 * access). */
void sim_bus_fault(void);
uint64_t sim_unhandled_faults(void);
uint64_t sim_probe_faults(void);
uint64_t sim_probe_calls(void);
void sim_set_probe_supported(bool on);

/* Port contract bookkeeping. sim_delay_us_max(): the longest single
 * d1_port_delay_us() request since sim_reset() (port.h: the library asks
 * for < 20 ms). */
uint64_t sim_delay_us_total(void);
uint64_t sim_delay_us_max(void);
unsigned sim_critical_depth(void);
uint64_t sim_critical_entries(void);

/*
 * Interrupt injection (tests/test_interleave.c). The thread side's "events"
 * are its bus accesses and its port calls (d1_port_critical_enter/exit,
 * d1_port_delay_us, the `time` CSR read); injection point 2e is just before
 * event e (counted from sim_irq_arm()), 2e + 1 just after it. At the armed
 * point the interrupt is raised and @p fn runs as the interrupt handler,
 * re-entrantly through the bus, as the hardware would take it:
 *  - interrupts enabled (no critical section open): at once;
 *  - inside a critical section (interrupts masked): held pending and taken
 *    right after the d1_port_critical_exit() that closes the outermost one
 *    (a hart takes a pending interrupt as soon as it re-enables them), so
 *    nested sections defer it to the last exit;
 *  - @p fn runs with interrupts masked: its own accesses and port calls are
 *    not events, its own critical sections nest without unmasking, and it
 *    is never re-entered.
 * sim_irq_arm(SIM_IRQ_NEVER, NULL, NULL) only counts events (a dry run).
 */
#define SIM_IRQ_NEVER UINT64_MAX
typedef void (*sim_isr_fn)(void *arg);
void sim_irq_arm(uint64_t point, sim_isr_fn fn, void *arg);
/* Forget the armed interrupt (a pending one is dropped: check it first). */
void sim_irq_disarm(void);
/* Thread-side events since sim_irq_arm(). */
uint64_t sim_irq_events(void);
/* The armed interrupt was raised / was held by a critical section / ran. */
bool sim_irq_raised(void);
bool sim_irq_was_deferred(void);
unsigned sim_irq_taken(void);
/* True while the injected handler runs. */
bool sim_in_isr(void);

/* Optional trace of every access: called after the model handled it. */
typedef void (*sim_trace_fn)(void *arg, bool write, uintptr_t addr, uint32_t value);
void sim_set_trace(sim_trace_fn fn, void *arg);

/* cmocka check: @p expr returns @p err and the bus saw no write meanwhile
 * (every bad input must leave the hardware untouched). */
#define SIM_EXPECT_NO_WRITE(expr, err)                                                             \
	do {                                                                                       \
		uint64_t w_ = sim_writes();                                                        \
		assert_int_equal((expr), (err));                                                   \
		assert_int_equal(sim_writes(), w_);                                                \
	} while (0)

/* Small deterministic PRNG for tests (xorshift64*). */
uint64_t sim_rand(uint64_t *state);

#endif /* D1_TEST_SIM_H */
