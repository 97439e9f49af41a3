/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file time.h
 * @brief The RISC-V `time` CSR as the library's clock, and the time-based
 *        reference delay every port can use as d1_port_delay_us().
 *
 * Rate: #D1_TIME_HZ, set per platform with the CMake variable `D1_TIME_HZ`
 * (the rates, their sources, and S-mode access: docs/clocks-and-watchdog.md
 * "Time base"). Hooked and non-RISC-V builds read d1_time_hook_now().
 */
#ifndef D1_TIME_H
#define D1_TIME_H

#include <stdint.h>

#include "d1/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_time Time CSR and reference delay
 * @{ */

#ifndef D1_TIME_HZ
/** Rate of the `time` CSR, Hz (24 MHz OSC24M on the D1). */
#define D1_TIME_HZ 24000000u
#endif

/**
 * @brief Simulator-supplied time (hooked and non-RISC-V builds only).
 * @return The current `time` value, D1_TIME_HZ ticks.
 */
uint64_t d1_time_hook_now(void);

/**
 * @brief Read the 64-bit `time` CSR (one `rdtime`).
 * @return Ticks of #D1_TIME_HZ since an arbitrary origin; wraps modulo 2^64.
 */
static inline uint64_t d1_time_now(void)
{
#if defined(__riscv) && !defined(D1_MMIO_HOOKED)
	uint64_t t;
	__asm__ volatile("rdtime %0" : "=r"(t)::"memory");
	return t;
#else
	return d1_time_hook_now();
#endif
}

#ifndef D1_TIME_STALL_READS
/** Readings of an unchanged `time` after which d1_time_delay_us() stops
 *  waiting: the counter has stopped (a running one changes within about
 *  1,000 readings even at 1 MHz read once per 1 GHz cycle;
 *  docs/reliability.md "Bounded waits"). */
#define D1_TIME_STALL_READS 1048576u
#endif

/**
 * @brief Busy-wait at least @p us microseconds on the `time` CSR: ceil(us *
 *        D1_TIME_HZ / 10^6) + 1 ticks, correct across the 2^64 wrap, for
 *        every @p us. Needs no calibration; any context. Bounded even when
 *        `time` stands still: 1 + #D1_TIME_STALL_READS readings at most.
 * @param us Minimum delay, microseconds (0: returns after at most 2 ticks).
 * @return D1_OK after the delay; D1_ETIMEDOUT when `time` read the same
 *         value #D1_TIME_STALL_READS times in a row (a stopped counter: the
 *         delay ended early).
 */
d1_err_t d1_time_delay_us(uint32_t us);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_TIME_H */
