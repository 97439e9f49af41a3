/* SPDX-License-Identifier: Apache-2.0 */
#include "wdt_model.h"

#include <string.h>

#define KEY           0x16AAu
#define FEED          0x14AFu
#define MODE_EN       0x1u
#define MODE_INTV(v)  (((v) >> 4) & 0xFu)
#define CFG_ACTION(v) ((v)&0x3u)
#define CFG_LOSC(v)   (((v) >> 8) & 0x1u)

/* Process-wide: never cleared by sim_reset() or wdt_model_init(). */
static uint64_t keyless_total;
static uint64_t keyless_expected;
static uint64_t bad_feed_total;
static uint64_t bad_feed_expected;

/* SVD wdog_intv_value: cycles of the 32 kHz count clock. */
static const uint32_t cycles[12] = {
        16000, 32000, 64000, 96000, 128000, 160000, 192000, 256000, 320000, 384000, 448000, 512000,
};

uint64_t wdt_model_timeout_ticks(const struct wdt_model *m)
{
	unsigned i = MODE_INTV(m->mode);
	uint64_t hz = CFG_LOSC(m->cfg) != 0 ? 32768u : 32000u; /* LOSC or 24 MHz / 750 */

	if (i >= 12) {
		return 0;
	}
	return (uint64_t)cycles[i] * SIM_HZ / hz; /* exact for both clocks */
}

bool wdt_model_running(const struct wdt_model *m)
{
	return (m->mode & MODE_EN) != 0;
}

static void power_on(struct wdt_model *m)
{
	m->irq_en = 0;
	m->irq_sta = 0;
	m->cfg = 0;
	m->mode = 0;
	m->output_cfg = 0;
}

/* Deliver every expiry due by @now, each at its exact time. */
static void process(struct wdt_model *m, uint64_t now)
{
	for (;;) {
		uint64_t t = wdt_model_timeout_ticks(m);
		uint64_t at;

		if (!wdt_model_running(m) || t == 0) {
			return;
		}
		at = m->armed_at + t;
		if (at > now) {
			return;
		}
		if (at < m->last_now) {
			at = m->last_now; /* a reconfiguration made it overdue: now */
		}
		switch (CFG_ACTION(m->cfg)) {
		case 1:
			m->resets++;
			m->last_reset_at = at;
			power_on(m); /* the SoC resets; so does this block */
			if (m->on_reset != NULL) {
				m->on_reset(m->arg, m, at);
			}
			return;
		case 2:
			m->irq_sta |= 1u;
			m->irqs++;
			m->last_irq_at = at;
			break;
		default:
			m->silent_expiries++;
			break;
		}
		m->armed_at = at;
	}
}

static void advance(void *ctx, uint64_t now)
{
	struct wdt_model *m = ctx;

	process(m, now);
	m->last_now = now;
}

static bool keyed(struct wdt_model *m, uint32_t v)
{
	if ((v >> 16) == KEY) {
		return true;
	}
	m->keyless_writes++;
	keyless_total++;
	return false;
}

static uint32_t rd(void *ctx, uint32_t off)
{
	struct wdt_model *m = ctx;

	switch (off) {
	case 0x00:
		return m->irq_en;
	case 0x04:
		return m->irq_sta;
	case 0x14:
		return m->cfg;
	case 0x18:
		return m->mode;
	case 0x1C:
		return m->output_cfg;
	default:
		return 0; /* SOFT_RST, CTRL: write-only content */
	}
}

static void wr(void *ctx, uint32_t off, uint32_t v)
{
	struct wdt_model *m = ctx;
	uint64_t now = sim_now();

	process(m, now);
	m->last_now = now;
	switch (off) {
	case 0x00:
		m->irq_en = v & 1u;
		return;
	case 0x04:
		m->irq_sta &= ~(v & 1u); /* W1C */
		return;
	case 0x08:
		if (!keyed(m, v) || (v & 1u) == 0) {
			return;
		}
		if (m->has_soft_rst) {
			m->soft_resets++;
			power_on(m);
		} else {
			m->soft_rst_ignored++;
		}
		return;
	case 0x10:
		if (v != FEED) {
			m->bad_feeds++;
			bad_feed_total++;
			return;
		}
		m->feeds++;
		m->armed_at = now;
		return;
	case 0x14:
		if (keyed(m, v)) {
			m->cfg = v & 0x103u;
		}
		break;
	case 0x18:
		if (keyed(m, v)) {
			if (MODE_INTV(v) >= 12) {
				m->reserved_intv_writes++; /* SVD: 0x0 .. 0xB */
			}
			if (!wdt_model_running(m) && (v & MODE_EN) != 0) {
				m->armed_at = now; /* enabling starts the count */
			}
			m->mode = v & 0xF1u;
		}
		break;
	case 0x1C:
		m->output_cfg = v & 0xFFFu;
		return;
	default:
		return;
	}
	process(m, now); /* a new configuration may already be expired */
}

void wdt_model_init(struct wdt_model *m, const char *name, uintptr_t base, bool has_soft_rst)
{
	memset(m, 0, sizeof(*m));
	m->has_soft_rst = has_soft_rst;
	m->last_now = sim_now();
	m->region = (struct sim_region){
	        .name = name,
	        .base = base,
	        .size = 0x20,
	        .read = rd,
	        .write = wr,
	        .advance = advance,
	        .ctx = m,
	};
	sim_map(&m->region);
}

void wdt_model_preset(struct wdt_model *m, uint32_t cfg, uint32_t mode)
{
	m->cfg = cfg & 0x103u;
	m->mode = mode & 0xF1u;
	m->armed_at = sim_now();
}

bool wdt_model_irq(const struct wdt_model *m)
{
	return (m->irq_en & m->irq_sta & 1u) != 0;
}

uint64_t wdt_model_keyless_total(void)
{
	return keyless_total;
}

uint64_t wdt_model_bad_feed_total(void)
{
	return bad_feed_total;
}

void wdt_model_keyless_expect(uint64_t n)
{
	keyless_expected += n;
}

uint64_t wdt_model_keyless_unexpected(void)
{
	return keyless_total - keyless_expected;
}

void wdt_model_bad_feed_expect(uint64_t n)
{
	bad_feed_expected += n;
}

uint64_t wdt_model_bad_feed_unexpected(void)
{
	return bad_feed_total - bad_feed_expected;
}
