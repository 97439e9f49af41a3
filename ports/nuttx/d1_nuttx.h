/****************************************************************************
 * ports/nuttx/d1_nuttx.h
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.  The
 * ASF licenses this file to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance with the
 * License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 * WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.  See the
 * License for the specific language governing permissions and limitations
 * under the License.
 *
 ****************************************************************************/

#ifndef __PORTS_NUTTX_D1_NUTTX_H
/* NOLINTNEXTLINE(bugprone-reserved-identifier): NuttX guard style */
#define __PORTS_NUTTX_D1_NUTTX_H

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <stdbool.h>
#include <stdint.h>

#include "d1/time.h"

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

/* Rate of the RISC-V time CSR: include/d1/time.h (24 MHz OSC24M on the
 * D1, from the device tree's timebase-frequency).
 */

#define D1_NX_TIME_HZ        D1_TIME_HZ
#define D1_NX_TIME_PER_USEC  (D1_TIME_HZ / 1000000u)

/****************************************************************************
 * Public Types
 ****************************************************************************/

/* What the riscv_wdt held at kernel entry, before the chip's start code
 * stopped it (captured by the board's entry wrapper, d1_nuttx_wdt.c).
 */

struct d1_nx_wdt_entry_s
{
  bool     captured;     /* The entry wrapper ran */
  bool     running;      /* MODE.EN was set */
  bool     reset;        /* Expiry resets the system */
  uint32_t timeout_ms;   /* Decoded timeout, 0 if unknown */
};

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

#ifdef __cplusplus
#define EXTERN extern "C"
extern "C"
{
#else
#define EXTERN extern
#endif

/* d1_port_delay_us() calls that ended early on a stopped time CSR */

EXTERN volatile uint32_t g_d1_nx_delay_stalls;

/* Board entry points (board_late_initialize()) */

int d1_nuttx_timer0_register(const char *path);
int d1_nuttx_wdt_initialize(const char *path);
void d1_nuttx_tick_probe(uint32_t ticks);
int d1_nuttx_serial_register(void);

/* Copy the PLIC dispatch counters (CONFIG_D1LIB_PLIC). */

struct d1_plic_stats;
void d1_nx_plic_get_stats(struct d1_plic_stats *out);

/* Helpers of the glue, kept free of NuttX state so that the host tests
 * (tests/nuttx/) run them as they are.
 */

/* Map a d1_err_t to a negated errno (0 for D1_OK). */

int d1_nuttx_errno(int err);

/* Microseconds (rounded down) of clocks at hz; UINT32_MAX if larger. */

uint32_t d1_nx_clocks_to_us(uint64_t clocks, uint32_t hz);

/* Clocks from now to an absolute deadline of the time CSR: 0 when it is
 * already past or due now (a difference above 2^63 counts as past), at
 * most max (a longer deadline is reached in several arms).
 */

uint64_t d1_nx_deadline_delay(uint64_t now, uint64_t deadline,
                              uint64_t max);

/* Fill a timer lower-half's status (d1_nuttx_timer.c). */

struct timer_status_s;
void d1_nx_timer_status(bool started, bool handler, uint32_t timeout,
                        uint64_t deadline, uint64_t now,
                        struct timer_status_s *status);

/* Watchdog time left: timeout minus elapsed, never negative. */

uint32_t d1_nx_wdt_timeleft(uint32_t timeout_ms, uint64_t elapsed_ms);

/* The entry state the wrapper captured (NULL before it ran). */

const struct d1_nx_wdt_entry_s *d1_nx_wdt_entry(void);

#undef EXTERN
#ifdef __cplusplus
}
#endif

#endif /* __PORTS_NUTTX_D1_NUTTX_H */
