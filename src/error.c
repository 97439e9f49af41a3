/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
#include "d1/error.h"

/* The names one after the other, in the order 0, -1, -2, ... (d1/error.h),
 * then the one for an unknown value; an offset table instead of a pointer
 * table: 10 bytes of offsets instead of 10 pointers (80 bytes on rv64). */
static const char names[] = "D1_OK\0D1_EINVAL\0D1_ERANGE\0D1_ETIMEDOUT\0D1_ENOTSUP\0"
                            "D1_EBUSY\0D1_ESTATE\0D1_ENODELEG\0D1_EAGAIN\0D1_E?";
static const unsigned char at[] = {0, 6, 16, 26, 39, 50, 59, 69, 81, 91};

_Static_assert(D1_OK == 0 && D1_EINVAL == -1 && D1_ERANGE == -2 && D1_ETIMEDOUT == -3 &&
                       D1_ENOTSUP == -4 && D1_EBUSY == -5 && D1_ESTATE == -6 && D1_ENODELEG == -7 &&
                       D1_EAGAIN == -8,
               "names[] follows the d1_err_t values");

const char *d1_strerror(int err)
{
	unsigned i = err <= D1_OK && err >= D1_EAGAIN ? (unsigned)-err : sizeof at - 1u;

	return names + at[i];
}
