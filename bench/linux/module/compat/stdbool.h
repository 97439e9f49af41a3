/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * <stdbool.h> for the d1drivers library inside the kernel: bool, true and
 * false come from linux/types.h and linux/stddef.h (see stdint.h).
 */
#ifndef D1_COMPAT_STDBOOL_H
#define D1_COMPAT_STDBOOL_H

#include <linux/types.h>
#include <linux/stddef.h>

#endif
