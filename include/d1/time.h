/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file time.h
 * @brief The RISC-V `time` CSR as the library's clock, and the time-based
 *        reference delay every port can use as d1_port_delay_us().
 *
 * Timebase: #D1_TIME_HZ ticks per second. On the D1 the `time` CSR counts the
 * 24 MHz OSC24M (Linux arch/riscv/boot/dts/allwinner/sun20i-d1s.dtsi,
 * `cpus { timebase-frequency = <24000000>; }`; d1-hardware.md "Timer"), so
 * the default is 24,000,000. QEMU virt's is 10 MHz (QEMU hw/riscv/virt.c,
 * RISCV_ACLINT_DEFAULT_TIMEBASE_FREQ). To change it, configure the library
 * with `-DD1_TIME_HZ=<hz>` (CMake cache variable; the qemu-virt platform
 * defaults to 10000000). It is a PUBLIC compile definition of the library
 * target, so the library and its users agree; a port that builds the
 * sources itself defines it for all of them. If the value is wrong every
 * delay is scaled by (true rate / D1_TIME_HZ): the library's waits are
 * budgets with margin, but a slower true clock makes them longer, a faster
 * one shorter, so set it from the platform's device tree.
 *
 * Access: `rdtime` in S-mode needs mcounteren.TM from the M-mode firmware
 * (OpenSBI sets it). In host builds with D1_MMIO_HOOKED (and on any
 * non-RISC-V build) d1_time_now() calls d1_time_hook_now(), which the
 * simulator supplies from model time (tests/model/sim.c).
 */
#ifndef D1_TIME_H
#define D1_TIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_time Time CSR and reference delay
 * @{ */

#ifndef D1_TIME_HZ
/** Rate of the `time` CSR, Hz (24 MHz OSC24M on the D1; see the file comment). */
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

/**
 * @brief Busy-wait at least @p us microseconds on the `time` CSR.
 *
 * Waits for ceil(us * D1_TIME_HZ / 10^6) + 1 ticks (the +1 covers the phase
 * of the first reading) measured as an unsigned difference from the first
 * reading, so it is correct across the 2^64 wrap and for every @p us up to
 * UINT32_MAX (no intermediate overflow). Needs no calibration and no
 * interrupt; an interrupt taken meanwhile only makes it longer.
 * @param us Minimum delay, microseconds (0: returns after at most 2 ticks).
 */
void d1_time_delay_us(uint32_t us);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_TIME_H */
