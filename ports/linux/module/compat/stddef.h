/* SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0 */
/* <stddef.h> for the d1drivers library inside the kernel (see stdint.h). */
#ifndef D1_COMPAT_STDDEF_H
#define D1_COMPAT_STDDEF_H

#include <linux/types.h>
#include <linux/stddef.h>

#endif
