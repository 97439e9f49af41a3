/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file error.h
 * @brief The single error enum of d1drivers.
 */
#ifndef D1_ERROR_H
#define D1_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Result of every fallible library call.
 *
 * Zero is success; every failure is a distinct negative value so that ports
 * can map it to their OS's errno (`-EINVAL` etc.) with a switch. A call that
 * returns an error has written no register unless its documentation says
 * otherwise (only bounded waits that time out part-way can leave state, and
 * they document it).
 */
typedef enum d1_err {
	D1_OK = 0,         /**< Success. */
	D1_EINVAL = -1,    /**< Bad argument: NULL, unknown id, bad enum value. */
	D1_ERANGE = -2,    /**< Valid kind of request the hardware cannot meet. */
	D1_ETIMEDOUT = -3, /**< A bounded wait on the hardware expired. */
	D1_ENOTSUP = -4,   /**< This instance lacks the feature. */
	D1_EBUSY = -5,     /**< Resource is running / in use for this request. */
	D1_ESTATE = -6,    /**< Call not valid in the current state. */
	D1_ENODELEG = -7,  /**< Required delegation/permission missing. */
	D1_EAGAIN = -8,    /**< Nothing available now (no data, no room); try again. */
} d1_err_t;

/**
 * @brief Short constant name of an error code ("D1_ERANGE"), for logs.
 * @param err Any value; unknown values give "D1_E?".
 * @return A static NUL-terminated string.
 */
const char *d1_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* D1_ERROR_H */
