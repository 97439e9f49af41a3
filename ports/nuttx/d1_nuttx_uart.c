/****************************************************************************
 * ports/nuttx/d1_nuttx_uart.c
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

/* UART0 through the library's d1_uart driver, in place of NuttX's 16550
 * driver:
 *
 * - up_putc(): a polled write (d1_uart_putc(): a bounded wait for FIFO
 *   space, check and write in one critical section), usable from the first
 *   instruction of the chip's start code, from syslog and from a panic.
 * - With CONFIG_SERIAL: a serial lower-half registered as /dev/console and
 *   /dev/ttyS0, over the library's byte mode: the upper half's buffers are
 *   the only ones (no ring in between), as with NuttX's own 16550 driver.
 *   The interrupt is d1_uart_irq_poll() (busy detect, modem status and an
 *   empty RX timeout served and counted there); receive() and rxavailable()
 *   are d1_uart_getc() and d1_uart_rx_ready() (a character with a line
 *   error is read, counted and dropped before "available"); send() and
 *   txready() are d1_uart_putc() and d1_uart_tx_ready() (USR.TFNF: a
 *   TX-empty interrupt fills the whole FIFO).  With
 *   CONFIG_D1LIB_UART0_BULK (the default) the upper half moves whole
 *   bursts through recvbuf() and sendbuf() instead, d1_uart_getn() and
 *   d1_uart_putn(): about one register access per byte against three
 *   (scripts/os/nuttx.sh uart measures both).  What is lost in
 *   hardware (overrun) or dropped (line errors) is counted by the library
 *   (d1_uart_get_stats()).
 *
 * With CONFIG_SERIAL_TERMIOS, TCGETS reports the line in force and TCSETS
 * changes rate, character size, parity, stop bits and auto RTS/CTS through
 * d1_uart_configure() (BUSY-safe, verified); what the UART cannot do is
 * refused with -EINVAL before any register write.  Without this the upper
 * half answers TCSETS itself and the hardware never changes.
 *
 * The UART clock gate and reset go through the library's CCU
 * (d1_ccu_uart_enable()), and the baud divisor is computed from the UART
 * clock the CCU reads back from its live registers (d1_ccu_uart_clock_hz()),
 * not from a constant.  Both handles, the polled one and the interrupt
 * one, are the same struct d1_uart.
 */

/****************************************************************************
 * Included Files
 ****************************************************************************/

#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nuttx/arch.h>
#include <nuttx/irq.h>
#ifdef CONFIG_SERIAL
#  include <nuttx/serial/serial.h>
#endif
#ifdef CONFIG_SERIAL_TERMIOS
#  include <termios.h>
#  include <nuttx/fs/fs.h>
#  include <nuttx/fs/ioctl.h>
#endif
#include <arch/irq.h>

#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/uart.h"
#include "d1_nuttx.h"

#ifdef CONFIG_D1LIB_UART0

/****************************************************************************
 * Pre-processor Definitions
 ****************************************************************************/

#define D1_NX_UART_IRQ    (RISCV_IRQ_SEXT + (int)D1_IRQ_UART(0))

/****************************************************************************
 * Private Types
 ****************************************************************************/

struct d1_nx_uart_s
{
  struct d1_uart u;        /* The library's handle */
  bool           ready;    /* d1_uart_init() done */
  uint8_t        ev;       /* Interrupts on: D1_UART_EV_RX, D1_UART_EV_TX */
#ifdef CONFIG_SERIAL
  struct d1_uart_config cfg; /* The line setup() applies (TCSETS changes it) */
#endif
};

/****************************************************************************
 * Private Function Prototypes
 ****************************************************************************/

#ifdef CONFIG_SERIAL
static int  d1_nx_uart_setup(struct uart_dev_s *dev);
static void d1_nx_uart_shutdown(struct uart_dev_s *dev);
static int  d1_nx_uart_attach(struct uart_dev_s *dev);
static void d1_nx_uart_detach(struct uart_dev_s *dev);
static int  d1_nx_uart_ioctl(struct file *filep, int cmd,
                             unsigned long arg);
static int  d1_nx_uart_receive(struct uart_dev_s *dev,
                               unsigned int *status);
static void d1_nx_uart_rxint(struct uart_dev_s *dev, bool enable);
static bool d1_nx_uart_rxavailable(struct uart_dev_s *dev);
static void d1_nx_uart_send(struct uart_dev_s *dev, int ch);
static void d1_nx_uart_txint(struct uart_dev_s *dev, bool enable);
static bool d1_nx_uart_txready(struct uart_dev_s *dev);
static bool d1_nx_uart_txempty(struct uart_dev_s *dev);
#ifdef CONFIG_D1LIB_UART0_BULK
static ssize_t d1_nx_uart_recvbuf(struct uart_dev_s *dev, void *buf,
                                  size_t len);
static ssize_t d1_nx_uart_sendbuf(struct uart_dev_s *dev, const void *buf,
                                  size_t len);
#endif
#endif

/****************************************************************************
 * Private Data
 ****************************************************************************/

static struct d1_nx_uart_s g_d1_nx_uart0;

#ifdef CONFIG_SERIAL
static const struct d1_uart_config g_d1_nx_uart0_line =
{
  .baud       = CONFIG_D1LIB_UART0_BAUD,
  .data_bits  = 8u,
  .parity     = D1_UART_PARITY_NONE,
  .stop_bits  = 1u,
  .fifo       = true,
  .rx_trigger = CONFIG_D1LIB_UART0_RXTRIGGER,
};

static char g_d1_nx_rxbuf[CONFIG_D1LIB_UART0_RXBUFSIZE];
static char g_d1_nx_txbuf[CONFIG_D1LIB_UART0_TXBUFSIZE];

static const struct uart_ops_s g_d1_nx_uart_ops =
{
  .setup       = d1_nx_uart_setup,
  .shutdown    = d1_nx_uart_shutdown,
  .attach      = d1_nx_uart_attach,
  .detach      = d1_nx_uart_detach,
  .ioctl       = d1_nx_uart_ioctl,
  .receive     = d1_nx_uart_receive,
  .rxint       = d1_nx_uart_rxint,
  .rxavailable = d1_nx_uart_rxavailable,
  .send        = d1_nx_uart_send,
  .txint       = d1_nx_uart_txint,
  .txready     = d1_nx_uart_txready,
  .txempty     = d1_nx_uart_txempty,
#ifdef CONFIG_D1LIB_UART0_BULK
  .recvbuf     = d1_nx_uart_recvbuf,
  .sendbuf     = d1_nx_uart_sendbuf,
#endif
};

static uart_dev_t g_d1_nx_uart0_dev =
{
  .isconsole = true,
  .recv      =
  {
    .size    = CONFIG_D1LIB_UART0_RXBUFSIZE,
    .buffer  = g_d1_nx_rxbuf,
  },
  .xmit      =
  {
    .size    = CONFIG_D1LIB_UART0_TXBUFSIZE,
    .buffer  = g_d1_nx_txbuf,
  },
  .ops       = &g_d1_nx_uart_ops,
  .priv      = &g_d1_nx_uart0,
};
#endif

/****************************************************************************
 * Private Functions
 ****************************************************************************/

/* Initialise the handle (no register write): the UART clock as the CCU
 * has it now.  Falls back to OSC24M, the rate firmware leaves APB1 at,
 * if the CCU cannot tell.
 */

static bool d1_nx_uart_handle(struct d1_nx_uart_s *priv)
{
  struct d1_ccu ccu;
  uint32_t hz = D1_OSC24M_HZ;

  if (!priv->ready)
    {
      if (d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ) != D1_OK ||
          d1_ccu_uart_clock_hz(&ccu, 0u, &hz) != D1_OK || hz == 0u)
        {
          hz = D1_OSC24M_HZ;
        }

      priv->ready = d1_uart_init(&priv->u, D1_UART0_BASE, 2u, hz,
                                 D1_UART_FIFO_DEPTH) == D1_OK;
    }

  return priv->ready;
}

#ifdef CONFIG_SERIAL
static int d1_nx_uart_setup(struct uart_dev_s *dev)
{
  struct d1_nx_uart_s *priv = dev->priv;
  struct d1_ccu ccu;
  int err;

  /* Gate on and reset released through the library's CCU. */

  err = d1_ccu_init(&ccu, D1_CCU_BASE, D1_OSC24M_HZ);
  if (err == D1_OK)
    {
      err = d1_ccu_uart_enable(&ccu, 0u);
    }

  if (err != D1_OK)
    {
      return d1_nuttx_errno(err);
    }

  priv->ready = false;
  priv->ev = 0;                  /* d1_uart_configure() leaves IER 0 */
  if (!d1_nx_uart_handle(priv))
    {
      return -EIO;
    }

  return d1_nuttx_errno(d1_uart_configure(&priv->u, &priv->cfg, NULL));
}

static void d1_nx_uart_shutdown(struct uart_dev_s *dev)
{
  struct d1_nx_uart_s *priv = dev->priv;

  priv->ev = 0;
  d1_uart_irq_set(&priv->u, 0);
}

/* Turn one interrupt source on or off (one IER write). */

static void d1_nx_uart_irq(struct d1_nx_uart_s *priv, uint8_t ev,
                           bool enable)
{
  irqstate_t flags = enter_critical_section();

  if (enable)
    {
      priv->ev |= ev;
    }
  else
    {
      priv->ev &= ~ev;
    }

  d1_uart_irq_set(&priv->u, priv->ev);
  leave_critical_section(flags);
}

static int d1_nx_uart_isr(int irq, void *context, void *arg)
{
  struct uart_dev_s *dev = arg;
  struct d1_nx_uart_s *priv = dev->priv;
  uint32_t ev = 0;

  UNUSED(irq);
  UNUSED(context);
  if (d1_uart_irq_poll(&priv->u, &ev) == D1_OK)
    {
      if ((ev & D1_UART_EV_RX) != 0)
        {
          uart_recvchars(dev);
        }

      if ((ev & D1_UART_EV_TX) != 0)
        {
          uart_xmitchars(dev);
        }
    }

  return OK;
}

static int d1_nx_uart_attach(struct uart_dev_s *dev)
{
  int ret;

  ret = irq_attach(D1_NX_UART_IRQ, d1_nx_uart_isr, dev);
  if (ret >= 0)
    {
      up_enable_irq(D1_NX_UART_IRQ);
    }

  return ret;
}

static void d1_nx_uart_detach(struct uart_dev_s *dev)
{
  UNUSED(dev);
  up_disable_irq(D1_NX_UART_IRQ);
  irq_detach(D1_NX_UART_IRQ);
}

#ifdef CONFIG_SERIAL_TERMIOS
/* c_cflag of a line setting (TCGETS). */

static tcflag_t d1_nx_uart_cflag(const struct d1_uart_config *cfg)
{
  tcflag_t cflag = CS5 + (tcflag_t)(cfg->data_bits - 5u) * (CS6 - CS5);

  if (cfg->parity != D1_UART_PARITY_NONE)
    {
      cflag |= PARENB;
    }

  if (cfg->parity == D1_UART_PARITY_ODD)
    {
      cflag |= PARODD;
    }

  if (cfg->stop_bits == 2u)
    {
      cflag |= CSTOPB;
    }

  if (cfg->rtscts)
    {
      cflag |= CRTSCTS;
    }

  return cflag;
}

/* The line setting a termios asks for (TCSETS), or -EINVAL for what the
 * UART cannot do: a rate of 0, and flow control in one direction only
 * (auto RTS/CTS, MCR.AFCE, is both).  The rate itself is checked by
 * d1_uart_configure() before it writes anything.
 */

static int d1_nx_uart_from_termios(const struct termios *termiosp,
                                   struct d1_uart_config *cfg)
{
  tcflag_t flow = termiosp->c_cflag & CRTSCTS;
  speed_t speed = cfgetispeed(termiosp);

  if (speed == 0 || speed > UINT32_MAX || (flow != 0 && flow != CRTSCTS))
    {
      return -EINVAL;
    }

  cfg->baud      = (uint32_t)speed;
  cfg->data_bits = (uint8_t)(5u + ((termiosp->c_cflag & CSIZE) - CS5) /
                                  (CS6 - CS5));
  cfg->parity    = (termiosp->c_cflag & PARENB) == 0 ?
                   D1_UART_PARITY_NONE :
                   (termiosp->c_cflag & PARODD) != 0 ?
                   D1_UART_PARITY_ODD : D1_UART_PARITY_EVEN;
  cfg->stop_bits = (termiosp->c_cflag & CSTOPB) != 0 ? 2u : 1u;
  cfg->rtscts    = flow != 0;
  return OK;
}
#endif

static int d1_nx_uart_ioctl(struct file *filep, int cmd, unsigned long arg)
{
#ifdef CONFIG_SERIAL_TERMIOS
  struct uart_dev_s *dev = filep->f_inode->i_private;
  struct d1_nx_uart_s *priv = dev->priv;
  struct termios *termiosp = (struct termios *)(uintptr_t)arg;
  struct d1_uart_config cfg;
  irqstate_t flags;
  d1_err_t err;
  int ret;

  if (cmd != TCGETS && cmd != TCSETS)
    {
      return -ENOTTY;
    }

  if (termiosp == NULL)
    {
      return -EINVAL;
    }

  flags = enter_critical_section();
  cfg = priv->cfg;
  leave_critical_section(flags);
  if (cmd == TCGETS)
    {
      termiosp->c_cflag = d1_nx_uart_cflag(&cfg);
      cfsetispeed(termiosp, cfg.baud);
      return OK;
    }

  ret = d1_nx_uart_from_termios(termiosp, &cfg);
  if (ret < 0)
    {
      return ret;
    }

  /* Let the TX FIFO empty with interrupts on (bounded), then reconfigure
   * in a critical section, as NuttX's own 16550 driver does: the
   * library's configure waits for idle again (at most the 66 characters
   * its budget allows) and leaves IER 0, so the interrupts the upper half
   * had on are turned on again here.
   */

  d1_uart_drain(&priv->u);
  flags = enter_critical_section();
  err = d1_uart_configure(&priv->u, &cfg, NULL);
  if (err == D1_OK)
    {
      priv->cfg = cfg;
    }

  if (err != D1_EINVAL && err != D1_ERANGE && err != D1_EBUSY)
    {
      d1_uart_irq_set(&priv->u, priv->ev); /* configure wrote IER */
    }

  leave_critical_section(flags);
  return err == D1_ERANGE ? -EINVAL : d1_nuttx_errno(err);
#else
  UNUSED(filep);
  UNUSED(cmd);
  UNUSED(arg);
  return -ENOTTY;
#endif
}

static int d1_nx_uart_receive(struct uart_dev_s *dev, unsigned int *status)
{
  struct d1_nx_uart_s *priv = dev->priv;
  uint8_t ch = 0;

  /* Called after rxavailable(): a good byte.  Line errors and losses are
   * counted by the library, not reported per byte.
   */

  *status = d1_uart_getc(&priv->u, &ch) == D1_OK ? 0 : 1;
  return ch;
}

static void d1_nx_uart_rxint(struct uart_dev_s *dev, bool enable)
{
  d1_nx_uart_irq(dev->priv, D1_UART_EV_RX, enable);
}

static bool d1_nx_uart_rxavailable(struct uart_dev_s *dev)
{
  struct d1_nx_uart_s *priv = dev->priv;
  bool ready = false;

  d1_uart_rx_ready(&priv->u, &ready);
  return ready;
}

static void d1_nx_uart_send(struct uart_dev_s *dev, int ch)
{
  struct d1_nx_uart_s *priv = dev->priv;

  d1_uart_putc(&priv->u, (uint8_t)ch);
}

static void d1_nx_uart_txint(struct uart_dev_s *dev, bool enable)
{
  irqstate_t flags = enter_critical_section();

  d1_nx_uart_irq(dev->priv, D1_UART_EV_TX, enable);
  if (enable)
    {
      /* Fill the FIFO now rather than wait for the TX-empty interrupt. */

      uart_xmitchars(dev);
    }

  leave_critical_section(flags);
}

static bool d1_nx_uart_txready(struct uart_dev_s *dev)
{
  struct d1_nx_uart_s *priv = dev->priv;
  bool room = false;

  d1_uart_tx_ready(&priv->u, &room);
  return room;
}

static bool d1_nx_uart_txempty(struct uart_dev_s *dev)
{
  struct d1_nx_uart_s *priv = dev->priv;

  /* Only tcdrain() asks, in a loop with a sleep: a bounded wait for the
   * shifter to finish (at most 66 characters) answers it.
   */

  return d1_uart_drain(&priv->u) == D1_OK;
}

#ifdef CONFIG_D1LIB_UART0_BULK
static ssize_t d1_nx_uart_recvbuf(struct uart_dev_s *dev, void *buf,
                                  size_t len)
{
  struct d1_nx_uart_s *priv = dev->priv;
  uint32_t got = 0;
  uint32_t n = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;

  /* A burst: RFL and LSR once, then RBR per byte; a character with a line
   * error is read, counted and dropped by the library.
   */

  d1_uart_getn(&priv->u, buf, n, &got);
  return (ssize_t)got;
}

static ssize_t d1_nx_uart_sendbuf(struct uart_dev_s *dev, const void *buf,
                                  size_t len)
{
  struct d1_nx_uart_s *priv = dev->priv;
  uint32_t put = 0;
  uint32_t n = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;

  /* As many as the TX FIFO has room for now: TFL once, THR per byte. */

  d1_uart_putn(&priv->u, buf, n, &put);
  return (ssize_t)put;
}
#endif
#endif /* CONFIG_SERIAL */

/****************************************************************************
 * Public Functions
 ****************************************************************************/

/****************************************************************************
 * Name: up_putc
 *
 * Description:
 *   Polled output of one character to UART0, from any context.
 *
 ****************************************************************************/

void up_putc(int ch)
{
  irqstate_t flags = up_irq_save();

  if (d1_nx_uart_handle(&g_d1_nx_uart0))
    {
      d1_uart_putc(&g_d1_nx_uart0.u, (uint8_t)ch);
    }

  up_irq_restore(flags);
}

/****************************************************************************
 * Name: d1_nuttx_serial_register
 *
 * Description:
 *   Configure UART0 and register it as /dev/console and /dev/ttyS0.
 *   Called from board_early_initialize(), before the idle task opens the
 *   console.  The upper half never calls setup() for a console (its
 *   uart_open() takes the console as initialised), so it is called here,
 *   as NuttX's own serial drivers do in their early initialisation.
 *
 ****************************************************************************/

#ifdef CONFIG_SERIAL
int d1_nuttx_serial_register(void)
{
  int ret;

  g_d1_nx_uart0.cfg = g_d1_nx_uart0_line; /* The Kconfig line at boot */
  ret = d1_nx_uart_setup(&g_d1_nx_uart0_dev);
  if (ret >= 0)
    {
      ret = uart_register("/dev/console", &g_d1_nx_uart0_dev);
    }

  if (ret >= 0)
    {
      ret = uart_register("/dev/ttyS0", &g_d1_nx_uart0_dev);
    }

  return ret;
}
#endif

#endif /* CONFIG_D1LIB_UART0 */
