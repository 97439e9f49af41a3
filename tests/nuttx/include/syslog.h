/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <syslog.h> in the host tests of ports/nuttx:
 * syslog() renamed away from the host C library's, so that a test
 * implements it and reads back what the glue logged. NuttX's syslog()
 * returns nothing and formats as printf() does.
 */
#ifndef D1_TEST_NUTTX_SYSLOG_H
#define D1_TEST_NUTTX_SYSLOG_H

#define LOG_INFO 6

#define syslog nx_syslog

void syslog(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
