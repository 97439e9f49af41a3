/****************************************************************************
 * ports/nuttx/d1_nuttx_wdt.c
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

/* The riscv_wdt (0x06011000, the instance U-Boot may leave running at
 * 16 s: include/d1/wdt.h, docs/clocks-and-watchdog.md) through the
 * library's d1_wdt driver.
 *
 * 1. At kernel entry.  The chip's allwinner_d1_start() stops the watchdog
 *    as its first statement, before any board code runs.  The board links
 *    with --wrap=allwinner_d1_start (scripts/Make.defs): the jump from the
 *    head code lands in __wrap_allwinner_d1_start() below, which reads the
 *    watchdog back (MMIO reads only, stack only: .bss is not cleared yet)
 *    into a variable kept in .data, then continues in the chip's start.
 *    docs/nuttx.md has the upstream Kconfig option that would let the
 *    board take the running watchdog over instead.
 * 2. In board_late_initialize(): one syslog line says what firmware left
 *    ("riscv_wdt: running, 16000 ms, reset mode (at entry)") and what the
 *    hardware holds now; d1_wdt_takeover(STOP) makes the state explicit.
 * 3. With CONFIG_WATCHDOG: a watchdog lower-half (reset mode) for
 *    /dev/watchdogN.  The hardware has no readable counter, so timeleft is
 *    the timeout minus the system time since the last start or feed.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/compiler.h>
#include <nuttx/irq.h>
#ifdef CONFIG_D1LIB_WDT_LOWERHALF
#  include <nuttx/timers/watchdog.h>
#endif

#include "d1/memmap.h"
#include "d1/wdt.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_WDT

#if defined(CONFIG_D1LIB_WDT_LOWERHALF) && defined(CONFIG_WATCHDOG_AUTOMONITOR)
#  error "D1LIB_WDT_LOWERHALF does not support CONFIG_WATCHDOG_AUTOMONITOR"
#endif

/****************************************************************************
 * Private Types
 ****************************************************************************/

#ifdef CONFIG_D1LIB_WDT_LOWERHALF
struct d1_nx_wdt_s
{
  const struct watchdog_ops_s *ops;  /* Lower-half operations, first */
  struct d1_wdt w;                   /* The library's handle */
  uint32_t      timeout;             /* ms, as programmed (table value) */
  clock_t       last_feed;           /* Tick of the last start or feed */
};
#endif

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

/* NOLINTBEGIN(bugprone-reserved-identifier): ld --wrap's symbol names */

void __wrap_allwinner_d1_start(int hartid, uintptr_t dtb);
void __real_allwinner_d1_start(int hartid, uintptr_t dtb);

/* NOLINTEND(bugprone-reserved-identifier) */

/****************************************************************************
 * Private Function Prototypes
 ****************************************************************************/

#ifdef CONFIG_D1LIB_WDT_LOWERHALF
static int d1_nx_wdt_start(struct watchdog_lowerhalf_s *lower);
static int d1_nx_wdt_stop(struct watchdog_lowerhalf_s *lower);
static int d1_nx_wdt_keepalive(struct watchdog_lowerhalf_s *lower);
static int d1_nx_wdt_getstatus(struct watchdog_lowerhalf_s *lower,
                               struct watchdog_status_s *status);
static int d1_nx_wdt_settimeout(struct watchdog_lowerhalf_s *lower,
                                uint32_t timeout);
#endif

/****************************************************************************
 * Private Data
 ****************************************************************************/

/* Written before .bss is cleared, so it must live in .data. */

static struct d1_nx_wdt_entry_s g_d1_nx_wdt_entry locate_data(".data");

#ifdef CONFIG_D1LIB_WDT_LOWERHALF
static const struct watchdog_ops_s g_d1_nx_wdt_ops =
{
  .start      = d1_nx_wdt_start,
  .stop       = d1_nx_wdt_stop,
  .keepalive  = d1_nx_wdt_keepalive,
  .getstatus  = d1_nx_wdt_getstatus,
  .settimeout = d1_nx_wdt_settimeout,
  .capture    = NULL,  /* Reset mode only: PLIC 147 is not wired */
  .ioctl      = NULL,
};

static struct d1_nx_wdt_s g_d1_nx_wdt;
#endif

/****************************************************************************
 * Private Functions
 ****************************************************************************/

#ifdef CONFIG_D1LIB_WDT_LOWERHALF
static int d1_nx_wdt_start(struct watchdog_lowerhalf_s *lower)
{
  struct d1_nx_wdt_s *lo = (struct d1_nx_wdt_s *)lower;
  uint32_t achieved = 0;
  irqstate_t flags;
  int err;

  flags = enter_critical_section();
  err = d1_wdt_start(&lo->w, lo->timeout, D1_WDT_ACTION_RESET, &achieved);
  if (err == D1_OK)
    {
      lo->timeout   = achieved;
      lo->last_feed = clock_systime_ticks();
    }

  leave_critical_section(flags);
  return d1_nuttx_errno(err);
}

static int d1_nx_wdt_stop(struct watchdog_lowerhalf_s *lower)
{
  struct d1_nx_wdt_s *lo = (struct d1_nx_wdt_s *)lower;

  return d1_nuttx_errno(d1_wdt_stop(&lo->w));
}

static int d1_nx_wdt_keepalive(struct watchdog_lowerhalf_s *lower)
{
  struct d1_nx_wdt_s *lo = (struct d1_nx_wdt_s *)lower;
  irqstate_t flags;
  int err;

  flags = enter_critical_section();
  err = d1_wdt_feed(&lo->w);
  if (err == D1_OK)
    {
      lo->last_feed = clock_systime_ticks();
    }

  leave_critical_section(flags);
  return d1_nuttx_errno(err);
}

static int d1_nx_wdt_getstatus(struct watchdog_lowerhalf_s *lower,
                               struct watchdog_status_s *status)
{
  struct d1_nx_wdt_s *lo = (struct d1_nx_wdt_s *)lower;
  struct d1_wdt_state st;
  irqstate_t flags;
  int err;

  flags = enter_critical_section();
  err = d1_wdt_get_state(&lo->w, &st);
  if (err == D1_OK)
    {
      /* Report what the hardware says, not what we believe.  A stopped
       * watchdog has no interval or action in effect (stop and takeover
       * write MODE 0, read back as 500 ms; CFG keeps what firmware left):
       * its timeout and action are the ones start will arm, and start
       * arms reset mode only.
       */

      status->flags    = st.running ? WDFLAGS_ACTIVE : 0;
      status->flags   |= !st.running || st.action == D1_WDT_ACTION_RESET ?
                         WDFLAGS_RESET : 0;
      status->timeout  = st.running ? st.timeout_ms : lo->timeout;
      status->timeleft = 0;
      if (st.running)
        {
          status->timeleft =
            d1_nx_wdt_timeleft(st.timeout_ms,
                               (uint64_t)TICK2MSEC(clock_systime_ticks() -
                                                   lo->last_feed));
        }
    }

  leave_critical_section(flags);
  return d1_nuttx_errno(err);
}

static int d1_nx_wdt_settimeout(struct watchdog_lowerhalf_s *lower,
                                uint32_t timeout)
{
  struct d1_nx_wdt_s *lo = (struct d1_nx_wdt_s *)lower;
  uint32_t achieved = 0;
  irqstate_t flags;
  int err;

  flags = enter_critical_section();
  err = d1_wdt_set_timeout(&lo->w, timeout, &achieved);
  if (err == D1_OK)
    {
      /* The driver feeds when it changes the interval. */

      lo->timeout   = achieved;
      lo->last_feed = clock_systime_ticks();
    }

  leave_critical_section(flags);
  return d1_nuttx_errno(err);
}
#endif /* CONFIG_D1LIB_WDT_LOWERHALF */

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: __wrap_allwinner_d1_start
 *
 * Description:
 *   Capture the riscv_wdt state firmware left, then run the chip's start.
 *   Runs on the boot stack, with .bss not yet cleared.
 *
 ****************************************************************************/

void __wrap_allwinner_d1_start(int hartid, uintptr_t dtb)
{
  struct d1_wdt_state st;
  struct d1_wdt w;

  if (d1_wdt_init(&w, D1_WDT_RISCV, D1_RISCV_WDT_BASE) == D1_OK &&
      d1_wdt_get_state(&w, &st) == D1_OK)
    {
      g_d1_nx_wdt_entry.running    = st.running;
      g_d1_nx_wdt_entry.reset      = st.action == D1_WDT_ACTION_RESET;
      g_d1_nx_wdt_entry.timeout_ms = st.timeout_ms;
      g_d1_nx_wdt_entry.captured   = true;
    }

  __real_allwinner_d1_start(hartid, dtb);
}

/****************************************************************************
 * Name: d1_nx_wdt_entry
 ****************************************************************************/

const struct d1_nx_wdt_entry_s *d1_nx_wdt_entry(void)
{
  return g_d1_nx_wdt_entry.captured ? &g_d1_nx_wdt_entry : NULL;
}

/****************************************************************************
 * Name: d1_nuttx_wdt_initialize
 *
 * Description:
 *   Report the watchdog state firmware left (at kernel entry) and the
 *   state now, stop it on purpose (d1_wdt_takeover STOP), and with
 *   CONFIG_D1LIB_WDT_LOWERHALF register it as a watchdog lower-half at
 *   path (e.g. "/dev/watchdog0").
 *
 * Returned Value:
 *   OK, or a negated errno.
 *
 ****************************************************************************/

int d1_nuttx_wdt_initialize(const char *path)
{
  const struct d1_nx_wdt_entry_s *entry = d1_nx_wdt_entry();
  struct d1_wdt_state st;
  struct d1_wdt w;
  int err;

  if (entry != NULL)
    {
      syslog(LOG_INFO, "riscv_wdt: %s, %lu ms, %s mode (at entry)\n",
             entry->running ? "running" : "stopped",
             (unsigned long)entry->timeout_ms,
             entry->reset ? "reset" : "no-reset");
    }

  err = d1_wdt_init(&w, D1_WDT_RISCV, D1_RISCV_WDT_BASE);
  if (err == D1_OK)
    {
      err = d1_wdt_get_state(&w, &st);
    }

  if (err == D1_OK)
    {
      syslog(LOG_INFO, "riscv_wdt: %s, %lu ms, %s mode (now)\n",
             st.running ? "running" : "stopped",
             (unsigned long)st.timeout_ms,
             st.action == D1_WDT_ACTION_RESET ? "reset" : "no-reset");
      err = d1_wdt_takeover(&w, D1_WDT_TAKEOVER_STOP, 0u, NULL, NULL);
    }

  if (err != D1_OK)
    {
      return d1_nuttx_errno(err);
    }

  syslog(LOG_INFO, "riscv_wdt: taken over (stopped)\n");

#ifdef CONFIG_D1LIB_WDT_LOWERHALF
  g_d1_nx_wdt.ops       = &g_d1_nx_wdt_ops;
  g_d1_nx_wdt.w         = w;
  g_d1_nx_wdt.timeout   = D1_WDT_TIMEOUT_MAX_MS;
  g_d1_nx_wdt.last_feed = 0;
  if (path != NULL &&
      watchdog_register(path,
                        (struct watchdog_lowerhalf_s *)&g_d1_nx_wdt) == NULL)
    {
      return -EEXIST;
    }
#else
  UNUSED(path);
#endif

  return OK;
}

#endif /* CONFIG_D1LIB_WDT */
