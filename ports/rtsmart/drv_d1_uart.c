/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    serial (V2) device on a D1 UART
 */

/*
 * Serial device (RT-Thread serial framework V2, the one bsp/allwinner/d1s
 * uses) on one D1 UART through the library's d1_uart and d1_ccu drivers:
 * bus gate and reset and the UART's input clock from the CCU driver, baud
 * and framing from d1_uart_configure(), receive by interrupt through the
 * library's byte mode (d1_uart_irq_poll(), then whole bursts with
 * d1_uart_getn(): the FIFO level and LSR once, RBR per byte) straight into
 * the framework's RX ring, with no ring of the library's in between;
 * transmit polled (d1_uart_putn() while the FIFO has room, d1_uart_putc()'s
 * wait, bounded by real time, when it has none). Optionally the console.
 *
 * Not done here: pin multiplexing (the library has no GPIO driver). The
 * UART's pins must be muxed by the boot firmware (U-Boot does it for the
 * debug UART0, PB8/PB9) or by the BSP's pin driver.
 *
 * Every byte that does not reach the reader is counted: the library's
 * counters (overrun, framing, parity, break, busy detect) plus fw_dropped
 * (the framework's RX ring full); every byte given to transmit() that
 * could not be sent (the transmitter stuck past putc's bound) in
 * tx_dropped. msh: d1uart.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rtdevice.h>
#include <rthw.h>
#include <rtthread.h>

#include "d1/ccu.h"
#include "d1/memmap.h"
#include "d1/uart.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_UART

#ifndef RT_USING_SERIAL_V2
#error "drv_d1_uart.c implements serial framework V2 (RT_USING_SERIAL_V2)"
#endif

#if defined(BSP_D1_UART1)
#define D1_RT_UART_N 1u
#elif defined(BSP_D1_UART2)
#define D1_RT_UART_N 2u
#elif defined(BSP_D1_UART3)
#define D1_RT_UART_N 3u
#elif defined(BSP_D1_UART4)
#define D1_RT_UART_N 4u
#elif defined(BSP_D1_UART5)
#define D1_RT_UART_N 5u
#else
#define D1_RT_UART_N 0u
#endif

#ifndef BSP_D1_UART_NAME
#define BSP_D1_UART_NAME "d1uart0"
#endif
#ifndef BSP_D1_UART_BAUD
#define BSP_D1_UART_BAUD 115200
#endif

#define D1_RT_UART_MAP_SIZE 0x400u
#define D1_RT_CCU_MAP_SIZE  0x1000u
#define D1_RT_UART_IRQ      ((int)D1_IRQ_UART(D1_RT_UART_N))

struct d1_rt_uart
{
    struct rt_serial_device parent; /* must be first */
    struct d1_uart u;
    struct d1_ccu ccu;
    bool irq_on;
    rt_uint32_t fw_dropped; /* bytes the framework's RX ring had no room for */
    rt_uint32_t tx_dropped; /* bytes transmit() could not send */
};

static struct d1_rt_uart d1_uart_dev;

/* Move the good bytes the hardware FIFO holds, at most a FIFO's worth,
 * into the framework's RX ring (bad ones are counted and dropped by
 * d1_uart_getn(); what does not fit is read all the same, so the level
 * interrupt drops, and counted in fw_dropped); returns the bytes moved.
 * Bounded as the library's own RX loops: what arrives meanwhile keeps the
 * level line high and is read on the next entry. */
static rt_size_t d1_rt_uart_drain_rx(struct d1_rt_uart *d)
{
    struct rt_serial_rx_fifo *rx = (struct rt_serial_rx_fifo *)d->parent.serial_rx;
    rt_uint8_t b[D1_UART_FIFO_DEPTH];
    uint32_t got = 0u;
    rt_size_t moved = 0u;

#ifdef BSP_D1_UART_PER_BYTE
    bool ready = false;

    while (got < (uint32_t)sizeof(b) && d1_uart_rx_ready(&d->u, &ready) == D1_OK && ready &&
           d1_uart_getc(&d->u, &b[got]) == D1_OK)
    {
        got++;
    }
#else
    if (d1_uart_getn(&d->u, b, (uint32_t)sizeof(b), &got) != D1_OK)
    {
        return 0u;
    }
#endif
    if (rx != RT_NULL)
    {
        moved = rt_ringbuffer_put(&rx->rb, b, (rt_uint32_t)got);
    }
    d->fw_dropped += (rt_uint32_t)(got - moved);
    return moved;
}

/* Send @p n bytes, polled: d1_uart_putn() writes what the FIFO has room for
 * (its level once, THR per byte); when it has none, d1_uart_putc() waits,
 * bounded by real time, for room for one. Returns the bytes sent; fewer
 * than @p n only when the transmitter stayed stuck past that bound. */
static rt_size_t d1_rt_uart_put(struct d1_rt_uart *d, const rt_uint8_t *p, rt_size_t n)
{
    rt_size_t done = 0u;

    while (done < n)
    {
        uint32_t put = 0u;
        rt_size_t left = n - done;

#ifdef BSP_D1_UART_PER_BYTE
        (void)left;
#else
        if (d1_uart_putn(&d->u, p + done, left > UINT32_MAX ? UINT32_MAX : (uint32_t)left, &put) !=
            D1_OK)
        {
            break;
        }
#endif
        if (put == 0u)
        {
            if (d1_uart_putc(&d->u, p[done]) != D1_OK)
            {
                break;
            }
            put = 1u;
        }
        done += put;
    }
    return done;
}

static rt_err_t d1_rt_uart_configure(struct rt_serial_device *serial, struct serial_configure *cfg)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)serial;
    struct d1_uart_config c;
    bool was_irq = d->irq_on;
    d1_err_t err;

    if (cfg->data_bits < DATA_BITS_5 || cfg->data_bits > DATA_BITS_8 ||
        cfg->stop_bits > STOP_BITS_2 || cfg->parity > PARITY_EVEN || cfg->invert != NRZ_NORMAL ||
        cfg->bit_order != BIT_ORDER_LSB || cfg->flowcontrol != RT_SERIAL_FLOWCONTROL_NONE)
    {
        return -RT_EINVAL;
    }
    rt_memset(&c, 0, sizeof(c)); /* fields a newer library adds stay off */
    c.baud = cfg->baud_rate;
    c.data_bits = (uint8_t)cfg->data_bits;
    c.parity = (cfg->parity == PARITY_ODD)    ? D1_UART_PARITY_ODD
               : (cfg->parity == PARITY_EVEN) ? D1_UART_PARITY_EVEN
                                              : D1_UART_PARITY_NONE;
    c.stop_bits = (cfg->stop_bits == STOP_BITS_2) ? 2u : 1u;
    c.fifo = true;
    c.rx_trigger = 2u; /* half full */
    c.tx_trigger = 0u;
    if (was_irq)
    {
        /* what the FIFO holds reaches the reader before configure resets
         * the FIFO (bytes still arriving then are counted as discarded) */
        rt_hw_interrupt_mask(D1_RT_UART_IRQ);
        if (d1_rt_uart_drain_rx(d) != 0u)
        {
            rt_hw_serial_isr(&d->parent, RT_SERIAL_EVENT_RX_IND);
        }
    }
    err = d1_uart_configure(&d->u, &c, RT_NULL); /* leaves IER 0 */
    if (was_irq)
    {
        if (d1_uart_irq_set(&d->u, D1_UART_EV_RX) == D1_OK)
        {
            rt_hw_interrupt_umask(D1_RT_UART_IRQ);
        }
        else
        {
            d->irq_on = false;
        }
    }
    return d1_rt_err(err);
}

static rt_err_t d1_rt_uart_control(struct rt_serial_device *serial, int cmd, void *arg)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)serial;
    rt_ubase_t flag = (rt_ubase_t)arg;
    d1_err_t err;

    switch (cmd)
    {
    case RT_DEVICE_CHECK_OPTMODE:
        return RT_SERIAL_TX_BLOCKING_NO_BUFFER;
    case RT_DEVICE_CTRL_CONFIG:
    case RT_DEVICE_CTRL_SET_INT:
        if (flag == RT_SERIAL_TX_BLOCKING || flag == RT_SERIAL_TX_NON_BLOCKING)
        {
            return RT_EOK; /* transmit is polled */
        }
        if (d->irq_on)
        {
            return RT_EOK;
        }
        err = d1_uart_irq_set(&d->u, D1_UART_EV_RX);
        if (err != D1_OK)
        {
            return d1_rt_err(err);
        }
        d->irq_on = true;
        rt_hw_interrupt_umask(D1_RT_UART_IRQ);
        return RT_EOK;
    case RT_DEVICE_CTRL_CLR_INT:
    case RT_DEVICE_CTRL_CLOSE:
        if (flag == RT_SERIAL_TX_BLOCKING || flag == RT_SERIAL_TX_NON_BLOCKING)
        {
            return RT_EOK;
        }
        rt_hw_interrupt_mask(D1_RT_UART_IRQ);
        d1_uart_irq_set(&d->u, 0u);
        d->irq_on = false;
        /* CLR_INT leaves the FIFO as it is: rt_serial_rx_disable() frees
         * the ring right after it, unread, and an application that sends
         * CLR_INT itself gets the bytes at SET_INT. CLOSE comes once the
         * ring is gone (serial_rx NULL): what the FIFO holds is read and
         * counted in fw_dropped. */
        if (cmd == RT_DEVICE_CTRL_CLOSE)
        {
            (void)d1_rt_uart_drain_rx(d);
        }
        return RT_EOK;
    default:
        return -RT_ENOSYS;
    }
}

static int d1_rt_uart_putc(struct rt_serial_device *serial, char c)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)serial;

    return (d1_uart_putc(&d->u, (uint8_t)c) == D1_OK) ? 1 : -1;
}

static int d1_rt_uart_getc(struct rt_serial_device *serial)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)serial;
    uint8_t b;

    return (d1_uart_getc(&d->u, &b) == D1_OK) ? (int)b : -1;
}

/*
 * Polled, so the transfer is over on return and TX_DONE is raised here.
 * TX_BLOCKING (no buffer: RT_DEVICE_CHECK_OPTMODE): the bytes are buf.
 * TX_NON_BLOCKING: the framework has put them into its TX ring and calls
 * transmit() again on TX_DONE for as long as the ring holds data (buf and
 * size are then not the data), so they are taken from the ring, and bytes
 * another thread adds meanwhile go out in the same call. A byte putc()
 * cannot send (the transmitter stuck past its bound) is counted in
 * tx_dropped with the rest, and the ring is emptied all the same: TX_DONE
 * then ends the transfer instead of calling transmit() without end.
 */
static rt_size_t d1_rt_uart_transmit(struct rt_serial_device *serial, rt_uint8_t *buf,
                                     rt_size_t size, rt_uint32_t tx_flag)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)serial;
    struct rt_serial_tx_fifo *fifo = (struct rt_serial_tx_fifo *)serial->serial_tx;
    rt_size_t sent = 0;

    if (tx_flag == RT_SERIAL_TX_NON_BLOCKING && fifo != RT_NULL)
    {
        rt_uint8_t chunk[D1_UART_FIFO_DEPTH];
        bool ok = true;

        for (;;)
        {
            rt_base_t level;
            rt_size_t n;

            while ((n = rt_ringbuffer_get(&fifo->rb, chunk, (rt_uint32_t)sizeof(chunk))) != 0u)
            {
                rt_size_t done = ok ? d1_rt_uart_put(d, chunk, n) : 0u;

                ok = done == n;
                sent += done;
                d->tx_dropped += (rt_uint32_t)(n - done);
            }
            /* TX_DONE is written for interrupt context: its "ring empty"
             * check and its clearing of activated must not be split by a
             * writer, which only queues while activated is set (its bytes
             * would wait for the next write). Interrupts off, as in an ISR;
             * bytes queued since the loop are sent first. */
            level = rt_hw_interrupt_disable();
            if (rt_ringbuffer_data_len(&fifo->rb) == 0u)
            {
                rt_hw_serial_isr(serial, RT_SERIAL_EVENT_TX_DONE);
                rt_hw_interrupt_enable(level);
                return sent;
            }
            rt_hw_interrupt_enable(level);
        }
    }
    sent = d1_rt_uart_put(d, buf, size);
    d->tx_dropped += (rt_uint32_t)(size - sent);
    rt_hw_serial_isr(serial, RT_SERIAL_EVENT_TX_DONE);
    return sent;
}

static const struct rt_uart_ops d1_uart_ops =
{
    .configure = d1_rt_uart_configure,
    .control = d1_rt_uart_control,
    .putc = d1_rt_uart_putc,
    .getc = d1_rt_uart_getc,
    .transmit = d1_rt_uart_transmit,
};

/* The library serves what needs no buffer (busy detect, an empty RX
 * timeout, line status: counted) and says whether there are bytes; they go
 * straight into the framework's RX ring, which is told once per
 * interrupt. */
static void d1_rt_uart_isr(int vector, void *param)
{
    struct d1_rt_uart *d = (struct d1_rt_uart *)param;
    uint32_t ev = 0u;

    (void)vector;
    if (d1_uart_irq_poll(&d->u, &ev) == D1_OK && (ev & D1_UART_EV_RX) != 0u &&
        d1_rt_uart_drain_rx(d) != 0u)
    {
        rt_hw_serial_isr(&d->parent, RT_SERIAL_EVENT_RX_IND);
    }
}

/* Counters (for msh and tests). */
void d1_rt_uart_stats(struct d1_uart_stats *out, rt_uint32_t *fw_dropped,
                      rt_uint32_t *tx_dropped)
{
    d1_uart_get_stats(&d1_uart_dev.u, out);
    *fw_dropped = d1_uart_dev.fw_dropped;
    *tx_dropped = d1_uart_dev.tx_dropped;
}

struct d1_uart *d1_rt_uart_handle(void)
{
    return &d1_uart_dev.u;
}

int d1_rt_uart_init(void)
{
    struct d1_rt_uart *d = &d1_uart_dev;
    struct serial_configure cfg = RT_SERIAL_CONFIG_DEFAULT;
    uintptr_t ccu_base;
    uintptr_t base;
    uint32_t clk = 0u;
    d1_err_t err;
    rt_err_t ret;

    if (rt_device_find(BSP_D1_UART_NAME) != RT_NULL)
    {
        rt_kprintf("d1 uart: device name \"%s\" taken\n", BSP_D1_UART_NAME);
        return -RT_EBUSY;
    }
    ccu_base = d1_rt_map(D1_CCU_BASE, D1_RT_CCU_MAP_SIZE);
    base = d1_rt_map(D1_UART0_BASE + D1_UART_STRIDE * D1_RT_UART_N, D1_RT_UART_MAP_SIZE);
    if (ccu_base == 0u || base == 0u)
    {
        return -RT_ENOMEM;
    }
    err = d1_ccu_init(&d->ccu, ccu_base, D1_OSC24M_HZ);
    if (err == D1_OK)
    {
        err = d1_ccu_uart_enable(&d->ccu, D1_RT_UART_N); /* gate on, reset released */
    }
    if (err == D1_OK)
    {
        err = d1_ccu_uart_clock_hz(&d->ccu, D1_RT_UART_N, &clk);
    }
    if (err == D1_OK)
    {
        err = d1_uart_init(&d->u, base, 2u, clk, D1_UART_FIFO_DEPTH);
    }
    if (err != D1_OK)
    {
        return (int)d1_rt_err(err);
    }
    d->irq_on = false;
    d->fw_dropped = 0u;
    d->tx_dropped = 0u;

    cfg.baud_rate = BSP_D1_UART_BAUD;
    cfg.rx_bufsz = 256;
    cfg.tx_bufsz = 0; /* polled transmit */
    d->parent.ops = &d1_uart_ops;
    d->parent.config = cfg;
    ret = d1_rt_uart_configure(&d->parent, &cfg);
    if (ret != RT_EOK)
    {
        return (int)ret;
    }
    rt_hw_interrupt_install(D1_RT_UART_IRQ, d1_rt_uart_isr, d, BSP_D1_UART_NAME);
    ret = rt_hw_serial_register(&d->parent, BSP_D1_UART_NAME, RT_DEVICE_FLAG_RDWR, d);
    if (ret != RT_EOK)
    {
        return (int)ret;
    }
#if defined(BSP_D1_UART_CONSOLE) && defined(RT_USING_CONSOLE)
    rt_console_set_device(BSP_D1_UART_NAME);
#endif
    return RT_EOK;
}
INIT_BOARD_EXPORT(d1_rt_uart_init);

#ifdef RT_USING_FINSH
#include <finsh.h>

static int d1uart(int argc, char **argv)
{
    struct d1_uart_stats s;
    rt_uint32_t fw;
    rt_uint32_t txd;

    (void)argc;
    (void)argv;
    d1_rt_uart_stats(&s, &fw, &txd);
    rt_kprintf("%s: baud %u (%d ppm), rx %u, tx %u, overrun %u, framing %u, parity %u, "
               "break %u, framework ring full %u, tx not sent %u, busy detect %u, "
               "discarded at configure %u\n",
               BSP_D1_UART_NAME, (unsigned)d1_uart_dev.u.baud, (int)d1_uart_dev.u.baud_err_ppm,
               (unsigned)s.rx_bytes, (unsigned)s.tx_bytes, (unsigned)s.overrun,
               (unsigned)s.framing, (unsigned)s.parity, (unsigned)s.brk,
               (unsigned)fw, (unsigned)txd, (unsigned)s.busy_detect,
               (unsigned)s.rx_discarded);
    return 0;
}
MSH_CMD_EXPORT(d1uart, d1drivers UART counters);
#endif /* RT_USING_FINSH */

#endif /* BSP_USING_D1_UART */
