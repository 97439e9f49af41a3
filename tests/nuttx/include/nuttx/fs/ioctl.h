/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <nuttx/fs/ioctl.h> in the host tests of
 * ports/nuttx: the two terminal commands the serial glue serves (NuttX:
 * include/nuttx/serial/tioctl.h; the values only need to differ here).
 */
#ifndef D1_TEST_NUTTX_IOCTL_H
#define D1_TEST_NUTTX_IOCTL_H

#define TCGETS 0x0101
#define TCSETS 0x0102

#endif
