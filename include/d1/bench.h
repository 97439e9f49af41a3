/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file bench.h
 * @brief The latency bench's accounting, defined once for every OS: the
 *        period grid, the two samples, missed periods, late and spurious
 *        wake-ups.
 *
 * A bench runs a Timer channel periodic on OSC24M without prescaling, so a
 * d1_timer_isr() sample and the `time` CSR count the same 24 MHz clock
 * (d1/time.h #D1_TIME_HZ; docs/latency.md "Bench accounting"). Each OS's
 * bench is a shell around these calls:
 *
 *   - d1_bench_start() with the `time` CSR read just before the Timer starts:
 *     the origin of the grid of period boundaries start + k * period;
 *   - in the Timer's interrupt, d1_bench_irq(b, d1_timer_isr(&t), d1_time_now()):
 *     the sample, if any, goes to the timer-IRQ recorder, and the boundaries
 *     since the last one accounted are counted; then the OS wakes its task
 *     (semaphore, event, signal: the OS's natural way) unless the answer is
 *     #D1_BENCH_SPURIOUS, and stops the Timer on #D1_BENCH_DONE;
 *   - in the woken task, d1_bench_wake(b, d1_time_now()): the task wake-up
 *     sample, from the latest boundary;
 *   - d1_bench_finish() once the task is done (or the run timed out): every
 *     boundary up to then that no interrupt or wake-up accounted is missed;
 *   - optionally, the bench's own cost: d1_bench_instret() before
 *     d1_timer_isr() and after d1_bench_irq(), the difference to
 *     d1_bench_irq_cost(). The stats give its minimum and maximum per
 *     sample, which the report prints (d1_lat_meta bench_instr_min/max), so
 *     a reader can subtract what the bench itself adds to a task wake-up
 *     sample (all of it) or a timer-IRQ sample (the part of d1_timer_isr()
 *     before its counter read).
 *
 * Definitions (the same on every OS):
 *   - **boundary**: the instant the Timer's count reloaded, `now - sample`
 *     on the `time` CSR (sample = Timer clocks since it, d1_timer_isr());
 *   - **timer-IRQ sample**: that sample;
 *   - **missed period (IRQ)**: a boundary of the grid no interrupt sampled.
 *     An interrupt finds n = round((boundary - last) / period) new
 *     boundaries since the last accounted one (rounded: the estimate may be
 *     off the grid by a few clocks, never by half a period); n - 1 are missed;
 *     n = 0 is a **spurious interrupt** (no new boundary; also one whose
 *     d1_timer_isr() returned #D1_TIMER_ISR_SPURIOUS): counted, no sample;
 *   - **task wake-up sample**: `time` at the wake-up minus the latest
 *     boundary an interrupt accounted;
 *   - **late wake-up**: one that finds more than one boundary since the last
 *     wake-up: it samples the latest, the others are missed wake-ups;
 *     **spurious wake-up**: one that finds no new boundary (no sample);
 *   - the run ends after @c periods boundaries; d1_bench_finish() counts the
 *     grid's boundaries between the last accounted one and its @p now (at
 *     most the run's) as missed, for each recorder: a Timer that stopped, a
 *     wake-up that never came.
 *
 * Every boundary of the run is a sample or a missed period of each
 * recorder, whatever the schedule (tests/test_bench.c drives the Timer model
 * through late handlers, handlers more than a period late, a boundary during
 * the handler and a stopped clock).
 *
 * Concurrency: d1_bench_irq() runs in the Timer's interrupt; d1_bench_wake()
 * and d1_bench_finish() in the task, and read what the interrupt wrote inside
 * d1_port_critical_enter()/exit(). One bench handle per Timer channel.
 */
#ifndef D1_BENCH_H
#define D1_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/latency.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_bench Latency bench accounting
 * @{ */

/** Shortest period, `time` counts (10 us at 24 MHz): the grid's rounding
 *  needs the boundary estimate well inside half a period. */
#define D1_BENCH_PERIOD_MIN 240u

/** Answer of d1_bench_irq(). */
enum d1_bench_irq_result {
	D1_BENCH_SAMPLE = 0,   /**< A sample recorded: wake the task. */
	D1_BENCH_SPURIOUS = 1, /**< No new boundary: counted, nothing to wake. */
	D1_BENCH_DONE = 2,     /**< The run's last boundary: wake the task, stop the Timer. */
};

/** Counters of a run, besides the recorders' samples and missed counts. */
struct d1_bench_stats {
	uint64_t boundaries;   /**< Boundaries accounted: by interrupts, and by d1_bench_finish() as
	                          missed. */
	uint64_t woken;        /**< Boundaries the wake-up side accounted. */
	uint32_t spurious_irq; /**< Interrupts with no new boundary. */
	uint32_t spurious_wake; /**< Wake-ups with no new boundary. */
	uint32_t late_wake;     /**< Wake-ups after a later boundary. */
	uint32_t grid_err_max;  /**< Largest |boundary estimate - grid|, counts. */
	uint32_t irq_instr_min; /**< Fewest instructions d1_bench_irq_cost() got for a sample (0:
	                           none given). */
	uint32_t irq_instr_max; /**< Most, likewise. */
};

/** One run (caller memory; fields private: read them with d1_bench_get_stats()). */
struct d1_bench {
	struct d1_lat *irq;         /**< Timer-IRQ recorder. */
	struct d1_lat *wake;        /**< Task wake-up recorder (NULL: none). */
	uint64_t period;            /**< Counts per period. */
	uint64_t periods;           /**< Boundaries in the run. */
	uint64_t grid;              /**< The last accounted boundary, on the grid. */
	volatile uint64_t boundary; /**< Its estimate (now - sample). */
	volatile uint64_t seen;     /**< Boundaries accounted by the IRQ side. */
	uint64_t woken;             /**< Boundaries accounted by the wake side. */
	uint32_t spurious_irq;      /**< See d1_bench_get_stats(). */
	uint32_t spurious_wake;     /**< See d1_bench_get_stats(). */
	uint32_t late_wake;         /**< See d1_bench_get_stats(). */
	uint32_t grid_err_max;      /**< See d1_bench_get_stats(). */
	uint32_t instr_min;         /**< See d1_bench_get_stats() (UINT32_MAX: none yet). */
	uint32_t instr_max;         /**< See d1_bench_get_stats(). */
	bool sampled;               /**< The last d1_bench_irq() recorded a sample. */
	bool started;               /**< d1_bench_start() was called. */
	bool finished;              /**< d1_bench_finish() was called. */
};

/**
 * @brief Prepare a run of @p periods periods of @p period counts.
 * @param b       Handle (caller memory).
 * @param irq     Timer-IRQ recorder, d1_lat_init()ed at #D1_TIME_HZ.
 * @param wake    Task wake-up recorder, the same clock; NULL for a bench
 *                without a task (bare metal).
 * @param period  Counts of the `time` CSR per period (= Timer clocks).
 * @param periods Boundaries the run lasts, >= 1.
 * @return D1_OK; D1_EINVAL for NULL @p b or @p irq, or @p wake == @p irq;
 *         D1_ERANGE for @p period < #D1_BENCH_PERIOD_MIN or > UINT32_MAX (a
 *         sample is 32 bits), or @p periods 0. @p b untouched on error.
 */
d1_err_t d1_bench_init(struct d1_bench *b, struct d1_lat *irq, struct d1_lat *wake, uint64_t period,
                       uint64_t periods);

/**
 * @brief The grid's origin: the `time` CSR just before the Timer starts.
 * @param b   Handle after d1_bench_init().
 * @param now `time` CSR.
 * @return D1_OK; D1_EINVAL for NULL @p b; D1_ESTATE if already started.
 */
d1_err_t d1_bench_start(struct d1_bench *b, uint64_t now);

/**
 * @brief Account one Timer interrupt (call from the interrupt).
 * @param b      Handle after d1_bench_start().
 * @param sample d1_timer_isr()'s answer: clocks since the boundary, or
 *               #D1_TIMER_ISR_SPURIOUS.
 * @param now    `time` CSR, read after the sample.
 * @return #D1_BENCH_SAMPLE, #D1_BENCH_SPURIOUS (also for a NULL or unstarted
 *         handle, or after the run's end: nothing recorded), #D1_BENCH_DONE.
 */
enum d1_bench_irq_result d1_bench_irq(struct d1_bench *b, uint32_t sample, uint64_t now);

/**
 * @brief Account one wake-up of the task (call from the task).
 * @param b   Handle after d1_bench_start(), with a wake recorder.
 * @param now `time` CSR at the wake-up.
 * @return true when the run's last boundary is accounted (the task is done);
 *         false otherwise, and for a NULL handle or one without a wake
 *         recorder (nothing recorded).
 */
bool d1_bench_wake(struct d1_bench *b, uint64_t now);

/**
 * @brief End the run: the grid's boundaries up to @p now (at most the run's)
 *        that no interrupt, or no wake-up, accounted are missed periods of
 *        that recorder. Call once, with the Timer stopped.
 * @param b   Handle after d1_bench_start().
 * @param now `time` CSR at the end.
 * @return D1_OK; D1_EINVAL for NULL @p b; D1_ESTATE if not started or
 *         already finished.
 */
d1_err_t d1_bench_finish(struct d1_bench *b, uint64_t now);

/**
 * @brief Read the `instret` CSR (instructions retired) for d1_bench_irq_cost().
 * @return `instret` on RISC-V (S mode needs mcounteren.IR, which OpenSBI
 *         sets); 0 in hooked and non-RISC-V builds, where no cost is measured.
 */
static inline uint64_t d1_bench_instret(void)
{
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
	uint64_t n;
	__asm__ volatile("rdinstret %0" : "=r"(n)::"memory");
	return n;
#else
	return 0u;
#endif
}

/**
 * @brief Account the instructions the bench spent in the interrupt for the
 *        sample the last d1_bench_irq() recorded (call from the interrupt,
 *        right after it).
 * @param b            Handle.
 * @param instructions d1_bench_instret() after d1_bench_irq() minus
 *                     d1_bench_instret() before d1_timer_isr() (both reads
 *                     included; saturates at UINT32_MAX).
 * @return D1_OK; D1_EINVAL for NULL @p b; D1_ESTATE if the last
 *         d1_bench_irq() recorded no sample (spurious, or none yet): nothing
 *         accounted.
 */
d1_err_t d1_bench_irq_cost(struct d1_bench *b, uint64_t instructions);

/**
 * @brief Copy the run's counters.
 * @param b   Handle.
 * @param out Destination.
 * @return D1_OK; D1_EINVAL for a NULL argument.
 */
d1_err_t d1_bench_get_stats(const struct d1_bench *b, struct d1_bench_stats *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_BENCH_H */
