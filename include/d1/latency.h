/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file latency.h
 * @brief Latency recorder: a fixed 7,968-byte log-linear histogram, O(1) per
 *        sample, ISR-safe, no allocation; values above 1023 are reported
 *        within 1/128 (layout and bound: docs/latency.md).
 *
 * Device core: latency.c (init .. bucket_bounds); reports: latency_report.c,
 * linked only when called. One writer per recorder, no lock: read it (dump,
 * reports, merge) when the writer is quiet.
 */
#ifndef D1_LATENCY_H
#define D1_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d1/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_latency Latency recorder
 * @{ */

#define D1_LAT_EXACT_LOG2 10u                       /**< Values below 2^10 are exact. */
#define D1_LAT_EXACT      (1u << D1_LAT_EXACT_LOG2) /**< 1024 exact bins. */
#define D1_LAT_SUB_LOG2   6u                        /**< 64 buckets per octave. */
#define D1_LAT_SUB        (1u << D1_LAT_SUB_LOG2)   /**< Buckets per octave. */
#define D1_LAT_OCTAVES    15u                       /**< Octaves 2^10 .. 2^25 - 1. */
#define D1_LAT_NBINS      (D1_LAT_EXACT + D1_LAT_OCTAVES * D1_LAT_SUB)        /**< 1984. */
#define D1_LAT_TOP        ((1u << (D1_LAT_EXACT_LOG2 + D1_LAT_OCTAVES)) - 1u) /**< 2^25 - 1. */
#define D1_LAT_OVERFLOW   D1_LAT_NBINS /**< d1_lat_bucket_index() of a value > D1_LAT_TOP. */
/** Where d1_lat_merge() stops d1_lat::lost (2^63): d1_lat_record() adds to
 *  it without a check (no instruction on the sample path), and 2^63 more
 *  samples, which would wrap it, do not happen. */
#define D1_LAT_LOST_SAT (UINT64_C(1) << 63)

/** Smallest clock rate accepted by d1_lat_init() (keeps every time in 64-bit ps). */
#define D1_LAT_CLOCK_MIN_HZ 1000u

/** Number of standard percentiles in a summary (p50, p90, p99, p99.9, p99.99). */
#define D1_LAT_NPCT 5u

/** Bytes that hold either report when the meta strings total <= 256 bytes,
 *  whatever the bytes: the JSON report writes each byte outside printable
 *  ASCII as 6 characters (1,536 for 256 bytes) beside at most about 810
 *  of numbers and names (the widest: tests/test_latency.c). */
#define D1_LAT_REPORT_SIZE 2368u

/**
 * @brief The recorder (caller memory, e.g. static). Fields are public to
 *        read; written only by the functions below.
 */
struct d1_lat {
	uint64_t lost;     /**< Samples not held: their bin was at UINT32_MAX (a merge
	                      saturates it at #D1_LAT_LOST_SAT). */
	uint64_t missed;   /**< Missed periods (d1_lat_missed(), saturating). */
	uint32_t max;      /**< Largest sample, counts (0 when empty). */
	uint32_t clock_hz; /**< Rate of the sample clock, Hz. */
	/** Histogram, see d1_lat_bucket_bounds(); bins[D1_LAT_OVERFLOW] counts
	 *  the samples > D1_LAT_TOP. A bin stops at UINT32_MAX (then `lost`
	 *  counts): samples fed = sum of the bins + lost. */
	uint32_t bins[D1_LAT_NBINS + 1u];
	uint32_t reserved; /**< 0 (no padding: the struct is 7,968 bytes). */
};

/** Description of the run, printed in the dump and the reports; a NULL string is "unknown". */
struct d1_lat_meta {
	const char *os;    /**< "baremetal", "nuttx", "rtthread", "rtsmart", "linux", ... */
	const char *board; /**< "lichee-rv-86", "qemu-virt", host name, ... */
	const char *load;  /**< The load during the run: "idle", "memcpy+uart" (docs/latency.md). */
	uint64_t period_ns; /**< Intended period of the measured event, ns (0: none). */
	/** What was measured: "timer-irq" (boundary to the sample in the Timer's
	 *  interrupt) or "task-wakeup" (boundary to the sample in the task the
	 *  interrupt wakes); d1/bench.h. */
	const char *measurement;
	/** How the interrupt wakes the task: "semaphore", "event", "signal",
	 *  "clock_nanosleep", ...; "none" for a timer-IRQ measurement. */
	const char *wake;
	/** Instructions the bench spent in the interrupt per sample, fewest and
	 *  most (d1_bench_get_stats() irq_instr_min/max, by `instret`): included in
	 *  a task wake-up sample, and in part (what precedes d1_timer_isr()'s
	 *  counter read) in a timer-IRQ sample. 0 and 0: not measured, not
	 *  printed. */
	uint32_t bench_instr_min;
	uint32_t bench_instr_max; /**< See bench_instr_min. */
};

/** Output of d1_lat_dump(): @p n bytes at @p s (not NUL-terminated). */
typedef void (*d1_lat_put_fn)(void *ctx, const char *s, size_t n);

/* ---- device core (latency.c) ------------------------------------------ */

/**
 * @brief Clear @p r and set its sample clock.
 * @param r        Recorder (caller memory).
 * @param clock_hz Rate of the sample clock, Hz.
 * @return D1_OK; D1_EINVAL for NULL @p r; D1_ERANGE for
 *         clock_hz < D1_LAT_CLOCK_MIN_HZ (@p r untouched on error).
 */
d1_err_t d1_lat_init(struct d1_lat *r, uint32_t clock_hz);

/**
 * @brief Clear samples and counters, keep clock_hz. O(D1_LAT_NBINS).
 * @param r Recorder; NULL: nothing happens.
 */
void d1_lat_reset(struct d1_lat *r);

/**
 * @brief Record one sample (clock counts). O(1), leaf, ISR-safe
 *        (instruction count: docs/latency.md).
 * @param r      Recorder; NULL: nothing happens.
 * @param counts The latency in counts of clock_hz; > D1_LAT_TOP goes to bins[D1_LAT_OVERFLOW].
 */
void d1_lat_record(struct d1_lat *r, uint32_t counts);

/**
 * @brief Count missed periods (never in the histogram; saturating).
 * @param r Recorder; NULL: nothing happens.
 * @param n Periods missed.
 */
void d1_lat_missed(struct d1_lat *r, uint32_t n);

/**
 * @brief Write the recorder as one JSON line through @p put, in pieces of at
 *        most 64 bytes (format: docs/latency.md; bench/tools/d1lat_dump.py).
 * @param r    Recorder.
 * @param meta Run description (may be NULL).
 * @param put  Called with each piece, in order.
 * @param ctx  Passed to @p put.
 * @return D1_OK; D1_EINVAL for NULL @p r or @p put.
 */
d1_err_t d1_lat_dump(const struct d1_lat *r, const struct d1_lat_meta *meta, d1_lat_put_fn put,
                     void *ctx);

/**
 * @brief Bucket of a value: the mapping of d1_lat_record().
 * @param counts Any value.
 * @return Bin index 0 .. D1_LAT_NBINS - 1, or D1_LAT_OVERFLOW (= D1_LAT_NBINS)
 *         above D1_LAT_TOP.
 */
uint32_t d1_lat_bucket_index(uint32_t counts);

/**
 * @brief Values of a bucket.
 * @param idx Bin index; >= D1_LAT_OVERFLOW: D1_LAT_TOP + 1 .. UINT32_MAX.
 * @param lo  Out: smallest value, counts (NULL: not stored).
 * @param hi  Out: largest value, counts (NULL: not stored).
 */
void d1_lat_bucket_bounds(uint32_t idx, uint32_t *lo, uint32_t *hi);

/* ---- host-side or optional device-side reports (latency_report.c) ---- */

/** Everything a report prints. */
struct d1_lat_summary {
	uint64_t samples;             /**< Samples recorded (count). */
	uint64_t missed;              /**< Missed periods. */
	uint64_t saturated;           /**< Increments lost to saturated bins. */
	uint64_t above_exact;         /**< Samples held above the exact range (incl. overflow). */
	uint32_t overflow;            /**< Samples above D1_LAT_TOP. */
	uint32_t clock_hz;            /**< Sample clock, Hz. */
	uint32_t min;                 /**< Smallest sample, counts (0 when empty). */
	uint32_t max;                 /**< Largest sample, counts (0 when empty). */
	uint32_t pct[D1_LAT_NPCT];    /**< p50, p90, p99, p99.9, p99.99 in counts. */
	bool pct_approx[D1_LAT_NPCT]; /**< That percentile is a bucket estimate. */
	bool min_approx;              /**< min is a bucket estimate (above the exact range). */
	bool approx;                  /**< Any of the above set. */
	bool mean_approx;             /**< Some sample is not held exactly: mean from midpoints. */
	uint64_t resolution_ps;       /**< One count in ps. */
	uint64_t min_ps;              /**< min in ps. */
	uint64_t max_ps;              /**< max in ps. */
	uint64_t mean_ps;             /**< Mean in ps (0 when empty). */
	uint64_t pct_ps[D1_LAT_NPCT]; /**< pct[] in ps. */
};

/**
 * @brief Nearest-rank percentile over the samples held: the smallest v with
 *        at least max(1, ceil(q * N / 10^6)) samples <= v; exact below
 *        D1_LAT_EXACT, else a bucket estimate (docs/latency.md). O(D1_LAT_NBINS).
 * @param r      Recorder.
 * @param q_ppm  Quantile in ppm (999900 = p99.99); above 10^6 taken as 10^6.
 * @param approx Optional out: true when the result is an estimate.
 * @return Counts; 0 when empty or @p r is NULL.
 */
uint32_t d1_lat_percentile(const struct d1_lat *r, uint32_t q_ppm, bool *approx);

/**
 * @brief Add @p src into @p dst (saturating; lost increments stay counted).
 *        @p dst may equal @p src. Bins stop at UINT32_MAX (the excess is
 *        added to lost), missed at UINT64_MAX, lost at #D1_LAT_LOST_SAT.
 * @param dst Recorder to add into.
 * @param src Recorder to add.
 * @return D1_OK; D1_EINVAL NULL or different clock_hz (@p dst untouched).
 */
d1_err_t d1_lat_merge(struct d1_lat *dst, const struct d1_lat *src);

/**
 * @brief Convert counts of the recorder's clock to picoseconds: counts *
 *        10^12 / clock_hz, rounded to nearest (halves up), saturating.
 * @param r      Recorder.
 * @param counts Any 64-bit value.
 * @return Picoseconds; 0 for NULL @p r or clock_hz 0.
 */
uint64_t d1_lat_counts_to_ps(const struct d1_lat *r, uint64_t counts);

/**
 * @brief Compute min, max, mean, the standard percentiles and their flags.
 * @param r Recorder.
 * @param s Out: summary.
 * @return D1_OK or D1_EINVAL for NULL.
 */
d1_err_t d1_lat_summarize(const struct d1_lat *r, struct d1_lat_summary *s);

/**
 * @brief The human-readable report (several lines) into @p buf.
 * @param r       Recorder.
 * @param meta    Run description (may be NULL).
 * @param buf     Output; always NUL-terminated when @p len > 0.
 * @param len     Size of @p buf, bytes.
 * @param written Optional out: characters stored, excluding the NUL.
 * @return D1_OK; D1_EINVAL NULL @p r or @p buf, or @p len 0; D1_ERANGE
 *         the buffer was too small (a clean, NUL-terminated prefix is kept).
 */
d1_err_t d1_lat_report_text(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written);

/**
 * @brief The machine-readable report: one JSON line, ASCII only (fields in
 *        docs/latency.md).
 * @param r       Recorder.
 * @param meta    Run description (may be NULL).
 * @param buf     Output; always NUL-terminated when @p len > 0.
 * @param len     Size of @p buf, bytes.
 * @param written Optional out: characters stored, excluding the NUL.
 * @return As d1_lat_report_text().
 */
d1_err_t d1_lat_report_json(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_LATENCY_H */
