/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file timer.h
 * @brief D1 Timer0/Timer1 driver: exact and drift-free periods.
 *
 * Hardware semantics the driver relies on (sources in timer_regs.h and
 * docs/hardware-facts.md):
 *  - The counter counts DOWN and includes zero: interval N gives a period of
 *    N + 1 input clocks. A period of P clocks therefore programs P - 1.
 *    (Measured on a Lichee RV: 24,000 gave 24,001 clocks; 23,999 gives 1 ms.)
 *  - In periodic mode the counter reloads from TMRn_INTV_VALUE at each period
 *    boundary, and IRQ_STA is set at that same boundary. A value written to
 *    INTV while the timer runs therefore takes effect at the *next* boundary,
 *    not the current period. (Assumed from the manual's description of
 *    periodic mode; no public source measures the latch point. It is the
 *    reading the fractional scheduler needs, and the test model implements
 *    exactly it.)
 *  - After EN is cleared the block needs >= 2 input clocks before it may be
 *    reprogrammed (Linux timer-sun4i.c, TIMER_SYNC_TICKS); we wait 3.
 *  - RELOAD copies INTV into CUR. Whether the bit then reads back 0 is not
 *    stated by our sources; the start wait (bounded) ends on either sign of
 *    a completed load: RELOAD clear, or CUR counting at or below INTV.
 *
 * Fractional periods: a period that is not a whole number of input clocks,
 * e.g. 1 kHz from the 32.768 kHz LOSC (32.768 clocks) is produced as a
 * sequence of P and P + 1 clock periods chosen by an error accumulator, so
 * the boundary of period n is never more than one input clock early or late
 * of the ideal n * period, for ever. The tick handler d1_timer_isr() writes
 * the interval for the period after the current one, which is why it must
 * run once per period (before the next boundary).
 */
#ifndef D1_TIMER_H
#define D1_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
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
/** Longest period, in input clocks (interval 0xFFFFFFFF). */
#define D1_TIMER_MAX_PERIOD 0x100000000ull

/**
 * @brief What a period setter achieved.
 *
 * The average period is exactly `clocks + rem / den` input clocks; when
 * `rem` is 0 every period is exactly `clocks` long, otherwise periods are
 * `clocks` or `clocks + 1` long and the boundary phase error stays below one
 * input clock.
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

/**
 * @brief One timer channel. Owned by the caller; fields are private to the
 *        driver (read them only through the functions below).
 */
struct d1_timer {
	uintptr_t base;         /**< Timer block base (physical or ioremapped). */
	uint32_t osc24m_hz;     /**< Rate of the OSC24M source, Hz. */
	uint32_t losc_hz;       /**< Rate of the LOSC source, Hz. */
	uint8_t channel;        /**< 0 or 1. */
	uint8_t src;            /**< enum d1_timer_src in use (never AUTO). */
	uint8_t prescale_log2;  /**< 0..7. */
	uint8_t mode;           /**< enum d1_timer_mode of the last start. */
	bool auto_clock;        /**< Period setters choose src/prescaler. */
	bool configured;        /**< A period has been set. */
	bool running;           /**< Started and not stopped by the driver. */
	uint64_t clocks;        /**< Whole period, input clocks. */
	uint64_t rem;           /**< Fraction numerator. */
	uint64_t den;           /**< Fraction denominator. */
	uint64_t acc;           /**< Error accumulator, 0 <= acc < den. */
	uint32_t cur_interval;  /**< Interval the counter is running now. */
	uint32_t next_interval; /**< Interval in INTV, latched at the next boundary. */
};

/**
 * @brief Initialise a channel handle. Touches no register.
 * @param t        Handle to fill.
 * @param base     Timer block base address (D1_TIMER_BASE or its mapping).
 * @param channel  0 or 1.
 * @param osc24m_hz  OSC24M rate in Hz (D1_OSC24M_HZ on the D1), non-zero.
 * @param losc_hz  LOSC rate in Hz (D1_LOSC_HZ), non-zero.
 * @return D1_OK, or D1_EINVAL for a NULL handle, zero base or rate, or a
 *         channel other than 0/1.
 */
d1_err_t d1_timer_init(struct d1_timer *t, uintptr_t base, unsigned channel, uint32_t osc24m_hz,
                       uint32_t losc_hz);

/**
 * @brief Choose the clock source and prescaler used by the period setters.
 *
 * With D1_TIMER_SRC_AUTO the setters pick, in this order: the first
 * (OSC24M, /1 ../128) then (LOSC, /1 ../128) that gives an exact period in
 * range; failing that, the finest-resolution choice in range (fractional).
 * Touches no register.
 * @param t             Stopped handle.
 * @param src           Source, or D1_TIMER_SRC_AUTO (prescale ignored).
 * @param prescale_log2 Prescaler exponent 0..7 (divide by 1..128).
 * @return D1_OK; D1_EINVAL for bad src/prescale/handle; D1_EBUSY if running.
 */
d1_err_t d1_timer_set_clock(struct d1_timer *t, enum d1_timer_src src, unsigned prescale_log2);

/**
 * @brief Set the period in input clocks (after the prescaler). Exact.
 *
 * Programs `clocks - 1` at start. With D1_TIMER_SRC_AUTO the source becomes
 * OSC24M /1. Touches no register.
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
 * @brief Program and start the channel.
 *
 * Writes CTRL (disabled) and INTV, then EN|RELOAD in one store, and waits
 * (bounded) for RELOAD to self-clear. For a fractional periodic schedule it
 * then writes the second period's interval so the first boundary latches it.
 * @param t    Handle with a period set, stopped.
 * @param mode D1_TIMER_PERIODIC or D1_TIMER_ONESHOT. One-shot needs an exact
 *             period.
 * @return D1_OK; D1_EINVAL bad handle/mode; D1_ESTATE no period set;
 *         D1_EBUSY already running; D1_ERANGE one-shot with a fractional
 *         period; D1_ETIMEDOUT RELOAD never cleared (the channel is then
 *         disabled again, after the sync wait).
 */
d1_err_t d1_timer_start(struct d1_timer *t, enum d1_timer_mode mode);

/**
 * @brief Stop the channel and wait the clock-domain sync time (>= 3 input
 *        clocks) so it may be reprogrammed at once. Safe when stopped.
 *
 * Also usable on a timer that firmware left running: it reads CTRL and
 * clears EN (and RELOAD) only. Does not touch IRQ_EN or IRQ_STA.
 * @param t Initialised handle.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_timer_stop(struct d1_timer *t);

/**
 * @brief Tick handler body: sample, acknowledge, advance the schedule.
 *
 * Clears this channel's IRQ_STA bit only (W1C), then reads CUR once, and
 * for a fractional schedule writes the interval of the period after the
 * current one (2 or 3 MMIO accesses, no wait). Call once per period from
 * the IRQ. Acknowledging before sampling means a boundary that arrives
 * during the handler raises the next IRQ rather than being cleared unseen.
 * A handler that runs more than one whole period late cannot be told apart
 * by the timer alone (the counter has wrapped): the caller detects such
 * missed periods with a free-running clock (the 24 MHz `time` CSR on the
 * D1, as the bare-metal bench does) and must not record this sample then.
 * @param t Running handle (not checked: ISR path).
 * @return Input clocks elapsed since the boundary that raised the IRQ: the
 *         interrupt-entry latency of this tick, exact to one input clock
 *         when the handler ran within one period.
 */
uint32_t d1_timer_isr(struct d1_timer *t);

/**
 * @brief Input clocks elapsed since the last period boundary
 *        (interval in effect - CUR).
 *
 * Reads IRQ_STA, CUR, IRQ_STA (and CUR again if a boundary fell between):
 * a boundary that d1_timer_isr() has not handled yet started the queued
 * interval, which matters on a fractional schedule. Valid while the IRQ is
 * acknowledged once per period (by d1_timer_isr()).
 * @param t Running handle (not checked).
 * @return Clocks since the boundary, 0 .. period - 1.
 */
uint32_t d1_timer_elapsed(const struct d1_timer *t);

/**
 * @brief Input clocks left until the next boundary (CUR + 1). One MMIO read.
 * @param t Running handle (not checked).
 * @return Clocks to the boundary, 1 .. period.
 */
uint64_t d1_timer_remaining(const struct d1_timer *t);

/**
 * @brief Raw TMRn_CUR_VALUE.
 * @param t Initialised handle (not checked).
 * @return The counter.
 */
uint32_t d1_timer_read_current(const struct d1_timer *t);

/**
 * @brief Enable or disable this channel's interrupt in the shared IRQ_EN.
 *
 * IRQ_EN holds both channels' bits, so the read-modify-write runs inside
 * d1_port_critical_enter()/exit(): Timer0 and Timer1 may be driven from
 * different contexts without losing each other's bit.
 * @param t  Initialised handle.
 * @param on true to enable.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_timer_irq_enable(struct d1_timer *t, bool on);

/**
 * @brief Whether this channel's IRQ_STA bit is set.
 * @param t Initialised handle (not checked).
 * @return true if pending.
 */
bool d1_timer_irq_pending(const struct d1_timer *t);

/**
 * @brief Clear this channel's IRQ_STA bit only (a W1C write of one bit,
 *        race-free against the other channel without a lock).
 * @param t Initialised handle (not checked).
 */
void d1_timer_irq_ack(const struct d1_timer *t);

/**
 * @brief Whether the hardware says the channel is enabled (CTRL.EN).
 * @param t Initialised handle (not checked).
 * @return true if EN is set (e.g. left running by firmware).
 */
bool d1_timer_hw_enabled(const struct d1_timer *t);

/**
 * @brief Convert input clocks of this handle's clock to nanoseconds,
 *        rounded down.
 *
 * Exact for every period of the D1's 24 MHz and 32.768 kHz sources; for
 * other source rates the 64-bit product can overflow, and the result then
 * saturates to UINT64_MAX (as it does for a zero source rate).
 * @param t      Initialised handle (not checked).
 * @param clocks Input clocks.
 * @return Nanoseconds, or UINT64_MAX if not representable.
 */
uint64_t d1_timer_clocks_to_ns(const struct d1_timer *t, uint64_t clocks);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_TIMER_H */
