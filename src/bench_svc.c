/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The OS-service measurements (d1/bench_svc.h): the checks every OS's
 * sample passes through, so that a failed hand-off is counted the same way
 * on every OS. Arithmetic only: the OS's bench takes the readings.
 */
#include "d1/bench_svc.h"

#include "d1/time.h"

_Static_assert((uint64_t)D1_TIME_HZ *D1_SVC_CLOCK_BATCH <= UINT32_MAX,
               "clock-read's recorder clock must fit the recorder's 32-bit rate");

static const char *const names[D1_SVC_COUNT] = {
        [D1_SVC_CLOCK_READ] = "clock-read",          [D1_SVC_MUTEX_HANDOFF] = "mutex-handoff",
        [D1_SVC_SEM_HANDOFF] = "semaphore-handoff",  [D1_SVC_THREAD_CREATE] = "thread-create",
        [D1_SVC_THREAD_JOIN] = "thread-create-join",
};

const char *d1_svc_name(enum d1_svc what)
{
	return (unsigned)what < D1_SVC_COUNT ? names[what] : NULL;
}

uint32_t d1_svc_samples(enum d1_svc what)
{
	if ((unsigned)what >= D1_SVC_COUNT) {
		return 0u;
	}
	return what == D1_SVC_THREAD_CREATE || what == D1_SVC_THREAD_JOIN ? D1_SVC_THREAD_SAMPLES
	                                                                  : D1_SVC_SAMPLES;
}

d1_err_t d1_svc_init(struct d1_svc_run *s, enum d1_svc what, struct d1_lat *lat)
{
	if (s == NULL || lat == NULL || (unsigned)what >= D1_SVC_COUNT) {
		return D1_EINVAL;
	}
	uint32_t hz = what == D1_SVC_CLOCK_READ ? D1_TIME_HZ * D1_SVC_CLOCK_BATCH : D1_TIME_HZ;
	d1_err_t err = d1_lat_init(lat, hz);
	if (err != D1_OK) {
		return err;
	}
	*s = (struct d1_svc_run){.lat = lat, .what = what, .want = d1_svc_samples(what)};
	return D1_OK;
}

static bool counted(struct d1_svc_run *s)
{
	s->taken++;
	return s->taken < s->want;
}

bool d1_svc_fail(struct d1_svc_run *s)
{
	if (s == NULL || s->lat == NULL || s->taken >= s->want) {
		return false;
	}
	s->failed++;
	d1_lat_missed(s->lat, 1u);
	return counted(s);
}

bool d1_svc_sample(struct d1_svc_run *s, uint64_t start, uint64_t stop)
{
	if (s == NULL || s->lat == NULL || s->taken >= s->want) {
		return false;
	}
	/* stop before start: the waiter ran before the call (it was not
	 * blocked); the difference read as signed catches a wrapped pair too. */
	int64_t d = (int64_t)(stop - start);
	if (d < 0 || d > (int64_t)D1_SVC_LIMIT_COUNTS) {
		return d1_svc_fail(s);
	}
	d1_lat_record(s->lat, (uint32_t)d);
	return counted(s);
}
