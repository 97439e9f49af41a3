/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file port.h
 * @brief The whole OS contract: what a port must supply to the library.
 *
 * Besides the MMIO seam (mmio.h) the drivers need exactly these three
 * functions from their environment. Each environment defines them once:
 * ports/baremetal/port.c (time CSR, sstatus.SIE) and tests/model/sim.c
 * (model time); an OS port maps them to its own delay and interrupt-disable
 * primitives.
 */
#ifndef D1_PORT_H
#define D1_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Busy-wait at least @p us microseconds.
 *
 * Used for hardware settle times that are specified in time rather than in
 * a status bit (timer clock-domain sync after disable, PLL settle after
 * lock). It must return; it is only called with small values (< 20 ms).
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

#ifdef __cplusplus
}
#endif

#endif /* D1_PORT_H */
