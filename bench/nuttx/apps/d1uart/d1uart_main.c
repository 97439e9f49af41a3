/****************************************************************************
 * bench/nuttx/apps/d1uart/d1uart_main.c
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

/* d1uart: the instructions the console's serial path retires per byte.
 *
 *   d1uart rx N  prints "d1uart: rx ready N", then reads N bytes from
 *                stdin (the sender starts on that line) and prints their
 *                FNV-1a hash, so that the sender can check every byte.
 *   d1uart tx N  prints "d1uart: tx ready N", writes N bytes of a fixed
 *                printable pattern to stdout and waits until the last of
 *                them has left the FIFO.
 *
 * Echo and canonical input are off meanwhile (tcsetattr), so the window
 * holds one direction only.
 *
 * Counting: the bench core's background cost (include/d1/bench.h,
 * d1_bench_spin() and d1_bench_cost()): a lowest-priority thread runs the
 * core's spinner, so everything else the hart retires in a window (the
 * UART interrupt, the serial upper half, this task's wake-ups, the system
 * tick) is instret's advance less D1_BENCH_SPIN_INSNS per iteration.  The
 * tick's share is taken out with the same count over a window of
 * D1UART_IDLE_MS with no traffic, scaled to the window's length.  The
 * result line:
 *
 *   d1uart: rx bytes=N window=W other=O idle_other=I idle_window=J
 *           per_byte=P hash=H
 *
 * (one line; P = (O - I * W / J) / N, two decimals; W, J in instret).
 * Under QEMU these are instructions, not time on a C906.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "d1/bench.h"

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1UART_MAX       8192   /* Largest N */
#define D1UART_IDLE_MS   100    /* The idle-rate window */
#define D1UART_WAIT_MS   5000   /* Longest wait for the next RX byte */
#define D1UART_CHAR_US   87     /* One character at 115,200 baud, 8N1 */

/****************************************************************************
 * Private Data
 ****************************************************************************/

static char g_d1uart_buf[D1UART_MAX];
static struct d1_bench_spinner g_d1uart_spinner;

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* The spinner thread: the bench core's loop until told to stop. */

static FAR void *d1uart_spinner(FAR void *arg)
{
  UNUSED(arg);
  d1_bench_spin(&g_d1uart_spinner);
  return NULL;
}

/* The printable pattern both ends agree on: byte i is 33 + (7 * i + 13)
 * mod 94 ('!' to '~': no control character, no line end).
 */

static char d1uart_pattern(unsigned int i)
{
  return (char)(33u + (7u * i + 13u) % 94u);
}

static uint32_t d1uart_fnv1a(FAR const char *p, size_t n)
{
  uint32_t h = 2166136261u;
  size_t i;

  for (i = 0; i < n; i++)
    {
      h = (h ^ (uint8_t)p[i]) * 16777619u;
    }

  return h;
}

static void d1uart_report(FAR const char *dir, size_t n,
                          FAR const struct d1_bench_mark *idle,
                          FAR const struct d1_bench_mark *win,
                          uint32_t hash)
{
  struct d1_bench_cost c;

  if (d1_bench_cost(idle, win, n, &c) != D1_OK)
    {
      printf("d1uart: %s: no figures (%zu bytes)\n", dir, n);
      return;
    }

  printf("d1uart: %s bytes=%zu window=%llu other=%llu idle_other=%llu "
         "idle_window=%llu per_byte=%llu.%02llu hash=%08lx\n",
         dir, n, (unsigned long long)c.window, (unsigned long long)c.other,
         (unsigned long long)c.idle_other,
         (unsigned long long)c.idle_window,
         (unsigned long long)(c.hundredths / 100u),
         (unsigned long long)(c.hundredths % 100u), (unsigned long)hash);
}

/* The tick's share: the same count over D1UART_IDLE_MS of sleep. */

static void d1uart_idle(FAR struct d1_bench_mark idle[2])
{
  d1_bench_mark(&g_d1uart_spinner, &idle[0]);
  usleep(D1UART_IDLE_MS * 1000u);
  d1_bench_mark(&g_d1uart_spinner, &idle[1]);
}

static int d1uart_rx(size_t n)
{
  struct d1_bench_mark idle[2];
  struct d1_bench_mark win[2];
  struct pollfd pfd;
  size_t got = 0;

  d1uart_idle(idle);
  printf("d1uart: rx ready %zu\n", n);
  fflush(stdout);
  d1_bench_mark(&g_d1uart_spinner, &win[0]);
  while (got < n)
    {
      ssize_t r;

      pfd.fd = STDIN_FILENO;
      pfd.events = POLLIN;
      pfd.revents = 0;
      if (poll(&pfd, 1, D1UART_WAIT_MS) <= 0)
        {
          printf("d1uart: rx FAIL: %zu of %zu bytes, then none for %d ms\n",
                 got, n, D1UART_WAIT_MS);
          return EXIT_FAILURE;
        }

      r = read(STDIN_FILENO, g_d1uart_buf + got, n - got);
      if (r <= 0)
        {
          printf("d1uart: rx FAIL: read returned %zd (errno %d) after "
                 "%zu bytes\n", r, errno, got);
          return EXIT_FAILURE;
        }

      got += (size_t)r;
    }

  d1_bench_mark(&g_d1uart_spinner, &win[1]);
  d1uart_report("rx", n, idle, win, d1uart_fnv1a(g_d1uart_buf, n));
  return EXIT_SUCCESS;
}

static int d1uart_tx(size_t n)
{
  struct d1_bench_mark idle[2];
  struct d1_bench_mark win[2];
  size_t done = 0;
  size_t i;

  for (i = 0; i < n; i++)
    {
      g_d1uart_buf[i] = d1uart_pattern(i);
    }

  d1uart_idle(idle);
  printf("d1uart: tx ready %zu\n", n);
  fflush(stdout);

  /* The ready line leaves first: the window holds the payload only. */

  usleep(64u * D1UART_CHAR_US);
  d1_bench_mark(&g_d1uart_spinner, &win[0]);
  while (done < n)
    {
      ssize_t w = write(STDOUT_FILENO, g_d1uart_buf + done, n - done);

      if (w <= 0)
        {
          printf("\nd1uart: tx FAIL: write returned %zd (errno %d)\n", w,
                 errno);
          return EXIT_FAILURE;
        }

      done += (size_t)w;
    }

  /* write() returns with up to a buffer and a FIFO still to send: sleep
   * until they have left (the interrupts that send them are in the
   * window).
   */

  usleep((CONFIG_D1LIB_UART0_TXBUFSIZE + 64u + 8u) * D1UART_CHAR_US);
  d1_bench_mark(&g_d1uart_spinner, &win[1]);
  printf("\n");
  d1uart_report("tx", n, idle, win, d1uart_fnv1a(g_d1uart_buf, n));
  return EXIT_SUCCESS;
}

/****************************************************************************
 * Public Functions
 ****************************************************************************/

int main(int argc, FAR char *argv[])
{
  struct sched_param param;
  struct termios saved;
  struct termios raw;
  pthread_attr_t attr;
  pthread_t spinner;
  FAR char *end = NULL;
  unsigned long n = 0;
  int ret;

  if (argc == 3)
    {
      n = strtoul(argv[2], &end, 10);
    }

  if (argc != 3 || end == argv[2] || *end != '\0' || n == 0 ||
      n > D1UART_MAX ||
      (strcmp(argv[1], "rx") != 0 && strcmp(argv[1], "tx") != 0))
    {
      fprintf(stderr, "usage: d1uart rx|tx N (1 <= N <= %d)\n",
              D1UART_MAX);
      return EXIT_FAILURE;
    }

  if (tcgetattr(STDIN_FILENO, &saved) != 0)
    {
      fprintf(stderr, "d1uart: tcgetattr: errno %d\n", errno);
      return EXIT_FAILURE;
    }

  raw = saved;
  raw.c_lflag &= ~(ECHO | ICANON);
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
    {
      fprintf(stderr, "d1uart: tcsetattr: errno %d\n", errno);
      return EXIT_FAILURE;
    }

  g_d1uart_spinner.stop = 0;
  g_d1uart_spinner.spins = 0;
  pthread_attr_init(&attr);
  pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
  param.sched_priority = 1;
  pthread_attr_setschedparam(&attr, &param);
  ret = pthread_create(&spinner, &attr, d1uart_spinner, NULL);
  if (ret != 0)
    {
      tcsetattr(STDIN_FILENO, TCSANOW, &saved);
      fprintf(stderr, "d1uart: pthread_create: %d\n", ret);
      return EXIT_FAILURE;
    }

  ret = strcmp(argv[1], "rx") == 0 ? d1uart_rx((size_t)n)
                                   : d1uart_tx((size_t)n);
  g_d1uart_spinner.stop = 1;
  pthread_join(spinner, NULL);
  tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  return ret;
}
