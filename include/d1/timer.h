/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file timer.h
 * @brief D1 Timer0/Timer1 driver: exact and drift-free periods, a one-shot
 *        deadline for tickless kernels, and an exact latency sample.
 *
 * Hardware facts (N+1 rule, RELOAD, sync time, IRQ_STA) with their sources:
 * docs/hardware-facts.md "Timer"; the decisions built on them:
 * docs/design.md "Timer". A NULL or never-initialised handle gives D1_EINVAL
 * (or the documented neutral value) and touches no register.
 *
 * Concurrency: d1_timer_isr() of a channel may interrupt any call on its
 * handle. A call that changes the handle (the period setters, start, stop,
 * one-shot arm and cancel) must not be interrupted by another such call on
 * the same handle, e.g. an expiry handler that re-arms while a thread
 * cancels: make those calls with interrupts off (or the channel's IRQ
 * masked), as the NuttX and RT-Thread glue do. The library takes no lock of
 * its own there (d1_timer_stop() waits the sync time, up to 11.7 ms on the
 * LOSC).
 */
#ifndef D1_TIMER_H
#define D1_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/mmio.h"
#include "d1/timer_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_timer Timer driver
 * @{ */

/** Clock source of a timer channel. */
enum d1_timer_src {
	D1_TIMER_SRC_LOSC = 0,   /**< 32.768 kHz low-speed oscillator. */
	D1_TIMER_SRC_OSC24M = 1, /**< 24 MHz OSC24M. */
	D1_TIMER_SRC_AUTO = 2,   /**< Let the period setters choose (see d1_timer_set_clock()). */
};

/** Counting mode. */
enum d1_timer_mode {
	D1_TIMER_PERIODIC = 0, /**< Reload at every boundary. */
	D1_TIMER_ONESHOT = 1,  /**< Count one period, then stop. */
};

/** Largest prescaler exponent: the prescaler divides by 2^0 .. 2^7. */
#define D1_TIMER_PRESCALE_MAX 7u
/** Shortest period accepted, in input clocks (interval 1). */
#define D1_TIMER_MIN_PERIOD 2u
/** Longest period, in input clocks (interval 0xFFFFFFFE). */
#define D1_TIMER_MAX_PERIOD 0xFFFFFFFFull
/** Slowest source rate d1_timer_init() accepts, Hz (keeps every wait < 20 ms). */
#define D1_TIMER_SRC_MIN_HZ 26000u
/** Fastest source rate d1_timer_init() accepts, Hz. */
#define D1_TIMER_SRC_MAX_HZ 100000000u
/** d1_timer_isr() result when this channel's IRQ_STA bit was not set. */
#define D1_TIMER_ISR_SPURIOUS UINT32_MAX
/** Shortest one-shot lead, input clocks: a closer or past deadline is armed
 *  as this lead and fires at once. */
#define D1_TIMER_ONESHOT_MIN_LEAD 2u
/** Longest one-shot deadline, input clocks. */
#define D1_TIMER_ONESHOT_MAX D1_TIMER_MAX_PERIOD
/** Sync time after clearing EN, input clocks of the clock the channel ran on
 *  (3 x 128 / 32768 Hz = 11.72 ms at most): Linux timer-sun4i.c waits "at
 *  least 2 cycles" of the source clock and takes 3, as this does
 *  (docs/hardware-facts.md "Timer"). */
#define D1_TIMER_SYNC_CLOCKS 3u
/** d1_timer_start()'s RELOAD wait, input clocks (4 x 128 / 32768 Hz = 15.63
 *  ms at most), polled every 1 us; never shorter than D1_TIMER_RELOAD_MIN_US. */
#define D1_TIMER_RELOAD_BUDGET_CLOCKS 4u
/** Shortest RELOAD wait of d1_timer_start(), us. */
#define D1_TIMER_RELOAD_MIN_US 10u

/**
 * @brief What a period setter achieved: an average period of exactly
 *        `clocks + rem / den` input clocks (rem 0: every period exact).
 */
struct d1_timer_achieved {
	enum d1_timer_src src; /**< Source chosen. */
	uint8_t prescale_log2; /**< Prescaler exponent chosen (divide by 2^k). */
	uint32_t input_hz;     /**< Input clock after the prescaler (Hz, exact for 24 MHz and 32.768
	                          kHz). */
	uint64_t clocks;       /**< Whole part of the period, input clocks. */
	uint64_t rem;          /**< Fractional part numerator. */
	uint64_t den;          /**< Fractional part denominator (1 when exact). */
};

/** Counters of a handle (d1_timer_get_stats()). */
struct d1_timer_stats {
	uint64_t spurious;        /**< d1_timer_isr() calls with no pending bit. */
	uint64_t oneshot_clamped; /**< Deadlines armed as D1_TIMER_ONESHOT_MIN_LEAD. */
};

/**
 * @brief One timer channel. Owned by the caller; fields are private to the
 *        driver (read them only through the functions below).
 */
struct d1_timer {
	uintptr_t base;              /**< Timer block base (physical or ioremapped). */
	uintptr_t cur_reg;           /**< This channel's CUR register (tick path). */
	uint32_t irq_bit;            /**< This channel's IRQ_EN / IRQ_STA bit. */
	uint32_t osc24m_hz;          /**< Rate of the OSC24M source, Hz. */
	uint32_t losc_hz;            /**< Rate of the LOSC source, Hz. */
	uint8_t channel;             /**< 0 or 1. */
	uint8_t src;                 /**< enum d1_timer_src in use (never AUTO). */
	uint8_t prescale_log2;       /**< 0..7. */
	uint8_t mode;                /**< enum d1_timer_mode of the last start/arm. */
	bool auto_clock;             /**< Period setters choose src/prescaler. */
	bool configured;             /**< A period has been set. */
	bool running;                /**< Started or armed, not stopped/cancelled. */
	bool tick_slow;              /**< Tick takes the slow path (fraction, one-shot). */
	bool fired;                  /**< The one-shot's boundary was handled. */
	uint32_t cur_interval;       /**< Interval the counter is running now. */
	uint32_t next_interval;      /**< Interval in INTV, latched at the next boundary. */
	uint32_t load_from;          /**< CUR before the last one-shot arm's EN store: its load is
	                                  still pending while CUR reads this and RELOAD is set
	                                  (cur_interval after a start: the
	                                  answer is then the same either way). */
	uint64_t clocks;             /**< Whole period, input clocks. */
	uint64_t rem;                /**< Fraction numerator. */
	uint64_t den;                /**< Fraction denominator. */
	uint64_t acc;                /**< Error accumulator, 0 <= acc < den. */
	struct d1_timer_stats stats; /**< Counters. */
};

/**
 * @brief Initialise a channel handle. Touches no register.
 * @param t        Handle to fill.
 * @param base     Timer block base address (D1_TIMER_BASE or its mapping).
 * @param channel  0 or 1.
 * @param osc24m_hz  OSC24M rate in Hz (D1_OSC24M_HZ on the D1).
 * @param losc_hz  LOSC rate in Hz (D1_LOSC_HZ).
 * @return D1_OK, or D1_EINVAL for a NULL handle, a base that is 0 or not
 *         4-byte aligned, a channel other than 0/1, or a rate outside
 *         D1_TIMER_SRC_MIN_HZ..D1_TIMER_SRC_MAX_HZ.
 */
d1_err_t d1_timer_init(struct d1_timer *t, uintptr_t base, unsigned channel, uint32_t osc24m_hz,
                       uint32_t losc_hz);

/**
 * @brief Choose the clock source and prescaler used by the period setters
 *        (AUTO: exact first, then finest; docs/design.md "Timer"). Touches
 *        no register.
 * @param t             Stopped handle.
 * @param src           Source, or D1_TIMER_SRC_AUTO (prescale ignored).
 * @param prescale_log2 Prescaler exponent 0..7 (divide by 1..128).
 * @return D1_OK; D1_EINVAL for bad src/prescale/handle; D1_EBUSY if running.
 */
d1_err_t d1_timer_set_clock(struct d1_timer *t, enum d1_timer_src src, unsigned prescale_log2);

/**
 * @brief Set the period in input clocks (after the prescaler), exactly (N+1
 *        rule: docs/hardware-facts.md "Timer"). AUTO selects OSC24M /1.
 *        Touches no register.
 * @param t      Stopped handle.
 * @param clocks Period in input clocks, D1_TIMER_MIN_PERIOD..D1_TIMER_MAX_PERIOD.
 * @param out    Optional: what was achieved.
 * @return D1_OK; D1_ERANGE outside the range; D1_EINVAL bad handle;
 *         D1_EBUSY if running.
 */
d1_err_t d1_timer_set_period_clocks(struct d1_timer *t, uint64_t clocks,
                                    struct d1_timer_achieved *out);

/**
 * @brief Set the period in nanoseconds; fractional clocks are spread.
 * @param t   Stopped handle.
 * @param ns  Period in ns, > 0.
 * @param out Optional: what was achieved (average period == @p ns exactly).
 * @return D1_OK; D1_ERANGE if no allowed source/prescaler gives a period of
 *         D1_TIMER_MIN_PERIOD..D1_TIMER_MAX_PERIOD clocks (or 0 ns);
 *         D1_EINVAL bad handle; D1_EBUSY if running.
 */
d1_err_t d1_timer_set_period_ns(struct d1_timer *t, uint64_t ns, struct d1_timer_achieved *out);

/**
 * @brief Set the period as a frequency in Hz; fractional clocks are spread.
 * @param t   Stopped handle.
 * @param hz  Frequency in Hz, > 0.
 * @param out Optional: what was achieved (average frequency == @p hz exactly).
 * @return As d1_timer_set_period_ns().
 */
d1_err_t d1_timer_set_period_hz(struct d1_timer *t, uint32_t hz, struct d1_timer_achieved *out);

/**
 * @brief Program and start the channel; clears its stale IRQ_STA bit and
 *        waits (bounded) for the RELOAD (docs/design.md "Timer"). The
 *        channel's own d1_timer_isr() may interrupt it anywhere (a first
 *        boundary before it returns is handled, and accounted for).
 * @param t    Handle with a period set, stopped.
 * @param mode D1_TIMER_PERIODIC or D1_TIMER_ONESHOT. One-shot needs an exact
 *             period.
 * @return D1_OK; D1_EINVAL bad handle/mode; D1_ESTATE no period set;
 *         D1_EBUSY already running; D1_ERANGE one-shot with a fractional
 *         period; D1_ETIMEDOUT RELOAD never cleared (nor CUR moved) within
 *         max(#D1_TIMER_RELOAD_MIN_US, #D1_TIMER_RELOAD_BUDGET_CLOCKS input
 *         clocks) of polling; the channel is then disabled again, after the
 *         sync wait (#D1_TIMER_SYNC_CLOCKS input clocks). Longest call:
 *         11.72 + 15.63 + 11.72 = 39.06 ms at LOSC / 128 (the stop() it does
 *         first waits the sync time of a channel left running on LOSC / 128,
 *         then the RELOAD budget and the sync time after the timeout;
 *         docs/reliability.md "Bounded waits").
 */
d1_err_t d1_timer_start(struct d1_timer *t, enum d1_timer_mode mode);

/**
 * @brief Stop the channel (clears EN and RELOAD only) and wait the sync time
 *        so it may be reprogrammed at once. Safe when stopped, and on a timer
 *        firmware left running. Does not touch IRQ_EN or IRQ_STA.
 * @param t Initialised handle.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_timer_stop(struct d1_timer *t);

/**
 * @brief Interrupt body, once per period from the IRQ: acknowledge, sample,
 *        queue the next interval. With this channel's IRQ_STA bit clear the
 *        call is counted (d1_timer_stats.spurious) and changes nothing.
 *        A handler a whole period late is not detectable here (use the
 *        `time` CSR; docs/design.md "Timer").
 * @param t Initialised handle (only NULL is checked on this path).
 * @return Input clocks since the boundary that raised the IRQ (exact to one
 *         clock), 0 for a one-shot expiry (the counter stops), or
 *         D1_TIMER_ISR_SPURIOUS when nothing was pending or @p t is NULL.
 */
uint32_t d1_timer_isr(struct d1_timer *t);

/**
 * @brief Input clocks elapsed since the last period boundary (interval in
 *        effect - CUR). Valid while d1_timer_isr() runs once per period.
 *        Reads in a critical section (safe against its own channel's ISR).
 * @param t Running handle.
 * @return Clocks since the boundary, 0 .. period - 1 (0 for a NULL handle).
 */
uint32_t d1_timer_elapsed(const struct d1_timer *t);

/**
 * @brief Input clocks left until the next boundary (CUR + 1).
 * @param t Running handle.
 * @return Clocks to the boundary, 1 .. period; 0 once a one-shot has expired
 *         (and for a NULL handle).
 */
uint64_t d1_timer_remaining(const struct d1_timer *t);

/**
 * @brief Raw TMRn_CUR_VALUE.
 * @param t Initialised handle.
 * @return The counter (0 for a NULL handle).
 */
uint32_t d1_timer_read_current(const struct d1_timer *t);

/**
 * @brief Enable or disable this channel's interrupt in the shared IRQ_EN
 *        (read-modify-write in a critical section: safe against the other
 *        channel).
 * @param t  Initialised handle.
 * @param on true to enable.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_timer_irq_enable(struct d1_timer *t, bool on);

/**
 * @brief Whether this channel's IRQ_STA bit is set.
 * @param t Initialised handle.
 * @return true if pending (false for a NULL handle).
 */
bool d1_timer_irq_pending(const struct d1_timer *t);

/**
 * @brief Clear this channel's IRQ_STA bit only (W1C; no lock needed).
 * @param t Initialised handle.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_timer_irq_ack(const struct d1_timer *t);

/**
 * @brief d1_timer_irq_ack() for a tick ISR: the same W1C store of this
 *        channel's IRQ_STA bit and the same ordering fence (d1/mmio.h),
 *        inline and with no handle check.
 *
 * For the hot path of a kernel tick whose handle d1_timer_init() accepted
 * when the ISR was attached (the check is done once there, not on every
 * tick): a NULL or uninitialised handle is undefined behaviour here. Four
 * instructions on rv64 (two loads from the handle, the store, the fence);
 * the NuttX tick uses it to match the chip's own ISR (docs/nuttx.md "Tick
 * path"). Anything that may see a bad handle calls d1_timer_irq_ack().
 * @param t Handle that d1_timer_init() accepted (not checked).
 */
static inline void d1_timer_irq_ack_fast(const struct d1_timer *t)
{
	d1_mmio_write32(t->base + D1_TIMER_IRQ_STA_OFFSET, t->irq_bit);
}

/**
 * @brief Whether the hardware says the channel is enabled (CTRL.EN).
 * @param t Initialised handle.
 * @return true if EN is set (e.g. left running by firmware); false for a
 *         NULL handle.
 */
bool d1_timer_hw_enabled(const struct d1_timer *t);

/**
 * @brief Convert input clocks of this handle's clock to nanoseconds, rounded
 *        down; saturates to UINT64_MAX when the result exceeds 64 bits.
 * @param t      Initialised handle.
 * @param clocks Input clocks.
 * @return Nanoseconds, or UINT64_MAX if not representable or @p t is NULL.
 */
uint64_t d1_timer_clocks_to_ns(const struct d1_timer *t, uint64_t clocks);

/**
 * @brief Arm (or re-arm) a one-shot deadline @p clocks input clocks ahead,
 *        on the clock of d1_timer_set_clock() (AUTO: OSC24M /1; a period set
 *        for another clock must then be set again). Needs no period; does not
 *        poll. A deadline below D1_TIMER_ONESHOT_MIN_LEAD (0 = past) is armed
 *        as that lead and counted (d1_timer_stats.oneshot_clamped). The IRQ
 *        comes through d1_timer_isr(), which may interrupt this call
 *        anywhere (an expiry before it returns is reported once and stays
 *        reported). Sequence and re-arm: docs/design.md "Timer".
 * @param t      Initialised handle, stopped or in one-shot use.
 * @param clocks Deadline, input clocks from now, 0..D1_TIMER_ONESHOT_MAX.
 * @return D1_OK; D1_EINVAL bad handle; D1_ERANGE above D1_TIMER_ONESHOT_MAX;
 *         D1_EBUSY a periodic schedule is running.
 */
d1_err_t d1_timer_oneshot_arm(struct d1_timer *t, uint64_t clocks);

/**
 * @brief Cancel a one-shot deadline: disable (with the sync wait) and drop a
 *        pending expiry so no interrupt follows. Safe when nothing is armed.
 * @param t Initialised handle.
 * @return D1_OK; D1_EINVAL bad handle; D1_EBUSY a periodic schedule is
 *         running (use d1_timer_stop()).
 */
d1_err_t d1_timer_oneshot_cancel(struct d1_timer *t);

/**
 * @brief Input clocks left until the armed deadline.
 * @param t      Handle with a deadline armed (d1_timer_oneshot_arm() or
 *               d1_timer_start(D1_TIMER_ONESHOT)).
 * @param clocks Out: CUR + 1 (1 = one clock left), or 0 once it expired.
 * @return D1_OK; D1_EINVAL bad handle or NULL @p clocks; D1_ESTATE nothing
 *         armed (never armed, cancelled, stopped, or periodic).
 */
d1_err_t d1_timer_oneshot_remaining(const struct d1_timer *t, uint64_t *clocks);

/**
 * @brief Copy the handle's counters.
 * @param t   Initialised handle.
 * @param out Out: the counters.
 * @return D1_OK, or D1_EINVAL for a NULL argument or a never-initialised
 *         handle (@p out untouched).
 */
d1_err_t d1_timer_get_stats(const struct d1_timer *t, struct d1_timer_stats *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_TIMER_H */
