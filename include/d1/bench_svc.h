/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file bench_svc.h
 * @brief The OS-service measurements of the comparison, defined once for
 *        every OS beside the latency accounting (d1/bench.h): clock read,
 *        mutex and semaphore hand-off, thread creation.
 *
 * Every sample is a pair of `time` CSR readings (d1_time_now(), 24 MHz) an
 * OS's bench takes around one service call, made through that OS's natural
 * API; the core checks and records it, so that every OS's rows count the
 * same way (docs/comparison.md "The service measurements"):
 *
 *   - **clock-read** (#D1_SVC_CLOCK_READ): `start` before, `stop` after a
 *     batch of #D1_SVC_CLOCK_BATCH back-to-back reads of the OS's monotonic
 *     clock (the loop's own instructions included). The recorder's clock is
 *     #D1_TIME_HZ x #D1_SVC_CLOCK_BATCH, so its figures are per call, with a
 *     resolution of 41.7 ns / #D1_SVC_CLOCK_BATCH;
 *   - **mutex-handoff** (#D1_SVC_MUTEX_HANDOFF): a thread holds a mutex that
 *     a higher-priority thread is blocked on; `start` is read by the holder
 *     just before its unlock call, `stop` by the waiter just after its lock
 *     call returns;
 *   - **semaphore-handoff** (#D1_SVC_SEM_HANDOFF): a higher-priority thread
 *     is blocked on a semaphore; `start` just before a lower-priority
 *     thread's post, `stop` just after the waiter's wait returns;
 *   - **thread-create** (#D1_SVC_THREAD_CREATE): `start` just before the
 *     create call, `stop` the new thread's first statement; the new thread
 *     runs at a higher priority than its creator, with the stack the API
 *     gives by default, so the sample is the creation and the switch to it;
 *   - **thread-create-join** (#D1_SVC_THREAD_JOIN): the same `start`, `stop`
 *     just after the join call returns (the thread's body returns at once):
 *     creation, first run, exit and reclaim.
 *
 * A sample **fails** (counted as the recorder's missed, never recorded) when
 * its `stop` is before its `start`, or later than #D1_SVC_LIMIT_COUNTS (the
 * waiter was not blocked, or the service took longer than a second), or when
 * the bench reports the call itself failed (d1_svc_fail()). A run takes
 * d1_svc_samples() samples: #D1_SVC_SAMPLES, #D1_SVC_THREAD_SAMPLES for the
 * two thread-creation measurements.
 */
#ifndef D1_BENCH_SVC_H
#define D1_BENCH_SVC_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/latency.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_bench_svc OS-service measurements
 * @{ */

/** The measurements (their names: d1_svc_name()). */
enum d1_svc {
	D1_SVC_CLOCK_READ = 0,    /**< "clock-read": per call of the monotonic clock. */
	D1_SVC_MUTEX_HANDOFF = 1, /**< "mutex-handoff": unlock to the waiter's return. */
	D1_SVC_SEM_HANDOFF = 2,   /**< "semaphore-handoff": post to the waiter's return. */
	D1_SVC_THREAD_CREATE = 3, /**< "thread-create": create call to the first statement. */
	D1_SVC_THREAD_JOIN = 4,   /**< "thread-create-join": create call to join's return. */
	D1_SVC_COUNT = 5,         /**< Number of measurements. */
};

/** Samples of a run (the published comparison's count). */
#define D1_SVC_SAMPLES 20000u
/** Samples of a thread-creation run: each creates, runs and reclaims a
 *  thread and its default stack (8 MiB of address space on Linux), so the
 *  emulated run is ten times shorter; 2,000 still give p99.9 two samples. */
#define D1_SVC_THREAD_SAMPLES 2000u
/** Clock reads per clock-read sample: 128 x 41.7 ns apart resolves 0.33 ns. */
#define D1_SVC_CLOCK_BATCH 128u
/** Longest valid sample, `time` counts (1 s). */
#define D1_SVC_LIMIT_COUNTS 24000000u

/** One measurement's run (caller memory; read with the recorder and the fields). */
struct d1_svc_run {
	struct d1_lat *lat; /**< The recorder, d1_lat_init()ed by d1_svc_init(). */
	enum d1_svc what;   /**< The measurement. */
	uint32_t want;      /**< Samples the run takes (d1_svc_samples()). */
	uint32_t taken;     /**< Samples so far, recorded or failed. */
	uint32_t failed;    /**< Failed samples (the recorder's missed). */
};

/**
 * @brief The measurement's name, as the reports, the table and the docs
 *        spell it.
 * @param what Measurement.
 * @return "clock-read", ...; NULL for a value outside the enum.
 */
const char *d1_svc_name(enum d1_svc what);

/**
 * @brief Samples one run of @p what takes.
 * @param what Measurement.
 * @return #D1_SVC_SAMPLES or #D1_SVC_THREAD_SAMPLES; 0 outside the enum.
 */
uint32_t d1_svc_samples(enum d1_svc what);

/**
 * @brief Start a run: initialise @p lat on the measurement's clock
 *        (#D1_TIME_HZ, or #D1_TIME_HZ x #D1_SVC_CLOCK_BATCH for clock-read).
 * @param s    Handle (caller memory).
 * @param what Measurement.
 * @param lat  Recorder (its contents are replaced).
 * @return D1_OK; D1_EINVAL for a NULL pointer or @p what outside the enum
 *         (@p s and @p lat untouched).
 */
d1_err_t d1_svc_init(struct d1_svc_run *s, enum d1_svc what, struct d1_lat *lat);

/**
 * @brief Account one sample from its two `time` CSR readings.
 * @param s     Handle after d1_svc_init().
 * @param start Reading before the service call.
 * @param stop  Reading after it (see the definitions above).
 * @return true while the run wants more samples; false once it has
 *         them all (this one counted), and for a NULL or finished handle
 *         (nothing counted).
 */
bool d1_svc_sample(struct d1_svc_run *s, uint64_t start, uint64_t stop);

/**
 * @brief Count one failed sample: the service call itself failed or never
 *        completed (the bench's bounded wait expired).
 * @param s Handle after d1_svc_init().
 * @return As d1_svc_sample().
 */
bool d1_svc_fail(struct d1_svc_run *s);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_BENCH_SVC_H */
