/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/timers/oneshot.h> with CONFIG_ONESHOT_COUNT: the
 * oneshot lower-half interface the tickless glue (d1_nuttx_oneshot.c)
 * implements, field for field as at 4ebc8a7291df for what is declared.
 * oneshot_count_init() keeps only the frequency (NuttX also derives its
 * count-to-ns factors, which the glue does not read);
 * oneshot_process_callback() calls the client's callback if one is set,
 * as NuttX's does.
 */
#ifndef D1_TEST_NUTTX_TIMERS_ONESHOT_H
#define D1_TEST_NUTTX_TIMERS_ONESHOT_H

#include <stdint.h>

typedef uint64_t clkcnt_t;

struct oneshot_lowerhalf_s;
typedef void (*oneshot_callback_t)(struct oneshot_lowerhalf_s *lower, void *arg);

struct oneshot_operations_s {
	clkcnt_t (*current)(struct oneshot_lowerhalf_s *lower);
	void (*start)(struct oneshot_lowerhalf_s *lower, clkcnt_t delay);
	void (*start_absolute)(struct oneshot_lowerhalf_s *lower, clkcnt_t cnt);
	void (*cancel)(struct oneshot_lowerhalf_s *lower);
	clkcnt_t (*max_delay)(struct oneshot_lowerhalf_s *lower);
};

struct oneshot_lowerhalf_s {
	const struct oneshot_operations_s *ops;
	oneshot_callback_t callback;
	void *arg;
	uint32_t frequency;
	uint32_t cnt2nsec_mult;
	uint32_t cnt2nsec_shift;
};

static inline void oneshot_count_init(struct oneshot_lowerhalf_s *lower, uint32_t frequency)
{
	lower->frequency = frequency;
}

static inline void oneshot_process_callback(struct oneshot_lowerhalf_s *lower)
{
	if (lower->callback != 0) {
		lower->callback(lower, lower->arg);
	}
}

#endif
