/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file port.h
 * @brief The whole OS contract: what a port must supply to the library.
 *
 * Besides the MMIO seam (mmio.h) the drivers need exactly these three
 * functions from their environment (plus one optional hook,
 * d1_port_probe32(), with a library default). Each environment defines them once:
 * ports/baremetal/port.c (time CSR, sstatus.SIE) and tests/model/sim.c
 * (model time); an OS port maps them to its own delay and interrupt-disable
 * primitives.
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

/**
 * @brief Optional: one 32-bit device access that may fault, run under the
 *        OS's exception fixup (the way Linux's get_kernel_nofault() runs a
 *        load that may trap).
 *
 * Used only by d1_plic_check_delegation(): on the D1 an S-mode access to a
 * PLIC priority/pending/enable register while PLIC_CTRL.S_PER = 0 is
 * answered with PSLVERR, i.e. a load/store access fault (docs/uart-and-plic.md
 * "S-mode access without S_PER"). The library supplies a weak default that
 * returns D1_ENOTSUP without any access; a port that can catch the fault
 * (ports/baremetal/port.c, tests/model/sim.c) overrides it. A port that
 * does not is still correct: the check then reports D1_ENOTSUP instead of
 * probing.
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
