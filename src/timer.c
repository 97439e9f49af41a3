/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * D1 Timer0/Timer1 driver. Hardware facts with their sources:
 * docs/hardware-facts.md "Timer" (decisions: docs/design.md "Timer"); each
 * place that depends on one says so.
 */
#include "d1/timer.h"

#include <stddef.h>

#include "d1/mmio.h"
#include "d1/port.h"

#define NS_PER_S 1000000000ull

/* The wait after disabling (D1_TIMER_SYNC_CLOCKS) and the RELOAD budget
 * (D1_TIMER_RELOAD_BUDGET_CLOCKS, D1_TIMER_RELOAD_MIN_US): timer.h, with
 * their sources. The RELOAD poll interval: */
#define RELOAD_POLL_US 1u

/* The N+1 rule (docs/hardware-facts.md "The N+1 rule"): the counter counts
 * from INTV down to 0 inclusive, so an interval of n clocks is INTV n - 1,
 * and CUR = c leaves c + 1 clocks. Every conversion goes through these two
 * (test_timer.c: 23,999 for 1 ms at 24 MHz). */
static inline uint32_t intv_of_clocks(uint64_t n)
{
	return (uint32_t)(n - 1u);
}

static inline uint64_t clocks_of_cur(uint32_t cur)
{
	return (uint64_t)cur + 1u;
}

static uintptr_t reg(const struct d1_timer *t, uintptr_t off)
{
	return t->base + off;
}

/* The channel as an address-sized index: the per-channel offsets are then
 * computed in 64 bits, with no zero-extension of a 32-bit sum per access. */
static uintptr_t chan(const struct d1_timer *t)
{
	return t->channel;
}

/* A handle d1_timer_init() filled (a zeroed handle has base 0). */
static bool handle_ok(const struct d1_timer *t)
{
	return t != NULL && t->base != 0u;
}

static bool rate_ok(uint32_t hz)
{
	return hz >= D1_TIMER_SRC_MIN_HZ && hz <= D1_TIMER_SRC_MAX_HZ;
}

static uint32_t src_hz(const struct d1_timer *t, unsigned src)
{
	return src == D1_TIMER_SRC_LOSC ? t->losc_hz : t->osc24m_hz;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b != 0u) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* Microseconds covering n input clocks of source @src / 2^k, rounded up. */
__attribute__((noinline)) static uint32_t clocks_to_us_ceil(const struct d1_timer *t, unsigned src,
                                                            unsigned k, uint32_t n)
{
	uint64_t num = ((uint64_t)n << k) * 1000000u;
	uint64_t hz = src_hz(t, src);
	return (uint32_t)((num + hz - 1u) / hz);
}

d1_err_t d1_timer_init(struct d1_timer *t, uintptr_t base, unsigned channel, uint32_t osc24m_hz,
                       uint32_t losc_hz)
{
	/* Every register is 32 bits wide and 4-byte aligned (mmio.h). */
	if (t == NULL || base == 0u || (base & 3u) != 0u || channel >= D1_TIMER_CHANNELS ||
	    !rate_ok(osc24m_hz) || !rate_ok(losc_hz)) {
		return D1_EINVAL;
	}
	*t = (struct d1_timer){
	        .base = base,
	        .cur_reg = base + D1_TIMER_CUR_OFFSET(channel),
	        .irq_bit = D1_TIMER_IRQ_BIT(channel),
	        .osc24m_hz = osc24m_hz,
	        .losc_hz = losc_hz,
	        .channel = (uint8_t)channel,
	        .src = D1_TIMER_SRC_OSC24M,
	        .auto_clock = true,
	        .den = 1u,
	};
	return D1_OK;
}

d1_err_t d1_timer_set_clock(struct d1_timer *t, enum d1_timer_src src, unsigned prescale_log2)
{
	if (!handle_ok(t) || (unsigned)src > D1_TIMER_SRC_AUTO ||
	    (src != D1_TIMER_SRC_AUTO && prescale_log2 > D1_TIMER_PRESCALE_MAX)) {
		return D1_EINVAL;
	}
	if (t->running) {
		return D1_EBUSY;
	}
	t->auto_clock = src == D1_TIMER_SRC_AUTO;
	t->src = t->auto_clock ? (uint8_t)D1_TIMER_SRC_OSC24M : (uint8_t)src;
	t->prescale_log2 = t->auto_clock ? 0u : (uint8_t)prescale_log2;
	t->configured = false;
	return D1_OK;
}

/*
 * A candidate period of num / den input clocks. Valid when its shortest
 * period is >= MIN and its longest (whole part, +1 if fractional) <= MAX.
 */
struct cand {
	uint64_t clocks, rem, den;
};

/* The candidate clocks + rem / den, reduced (rem < den). */
static bool cand_make(uint64_t clocks, uint64_t rem, uint64_t den, struct cand *c)
{
	c->clocks = clocks;
	c->rem = rem;
	c->den = den;
	if (rem != 0u) {
		uint64_t g = gcd64(rem, den);
		c->rem /= g;
		c->den /= g;
	}
	return c->clocks >= D1_TIMER_MIN_PERIOD &&
	       c->clocks + (c->rem != 0u ? 1u : 0u) <= D1_TIMER_MAX_PERIOD;
}

/*
 * The requested period is (mul * src_hz) / (div * 2^k) input clocks for a
 * source of src_hz: (ns, 1e9) for a time, (1, hz) for a frequency. With
 * h = src_hz / g and den = (div / g) * 2^k, split mul = q * den + r: the
 * period is q * h + (r * h) / den. r * h fits in 64 bits (a time: r < den
 * <= 1e9 * 2^7 and h <= 1e8; a frequency: mul = 1, so r * h <= h), so only
 * q * h and the sum can overflow, and an overflow there is a whole part
 * beyond D1_TIMER_MAX_PERIOD (the full product mul * h could overflow for
 * periods that fit: test_period_ns_long_on_odd_losc_rate).
 */
static bool cand_for(const struct d1_timer *t, unsigned src, unsigned k, uint64_t mul, uint64_t div,
                     struct cand *c)
{
	uint64_t hz = src_hz(t, src);
	uint64_t g = gcd64(hz, div);
	uint64_t h = hz / g;
	uint64_t den = (div / g) << k;
	uint64_t rh = (mul % den) * h;
	uint64_t whole;

	if (__builtin_mul_overflow(mul / den, h, &whole) ||
	    __builtin_add_overflow(whole, rh / den, &whole)) {
		return false;
	}
	return cand_make(whole, rh % den, den, c);
}

static void apply(struct d1_timer *t, unsigned src, unsigned k, const struct cand *c,
                  struct d1_timer_achieved *out)
{
	t->src = (uint8_t)src;
	t->prescale_log2 = (uint8_t)k;
	t->clocks = c->clocks;
	t->rem = c->rem;
	t->den = c->rem != 0u ? c->den : 1u;
	t->acc = 0u;
	t->configured = true;
	if (out != NULL) {
		*out = (struct d1_timer_achieved){
		        .src = (enum d1_timer_src)src,
		        .prescale_log2 = (uint8_t)k,
		        .input_hz = src_hz(t, src) >> k,
		        .clocks = t->clocks,
		        .rem = t->rem,
		        .den = t->den,
		};
	}
}

static d1_err_t set_period(struct d1_timer *t, uint64_t mul, uint64_t div,
                           struct d1_timer_achieved *out)
{
	static const uint8_t order[2] = {D1_TIMER_SRC_OSC24M, D1_TIMER_SRC_LOSC};
	struct cand c;

	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	if (t->running) {
		return D1_EBUSY;
	}
	if (mul == 0u || div == 0u) {
		return D1_ERANGE;
	}
	if (!t->auto_clock) {
		if (!cand_for(t, t->src, t->prescale_log2, mul, div, &c)) {
			return D1_ERANGE;
		}
		apply(t, t->src, t->prescale_log2, &c, out);
		return D1_OK;
	}
	/* AUTO: pass 0, exact (OSC24M before LOSC, finest prescaler first);
	 * pass 1, the finest resolution that fits (OSC24M is always finer). */
	for (unsigned pass = 0; pass < 2u; pass++) {
		for (unsigned i = 0; i < 2u; i++) {
			for (unsigned k = 0; k <= D1_TIMER_PRESCALE_MAX; k++) {
				if (cand_for(t, order[i], k, mul, div, &c) &&
				    (pass != 0u || c.rem == 0u)) {
					apply(t, order[i], k, &c, out);
					return D1_OK;
				}
			}
		}
	}
	return D1_ERANGE;
}

d1_err_t d1_timer_set_period_clocks(struct d1_timer *t, uint64_t clocks,
                                    struct d1_timer_achieved *out)
{
	struct cand c;

	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	if (t->running) {
		return D1_EBUSY;
	}
	if (!cand_make(clocks, 0u, 1u, &c)) {
		return D1_ERANGE;
	}
	if (t->auto_clock) {
		apply(t, D1_TIMER_SRC_OSC24M, 0u, &c, out); /* as documented */
	} else {
		apply(t, t->src, t->prescale_log2, &c, out);
	}
	return D1_OK;
}

d1_err_t d1_timer_set_period_ns(struct d1_timer *t, uint64_t ns, struct d1_timer_achieved *out)
{
	return set_period(t, ns, NS_PER_S, out);
}

d1_err_t d1_timer_set_period_hz(struct d1_timer *t, uint32_t hz, struct d1_timer_achieved *out)
{
	return set_period(t, 1u, hz, out);
}

/* Next period length from the error accumulator: P, or P + 1 when the
 * accumulated fraction reaches a whole clock. Keeps 0 <= acc < den, so the
 * boundary of period n lags the ideal n * (P + rem/den) by acc/den < 1. */
static uint32_t compute_next_interval(struct d1_timer *t)
{
	uint64_t p = t->clocks;

	t->acc += t->rem;
	if (t->acc >= t->den) {
		t->acc -= t->den;
		p++;
	}
	return intv_of_clocks(p);
}

static uint32_t ctrl_bits(const struct d1_timer *t, unsigned mode)
{
	return ((uint32_t)t->src << D1_TIMER_CTRL_CLK_SRC_LSB) |
	       ((uint32_t)t->prescale_log2 << D1_TIMER_CTRL_CLK_PRES_LSB) |
	       ((uint32_t)mode << D1_TIMER_CTRL_MODE_LSB);
}

static void sync_wait(const struct d1_timer *t, unsigned src, unsigned k)
{
	d1_port_delay_us(clocks_to_us_ceil(t, src, k, D1_TIMER_SYNC_CLOCKS));
}

/*
 * Clear EN (and RELOAD) if set and wait the sync time in the clock the
 * hardware was running on (it may have been left by firmware; CLK_SRC
 * values 2, 3 are reserved: assume the slower). Returns the microseconds
 * waited (0 if the channel was not enabled).
 */
static uint32_t disable(const struct d1_timer *t)
{
	uintptr_t ctrl = reg(t, D1_TIMER_CTRL_OFFSET(chan(t)));
	uint32_t v = d1_mmio_read32(ctrl);
	unsigned src;
	unsigned k;
	uint32_t us;

	if ((v & D1_TIMER_CTRL_EN_BITS) == 0u) {
		return 0u;
	}
	src = (v & D1_TIMER_CTRL_CLK_SRC_BITS) >> D1_TIMER_CTRL_CLK_SRC_LSB;
	k = (v & D1_TIMER_CTRL_CLK_PRES_BITS) >> D1_TIMER_CTRL_CLK_PRES_LSB;
	d1_mmio_write32(ctrl, v & ~(D1_TIMER_CTRL_EN_BITS | D1_TIMER_CTRL_RELOAD_BITS));
	us = clocks_to_us_ceil(t, src == D1_TIMER_SRC_OSC24M ? src : D1_TIMER_SRC_LOSC, k,
	                       D1_TIMER_SYNC_CLOCKS);
	d1_port_delay_us(us);
	return us;
}

/*
 * Queue period two of a fractional schedule, once RELOAD has loaded period
 * one. If the first boundary has already passed — its IRQ_STA bit is set
 * (handler pending) or d1_timer_isr() has handled it (acc moved) — the
 * counter latched period one again for period two, and the handler queues
 * from there: the accumulator is given that period instead (its first step
 * never carries, so it is a plain add; later boundaries are back within a
 * clock of the ideal, docs/design.md "Timer"). In a critical section, so
 * the handler cannot run between the check and the queue write.
 * A multiple of den handled boundaries (IRQ_STA clear again) leaves acc
 * where it was, and period two is queued as if none had passed, over the
 * interval the last handler queued: that is exact, as the interval replaced
 * was the schedule's first step again (acc 0 -> rem, no carry), the same as
 * the period the counter repeated (tests/test_interleave.c
 * "..._half_vs_own_isr_twice"; counting handled boundaries instead would
 * leave acc = den, a boundary a whole clock late).
 */
static void queue_second(struct d1_timer *t, uint64_t acc_at_load)
{
	uintptr_t s = d1_port_critical_enter();

	if (t->acc != acc_at_load ||
	    (d1_mmio_read32(reg(t, D1_TIMER_IRQ_STA_OFFSET)) & t->irq_bit) != 0u) {
		t->acc += t->rem;
	} else {
		t->next_interval = compute_next_interval(t);
		d1_mmio_write32(reg(t, D1_TIMER_INTV_OFFSET(chan(t))), t->next_interval);
	}
	d1_port_critical_exit(s);
}

d1_err_t d1_timer_start(struct d1_timer *t, enum d1_timer_mode mode)
{
	uintptr_t ctrl;
	uint32_t cfg;
	uint32_t budget;
	uint32_t prev;
	uint32_t interval;
	uint64_t acc;

	if (!handle_ok(t) || (mode != D1_TIMER_PERIODIC && mode != D1_TIMER_ONESHOT)) {
		return D1_EINVAL;
	}
	if (!t->configured) {
		return D1_ESTATE;
	}
	if (t->running) {
		return D1_EBUSY;
	}
	if (mode == D1_TIMER_ONESHOT && t->rem != 0u) {
		return D1_ERANGE;
	}
	ctrl = reg(t, D1_TIMER_CTRL_OFFSET(chan(t)));
	cfg = ctrl_bits(t, mode);
	t->mode = (uint8_t)mode;
	t->acc = 0u;
	t->cur_interval = compute_next_interval(t);

	/* A channel left enabled (by firmware, or a one-shot that has not
	 * expired) is disabled and given its sync time before reprogramming. */
	(void)d1_timer_stop(t);
	d1_mmio_write32(ctrl, cfg); /* disabled, source/prescaler/mode set */
	/* A bit left pending (by firmware, or an expiry nobody handled) would
	 * raise an IRQ at once and be taken for the first boundary. */
	d1_mmio_write32(reg(t, D1_TIMER_IRQ_STA_OFFSET), t->irq_bit);
	interval = t->cur_interval;
	d1_mmio_write32(reg(t, D1_TIMER_INTV_OFFSET(chan(t))), interval);
	/* The handle as d1_timer_isr() needs it from the load on: the first
	 * boundary may come before this call returns (an interrupt delaying it
	 * by more than a period). Period two repeats period one until queued. */
	t->next_interval = interval;
	/* Not an arm's pre-load CUR: one_shot_cur()'s "load pending" answer
	 * for this value is cur_interval, which is then CUR itself. */
	t->load_from = interval;
	t->tick_slow = mode == D1_TIMER_ONESHOT || t->rem != 0u;
	t->fired = false;
	t->running = true;
	acc = t->acc;
	/* EN and RELOAD in one store, as Linux does. Whether RELOAD reads back
	 * 0 once INTV is in CUR is unknown (docs/hardware-facts.md), so any
	 * sign of a completed load ends the wait: RELOAD clear; CUR at or below
	 * INTV and not where it was (compared first with the value before the
	 * store: a period that divides the poll interval shows the same CUR at
	 * every poll: test_sticky_reload_short_period_starts); or the channel's
	 * IRQ_STA bit, a boundary, which only a loaded counter reaches. The
	 * copy may need an input clock, so the budget is in input clocks, with
	 * a floor. */
	prev = d1_timer_read_current(t);
	d1_mmio_write32(ctrl, cfg | D1_TIMER_CTRL_EN_BITS | D1_TIMER_CTRL_RELOAD_BITS);
	budget = clocks_to_us_ceil(t, t->src, t->prescale_log2, D1_TIMER_RELOAD_BUDGET_CLOCKS);
	if (budget < D1_TIMER_RELOAD_MIN_US) {
		budget = D1_TIMER_RELOAD_MIN_US;
	}
	for (uint32_t waited = 0;; waited += RELOAD_POLL_US) {
		uint32_t cur;

		if ((d1_mmio_read32(ctrl) & D1_TIMER_CTRL_RELOAD_BITS) == 0u) {
			break;
		}
		cur = d1_timer_read_current(t);
		if ((cur <= t->cur_interval && cur != prev) ||
		    (d1_mmio_read32(reg(t, D1_TIMER_IRQ_STA_OFFSET)) & t->irq_bit) != 0u) {
			break;
		}
		prev = cur;
		if (waited >= budget) {
			d1_mmio_write32(ctrl, cfg);
			t->running = false;
			sync_wait(t, t->src, t->prescale_log2);
			return D1_ETIMEDOUT;
		}
		d1_port_delay_us(RELOAD_POLL_US);
	}
	/* The counter latches INTV at each boundary: queue period two now. */
	if (mode == D1_TIMER_PERIODIC && t->rem != 0u) {
		queue_second(t, acc);
	}
	return D1_OK;
}

d1_err_t d1_timer_stop(struct d1_timer *t)
{
	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	/* Not running before the disable: a boundary handled in its sync wait
	 * then queues no interval (isr_slow_path()), since a register write there
	 * would fall inside the sync window of the CTRL write. */
	t->running = false;
	(void)disable(t);
	return D1_OK;
}

/* The tick's less common cases, kept out of line so that the exact-period
 * path stays a leaf without a stack frame (docs/benchmarks.md). */
__attribute__((noinline)) static uint32_t isr_slow_path(struct d1_timer *t, uint32_t cur)
{
	if (t->mode == D1_TIMER_ONESHOT) {
		/* Single mode stops at the boundary: no latency to sample. */
		t->fired = true;
		return 0u;
	}
	/* The boundary that raised this IRQ latched t->next_interval. */
	t->cur_interval = t->next_interval;
	t->next_interval = compute_next_interval(t);
	if (t->running) { /* d1_timer_stop() may be in its sync wait */
		d1_mmio_write32(reg(t, D1_TIMER_INTV_OFFSET(chan(t))), t->next_interval);
	}
	return t->cur_interval - cur;
}

uint32_t d1_timer_isr(struct d1_timer *t)
{
	uintptr_t sta;
	uint32_t cur;

	if (t == NULL) {
		return D1_TIMER_ISR_SPURIOUS;
	}
	sta = t->base + D1_TIMER_IRQ_STA_OFFSET;
	if ((d1_mmio_read32(sta) & t->irq_bit) == 0u) {
		t->stats.spurious++; /* e.g. the PLIC re-pended a level we had cleared */
		return D1_TIMER_ISR_SPURIOUS;
	}
	/* Acknowledge first, then sample: a boundary that falls between the
	 * two sets IRQ_STA again and raises the next IRQ instead of being
	 * cleared unseen. The seam orders the store before the load (mmio.h). */
	d1_mmio_write32(sta, t->irq_bit);
	cur = d1_mmio_read32(t->cur_reg);
	if (t->tick_slow) {
		return isr_slow_path(t, cur);
	}
	return t->cur_interval - cur; /* exact period: next == cur interval */
}

/*
 * CUR of an armed one-shot as counted from its load. The arm does not wait
 * for the load (at the next input clock): until then CUR still holds its
 * old value, which is the interval's stand-in: above the interval, or equal
 * to the value read before the arm's EN store while RELOAD still reads set
 * (otherwise an old 0 would read as "1 clock left" for a deadline 1,000
 * clocks away: test_oneshot_remaining_before_load_edge). Under a RELOAD
 * that stays set once loaded (an unknown reading, docs/hardware-facts.md)
 * the counter passing that old value reads as not loaded for one input
 * clock.
 */
static uint32_t one_shot_cur(const struct d1_timer *t, uint32_t cur)
{
	if (cur > t->cur_interval) {
		return t->cur_interval;
	}
	if (cur == t->load_from) {
		if ((d1_mmio_read32(reg(t, D1_TIMER_CTRL_OFFSET(chan(t)))) &
		     D1_TIMER_CTRL_RELOAD_BITS) != 0u) {
			return t->cur_interval;
		}
		/* RELOAD clear: loaded, but perhaps only after the CUR read (the
		 * old value then read as "1 clock left"): read CUR again. */
		cur = d1_mmio_read32(t->cur_reg);
	}
	return cur;
}

uint32_t d1_timer_elapsed(const struct d1_timer *t)
{
	uintptr_t s;
	uint32_t r;

	if (!handle_ok(t)) {
		return 0u;
	}
	/* In a critical section: this channel's d1_timer_isr() moves
	 * t->cur_interval/next_interval on, and run between the reads below and the read
	 * of the handle it would pair a register value with the wrong interval
	 * (one clock off on a fractional schedule, 2^32 - 1 for 0 - 1). */
	s = d1_port_critical_enter();
	bool before = d1_timer_irq_pending(t);
	uint32_t cur = d1_timer_read_current(t);
	bool after = d1_timer_irq_pending(t);

	if (after != before) {
		cur = d1_timer_read_current(t); /* a boundary fell between: resample */
	}
	if (!after && t->running && t->mode == D1_TIMER_ONESHOT) {
		cur = one_shot_cur(t, cur); /* an arm's load still pending: 0 elapsed */
	}
	/* A boundary not yet handled by d1_timer_isr() started t->next_interval
	 * (differs from cur_interval only on a fractional schedule). */
	r = (after ? t->next_interval : t->cur_interval) - cur;
	d1_port_critical_exit(s);
	return r;
}

/* Clocks to the boundary of a running channel; for a one-shot 0 once it
 * expired. CUR (every read of it) comes before IRQ_STA: a boundary between
 * the reads is reported as expired, never as a stale "one clock left". */
static uint64_t remaining(const struct d1_timer *t)
{
	uint32_t cur = d1_mmio_read32(t->cur_reg);

	if (t->running && t->mode == D1_TIMER_ONESHOT) {
		cur = one_shot_cur(t, cur);
		if (t->fired || d1_timer_irq_pending(t)) {
			return 0u;
		}
	}
	return clocks_of_cur(cur);
}

uint64_t d1_timer_remaining(const struct d1_timer *t)
{
	return handle_ok(t) ? remaining(t) : 0u;
}

uint32_t d1_timer_read_current(const struct d1_timer *t)
{
	return handle_ok(t) ? d1_mmio_read32(t->cur_reg) : 0u;
}

d1_err_t d1_timer_irq_enable(struct d1_timer *t, bool on)
{
	uintptr_t s;
	uint32_t bit;

	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	bit = t->irq_bit;
	s = d1_port_critical_enter(); /* IRQ_EN is shared by both channels */
	d1_mmio_modify32(reg(t, D1_TIMER_IRQ_EN_OFFSET), bit, on ? bit : 0u);
	d1_port_critical_exit(s);
	return D1_OK;
}

bool d1_timer_irq_pending(const struct d1_timer *t)
{
	return handle_ok(t) && (d1_mmio_read32(reg(t, D1_TIMER_IRQ_STA_OFFSET)) & t->irq_bit) != 0u;
}

d1_err_t d1_timer_irq_ack(const struct d1_timer *t)
{
	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	d1_timer_irq_ack_fast(t); /* the one store, shared with the inline form */
	return D1_OK;
}

bool d1_timer_hw_enabled(const struct d1_timer *t)
{
	return handle_ok(t) && (d1_mmio_read32(reg(t, D1_TIMER_CTRL_OFFSET(chan(t)))) &
	                        D1_TIMER_CTRL_EN_BITS) != 0u;
}

uint64_t d1_timer_clocks_to_ns(const struct d1_timer *t, uint64_t clocks)
{
	uint64_t hz;
	uint64_t g;
	uint64_t m;
	uint64_t d;
	uint64_t num;

	if (t == NULL) {
		return UINT64_MAX;
	}
	hz = src_hz(t, t->src);
	if (hz == 0u) {
		return UINT64_MAX;
	}
	/* clocks * m / d, m = 2^k * 1e9 / g, d = hz / g, g = gcd(hz, 1e9), as
	 * (clocks / d) * m + (clocks % d) * m / d, exact and rounded down: the
	 * second product is < d * m <= 1e8 * 1e9 * 2^7 < 2^64, so only a result
	 * beyond 64 bits saturates to UINT64_MAX. */
	g = gcd64(hz, NS_PER_S);
	m = (NS_PER_S / g) << t->prescale_log2;
	d = hz / g;
	if (__builtin_mul_overflow(clocks / d, m, &num) ||
	    __builtin_add_overflow(num, clocks % d * m / d, &num)) {
		return UINT64_MAX;
	}
	return num;
}

d1_err_t d1_timer_oneshot_arm(struct d1_timer *t, uint64_t clocks)
{
	uintptr_t ctrl;
	uint32_t cfg;
	uint32_t fields =
	        D1_TIMER_CTRL_CLK_SRC_BITS | D1_TIMER_CTRL_CLK_PRES_BITS | D1_TIMER_CTRL_MODE_BITS;
	uint32_t us;
	uint32_t interval;

	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	if (clocks > D1_TIMER_ONESHOT_MAX) {
		return D1_ERANGE;
	}
	if (t->running && t->mode != D1_TIMER_ONESHOT) {
		return D1_EBUSY;
	}
	if (t->auto_clock && (t->src != D1_TIMER_SRC_OSC24M || t->prescale_log2 != 0u)) {
		/* AUTO: the finest resolution. A period chosen for another clock
		 * no longer matches it: a periodic start must set one again. */
		t->src = D1_TIMER_SRC_OSC24M;
		t->prescale_log2 = 0u;
		t->configured = false;
	}
	ctrl = reg(t, D1_TIMER_CTRL_OFFSET(chan(t)));
	cfg = ctrl_bits(t, D1_TIMER_ONESHOT);
	/* Whether RELOAD reloads an enabled counter is not stated by any source
	 * (docs/hardware-facts.md), so a channel still counting (or one whose
	 * single mode keeps EN after the boundary) is disabled and given its
	 * sync time first, as Linux timer-sun4i.c does; that time is deducted
	 * from the deadline (floor: the deadline is never early by it). An
	 * expired or cancelled channel is reprogrammed at once. */
	us = disable(t);
	if (us != 0u) {
		uint64_t waited = (uint64_t)us * (src_hz(t, t->src) >> t->prescale_log2) / 1000000u;
		clocks = clocks > waited ? clocks - waited : 0u;
	}
	if (clocks < D1_TIMER_ONESHOT_MIN_LEAD) {
		clocks = D1_TIMER_ONESHOT_MIN_LEAD; /* past or too close: fire at once */
		t->stats.oneshot_clamped++;
	}
	interval = intv_of_clocks(clocks);
	if ((d1_mmio_read32(ctrl) & fields) != cfg) {
		d1_mmio_write32(ctrl, cfg); /* source/prescaler/mode while disabled */
	}
	d1_mmio_write32(reg(t, D1_TIMER_IRQ_STA_OFFSET), t->irq_bit); /* stale expiry */
	d1_mmio_write32(reg(t, D1_TIMER_INTV_OFFSET(chan(t))), interval);
	/* The handle first: the expiry's handler may run as soon as the store
	 * below is done (a short deadline, an interrupt taken there), and
	 * nothing can raise this channel's bit before it (disabled, bit
	 * cleared). */
	t->mode = D1_TIMER_ONESHOT;
	t->cur_interval = interval;
	t->next_interval = interval;
	t->tick_slow = true;
	t->fired = false;
	t->running = true;
	t->load_from = d1_mmio_read32(t->cur_reg); /* see one_shot_cur() */
	/* EN|RELOAD in one store, not polled (Linux never polls it): the
	 * deadline counts from the load, at the next input clock. */
	d1_mmio_write32(ctrl, cfg | D1_TIMER_CTRL_EN_BITS | D1_TIMER_CTRL_RELOAD_BITS);
	return D1_OK;
}

d1_err_t d1_timer_oneshot_cancel(struct d1_timer *t)
{
	if (!handle_ok(t)) {
		return D1_EINVAL;
	}
	if (t->running && t->mode != D1_TIMER_ONESHOT) {
		return D1_EBUSY;
	}
	(void)disable(t);
	/* An expiry not yet handled would still raise the IRQ; a handler that
	 * is already on its way finds no bit and counts a spurious call. */
	d1_mmio_write32(reg(t, D1_TIMER_IRQ_STA_OFFSET), t->irq_bit);
	t->running = false;
	t->fired = false;
	return D1_OK;
}

d1_err_t d1_timer_oneshot_remaining(const struct d1_timer *t, uint64_t *clocks)
{
	if (!handle_ok(t) || clocks == NULL) {
		return D1_EINVAL;
	}
	if (!t->running || t->mode != D1_TIMER_ONESHOT) {
		return D1_ESTATE;
	}
	*clocks = remaining(t);
	return D1_OK;
}

d1_err_t d1_timer_get_stats(const struct d1_timer *t, struct d1_timer_stats *out)
{
	if (!handle_ok(t) || out == NULL) {
		return D1_EINVAL;
	}
	*out = t->stats;
	return D1_OK;
}
