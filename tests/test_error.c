/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1_strerror(): every d1_err_t value gives its own constant name, and
 * every other value (positive, just below the last code, the int extremes)
 * gives the documented "D1_E?".
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "d1/error.h"

static const struct {
	int err;
	const char *name;
} names[] = {
        {D1_OK, "D1_OK"},           {D1_EINVAL, "D1_EINVAL"},
        {D1_ERANGE, "D1_ERANGE"},   {D1_ETIMEDOUT, "D1_ETIMEDOUT"},
        {D1_ENOTSUP, "D1_ENOTSUP"}, {D1_EBUSY, "D1_EBUSY"},
        {D1_ESTATE, "D1_ESTATE"},   {D1_ENODELEG, "D1_ENODELEG"},
        {D1_EAGAIN, "D1_EAGAIN"},
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

static void test_every_code_has_its_name(void **state)
{
	(void)state;
	for (size_t i = 0; i < NNAMES; i++) {
		const char *s = d1_strerror(names[i].err);
		assert_non_null(s);
		assert_string_equal(s, names[i].name);
		/* distinct: a log line names exactly one code */
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(s, d1_strerror(names[j].err));
		}
	}
}

/* The codes are 0, -1 .. -8 with no gap: every value in that range is
 * listed above, so a new code added to error.h without a name fails here. */
static void test_codes_are_dense(void **state)
{
	(void)state;
	for (int v = 0; v > -(int)NNAMES; v--) {
		assert_string_not_equal(d1_strerror(v), "D1_E?");
	}
}

static void test_unknown_values(void **state)
{
	static const int unknown[] = {
	        1, 2, 100, -(int)NNAMES, -(int)NNAMES - 1, -100, INT_MAX, INT_MIN, INT_MIN + 1,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		assert_string_equal(d1_strerror(unknown[i]), "D1_E?");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_every_code_has_its_name),
	        cmocka_unit_test(test_codes_are_dense),
	        cmocka_unit_test(test_unknown_values),
	};
	return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}
