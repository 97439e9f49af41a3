/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's generated <nuttx/config.h> in the host tests of
 * ports/nuttx: only what the glue under test names. The tests select the
 * glue's options with -D on the command line (tests/nuttx/CMakeLists.txt).
 */
#ifndef D1_TEST_NUTTX_CONFIG_H
#define D1_TEST_NUTTX_CONFIG_H

/* NuttX gets OK from <sys/types.h>; the host's has none. */
#ifndef OK
#define OK 0
#endif

#endif
