/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Included first into each library source compiled in the module (Kbuild):
 * the kernel's compiler_attributes.h defines `noinline` as a macro, which
 * breaks the library's plain GCC spelling __attribute__((noinline)). The
 * library's files use no kernel macro, so it is taken back for them only.
 */
#ifndef D1_COMPAT_IN_KERNEL_H
#define D1_COMPAT_IN_KERNEL_H

#undef noinline

#endif
