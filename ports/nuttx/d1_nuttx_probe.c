/****************************************************************************
 * ports/nuttx/d1_nuttx_probe.c
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

/* Tick-path probe (CONFIG_D1LIB_TICK_PROBE, a measurement build only):
 * counts, with the instret CSR, the instructions retired from __trap_vec
 * to the jal into nxsched_process_timer() inclusive, on whatever tick path
 * the configuration links (the library's, or the chip's with D1LIB_TICK
 * off).  Nothing on that path changes: the board links with
 * --wrap=nxsched_process_timer, so the ISR's jal lands in
 * __wrap_nxsched_process_timer, whose first instruction reads instret.
 *
 * The instret value at trap entry comes from the interrupted code: the
 * boot thread spins in d1_nx_probe_spin(), which keeps the last instret it
 * read in t0.  The saved context (running_regs()) gives t0 and the
 * interrupted pc; the loop instructions retired after that read follow
 * from the pc.  Needs S-mode read access to instret (OpenSBI grants it
 * through mcounteren).  Under QEMU, instret counts instructions only with
 * -icount (without it, host time).
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#include <nuttx/sched.h>
#include <arch/irq.h>

#include "d1/time.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_TICK_PROBE

/****************************************************************************
 * Private Types
 ****************************************************************************/

struct d1_nx_probe_s
{
  volatile int stop;       /* Set by the tick when enough were seen */
  bool         armed;      /* Count ticks that interrupt the spin loop */
  uint32_t     want;       /* Ticks to count */
  uint32_t     n;          /* Ticks counted */
  uint32_t     other;      /* Ticks that did not interrupt the loop */
  uint64_t     min;        /* Shortest path seen, instructions */
  uint64_t     max;        /* Longest path seen, instructions */
};

/****************************************************************************
 * Private Function Prototypes
 ****************************************************************************/

/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's names */

void __real_nxsched_process_timer(void);
void __wrap_nxsched_process_timer(void);

/* NOLINTEND(bugprone-reserved-identifier) */

void d1_nx_probe_tick(uint64_t now);
void d1_nx_probe_spin(volatile int *stop, uint64_t deadline);

/* The loop's labels: the pc of each instruction. */

extern const char d1_nx_probe_l0[];
extern const char d1_nx_probe_l4[];

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_nx_probe_s g_d1_nx_probe;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* The wrapper reads instret as its first instruction: the count of
 * everything retired before it, the ISR's jal included.
 *
 * The spin loop, five 4-byte instructions (no compressed forms, so the pc
 * names the instruction):
 *   l0: csrr t0, instret      t0 = instructions retired before l0
 *   l1: lw   t1, 0(a0)        the stop flag
 *   l2: bnez t1, done
 *   l3: csrr t2, time
 *   l4: bltu t2, a1, l0       bounded by the deadline in time counts
 * Interrupted before l1..l4, 1..4 loop instructions retired since the
 * read; before l0, a whole iteration: 5.
 */

__asm__("  .section .text.d1_nx_probe,\"ax\",@progbits\n"
        "  .option push\n"
        "  .option norvc\n"
        "  .globl __wrap_nxsched_process_timer\n"
        "__wrap_nxsched_process_timer:\n"
        "  csrr a0, instret\n"
        "  j    d1_nx_probe_tick\n"
        "  .globl d1_nx_probe_spin\n"
        "  .globl d1_nx_probe_l0\n"
        "  .globl d1_nx_probe_l4\n"
        "d1_nx_probe_spin:\n"
        "d1_nx_probe_l0:\n"
        "  csrr t0, instret\n"
        "  lw   t1, 0(a0)\n"
        "  bnez t1, 1f\n"
        "  csrr t2, time\n"
        "d1_nx_probe_l4:\n"
        "  bltu t2, a1, d1_nx_probe_l0\n"
        "1:\n"
        "  ret\n"
        "  .option pop\n");

/****************************************************************************
 * Name: d1_nx_probe_tick
 *
 * Description:
 *   The rest of __wrap_nxsched_process_timer: account the path, then the
 *   scheduler's tick as usual.
 *
 ****************************************************************************/

void d1_nx_probe_tick(uint64_t now)
{
  struct d1_nx_probe_s *p = &g_d1_nx_probe;
  uintptr_t *regs = (uintptr_t *)running_regs();
  uintptr_t l0 = (uintptr_t)d1_nx_probe_l0;
  uintptr_t epc;
  uint64_t path;

  if (p->armed && regs != NULL)
    {
      epc = regs[REG_EPC];
      if (epc >= l0 && epc <= (uintptr_t)d1_nx_probe_l4)
        {
          path = now - regs[REG_T0] - (epc == l0 ? 5u : (epc - l0) / 4u);
          p->min = path < p->min ? path : p->min;
          p->max = path > p->max ? path : p->max;
          if (++p->n >= p->want)
            {
              p->stop = 1;
            }
        }
      else
        {
          p->other++;
        }
    }

  __real_nxsched_process_timer();
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: d1_nuttx_tick_probe
 *
 * Description:
 *   Spin until @ticks ticks have interrupted the loop (bounded: four tick
 *   periods of the time CSR per tick asked for), then log the shortest
 *   and longest path.  Called from board_late_initialize().
 *
 ****************************************************************************/

void d1_nuttx_tick_probe(uint32_t ticks)
{
  struct d1_nx_probe_s *p = &g_d1_nx_probe;
  irqstate_t flags = up_irq_save();

  p->stop  = 0;
  p->want  = ticks;
  p->n     = 0;
  p->other = 0;
  p->min   = UINT64_MAX;
  p->max   = 0;
  p->armed = true;
  up_irq_restore(flags);

  d1_nx_probe_spin(&p->stop, d1_time_now() + (uint64_t)ticks * 4u *
                   CONFIG_USEC_PER_TICK * D1_NX_TIME_PER_USEC);

  flags = up_irq_save();
  p->armed = false;
  up_irq_restore(flags);

  syslog(LOG_INFO, "d1lib: tick path, instret from __trap_vec to the jal "
         "into nxsched_process_timer: %lu ticks, min %lu, max %lu "
         "(%lu ticks outside the loop)\n",
         (unsigned long)p->n, (unsigned long)(p->n != 0 ? p->min : 0),
         (unsigned long)p->max, (unsigned long)p->other);
}

#endif /* CONFIG_D1LIB_TICK_PROBE */
