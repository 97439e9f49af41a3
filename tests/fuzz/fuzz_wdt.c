/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the watchdog driver (d1/wdt.h) on three watchdog models
 * (timer-block WDT with SOFT_RST, riscv_wdt, R_WDOG). Random sequences of
 * every public call with arbitrary arguments, firmware-left state, model
 * time (expiries). Invariants after every call: fuzz_common.h; no keyless
 * CFG/MODE/SOFT_RST write, no feed value other than 0x14AF, no reserved
 * interval index; no wait at all; the documented effect of each call that
 * returned D1_OK, read back from the model (running state, timeout,
 * action, IRQ_EN untouched by start).
 */
#include <string.h>

#include "d1/memmap.h"
#include "d1/wdt.h"
#include "fuzz_common.h"
#include "sim.h"
#include "wdt_model.h"

#define UNMAPPED_BASE 0x0A000000u
#define NSLOT         3u

static struct wdt_model wm[3];
static const uintptr_t bases[3] = {D1_TIMER_WDT_BASE, D1_RISCV_WDT_BASE, D1_R_WDOG_BASE};
static struct d1_wdt wh[NSLOT];
static struct wdt_model *slot_model[NSLOT]; /* the model a handle's base maps to */
static struct d1_wdt zero_handle;

/* Timeouts of the table, ms, at the 24 MHz / 750 clock (SVD wdog_intv_value
 * cycle counts / 32 kHz). */
static const uint32_t table_ms[12] = {500,  1000, 2000,  3000,  4000,  5000,
                                      6000, 8000, 10000, 12000, 14000, 16000};

static void check_models(void)
{
	for (unsigned i = 0; i < 3u; i++) {
		FZ_CHECK(wm[i].keyless_writes == 0u,
		         "%s: a CFG/MODE/SOFT_RST write without the key", wm[i].region.name);
		FZ_CHECK(wm[i].bad_feeds == 0u, "%s: CTRL written with a value other than 0x14AF",
		         wm[i].region.name);
		FZ_CHECK(wm[i].reserved_intv_writes == 0u, "%s: reserved interval index written",
		         wm[i].region.name);
	}
}

static struct d1_wdt *pick(struct fz_in *in, int *slot)
{
	uint8_t k = fz_u8(in) % 5u;

	*slot = -1;
	if (k == 3u) {
		return NULL;
	}
	if (k == 4u) {
		return &zero_handle;
	}
	*slot = (int)k;
	return &wh[k];
}

static uint32_t pick_ms(struct fz_in *in)
{
	static const uint32_t tab[] = {0, 1, 499, 500, 501, 1000, 15999, 16000, 16001, UINT32_MAX};

	return fz_pick32(in, tab, sizeof(tab) / sizeof(tab[0]));
}

static void after(int slot, int err, unsigned allowed)
{
	fz_end();
	fz_check_call(0u); /* no call of this driver waits */
	fz_check_err_writes(err, allowed);
	if (slot < 0) {
		FZ_CHECK(fz_call_writes() == 0u, "a call on a NULL/uninitialised handle wrote");
	}
	check_models();
}

/* Expected timeout index for a request (the table rounded up), or -1. */
static int index_for(uint32_t ms)
{
	for (unsigned i = 0; i < 12u; i++) {
		if (ms != 0u && table_ms[i] >= ms) {
			return (int)i;
		}
	}
	return -1;
}

static void check_armed(const struct wdt_model *m, uint32_t ms, unsigned action)
{
	if (m == NULL) {
		return;
	}
	FZ_CHECK(wdt_model_running(m), "armed, but MODE.EN is clear");
	FZ_CHECK(wdt_model_timeout_ticks(m) == (uint64_t)table_ms[index_for(ms)] * 24000u,
	         "armed with %llu ticks for %u ms", (unsigned long long)wdt_model_timeout_ticks(m),
	         ms);
	FZ_CHECK((m->cfg & 3u) == action, "action %u, asked %u", m->cfg & 3u, action);
	FZ_CHECK((m->cfg & 0x100u) == 0u, "armed on LOSC (the table is for 24 MHz / 750)");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in;

	fz_in_init(&in, data, size);
	fz_sim_reset();
	wdt_model_init(&wm[0], "timer_wdt", bases[0], true);
	wdt_model_init(&wm[1], "riscv_wdt", bases[1], false);
	wdt_model_init(&wm[2], "r_wdog", bases[2], false);
	memset(&zero_handle, 0, sizeof(zero_handle));
	for (unsigned i = 0; i < NSLOT; i++) {
		(void)d1_wdt_init(&wh[i], (enum d1_wdt_id)i, bases[i]);
		slot_model[i] = &wm[i];
	}

	while (fz_more(&in) && !fz_over_budget()) {
		uint8_t op = fz_u8(&in) % 18u;
		int slot;
		struct d1_wdt *w = pick(&in, &slot);
		struct wdt_model *m = slot >= 0 ? slot_model[slot] : NULL;
		int err = D1_OK;

		switch (op) {
		case 0: { /* init: any id with any base */
			uint8_t id = fz_u8(&in);
			uint8_t b = fz_u8(&in) % 7u;
			uintptr_t base = b < 3u    ? bases[b]
			                 : b == 3u ? 0u
			                 : b == 4u ? bases[0] + 2u
			                           : UNMAPPED_BASE;
			struct d1_wdt scratch;
			unsigned idv = id % 5u;

			fz_begin("d1_wdt_init");
			err = d1_wdt_init(w == &zero_handle ? &scratch : w, (enum d1_wdt_id)idv,
			                  base);
			fz_end();
			fz_check_no_access();
			FZ_CHECK((err == D1_OK) == (w != NULL && idv < 3u && b != 3u && b != 4u),
			         "d1_wdt_init returned %s", d1_strerror(err));
			if (err == D1_OK && slot >= 0) {
				slot_model[slot] = b < 3u ? &wm[b] : NULL;
			}
			break;
		}
		case 1: {
			uint32_t ms = pick_ms(&in);
			uint32_t got = 0;
			unsigned idx = 99;
			bool outs = fz_bool(&in);

			fz_begin("d1_wdt_round_timeout");
			err = d1_wdt_round_timeout(ms, outs ? &got : NULL, outs ? &idx : NULL);
			fz_end();
			fz_check_no_access();
			FZ_CHECK(err == (ms == 0u      ? D1_EINVAL
			                 : ms > 16000u ? D1_ERANGE
			                               : D1_OK),
			         "round_timeout(%u) returned %s", ms, d1_strerror(err));
			if (err == D1_OK && outs) {
				FZ_CHECK((int)idx == index_for(ms) && got == table_ms[idx],
				         "round_timeout(%u) gave %u ms, index %u", ms, got, idx);
			}
			break;
		}
		case 2: {
			struct d1_wdt_state st;
			char buf[D1_WDT_STATE_STR_MAX];
			bool null_st = fz_u8(&in) < 16u;

			fz_begin("d1_wdt_get_state");
			err = d1_wdt_get_state(w, null_st ? NULL : &st);
			after(slot, err, 0u);
			fz_check_no_write();
			if (err == D1_OK) {
				FZ_CHECK(d1_wdt_format_state(&st, buf, sizeof(buf)) == D1_OK,
				         "D1_WDT_STATE_STR_MAX did not hold the state line");
				if (m != NULL) {
					FZ_CHECK(st.running == wdt_model_running(m) &&
					                 st.cfg_mode == (m->cfg & 3u) &&
					                 st.interval_index ==
					                         ((m->mode >> 4) & 0xFu),
					         "get_state differs from the hardware");
				}
			}
			break;
		}
		case 3: { /* takeover */
			unsigned pol = fz_u8(&in) % 3u;
			uint32_t ms = pick_ms(&in);
			struct d1_wdt_state inh;
			uint32_t ach = 7;

			fz_begin("d1_wdt_takeover");
			err = d1_wdt_takeover(w, (enum d1_wdt_policy)pol, ms,
			                      fz_bool(&in) ? &inh : NULL, &ach);
			after(slot, err, 0u);
			if (err == D1_OK && m != NULL) {
				if (pol == D1_WDT_TAKEOVER_STOP) {
					FZ_CHECK(!wdt_model_running(m),
					         "takeover STOP left it running");
					FZ_CHECK(ach == 0u, "takeover STOP achieved %u", ach);
				} else {
					check_armed(m, ms, 1u);
				}
			}
			break;
		}
		case 4: { /* start */
			uint32_t ms = pick_ms(&in);
			unsigned act = fz_u8(&in) % 4u;
			uint32_t ach = 0;
			uint32_t irq_en = m != NULL ? m->irq_en : 0u;

			fz_begin("d1_wdt_start");
			err = d1_wdt_start(w, ms, (enum d1_wdt_action)act,
			                   fz_bool(&in) ? &ach : NULL);
			after(slot, err, 0u);
			if (err == D1_OK && m != NULL) {
				check_armed(m, ms, act);
				FZ_CHECK(m->irq_en == irq_en, "start changed IRQ_EN");
			}
			break;
		}
		case 5: { /* set_timeout */
			uint32_t ms = pick_ms(&in);
			bool was = m != NULL && wdt_model_running(m);
			uint32_t cfg = m != NULL ? m->cfg : 0u;

			fz_begin("d1_wdt_set_timeout");
			err = d1_wdt_set_timeout(w, ms, NULL);
			after(slot, err, 0u);
			if (err == D1_OK && m != NULL) {
				FZ_CHECK(wdt_model_running(m) == was,
				         "set_timeout changed the run state");
				/* CFG unchanged, but a running watchdog leaves the
				 * LOSC (bit 8) for the clock the table is exact in */
				FZ_CHECK(m->cfg == (was ? cfg & ~D1_WDT_CFG_CLK_SRC_BITS : cfg),
				         "set_timeout changed CFG %08x -> %08x", (unsigned)cfg,
				         (unsigned)m->cfg);
				FZ_CHECK(((m->mode >> 4) & 0xFu) == (unsigned)index_for(ms),
				         "set_timeout programmed index %u for %u ms",
				         (m->mode >> 4) & 0xFu, ms);
			}
			break;
		}
		case 6: {
			uint64_t feeds = m != NULL ? m->feeds : 0u;

			fz_begin("d1_wdt_feed");
			err = d1_wdt_feed(w);
			after(slot, err, 0u);
			FZ_CHECK(err != D1_OK || m == NULL || m->feeds == feeds + 1u,
			         "feed did not restart the count");
			break;
		}
		case 7:
			fz_begin("d1_wdt_stop");
			err = d1_wdt_stop(w);
			after(slot, err, 0u);
			FZ_CHECK(err != D1_OK || m == NULL || !wdt_model_running(m),
			         "stop left it running");
			break;
		case 8: {
			bool on = fz_bool(&in);

			fz_begin("d1_wdt_irq_enable");
			err = d1_wdt_irq_enable(w, on);
			after(slot, err, 0u);
			FZ_CHECK(err != D1_OK || m == NULL || m->irq_en == (on ? 1u : 0u),
			         "IRQ_EN is %u", m != NULL ? m->irq_en : 0u);
			break;
		}
		case 9: {
			bool p;

			fz_begin("d1_wdt_irq_pending");
			p = d1_wdt_irq_pending(w);
			after(slot, D1_OK, 0u);
			fz_check_no_write();
			FZ_CHECK(m == NULL || p == ((m->irq_sta & 1u) != 0u),
			         "irq_pending is wrong");
			FZ_CHECK(slot >= 0 || !p, "pending on a NULL/uninitialised handle");
			break;
		}
		case 10:
			fz_begin("d1_wdt_irq_ack");
			d1_wdt_irq_ack(w);
			after(slot, D1_OK, 0u);
			FZ_CHECK(m == NULL || (m->irq_sta & 1u) == 0u,
			         "still pending after the ack");
			break;
		case 11: {
			uint64_t n = m != NULL ? m->soft_resets : 0u;

			fz_begin("d1_wdt_soft_reset");
			err = d1_wdt_soft_reset(w);
			after(slot, err, 0u);
			FZ_CHECK(err != D1_OK || m == NULL || !m->has_soft_rst ||
			                 m->soft_resets == n + 1u,
			         "soft reset did not reset");
			FZ_CHECK(err != D1_ENOTSUP || (w->caps & D1_WDT_CAP_SOFT_RESET) == 0u,
			         "ENOTSUP with the capability");
			break;
		}
		case 12: {
			uint32_t id = fz_u32(&in);
			const char *nm;
			unsigned caps;

			fz_begin("d1_wdt_name/caps");
			nm = d1_wdt_name((enum d1_wdt_id)id);
			caps = d1_wdt_caps(w);
			fz_end();
			fz_check_no_access();
			FZ_CHECK(nm != NULL && nm[0] != '\0', "no name for id %u", id);
			FZ_CHECK(w != NULL || caps == 0u, "caps of NULL");
			break;
		}
		case 13:
		case 14: { /* model time: expiries in every mode */
			uint64_t dt = fz_u32(&in);

			if (sim_now() < (1ull << 40)) {
				sim_advance(dt);
			}
			check_models();
			break;
		}
		case 15: { /* firmware left a configuration (keyed writes, as it
			    * would make them) */
			unsigned i = fz_u8(&in) % 3u;
			uint32_t cfg = fz_u16(&in);
			uint32_t mode = fz_u8(&in);

			wdt_model_preset(&wm[i], cfg, mode);
			break;
		}
		default: { /* IRQ_EN/IRQ_STA as firmware left them */
			unsigned i = fz_u8(&in) % 3u;

			wm[i].irq_en = fz_u8(&in) & 1u;
			wm[i].irq_sta = fz_u8(&in) & 1u;
			break;
		}
		}
	}
	return 0;
}
