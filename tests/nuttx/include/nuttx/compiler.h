/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for <nuttx/compiler.h>: locate_data(), which places an object in
 * a named section (GCC's section attribute, as NuttX defines it for GCC).
 */
#ifndef D1_TEST_NUTTX_COMPILER_H
#define D1_TEST_NUTTX_COMPILER_H

#define locate_data(n) __attribute__((section(n)))

#endif
