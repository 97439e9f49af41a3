/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file d1_nuttx.h
 * @brief Entry points of the NuttX glue that a board calls.
 * up_timer_initialize() (the tick on Timer1) is called by NuttX itself.
 */
#ifndef D1_NUTTX_H
#define D1_NUTTX_H

/**
 * @brief Register Timer0 (PLIC 75) as a timer lower-half at @p path
 *        (e.g. "/dev/timer0"). Call once from board_late_initialize().
 * @return 0, or a negated errno.
 */
int d1_nuttx_timer0_register(const char *path);

/**
 * @brief Report the watchdog state firmware left in riscv_wdt (one syslog
 *        line), stop it on purpose (d1_wdt_takeover STOP), and register it
 *        as a watchdog lower-half at @p path (e.g. "/dev/watchdog0").
 * @return 0, or a negated errno.
 */
int d1_nuttx_wdt_initialize(const char *path);

/**
 * @brief Map a library error code to a negated errno.
 * @param err A d1_err_t value (int so that this header needs no library header).
 * @return 0 for D1_OK, else -EINVAL, -ERANGE, -ETIMEDOUT, ...
 */
int d1_nuttx_errno(int err);

#endif /* D1_NUTTX_H */
