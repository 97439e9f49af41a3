/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * <stdint.h> for the d1drivers library inside the kernel: the fixed-width
 * types from linux/types.h (one definition of uint64_t for the library's
 * files and the module's), and the limits the library uses.
 */
#ifndef D1_COMPAT_STDINT_H
#define D1_COMPAT_STDINT_H

#include <linux/types.h>
#include <linux/limits.h>

/* linux/types.h has uintptr_t (unsigned long) but no signed twin */
typedef long intptr_t;

#define UINT8_MAX  U8_MAX
#define UINT16_MAX U16_MAX
#define UINT32_MAX U32_MAX
#define UINT64_MAX U64_MAX
#define INT32_MAX  S32_MAX
#define INT64_MAX  S64_MAX
#define UINT32_C(c) c##U
#define UINT64_C(c) c##ULL

#endif
