/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file latency.h
 * @brief Latency recorder: fixed memory, O(1) per sample, ISR-safe.
 *
 * The recorder keeps an exact histogram at one-count resolution for samples
 * 0 .. nbins - 1 (in a bins array the caller supplies, see D1_LAT_NBINS())
 * and D1_LAT_OVF_BUCKETS log-linear overflow buckets (inside the struct)
 * above it: 8 buckets per power of two, so an overflow bucket is at most
 * 12.5 % of its lower bound wide. Memory does not grow with the number of
 * samples: a 20,000-sample and a 10^9-sample run cost the same.
 *
 * Samples are counts of a clock whose rate the recorder knows (e.g. 24 MHz
 * input clocks of the D1 timer, 41.667 ns each, or nanoseconds on Linux with
 * clock_hz = 10^9).
 *
 * Definitions (docs/latency.md has the full text):
 *  - Percentile q (in ppm, 0 .. 1,000,000) over the N samples held in the
 *    histogram: nearest rank, the smallest value v such that at least
 *    ceil(q * N / 10^6) samples (and at least one) are <= v. Exact inside the
 *    exact range. When v falls in an overflow bucket wider than one count the
 *    result is the bucket's upper bound (clamped to the exact maximum), an
 *    upper bound of the true percentile, and it is flagged. Two cases stay
 *    exact: when min is above the exact range, the rank of the first sample
 *    of the overflow bucket holding min (= min); and the rank of the last
 *    sample of the overflow bucket holding max (= max).
 *  - Conversion to time: counts * 10^12 / clock_hz picoseconds, rounded to the
 *    nearest picosecond (halves up); reports print ns with 3 decimals.
 *  - Mean: the 64-bit sum of samples / samples, converted the same way. The
 *    sum is exact for up to 2^32 samples of any value (2^32 * (2^32 - 1) <
 *    2^64); past 2^64 it saturates and the mean is flagged.
 *  - Missed periods are counted by d1_lat_missed() only, never put into the
 *    histogram.
 *  - Counters saturate instead of wrapping (a bin at UINT32_MAX, the sum at
 *    UINT64_MAX); each lost increment is counted in `saturated`. The sample
 *    count is 64-bit and is not expected to wrap (2^64 samples).
 *
 * Concurrency: one writer per recorder (e.g. one per ISR or per hart); the
 * recorder has no lock. Read it (percentiles, reports, merge) only when the
 * writer is quiet, e.g. after the run. Merge per-writer recorders afterwards.
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

/** log2 of the number of overflow buckets per power of two. */
#define D1_LAT_OVF_SUB_LOG2 3u
/** Overflow buckets per power of two (relative width <= 1/8). */
#define D1_LAT_OVF_SUB (1u << D1_LAT_OVF_SUB_LOG2)
/**
 * Number of overflow buckets: values 0..15 one bucket each (only used when
 * the exact range is shorter than 16), then 8 per power of two for
 * 2^4 .. 2^32 - 1.
 */
#define D1_LAT_OVF_BUCKETS (2u * D1_LAT_OVF_SUB + (32u - D1_LAT_OVF_SUB_LOG2 - 1u) * D1_LAT_OVF_SUB)

/**
 * Number of bins (uint32_t elements) for an exact range of 0 .. @p max_counts
 * inclusive: `static uint32_t bins[D1_LAT_NBINS(24000)];`
 */
#define D1_LAT_NBINS(max_counts) ((uint32_t)(max_counts) + 1u)

/** Smallest clock rate accepted by d1_lat_init() (keeps every time in 64-bit ps). */
#define D1_LAT_CLOCK_MIN_HZ 1000u

/** Number of standard percentiles in a summary (p50, p90, p99, p99.9, p99.99). */
#define D1_LAT_NPCT 5u

/**
 * A buffer of this many bytes holds either report when the three meta
 * strings together are at most 256 bytes long (JSON escaping included).
 */
#define D1_LAT_REPORT_SIZE 2048u

/**
 * @brief The recorder. Owned by the caller; fields are public to read after
 *        the run, written only by the functions below.
 */
struct d1_lat {
	uint32_t *bins;     /**< Exact histogram, nbins elements, bins[v] = samples equal to v. */
	uint32_t nbins;     /**< Exact range is 0 .. nbins - 1 counts. */
	uint32_t clock_hz;  /**< Rate of the sample clock, Hz. */
	uint32_t min;       /**< Smallest sample (UINT32_MAX when empty). */
	uint32_t max;       /**< Largest sample (0 when empty). */
	uint64_t count;     /**< Samples recorded. */
	uint64_t sum;       /**< Sum of samples, counts (saturating). */
	uint64_t missed;    /**< Missed periods (d1_lat_missed(), saturating). */
	uint64_t saturated; /**< Increments lost to saturation (bins, sum, missed). */
	uint32_t ovf[D1_LAT_OVF_BUCKETS]; /**< Overflow buckets, see d1_lat_bucket_bounds(). */
};

/** Everything a report prints, computed once after the run. */
struct d1_lat_summary {
	uint64_t samples;               /**< Samples recorded. */
	uint64_t missed;                /**< Missed periods. */
	uint64_t saturated;             /**< Increments lost to saturation. */
	uint64_t overflow_samples;      /**< Samples held in overflow buckets. */
	uint32_t clock_hz;              /**< Sample clock, Hz. */
	uint32_t exact_max;             /**< Largest value held exactly (nbins - 1), counts. */
	uint32_t min;                   /**< Smallest sample, counts (0 when empty). */
	uint32_t max;                   /**< Largest sample, counts (0 when empty). */
	uint32_t pct[D1_LAT_NPCT];      /**< p50, p90, p99, p99.9, p99.99 in counts. */
	bool pct_overflow[D1_LAT_NPCT]; /**< That percentile is an overflow bucket's upper bound. */
	bool overflow;                  /**< Any pct_overflow set. */
	bool mean_saturated;            /**< The sum saturated: mean_ps is a lower bound. */
	uint64_t resolution_ps;         /**< One count in ps (rounded to nearest). */
	uint64_t exact_max_ps;          /**< exact_max in ps. */
	uint64_t min_ps;                /**< min in ps. */
	uint64_t max_ps;                /**< max in ps. */
	uint64_t mean_ps;               /**< Mean in ps (0 when empty). */
	uint64_t pct_ps[D1_LAT_NPCT];   /**< pct[] in ps. */
};

/** Description of the run, printed in the reports. Any string may be NULL ("unknown"). */
struct d1_lat_meta {
	const char *os;     /**< "baremetal", "nuttx", "rtsmart", "linux", ... */
	const char *board;  /**< "lichee-rv-86", "qemu-virt", host name, ... */
	const char *load;   /**< Free text: the load during the run, "none". */
	uint64_t period_ns; /**< Intended period of the measured event, ns (0: none). */
};

/**
 * @brief Initialise a recorder over caller memory; clears the bins.
 * @param r           Recorder to fill.
 * @param bins        Array of @p nbins_exact uint32_t (D1_LAT_NBINS()).
 * @param nbins_exact Number of exact bins, >= 1: values 0 .. nbins_exact - 1
 *                    are kept at one-count resolution.
 * @param clock_hz    Rate of the sample clock in Hz.
 * @return D1_OK; D1_EINVAL for NULL @p r or @p bins or nbins_exact 0;
 *         D1_ERANGE for clock_hz < D1_LAT_CLOCK_MIN_HZ.
 */
d1_err_t d1_lat_init(struct d1_lat *r, uint32_t *bins, uint32_t nbins_exact, uint32_t clock_hz);

/**
 * @brief Clear all samples and counters (keeps bins, range and clock).
 *        O(nbins): not for an ISR.
 * @param r Initialised recorder; NULL, or a recorder without bins: nothing happens.
 */
void d1_lat_reset(struct d1_lat *r);

/**
 * @brief Record one sample. O(1), no loop, no call; ISR-safe (single writer).
 * @param r      Initialised recorder; NULL: nothing happens.
 * @param counts The latency in clock counts.
 */
void d1_lat_record(struct d1_lat *r, uint32_t counts);

/**
 * @brief Count @p n missed periods (never added to the histogram). O(1).
 * @param r Initialised recorder; NULL: nothing happens.
 * @param n Periods missed.
 */
void d1_lat_missed(struct d1_lat *r, uint32_t n);

/**
 * @brief Add the samples and counters of @p src into @p dst (exactly).
 *
 * The exact ranges may differ: @p src samples above @p dst's exact range go
 * to @p dst's overflow buckets. An @p src overflow bucket that would have to
 * be split into @p dst's exact bins is refused (D1_ERANGE) unless it holds
 * one value only. Nothing is changed on error. @p dst may equal @p src.
 * @param dst Recorder to add into.
 * @param src Recorder to add.
 * @return D1_OK; D1_EINVAL NULL or different clock_hz; D1_ERANGE as above.
 */
d1_err_t d1_lat_merge(struct d1_lat *dst, const struct d1_lat *src);

/**
 * @brief Nearest-rank percentile (see the file comment). O(nbins).
 * @param r           Recorder.
 * @param q_ppm       Quantile in parts per million (999900 for p99.99);
 *                    values above 1,000,000 are taken as 1,000,000.
 * @param in_overflow Optional: set true when the result is the upper bound
 *                    of an overflow bucket wider than one count.
 * @return The percentile in counts; 0 when the recorder is empty.
 */
uint32_t d1_lat_percentile(const struct d1_lat *r, uint32_t q_ppm, bool *in_overflow);

/**
 * @brief Range of values of overflow bucket @p idx.
 * @param idx Bucket index, 0 .. D1_LAT_OVF_BUCKETS - 1 (larger: the last).
 * @param lo  Out: smallest value of the bucket, counts (NULL: not stored).
 * @param hi  Out: largest value of the bucket, counts (NULL: not stored).
 */
void d1_lat_bucket_bounds(uint32_t idx, uint32_t *lo, uint32_t *hi);

/**
 * @brief Overflow bucket that holds value @p counts.
 * @param counts Any value.
 * @return Index 0 .. D1_LAT_OVF_BUCKETS - 1.
 */
uint32_t d1_lat_bucket_index(uint32_t counts);

/**
 * @brief Convert counts of the recorder's clock to picoseconds,
 *        rounded to nearest (halves up). Exact integer arithmetic.
 * @param r      Recorder.
 * @param counts Counts (any 64-bit value; saturates at UINT64_MAX ps).
 * @return Picoseconds; 0 for NULL @p r or a recorder with clock_hz 0.
 */
uint64_t d1_lat_counts_to_ps(const struct d1_lat *r, uint64_t counts);

/**
 * @brief Compute min, max, mean, the standard percentiles and flags.
 * @param r Recorder.
 * @param s Out: summary.
 * @return D1_OK or D1_EINVAL for NULL.
 */
d1_err_t d1_lat_summarize(const struct d1_lat *r, struct d1_lat_summary *s);

/**
 * @brief Write the human-readable report (a table, several lines, ending in
 *        a newline) into @p buf.
 * @param r       Recorder.
 * @param meta    Run description (may be NULL).
 * @param buf     Output buffer; always NUL-terminated when @p len > 0.
 * @param len     Size of @p buf in bytes.
 * @param written Optional out: characters stored, excluding the NUL.
 * @return D1_OK; D1_EINVAL NULL @p r or @p buf, or @p len 0; D1_ERANGE the
 *         buffer was too small (the text is cut, still NUL-terminated).
 */
d1_err_t d1_lat_report_text(const struct d1_lat *r, const struct d1_lat_meta *meta, char *buf,
                            size_t len, size_t *written);

/**
 * @brief Write the machine-readable report: one JSON object on one line,
 *        ending in a newline (field list in docs/latency.md).
 * @param r       Recorder.
 * @param meta    Run description (may be NULL).
 * @param buf     Output buffer; always NUL-terminated when @p len > 0.
 * @param len     Size of @p buf in bytes.
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
