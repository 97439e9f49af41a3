/****************************************************************************
 * ports/nuttx/d1_nuttx_util.c
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

/* Arithmetic the glue files share.  No NuttX state and no MMIO, so the
 * host tests (tests/nuttx/) run these functions as they are.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef CONFIG_TIMER
#  include <nuttx/timers/timer.h>
#endif

#include "d1/error.h"
#include "d1_nuttx.h"

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: d1_nuttx_errno
 *
 * Description:
 *   Map a library error code to a negated errno.  Codes the library may add
 *   later map to -EIO rather than to success.
 *
 ****************************************************************************/

int d1_nuttx_errno(int err)
{
  switch (err)
    {
      case D1_OK:
        return OK;

      case D1_EINVAL:
        return -EINVAL;

      case D1_ERANGE:
        return -ERANGE;

      case D1_ETIMEDOUT:
        return -ETIMEDOUT;

      case D1_ENOTSUP:
        return -ENOTSUP;

      case D1_EBUSY:
        return -EBUSY;

      case D1_EAGAIN:
        return -EAGAIN;

      case D1_ENODELEG:
        return -EPERM;

      case D1_ESTATE:
      default:
        return -EIO;
    }
}

/****************************************************************************
 * Name: d1_nx_clocks_to_us
 *
 * Description:
 *   Microseconds of a clock count, rounded down (a time left must never be
 *   reported longer than it is); UINT32_MAX when it does not fit, or for a
 *   zero rate.
 *
 ****************************************************************************/

uint32_t d1_nx_clocks_to_us(uint64_t clocks, uint32_t hz)
{
  uint64_t us;

  /* 4,295 whole seconds are already more than UINT32_MAX us; checked
   * first, so the product below cannot wrap (at a low rate a count of
   * 6e17 would, to a small number).
   */

  if (hz == 0u || clocks / hz > UINT32_MAX / 1000000u)
    {
      return UINT32_MAX;
    }

  /* clocks * 1e6 overflows 64 bits beyond 1.8e13 clocks (8.5 days at
   * 24 MHz): split it into whole seconds and the rest.
   */

  us = (clocks / hz) * 1000000u + ((clocks % hz) * 1000000u) / hz;
  return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/****************************************************************************
 * Name: d1_nx_wdt_timeleft
 ****************************************************************************/

uint32_t d1_nx_wdt_timeleft(uint32_t timeout_ms, uint64_t elapsed_ms)
{
  return elapsed_ms >= timeout_ms ? 0u :
         (uint32_t)(timeout_ms - elapsed_ms);
}

/****************************************************************************
 * Name: d1_nx_deadline_delay
 ****************************************************************************/

uint64_t d1_nx_deadline_delay(uint64_t now, uint64_t deadline, uint64_t max)
{
  uint64_t delta = deadline - now;

  if (delta == 0u || delta > (UINT64_MAX >> 1))
    {
      return 0u;
    }

  return delta > max ? max : delta;
}

#ifdef CONFIG_TIMER
/****************************************************************************
 * Name: d1_nx_timer_status
 *
 * Description:
 *   Fill a timer status: timeleft is the time to the deadline rounded down
 *   to microseconds (never reported longer than it is; 0 once due).
 *
 ****************************************************************************/

void d1_nx_timer_status(bool started, bool handler, uint32_t timeout,
                        uint64_t deadline, uint64_t now,
                        struct timer_status_s *status)
{
  status->flags    = started ? TCFLAGS_ACTIVE : 0;
  status->flags   |= handler ? TCFLAGS_HANDLER : 0;
  status->timeout  = timeout;
  status->timeleft = 0;
  if (started)
    {
      status->timeleft =
        d1_nx_clocks_to_us(d1_nx_deadline_delay(now, deadline, UINT64_MAX),
                           D1_NX_TIME_HZ);
    }
}
#endif
