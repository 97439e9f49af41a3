/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/* <stddef.h> for the d1drivers library inside the kernel (see stdint.h). */
#ifndef D1_COMPAT_STDDEF_H
#define D1_COMPAT_STDDEF_H

#include <linux/types.h>
#include <linux/stddef.h>

#endif
