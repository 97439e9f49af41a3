/* SPDX-License-Identifier: Apache-2.0 */
#include "d1/error.h"

const char *d1_strerror(int err)
{
	switch (err) {
	case D1_OK:
		return "D1_OK";
	case D1_EINVAL:
		return "D1_EINVAL";
	case D1_ERANGE:
		return "D1_ERANGE";
	case D1_ETIMEDOUT:
		return "D1_ETIMEDOUT";
	case D1_ENOTSUP:
		return "D1_ENOTSUP";
	case D1_EBUSY:
		return "D1_EBUSY";
	case D1_ESTATE:
		return "D1_ESTATE";
	case D1_ENODELEG:
		return "D1_ENODELEG";
	case D1_EAGAIN:
		return "D1_EAGAIN";
	default:
		return "D1_E?";
	}
}
