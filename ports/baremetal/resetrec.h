/* SPDX-License-Identifier: Apache-2.0 */
/*
 * D1 reset record: what a run was doing when the machine was reset, and
 * the reset cause the next boot infers from it (tests/emu/wdt_reset_d1.py;
 * docs/reliability.md "On the emulated D1").
 *
 * The D1 documents no reset-cause register (no reset-status bit in the
 * watchdog, RTC or any other block of d1_unofficial.svd). What it does
 * have are the RTC's eight general-purpose registers (RTC + 0x100, SVD
 * gp_data0..7), which Allwinner's own D1 boot chain relies on to carry
 * flags across a reboot (a watchdog reset on sunxi). So two stores:
 *
 *   marker  one RTC GP register (BM_RESETREC_GPR, default 7): magic,
 *           run state and a 12-bit run number. Written with the device
 *           seam (uncached, fenced): it is what the cause rests on.
 *   record  88 bytes of DRAM (in a 4 KiB area) the image neither loads
 *           nor clears (right after the image's 16 MiB, ld/d1.ld): the counts (samples,
 *           missed, feeds, the times of the last feed and sample). Whether
 *           DRAM keeps them through a watchdog reset on the board is NOT
 *           known (boot0 re-initialises the DRAM controller; the C906's
 *           write-back D-cache may still hold the last updates): the next
 *           boot then says the counts are lost instead of inventing them.
 *
 * Decision at the next boot (bm_resetrec_boot()):
 *   no marker of ours              -> power-on (nothing was running armed)
 *   marker + the record of its run -> watchdog: a run with the watchdog
 *                                     armed in reset mode ended by a reset
 *                                     no software asked for; counts shown
 *   marker, no matching record     -> watchdog or power loss (an RTC kept
 *                                     by a coin cell): counts lost
 * A reset button or a brown-out that spares DRAM looks like the watchdog:
 * the D1 gives nothing to tell them apart.
 */
#ifndef BM_RESETREC_H
#define BM_RESETREC_H

#include <stdbool.h>
#include <stdint.h>

/** RTC general-purpose register used for the marker (SVD RTC gp_data%s). */
#ifndef BM_RESETREC_GPR
#define BM_RESETREC_GPR 7u
#endif

enum bm_reset_cause {
	BM_RESET_POWER_ON = 0,              /**< no marker: cold boot (or nothing armed) */
	BM_RESET_WATCHDOG = 1,              /**< marker and its run's DRAM record */
	BM_RESET_WATCHDOG_OR_POWER_LOSS = 2 /**< marker, record gone: counts lost */
};

/** Run state in the marker and the record. */
enum bm_run_state {
	BM_RUN_NONE = 0,
	BM_RUN_RUNNING = 1, /**< counting, watchdog armed and fed */
	BM_RUN_DONE = 2     /**< finished and parked, watchdog still armed */
};

/** What the boot found (bm_resetrec_boot()). Times are time CSR counts of
 *  the previous boot (the counter restarts at every reset). */
struct bm_resetrec_info {
	enum bm_reset_cause cause;
	uint32_t marker;     /**< raw GP register value */
	uint32_t run;        /**< run number of the marker */
	uint32_t state;      /**< enum bm_run_state of the marker */
	bool record;         /**< the DRAM record of that run was found */
	bool torn;           /**< the reset hit an update: counts may be 1 short */
	uint32_t wdt_id;     /**< enum d1_wdt_id armed in that run */
	uint32_t timeout_ms; /**< its timeout */
	uint32_t feeds;      /**< feeds made in the run */
	uint64_t t_start;    /**< run start */
	uint64_t t_feed;     /**< last feed (0: none known) */
	uint64_t t_sample;   /**< last sample recorded */
	uint64_t t_done;     /**< run end (state DONE) */
	uint64_t samples;    /**< samples recorded */
	uint64_t missed;     /**< periods missed */
	uint64_t boundaries; /**< period boundaries accounted for */
};

/** Read the marker and the record (no write). */
void bm_resetrec_boot(struct bm_resetrec_info *info);

/** Print "reset cause: ..." (and "reset record: ..." when there is one),
 *  then clear our marker so that the cause is reported once. */
void bm_resetrec_report(const struct bm_resetrec_info *info);

/** A run starts with watchdog @p wdt_id armed in reset mode for
 *  @p timeout_ms; @p t_feed its last restart (0: unknown). */
void bm_resetrec_begin(uint32_t wdt_id, uint32_t timeout_ms, uint64_t t_feed);

/** The watchdog was fed at @p now (main loop; interrupts must be off). */
void bm_resetrec_feed(uint64_t now);

/** A sample was recorded (ISR). Does nothing without bm_resetrec_begin(). */
void bm_resetrec_sample(uint64_t now, uint64_t samples, uint64_t missed, uint64_t boundaries);

/** The run finished; the watchdog stays armed (state DONE). */
void bm_resetrec_done(uint64_t now);

#endif /* BM_RESETREC_H */
