/* SPDX-License-Identifier: Apache-2.0 */
/*
 * D1 reset record (resetrec.h has the mechanism and what it rests on).
 *
 * RTC general-purpose registers: RTC base 0x07090000, gp_data0..7 at
 * +0x100 + 4 n (d1_unofficial.svd, peripheral RTC, "General Purpose
 * Register"). Allwinner's D1 boot0 (sun20iw1p1 SPL, spl/drivers/rtc.c)
 * reads index 2 for its FEL and crash-dump flags after a reboot and prints
 * indices 0..5 when non-zero; the vendor U-Boot reads a boot-mode flag the
 * kernel wrote before rebooting from index 6; an open D1 bootloader keeps
 * DRAM parameters in index 3. So 2, 3 and 6 are taken and index 7 is the
 * default; the build refuses 2, 3 and 6.
 */
#include <stddef.h>

#include "bm.h"
#include "bm_csr.h"
#include "d1/mmio.h"
#include "d1/wdt.h"
#include "resetrec.h"

#if BM_RESETREC_GPR > 7u || BM_RESETREC_GPR == 2u || BM_RESETREC_GPR == 3u || BM_RESETREC_GPR == 6u
#error "BM_RESETREC_GPR must be 0, 1, 4, 5 or 7 (2, 3 and 6 belong to the boot chain)"
#endif

#define RTC_BASE       0x07090000u
#define RTC_GP_DATA(n) (RTC_BASE + 0x100u + 4u * (n))
#define MARKER_REG     RTC_GP_DATA(BM_RESETREC_GPR)

/* marker: [31:16] magic, [15:12] state, [11:0] run number */
#define MARKER_MAGIC       0xD1A5u
#define MARKER(state, run) ((MARKER_MAGIC << 16) | ((uint32_t)(state) << 12) | ((run)&0xFFFu))
#define MARKER_IS_OURS(m)  (((m) >> 16) == MARKER_MAGIC)
#define MARKER_STATE(m)    (((m) >> 12) & 0xFu)
#define MARKER_RUN(m)      ((m)&0xFFFu)

#define RECORD_MAGIC 0x43455252u /* "RREC" */
#define RECORD_SALT  0x5AA5C33Cu

/* The DRAM record, at the address ld/d1.ld gives (never loaded, never
 * cleared by start.S). Every field is accessed through a volatile pointer:
 * a reset may come between any two stores. */
struct record {
	uint32_t magic;
	uint32_t run;
	uint32_t wdt_id;
	uint32_t timeout_ms;
	uint32_t check; /* of the four words above */
	uint32_t gen;   /* odd while the counters below are being written */
	uint32_t state;
	uint32_t feeds;
	uint64_t t_start;
	uint64_t t_feed;
	uint64_t t_sample;
	uint64_t t_done;
	uint64_t samples;
	uint64_t missed;
	uint64_t boundaries;
};

/* uint64_t, not uint8_t: the compiler takes the alignment from the object
 * it knows, and a byte array made every field a run of byte loads and
 * stores (a reset could tear one field). ld/d1.ld places it 8-aligned. */
extern uint64_t bm_resetrec_area[]; /* ld/d1.ld */

/* ld/d1.ld leaves 4 KiB after the image's region for it (BM_RESETREC_SIZE). */
#define BM_RESETREC_SIZE 4096u
_Static_assert(sizeof(struct record) <= BM_RESETREC_SIZE, "the reset record outgrew its area");

static volatile struct record *rec(void)
{
	return (volatile struct record *)(void *)bm_resetrec_area;
}

static uint32_t check_of(uint32_t run, uint32_t wdt_id, uint32_t timeout_ms)
{
	return RECORD_MAGIC ^ run ^ (wdt_id << 24) ^ timeout_ms ^ RECORD_SALT;
}

static bool active;
static uint32_t this_run;
static uint32_t prev_run; /* run number the boot found (0: none) */

void bm_resetrec_boot(struct bm_resetrec_info *info)
{
	volatile struct record *r = rec();
	*info = (struct bm_resetrec_info){0};
	info->marker = d1_mmio_read32(MARKER_REG);
	prev_run = MARKER_IS_OURS(info->marker) ? MARKER_RUN(info->marker) : 0u;
	if (!MARKER_IS_OURS(info->marker) || MARKER_STATE(info->marker) == BM_RUN_NONE) {
		info->cause = BM_RESET_POWER_ON;
		return;
	}
	info->run = MARKER_RUN(info->marker);
	info->state = MARKER_STATE(info->marker);
	uint32_t gen = r->gen;
	info->record = r->magic == RECORD_MAGIC && r->run == info->run &&
	               r->check == check_of(r->run, r->wdt_id, r->timeout_ms);
	if (!info->record) {
		info->cause = BM_RESET_WATCHDOG_OR_POWER_LOSS;
		return;
	}
	info->cause = BM_RESET_WATCHDOG;
	info->torn = (gen & 1u) != 0u;
	info->wdt_id = r->wdt_id;
	info->timeout_ms = r->timeout_ms;
	info->feeds = r->feeds;
	info->t_start = r->t_start;
	info->t_feed = r->t_feed;
	info->t_sample = r->t_sample;
	info->t_done = r->t_done;
	info->samples = r->samples;
	info->missed = r->missed;
	info->boundaries = r->boundaries;
}

static uint64_t rel_us(uint64_t t, uint64_t t0)
{
	return t >= t0 ? bm_time_to_us(t - t0) : 0u;
}

void bm_resetrec_report(const struct bm_resetrec_info *info)
{
	const char *wdt = d1_wdt_name((enum d1_wdt_id)info->wdt_id);
	switch (info->cause) {
	case BM_RESET_POWER_ON:
		bm_printf("reset cause: power-on (RTC gp_data%u = 0x%08x: no run marker)\n",
		          BM_RESETREC_GPR, info->marker);
		break;
	case BM_RESET_WATCHDOG:
		bm_printf("reset cause: watchdog (%s, %u ms): run %u %s, marker 0x%08x in RTC "
		          "gp_data%u, DRAM record kept\n",
		          wdt, info->timeout_ms, info->run,
		          info->state == BM_RUN_DONE ? "had finished and was parked"
		                                     : "interrupted",
		          info->marker, BM_RESETREC_GPR);
		break;
	default:
		bm_printf("reset cause: watchdog or power loss: run %u marker 0x%08x in RTC "
		          "gp_data%u but no DRAM record of it: counts lost\n",
		          info->run, info->marker, BM_RESETREC_GPR);
		break;
	}
	if (info->record) {
		/* key=value for tests/emu/wdt_reset_d1.py; times are us from the
		 * run's start, and raw time CSR counts of that boot */
		uint64_t due_t =
		        info->t_feed + (uint64_t)info->timeout_ms * (BM_TIMEBASE_HZ / 1000u);
		/* From the due time itself: the last restart may precede the
		 * run's start (the takeover, when no feed came in the run), and
		 * rel_us() would then clamp it to the start. */
		uint64_t due = info->t_feed != 0u ? rel_us(due_t, info->t_start) : 0u;
		/* Consistent: not torn, every period boundary a sample or a
		 * miss, and nothing recorded after the watchdog was due. */
		bool consistent = !info->torn && info->samples + info->missed == info->boundaries &&
		                  (info->t_feed == 0u || info->t_sample <= due_t);
		bm_printf("reset record: run=%u state=%s samples=%llu missed=%llu boundaries=%llu "
		          "feeds=%u last_feed_us=%llu last_sample_us=%llu done_us=%llu due_us=%llu "
		          "torn=%u t_start=%llu t_feed=%llu t_sample=%llu consistent=%s\n",
		          info->run, info->state == BM_RUN_DONE ? "done" : "running",
		          (unsigned long long)info->samples, (unsigned long long)info->missed,
		          (unsigned long long)info->boundaries, info->feeds,
		          (unsigned long long)rel_us(info->t_feed, info->t_start),
		          (unsigned long long)rel_us(info->t_sample, info->t_start),
		          (unsigned long long)rel_us(info->t_done, info->t_start),
		          (unsigned long long)due, info->torn ? 1u : 0u,
		          (unsigned long long)info->t_start, (unsigned long long)info->t_feed,
		          (unsigned long long)info->t_sample, consistent ? "yes" : "NO");
	}
	if (MARKER_IS_OURS(info->marker)) {
		d1_mmio_write32(MARKER_REG, 0u); /* reported once */
		rec()->magic = 0u;
	}
}

void bm_resetrec_begin(uint32_t wdt_id, uint32_t timeout_ms, uint64_t t_feed)
{
	volatile struct record *r = rec();
	this_run = (prev_run + 1u) & 0xFFFu;
	if (this_run == 0u) {
		this_run = 1u;
	}
	/* Record first, marker last: a marker never names a run whose record
	 * is half written. */
	r->magic = 0u;
	r->gen = 0u;
	r->run = this_run;
	r->wdt_id = wdt_id;
	r->timeout_ms = timeout_ms;
	r->check = check_of(this_run, wdt_id, timeout_ms);
	r->state = BM_RUN_RUNNING;
	r->feeds = 0u;
	r->t_start = bm_rdtime();
	r->t_feed = t_feed;
	r->t_sample = 0u;
	r->t_done = 0u;
	r->samples = 0u;
	r->missed = 0u;
	r->boundaries = 0u;
	r->magic = RECORD_MAGIC;
	d1_mmio_write32(MARKER_REG, MARKER(BM_RUN_RUNNING, this_run));
	active = true;
}

void bm_resetrec_feed(uint64_t now)
{
	volatile struct record *r = rec();
	if (!active) {
		return;
	}
	r->gen = r->gen + 1u;
	r->t_feed = now;
	r->feeds = r->feeds + 1u;
	r->gen = r->gen + 1u;
}

void bm_resetrec_sample(uint64_t now, uint64_t samples, uint64_t missed, uint64_t boundaries)
{
	volatile struct record *r = rec();
	if (!active) {
		return;
	}
	r->gen = r->gen + 1u;
	r->t_sample = now;
	r->samples = samples;
	r->missed = missed;
	r->boundaries = boundaries;
	r->gen = r->gen + 1u;
}

void bm_resetrec_done(uint64_t now)
{
	volatile struct record *r = rec();
	if (!active) {
		return;
	}
	r->gen = r->gen + 1u;
	r->t_done = now;
	r->state = BM_RUN_DONE;
	r->gen = r->gen + 1u;
	d1_mmio_write32(MARKER_REG, MARKER(BM_RUN_DONE, this_run));
}
