/****************************************************************************
 * bench/nuttx/apps/d1bench/d1bench.h
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

#ifndef __BENCH_NUTTX_APPS_D1BENCH_D1BENCH_H
#define __BENCH_NUTTX_APPS_D1BENCH_D1BENCH_H

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <stdbool.h>

#include "d1/latency.h"

/****************************************************************************
 * Public Function Prototypes
 ****************************************************************************/

/* Prints a recorder's text and JSON reports and its dump line to stdout;
 * false if one did not fit or a write failed (said on stdout).
 */

bool d1bench_print(const struct d1_lat *lat, const struct d1_lat_meta *meta);

#ifdef CONFIG_D1LIB_BENCH_LOAD
/* Starts the comparison's defined load (two threads at the lowest
 * priorities); 0 or the pthread_create() error.
 */

int d1bench_load_start(void);

/* Stops the load and joins its threads. */

void d1bench_load_stop(void);
#endif

#ifdef CONFIG_D1LIB_BENCH_SVC
/* "d1bench svc [load]": the OS-service measurements; 0 if every one ran
 * its samples and printed its reports.
 */

int d1bench_svc(bool load);
#endif

#endif /* __BENCH_NUTTX_APPS_D1BENCH_D1BENCH_H */
