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
 *   - in the Timer's interrupt, d1_bench_isr(b, &timer): the core reads the
 *     Timer's counter (d1_timer_isr(), which also acknowledges), then the
 *     `time` CSR, in that order, and stores the pair in a capture slot:
 *     nothing else, so that the bench adds as little as it can to the
 *     wake-up it measures. The OS then wakes its task (semaphore, event,
 *     signal: the OS's natural way) when the answer is #D1_BENCH_SAMPLE;
 *   - in the woken task, d1_bench_wake(b, now) with the `time` CSR read
 *     first: the core accounts the captured interrupts (the grid, the
 *     timer-IRQ samples, missed periods), then the task wake-up sample from
 *     the latest boundary; true once the run's last boundary is accounted:
 *     the task stops the Timer;
 *   - a bench without a task (bare metal, a kernel module) calls
 *     d1_bench_account() in the interrupt after d1_bench_isr(), and stops
 *     the Timer on #D1_BENCH_DONE: its sample was taken before;
 *   - d1_bench_finish() once the task is done (or the run timed out): every
 *     boundary up to then that no interrupt or wake-up accounted is missed.
 *
 * A boundary that is not a Timer's (a software timer's deadline: SBI
 * set_timer, a Linux thread's intended wake-up time) is captured by
 * d1_bench_isr_at() with that deadline as the boundary.
 *
 * The bench's own cost: d1_bench_isr() reads `instret` on entry and before
 * its last store, and the core keeps the fewest and most instructions per
 * sample (stats irq_instr_min/max; the report's bench_instr_min/max). All
 * of it lies inside a task wake-up sample; of a timer-IRQ sample only the
 * part of d1_timer_isr() before its counter read.
 *
 * Definitions (the same on every OS):
 *   - **boundary**: the instant the Timer's count reloaded, `now - sample`
 *     on the `time` CSR (sample = Timer clocks since it, d1_timer_isr());
 *     the counter is read first, so the estimate is never before the true
 *     boundary (tests/test_bench.c test_counter_read_before_time);
 *   - **timer-IRQ sample**: that sample;
 *   - **missed period (IRQ)**: a boundary of the grid no interrupt sampled.
 *     A capture finds n = round((boundary - last) / period) new
 *     boundaries since the last accounted one (rounded: the estimate may be
 *     off the grid by a few clocks, never by half a period); n - 1 are missed;
 *     a **spurious interrupt** finds no new boundary: d1_timer_isr()
 *     returned #D1_TIMER_ISR_SPURIOUS (counted, nothing captured), or the
 *     capture's estimate is less than half a period after the last
 *     accounted grid point (the same boundary seen again: counted by the
 *     accounting, no sample);
 *   - **task wake-up sample**: `time` at the wake-up minus the latest
 *     boundary an interrupt captured;
 *   - **late wake-up**: one that finds more than one boundary since the last
 *     wake-up: it samples the latest, the others are missed wake-ups;
 *     **spurious wake-up**: one that finds no new boundary (no sample);
 *   - **dropped capture**: an interrupt that finds all #D1_BENCH_SLOTS slots
 *     waiting (the task more than that many periods late) replaces the
 *     newest capture, which is counted (stats dropped) and whose boundary
 *     is then a missed period (IRQ): the latest boundary, the one a
 *     wake-up is measured from, is always captured;
 *   - the run ends after @c periods boundaries; d1_bench_finish() counts the
 *     grid's boundaries between the last accounted one and its @p now (at
 *     most the run's) as missed, for each recorder: a Timer that stopped, a
 *     wake-up that never came.
 *
 * Every boundary of the run is a sample or a missed period of each
 * recorder, whatever the schedule (tests/test_bench.c drives the Timer model
 * through late handlers, handlers more than a period late, a boundary during
 * the handler, a task later than every slot and a stopped clock).
 *
 * Concurrency: d1_bench_isr() and d1_bench_isr_at() run in the interrupt;
 * d1_bench_account() on one side only: in the task (through
 * d1_bench_wake()) or, for a bench without a task, in the interrupt. The
 * slots are a single-producer single-consumer ring: the consumer takes a
 * slot inside d1_port_critical_enter()/exit(). One bench handle per Timer
 * channel.
 */
#ifndef D1_BENCH_H
#define D1_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/latency.h"
#include "d1/timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_bench Latency bench accounting
 * @{ */

/** Shortest period, `time` counts (10 us at 24 MHz): the grid's rounding
 *  needs the boundary estimate well inside half a period. */
#define D1_BENCH_PERIOD_MIN 240u

/** The comparison's defined load, "memcpy+uart", the same on every OS
 *  (docs/comparison.md "The loads"): the background copy moves this many
 *  bytes per copy, at the lowest priority... */
#define D1_BENCH_LOAD_COPY_BYTES 65536u
/** ...while a thread just above it keeps the console's UART transmitting
 *  this line (64 characters)... */
#define D1_BENCH_LOAD_LINE "d1bench load: 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL\n"
/** ...one line per line time: 64 characters x 10 bits at 115,200 baud, us
 *  (a writer that cannot block on the UART sleeps this long per line). */
#define D1_BENCH_LOAD_LINE_US 5556u

/** Capture slots: interrupts the accounting has not taken yet. A power of
 *  two; a task more than this many periods late drops captures (counted). */
#define D1_BENCH_SLOTS 16u

/** Answer of d1_bench_isr(), d1_bench_isr_at() and d1_bench_account(). */
enum d1_bench_irq_result {
	D1_BENCH_SAMPLE = 0,   /**< A boundary captured (or accounted): wake the task. */
	D1_BENCH_SPURIOUS = 1, /**< No new boundary: nothing to wake. */
	D1_BENCH_DONE = 2,     /**< d1_bench_account(): the run's last boundary is accounted: stop
	                          the Timer. */
	D1_BENCH_IDLE = 3,     /**< The handle captures nothing (NULL, not started, run over or
	                          finished); the Timer was acknowledged all the same. */
};

/** Counters of a run, besides the recorders' samples and missed counts. */
struct d1_bench_stats {
	uint64_t boundaries;   /**< Boundaries accounted: by interrupts, and by d1_bench_finish() as
	                          missed. */
	uint64_t woken;        /**< Boundaries the wake-up side accounted. */
	uint32_t spurious_irq; /**< Interrupts with no new boundary. */
	uint32_t spurious_wake; /**< Wake-ups with no new boundary. */
	uint32_t late_wake;     /**< Wake-ups after a later boundary. */
	uint32_t dropped;       /**< Interrupts that found every capture slot full. */
	uint32_t grid_err_max;  /**< Largest |boundary estimate - grid|, counts. */
	uint32_t irq_instr_min; /**< Fewest instructions d1_bench_isr() spent on a sample (0: not
	                           measured). */
	uint32_t irq_instr_max; /**< Most, likewise. */
};

/** One interrupt's capture (private to the core). */
struct d1_bench_slot {
	uint64_t now;    /**< `time` CSR, read after the sample. */
	uint32_t sample; /**< Counts since the boundary. */
	uint32_t instr;  /**< Instructions the capture took (0: not measured). */
};

/** One run (caller memory; fields private: read them with d1_bench_get_stats()). */
struct d1_bench {
	struct d1_lat *irq;                        /**< Timer-IRQ recorder. */
	struct d1_lat *wake;                       /**< Task wake-up recorder (NULL: none). */
	uint64_t period;                           /**< Counts per period. */
	uint64_t periods;                          /**< Boundaries in the run. */
	uint64_t grid;                             /**< The last accounted boundary, on the grid. */
	uint64_t boundary;                         /**< Its estimate (now - sample). */
	uint64_t seen;                             /**< Boundaries accounted. */
	uint64_t woken;                            /**< Boundaries accounted by the wake side. */
	struct d1_bench_slot slot[D1_BENCH_SLOTS]; /**< Captures, written by the interrupt. */
	volatile uint32_t head;                    /**< Slots written (interrupt side). */
	volatile uint32_t tail;                    /**< Slots accounted (accounting side). */
	volatile uint32_t limit; /**< tail + #D1_BENCH_SLOTS: head there means every slot waits. */
	volatile bool capturing; /**< Started, and neither over nor finished. */
	volatile uint32_t spurious_irq; /**< See d1_bench_get_stats(). */
	volatile uint32_t dropped;      /**< See d1_bench_get_stats(). */
	uint32_t spurious_acc;  /**< Captures with no new boundary (part of spurious_irq). */
	uint32_t spurious_wake; /**< See d1_bench_get_stats(). */
	uint32_t late_wake;     /**< See d1_bench_get_stats(). */
	uint32_t grid_err_max;  /**< See d1_bench_get_stats(). */
	uint32_t instr_min;     /**< See d1_bench_get_stats() (UINT32_MAX: none yet). */
	uint32_t instr_max;     /**< See d1_bench_get_stats(). */
	bool started;           /**< d1_bench_start() was called. */
	bool finished;          /**< d1_bench_finish() was called. */
};

/**
 * @brief Prepare a run of @p periods periods of @p period counts.
 * @param b       Handle (caller memory).
 * @param irq     Timer-IRQ recorder, d1_lat_init()ed at #D1_TIME_HZ.
 * @param wake    Task wake-up recorder, the same clock; NULL for a bench
 *                without a task (bare metal, a kernel module).
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
 * @brief Capture one Timer interrupt (call from the interrupt, first): the
 *        Timer's counter (d1_timer_isr(), acknowledging), then the `time`
 *        CSR, stored for the accounting.
 * @param b Handle after d1_bench_start().
 * @param t The Timer channel the bench runs (periodic, OSC24M /1).
 * @return #D1_BENCH_SAMPLE: captured: wake the task; #D1_BENCH_SPURIOUS:
 *         the Timer had no boundary pending (counted); #D1_BENCH_IDLE: a
 *         NULL, unstarted or finished handle or a run already over
 *         (nothing counted). With a non-NULL @p b the Timer is
 *         acknowledged (d1_timer_isr(): NULL @p t is refused there).
 */
enum d1_bench_irq_result d1_bench_isr(struct d1_bench *b, struct d1_timer *t);

/**
 * @brief Capture an interrupt whose boundary is a known `time` value (a
 *        software timer's deadline), as d1_bench_isr() does for a Timer's.
 * @param b        Handle after d1_bench_start().
 * @param boundary The deadline, `time` CSR counts.
 * @param now      `time` CSR in the interrupt; the sample is now - boundary
 *                 (0 when @p now is before @p boundary). No cost is
 *                 measured: `instret` may not be readable there (a Linux
 *                 user process).
 * @return #D1_BENCH_SAMPLE: captured; #D1_BENCH_IDLE: a NULL, unstarted
 *         or finished handle or a run already over (nothing counted).
 */
enum d1_bench_irq_result d1_bench_isr_at(struct d1_bench *b, uint64_t boundary, uint64_t now);

/**
 * @brief Account the captured interrupts: the grid, the timer-IRQ samples,
 *        missed periods (d1_bench_wake() and d1_bench_finish() call it).
 * @param b Handle after d1_bench_start().
 * @return #D1_BENCH_DONE once the run's last boundary is accounted (every
 *         later call too); #D1_BENCH_SAMPLE if a sample was accounted;
 *         #D1_BENCH_SPURIOUS if none; #D1_BENCH_IDLE for a NULL or unstarted
 *         handle.
 */
enum d1_bench_irq_result d1_bench_account(struct d1_bench *b);

/**
 * @brief Account one wake-up of the task (call from the task): the
 *        captures first, then the wake-up sample.
 * @param b   Handle after d1_bench_start(), with a wake recorder.
 * @param now `time` CSR at the wake-up, read before this call.
 * @return true when the run's last boundary is accounted (the task is done:
 *         stop the Timer); false otherwise, and for a NULL handle or one
 *         without a wake recorder (nothing recorded).
 */
bool d1_bench_wake(struct d1_bench *b, uint64_t now);

/**
 * @brief End the run: the captures are accounted, then the grid's boundaries
 *        up to @p now (at most the run's) that no interrupt, or no wake-up,
 *        accounted are missed periods of that recorder. Call once, with the
 *        Timer stopped.
 * @param b   Handle after d1_bench_start().
 * @param now `time` CSR at the end.
 * @return D1_OK; D1_EINVAL for NULL @p b; D1_ESTATE if not started or
 *         already finished.
 */
d1_err_t d1_bench_finish(struct d1_bench *b, uint64_t now);

/**
 * @brief The `instret` stand-in of hooked builds (the host's models).
 * @return Instructions retired, as the simulator counts them.
 */
uint64_t d1_bench_hook_instret(void);

/**
 * @brief Read the `instret` CSR (instructions retired).
 * @return `instret` on RISC-V (S mode needs mcounteren.IR, which OpenSBI
 *         sets); d1_bench_hook_instret() in hooked builds; 0 in other
 *         non-RISC-V builds, where no cost is measured.
 */
static inline uint64_t d1_bench_instret(void)
{
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
	uint64_t n;
	__asm__ volatile("rdinstret %0" : "=r"(n)::"memory");
	return n;
#elif defined(D1_MMIO_HOOKED)
	return d1_bench_hook_instret();
#else
	return 0u;
#endif
}

/** Instructions per iteration of d1_bench_spin()'s loop (RISC-V). */
#define D1_BENCH_SPIN_INSNS 4u

/**
 * The cost of a code path in instructions, where the OS runs it in the
 * background (a console driver's receive path, say): a spinner thread at
 * the lowest priority counts its iterations, so that `instret`'s advance
 * over a window, less #D1_BENCH_SPIN_INSNS per iteration, is what the rest
 * of the system retired; the same count over an idle window of the same
 * length takes out the tick's share (d1_bench_cost()). Under QEMU's
 * `-icount` `instret` also advances while the hart is idle, which the
 * spinner (never idle) makes moot.
 */
struct d1_bench_spinner {
	volatile uint64_t spins; /**< Iterations so far (written by the spinner). */
	volatile uint32_t stop;  /**< Set non-zero to end d1_bench_spin(). */
};

/** One edge of a window: `instret` and the spinner's count, read together. */
struct d1_bench_mark {
	uint64_t instret; /**< d1_bench_instret() at the edge. */
	uint64_t spins;   /**< The spinner's iterations at the edge. */
};

/** What d1_bench_cost() found. */
struct d1_bench_cost {
	uint64_t window;      /**< Instructions retired over the window. */
	uint64_t other;       /**< ...outside the spinner. */
	uint64_t idle_window; /**< Instructions retired over the idle window. */
	uint64_t idle_other;  /**< ...outside the spinner (the tick's share). */
	uint64_t hundredths;  /**< Per unit, in hundredths of an instruction. */
};

/**
 * @brief The spinner's loop: count iterations into @p s->spins, from 1,
 *        until an iteration finds @p s->stop set (call from the
 *        lowest-priority thread).
 * @param s Spinner, @c stop 0 at the start.
 */
static inline void d1_bench_spin(struct d1_bench_spinner *s)
{
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
	__asm__ volatile("  li   t0, 0\n"
	                 "1: addi t0, t0, 1\n"
	                 "  sd   t0, 0(%0)\n"
	                 "  lw   t1, 0(%1)\n"
	                 "  beqz t1, 1b\n"
	                 :
	                 : "r"(&s->spins), "r"(&s->stop)
	                 : "t0", "t1", "memory");
#else
	uint64_t n = 0u;
	do {
		s->spins = ++n;
	} while (s->stop == 0u);
#endif
}

/**
 * @brief Read one edge of a window.
 * @param s The running spinner.
 * @param m Out: `instret`, then the spinner's count.
 */
static inline void d1_bench_mark(const struct d1_bench_spinner *s, struct d1_bench_mark *m)
{
	m->instret = d1_bench_instret();
	m->spins = s->spins;
}

/**
 * @brief Instructions per unit (a byte, say) of the work done over a
 *        window: (outside the spinner over @p win, less the idle window's
 *        outside-the-spinner share scaled to @p win's length) / @p units.
 * @param idle  Edges of an idle window (the tick's share).
 * @param win   Edges of the window the work ran in.
 * @param units Units of work in the window, >= 1.
 * @param out   Result.
 * @return D1_OK; D1_EINVAL for a NULL pointer or @p units 0 (@p out untouched).
 */
static inline d1_err_t d1_bench_cost(const struct d1_bench_mark idle[2],
                                     const struct d1_bench_mark win[2], uint64_t units,
                                     struct d1_bench_cost *out)
{
	if (idle == NULL || win == NULL || out == NULL || units == 0u) {
		return D1_EINVAL;
	}
	uint64_t iw = idle[1].instret - idle[0].instret;
	uint64_t ispun = (idle[1].spins - idle[0].spins) * D1_BENCH_SPIN_INSNS;
	uint64_t w = win[1].instret - win[0].instret;
	uint64_t spun = (win[1].spins - win[0].spins) * D1_BENCH_SPIN_INSNS;
	out->window = w;
	out->other = w > spun ? w - spun : 0u;
	out->idle_window = iw;
	out->idle_other = iw > ispun ? iw - ispun : 0u;
	uint64_t share = iw != 0u ? out->idle_other * w / iw : 0u; /* the tick's, scaled */
	out->hundredths = (out->other > share ? out->other - share : 0u) * 100u / units;
	return D1_OK;
}

/** Room for d1_bench_report_run()'s line with every count at its widest. */
#define D1_BENCH_RUN_LINE_SIZE 352u

/**
 * @brief The run line every OS's bench prints (report side, d1::report):
 *        "run: B boundaries, irq S samples + M missed, wake S samples + M
 *        missed (L late, P spurious), spurious interrupts I, dropped D, U us
 *        of time CSR (ideal V us)" ("wake none" without a wake recorder),
 *        without a newline.
 * @param b       Handle after d1_bench_start() (after d1_bench_finish() for
 *                the run's final figures).
 * @param elapsed `time` CSR counts from the start to the end of the run.
 * @param buf     Output; NUL-terminated when @p len > 0.
 * @param len     Size of @p buf, bytes (#D1_BENCH_RUN_LINE_SIZE always fits).
 * @param written Optional out: characters stored, excluding the NUL.
 * @return D1_OK; D1_EINVAL for NULL @p b or @p buf or @p len 0; D1_ESTATE
 *         if not started; D1_ERANGE if the line did not fit (a clean,
 *         NUL-terminated prefix is kept).
 */
d1_err_t d1_bench_report_run(const struct d1_bench *b, uint64_t elapsed, char *buf, size_t len,
                             size_t *written);

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
