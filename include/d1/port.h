/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file port.h
 * @brief The whole OS contract: three functions a port supplies, plus one
 *        optional hook with a library default (docs/design.md "The whole OS
 *        contract is three functions").
 */
#ifndef D1_PORT_H
#define D1_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Busy-wait at least @p us microseconds (the library calls it with
 *        < 20 ms); d1_time_delay_us() is a reference implementation.
 *
 * The one exception: a time base that stops (the reference gives up after
 * #D1_TIME_STALL_READS equal readings with D1_ETIMEDOUT) may end the wait
 * early rather than hang; the port counts each such return where its user
 * can see it (bare metal: a FAIL line of the bench; NuttX, RT-Thread: a
 * counter the port exports).
 * @param us Minimum delay in microseconds.
 */
void d1_port_delay_us(uint32_t us);

/**
 * @brief Enter a critical section against every other context that may use
 *        the same peripheral (on the single-hart D1: disable interrupts).
 * @return Opaque state for d1_port_critical_exit(). Nesting must work.
 */
uintptr_t d1_port_critical_enter(void);

/**
 * @brief Leave the critical section entered by d1_port_critical_enter().
 * @param state The value it returned.
 */
void d1_port_critical_exit(uintptr_t state);

/**
 * @brief Optional: one 32-bit device access that may fault, run under the
 *        OS's exception fixup. Used only by d1_plic_check_delegation() (why:
 *        docs/uart-and-plic.md "S-mode access without S_PER"). The library's
 *        weak default returns D1_ENOTSUP without any access.
 * @param addr  Register address, 4-byte aligned.
 * @param write true: store @p *value; false: load into @p *value.
 * @param value In (store) / out (load).
 * @return D1_OK the access completed; D1_ENODELEG it faulted (nothing
 *         stored into @p *value); D1_ENOTSUP no fault-safe access (the
 *         default; no access made).
 */
d1_err_t d1_port_probe32(uintptr_t addr, bool write, uint32_t *value);

#ifdef __cplusplus
}
#endif

#endif /* D1_PORT_H */
