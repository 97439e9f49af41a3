/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Behaviour followed (RT-Thread 825cdefe7, as carried by wosayttn/rt-thread;
 * the same in RT-Thread/rt-thread v5.0.x). Written here from these
 * descriptions; no RT-Thread code is copied.
 *
 * src/device.c rt_device_open(): if the device is not ACTIVATED, call its
 * init and stop on error, then mark it ACTIVATED; a STANDALONE device
 * already open gives -RT_EBUSY; call open; on RT_EOK or -RT_ENOSYS mark it
 * open and count the reference. rt_device_close(): -RT_ERROR with no
 * reference; drop one; on the last, call close and mark it closed.
 *
 * components/drivers/hwtimer/hwtimer.c:
 *  - init: count frequency 1 MHz if minfreq <= 1 MHz <= maxfreq, else
 *    minfreq; mode one-shot; cycles and overflow 0; ops->init(timer, 1).
 *  - open: ops->control(HWTIMER_CTRL_FREQ_SET, &timer->freq), result
 *    ignored, returns RT_EOK.
 *  - close: ops->init(timer, 0); clears ACTIVATED and rx_indicate.
 *  - write (timeout_calc, single-precision float throughout): let T be
 *    sec + usec / 1e6 seconds and O = maxcnt / freq the longest period.
 *    If T < 1 / freq the period is 1 / freq with 0 cycles. Otherwise try
 *    n = 1, 2, ...: skip n while T / n > O; else c = (u32)(T / n * freq)
 *    and the shortfall d = T - c / freq * n. Stop at the first d of 0
 *    (this n); stop when d exceeds the smallest shortfall seen so far
 *    (which starts at 1 s) and fall back to the n that gave it; otherwise
 *    remember d and n if d is smaller. cycles = reload = n, period_sec =
 *    T / n, and the count is (u32)(period_sec * freq). The hardware mode
 *    is one-shot only if cycles <= 1 and the device mode is one-shot.
 *    ops->stop first, overflow = 0; a failed ops->start makes the write
 *    return 0.
 *  - read: count = ops->count_get (interrupts off, with overflow); for a
 *    down counter elapsed = (u32)(freq * period_sec) - count; time =
 *    overflow * period_sec + elapsed / freq (float), split into sec and
 *    usec by truncation.
 *  - control FREQ_SET: NULL -> -RT_EEMPTY; outside [minfreq, maxfreq]
 *    -> -RT_EINVAL; else ops->control, and on RT_EOK freq = the value.
 *    MODE_SET: one-shot or period, else -RT_ERROR. INFO_GET copies info.
 *  - rt_device_hwtimer_isr: overflow++; cycles-- if non-zero; at 0 it is
 *    reloaded, a one-shot device is stopped with ops->stop and
 *    rx_indicate(dev, sizeof(rt_hwtimerval_t)) runs.
 * components/drivers/watchdog/watchdog.c: init -> ops->init; open ->
 *  RT_EOK; close -> ops->control(RT_DEVICE_CTRL_WDT_STOP), -RT_ERROR (and a
 *  message) if that fails; control -> ops->control; registered as
 *  RT_Device_Class_WDT.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rtt_host.h"

struct rtt_host_irq rtt_host_irqs[RTT_HOST_IRQS];

#define RTT_HOST_DEVICES 16
static rt_device_t devices[RTT_HOST_DEVICES];
static rt_tick_t tick;
static char last_msg[256];
static unsigned msgs;
static int irq_level;
uintptr_t (*rtt_host_irq_lock)(void);
void (*rtt_host_irq_unlock)(uintptr_t state);
void (*rtt_host_serial_tx_done_preempt)(void);
static int preempt_pending;

static void run_preempt(void)
{
	void (*fn)(void) = rtt_host_serial_tx_done_preempt;

	preempt_pending = 0;
	rtt_host_serial_tx_done_preempt = NULL; /* once */
	if (fn != NULL)
		fn();
}

struct rt_timer {
	void (*fn)(void *parameter);
	void *parameter;
	rt_tick_t period;
	rt_uint8_t flag;
	int running;
};

#define RTT_HOST_TIMERS 4
static struct rt_timer timers[RTT_HOST_TIMERS];
static unsigned ntimers;

rt_timer_t rt_timer_create(const char *name, void (*timeout)(void *parameter), void *parameter,
                           rt_tick_t time, rt_uint8_t flag)
{
	(void)name;
	if (ntimers >= RTT_HOST_TIMERS)
		return RT_NULL;
	timers[ntimers] = (struct rt_timer){timeout, parameter, time, flag, 0};
	return &timers[ntimers++];
}

rt_err_t rt_timer_start(rt_timer_t timer)
{
	timer->running = 1;
	return RT_EOK;
}

rt_err_t rt_timer_stop(rt_timer_t timer)
{
	if (!timer->running)
		return -RT_ERROR;
	timer->running = 0;
	return RT_EOK;
}

int rtt_host_timer_fire(void)
{
	for (unsigned i = 0; i < ntimers; i++) {
		if (timers[i].running) {
			if (!(timers[i].flag & RT_TIMER_FLAG_PERIODIC))
				timers[i].running = 0;
			timers[i].fn(timers[i].parameter);
			return 1;
		}
	}
	return 0;
}

rt_tick_t rtt_host_timer_period(void)
{
	return ntimers > 0 ? timers[0].period : 0;
}

int rtt_host_timer_running(void)
{
	return ntimers > 0 && timers[0].running;
}

rt_tick_t rt_tick_from_millisecond(rt_int32_t ms)
{
	return (rt_tick_t)(((int64_t)ms * RT_TICK_PER_SECOND + 999) / 1000);
}

void rtt_host_reset(void)
{
	memset(rtt_host_serial_events, 0, sizeof(rtt_host_serial_events));
	rtt_host_serial_tx_runaway = 0;
	memset(timers, 0, sizeof(timers));
	ntimers = 0;
	memset(rtt_host_irqs, 0, sizeof(rtt_host_irqs));
	memset(devices, 0, sizeof(devices));
	tick = 0;
	last_msg[0] = '\0';
	msgs = 0;
	irq_level = 0;
	rtt_host_irq_lock = NULL;
	rtt_host_irq_unlock = NULL;
	rtt_host_serial_tx_done_preempt = NULL;
	preempt_pending = 0;
}

void *rt_memset(void *src, int c, rt_ubase_t n)
{
	return memset(src, c, (size_t)n);
}

void rtt_host_set_tick(rt_tick_t t)
{
	tick = t;
}

const char *rtt_host_last_message(void)
{
	return last_msg;
}

unsigned rtt_host_messages(void)
{
	return msgs;
}

rt_tick_t rt_tick_get(void)
{
	return tick;
}

void rt_tick_increase(void)
{
	tick++;
}

int rt_kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	msgs++;
	return n;
}

void *rt_memcpy(void *dest, const void *src, rt_ubase_t n)
{
	return memcpy(dest, src, (size_t)n);
}

rt_base_t rt_hw_interrupt_disable(void)
{
	if (rtt_host_irq_lock != NULL)
		return (rt_base_t)rtt_host_irq_lock();
	return (rt_base_t)irq_level++;
}

void rt_hw_interrupt_enable(rt_base_t level)
{
	if (rtt_host_irq_unlock != NULL) {
		rtt_host_irq_unlock((uintptr_t)level);
		return;
	}
	irq_level = (int)level;
	if (irq_level == 0 && preempt_pending)
		run_preempt();
}

void rt_hw_us_delay(rt_uint32_t us)
{
	(void)us;
}

rt_isr_handler_t rt_hw_interrupt_install(int vector, rt_isr_handler_t handler, void *param,
                                         const char *name)
{
	rt_isr_handler_t old;

	(void)name;
	if (vector < 0 || vector >= RTT_HOST_IRQS)
		return RT_NULL;
	old = rtt_host_irqs[vector].handler;
	rtt_host_irqs[vector].handler = handler;
	rtt_host_irqs[vector].param = param;
	return old;
}

void rt_hw_interrupt_mask(int vector)
{
	if (vector >= 0 && vector < RTT_HOST_IRQS)
		rtt_host_irqs[vector].enabled = 0;
}

void rt_hw_interrupt_umask(int vector)
{
	if (vector >= 0 && vector < RTT_HOST_IRQS)
		rtt_host_irqs[vector].enabled = 1;
}

int rtt_host_irq_raise(int vector)
{
	struct rtt_host_irq *q;

	if (vector < 0 || vector >= RTT_HOST_IRQS)
		return 0;
	q = &rtt_host_irqs[vector];
	if (q->handler == RT_NULL || !q->enabled)
		return 0;
	q->calls++;
	q->handler(vector, q->param);
	return 1;
}

/* ---- device core ---- */

rt_device_t rt_device_find(const char *name)
{
	for (int i = 0; i < RTT_HOST_DEVICES; i++) {
		if (devices[i] != RT_NULL &&
		    strncmp(devices[i]->parent.name, name, RT_NAME_MAX) == 0)
			return devices[i];
	}
	return RT_NULL;
}

rt_err_t rt_device_register(rt_device_t dev, const char *name, rt_uint16_t flags)
{
	if (dev == RT_NULL || rt_device_find(name) != RT_NULL)
		return -RT_ERROR;
	for (int i = 0; i < RTT_HOST_DEVICES; i++) {
		if (devices[i] == RT_NULL) {
			devices[i] = dev;
			strncpy(dev->parent.name, name, RT_NAME_MAX - 1);
			dev->parent.name[RT_NAME_MAX - 1] = '\0';
			dev->flag = flags;
			dev->ref_count = 0;
			dev->open_flag = 0;
			return RT_EOK;
		}
	}
	return -RT_EFULL;
}

#ifdef RT_USING_DEVICE_OPS
#define DEV_OP(dev, op) ((dev)->ops ? (dev)->ops->op : RT_NULL)
#else
#define DEV_OP(dev, op) ((dev)->op)
#endif

rt_err_t rt_device_open(rt_device_t dev, rt_uint16_t oflag)
{
	rt_err_t r = RT_EOK;

	if (!(dev->flag & RT_DEVICE_FLAG_ACTIVATED)) {
		if (DEV_OP(dev, init) != RT_NULL) {
			r = DEV_OP(dev, init)(dev);
			if (r != RT_EOK)
				return r;
		}
		dev->flag |= RT_DEVICE_FLAG_ACTIVATED;
	}
	if ((dev->flag & RT_DEVICE_FLAG_STANDALONE) && (dev->open_flag & RT_DEVICE_OFLAG_OPEN))
		return -RT_EBUSY;
	if (DEV_OP(dev, open) != RT_NULL)
		r = DEV_OP(dev, open)(dev, oflag);
	else
		dev->open_flag = (rt_uint16_t)(oflag & RT_DEVICE_OFLAG_MASK);
	if (r == RT_EOK || r == -RT_ENOSYS) {
		dev->open_flag |= RT_DEVICE_OFLAG_OPEN;
		dev->ref_count++;
	}
	return r;
}

rt_err_t rt_device_close(rt_device_t dev)
{
	rt_err_t r = RT_EOK;

	if (dev->ref_count == 0)
		return -RT_ERROR;
	if (--dev->ref_count != 0)
		return RT_EOK;
	if (DEV_OP(dev, close) != RT_NULL)
		r = DEV_OP(dev, close)(dev);
	if (r == RT_EOK || r == -RT_ENOSYS)
		dev->open_flag = RT_DEVICE_OFLAG_CLOSE;
	return r;
}

rt_ssize_t rt_device_read(rt_device_t dev, rt_off_t pos, void *buffer, rt_size_t size)
{
	if (DEV_OP(dev, read) == RT_NULL)
		return -RT_ENOSYS;
	return DEV_OP(dev, read)(dev, pos, buffer, size);
}

rt_ssize_t rt_device_write(rt_device_t dev, rt_off_t pos, const void *buffer, rt_size_t size)
{
	if (DEV_OP(dev, write) == RT_NULL)
		return -RT_ENOSYS;
	return DEV_OP(dev, write)(dev, pos, buffer, size);
}

rt_err_t rt_device_control(rt_device_t dev, int cmd, void *arg)
{
	if (DEV_OP(dev, control) == RT_NULL)
		return -RT_ENOSYS;
	return DEV_OP(dev, control)(dev, cmd, arg);
}

void rt_device_set_rx_indicate_host(rt_device_t dev,
                                    rt_err_t (*fn)(rt_device_t dev, rt_size_t size))
{
	dev->rx_indicate = fn;
}

/* ---- hwtimer framework layer ---- */

rt_uint32_t rtt_host_timeout_calc(rt_hwtimer_t *timer, const rt_hwtimerval_t *tv)
{
	const float freq = (float)timer->freq;
	const float longest = (float)timer->info->maxcnt / freq;
	const float want = (float)tv->sec + (float)tv->usec / 1000000.0f;
	float period;
	rt_int32_t n;

	if (want < 1.0f / freq) {
		n = 0;
		period = 1.0f / freq;
	} else {
		float best = 1.0f;
		rt_int32_t best_n = 0;

		for (n = 1; n > 0; n++) {
			float p = want / (float)n;
			rt_uint32_t c;
			float shortfall;

			if (p > longest)
				continue;
			c = (rt_uint32_t)(p * freq);
			shortfall = want - ((float)c / freq) * (float)n;
			if (shortfall > best) {
				n = best_n;
				break;
			}
			if (shortfall == 0.0f)
				break;
			if (shortfall < best) {
				best = shortfall;
				best_n = n;
			}
		}
		period = want / (float)n;
	}
	timer->cycles = n;
	timer->reload = n;
	timer->period_sec = period;
	return (rt_uint32_t)(period * freq);
}

static rt_err_t hwt_init(rt_device_t dev)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;

	if (t->info->minfreq <= 1000000 && t->info->maxfreq >= 1000000)
		t->freq = 1000000;
	else
		t->freq = t->info->minfreq;
	t->mode = HWTIMER_MODE_ONESHOT;
	t->cycles = 0;
	t->overflow = 0;
	if (t->ops->init == RT_NULL)
		return -RT_ENOSYS;
	t->ops->init(t, 1);
	return RT_EOK;
}

static rt_err_t hwt_open(rt_device_t dev, rt_uint16_t oflag)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;

	(void)oflag;
	if (t->ops->control == RT_NULL)
		return -RT_ENOSYS;
	(void)t->ops->control(t, HWTIMER_CTRL_FREQ_SET, &t->freq);
	return RT_EOK;
}

static rt_err_t hwt_close(rt_device_t dev)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;
	rt_err_t r = RT_EOK;

	if (t->ops->init != RT_NULL)
		t->ops->init(t, 0);
	else
		r = -RT_ENOSYS;
	dev->flag &= (rt_uint16_t)~RT_DEVICE_FLAG_ACTIVATED;
	dev->rx_indicate = RT_NULL;
	return r;
}

static rt_ssize_t hwt_read(rt_device_t dev, rt_off_t pos, void *buffer, rt_size_t size)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;
	rt_hwtimerval_t tv;
	rt_uint32_t count;
	rt_int32_t overflow;
	rt_base_t level;
	float secs;

	(void)pos;
	if (t->ops->count_get == RT_NULL)
		return 0;
	level = rt_hw_interrupt_disable();
	count = t->ops->count_get(t);
	overflow = t->overflow;
	rt_hw_interrupt_enable(level);
	if (t->info->cntmode == HWTIMER_CNTMODE_DW)
		count = (rt_uint32_t)((float)t->freq * t->period_sec) - count;
	secs = (float)overflow * t->period_sec + (float)count / (float)t->freq;
	tv.sec = (rt_int32_t)secs;
	tv.usec = (rt_int32_t)((secs - (float)tv.sec) * 1000000.0f);
	if (size > sizeof(tv))
		size = sizeof(tv);
	memcpy(buffer, &tv, size);
	return (rt_ssize_t)size;
}

static rt_ssize_t hwt_write(rt_device_t dev, rt_off_t pos, const void *buffer, rt_size_t size)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;
	rt_hwtimer_mode_t hw_mode = HWTIMER_MODE_PERIOD;
	rt_uint32_t count;

	(void)pos;
	if (t->ops->start == RT_NULL || t->ops->stop == RT_NULL || size != sizeof(rt_hwtimerval_t))
		return 0;
	t->ops->stop(t);
	t->overflow = 0;
	count = rtt_host_timeout_calc(t, (const rt_hwtimerval_t *)buffer);
	if (t->cycles <= 1 && t->mode == HWTIMER_MODE_ONESHOT)
		hw_mode = HWTIMER_MODE_ONESHOT;
	if (t->ops->start(t, count, hw_mode) != RT_EOK)
		return 0;
	return (rt_ssize_t)size;
}

static rt_err_t hwt_control(rt_device_t dev, int cmd, void *args)
{
	rt_hwtimer_t *t = (rt_hwtimer_t *)dev;
	rt_err_t r;

	switch (cmd) {
	case HWTIMER_CTRL_STOP:
		t->ops->stop(t);
		return RT_EOK;
	case HWTIMER_CTRL_FREQ_SET:
		if (args == RT_NULL)
			return -RT_EEMPTY;
		if (*(rt_int32_t *)args > t->info->maxfreq ||
		    *(rt_int32_t *)args < t->info->minfreq)
			return -RT_EINVAL;
		r = t->ops->control(t, (rt_uint32_t)cmd, args);
		if (r == RT_EOK)
			t->freq = *(rt_int32_t *)args;
		return r;
	case HWTIMER_CTRL_INFO_GET:
		if (args == RT_NULL)
			return -RT_EEMPTY;
		*(struct rt_hwtimer_info *)args = *t->info;
		return RT_EOK;
	case HWTIMER_CTRL_MODE_SET:
		if (args == RT_NULL)
			return -RT_EEMPTY;
		if (*(rt_hwtimer_mode_t *)args != HWTIMER_MODE_ONESHOT &&
		    *(rt_hwtimer_mode_t *)args != HWTIMER_MODE_PERIOD)
			return -RT_ERROR;
		t->mode = *(rt_hwtimer_mode_t *)args;
		return RT_EOK;
	default:
		return -RT_ENOSYS;
	}
}

#ifdef RT_USING_DEVICE_OPS
static const struct rt_device_ops hwt_dev_ops = {hwt_init, hwt_open,  hwt_close,
                                                 hwt_read, hwt_write, hwt_control};
#endif

void rt_device_hwtimer_isr(rt_hwtimer_t *t)
{
	t->overflow++;
	if (t->cycles != 0)
		t->cycles--;
	if (t->cycles != 0)
		return;
	t->cycles = t->reload;
	if (t->mode == HWTIMER_MODE_ONESHOT && t->ops->stop != RT_NULL)
		t->ops->stop(t);
	if (t->parent.rx_indicate != RT_NULL)
		t->parent.rx_indicate(&t->parent, sizeof(rt_hwtimerval_t));
}

rt_err_t rt_device_hwtimer_register(rt_hwtimer_t *t, const char *name, void *user_data)
{
	rt_device_t d = &t->parent;

	d->type = RT_Device_Class_Timer;
	d->rx_indicate = RT_NULL;
	d->tx_complete = RT_NULL;
#ifdef RT_USING_DEVICE_OPS
	d->ops = &hwt_dev_ops;
#else
	d->init = hwt_init;
	d->open = hwt_open;
	d->close = hwt_close;
	d->read = hwt_read;
	d->write = hwt_write;
	d->control = hwt_control;
#endif
	d->user_data = user_data;
	return rt_device_register(d, name, RT_DEVICE_FLAG_RDWR | RT_DEVICE_FLAG_STANDALONE);
}

/* ---- watchdog framework layer ---- */

static rt_err_t wdt_init(rt_device_t dev)
{
	rt_watchdog_t *w = (rt_watchdog_t *)dev;

	return w->ops->init != RT_NULL ? w->ops->init(w) : RT_EOK;
}

static rt_err_t wdt_open(rt_device_t dev, rt_uint16_t oflag)
{
	(void)dev;
	(void)oflag;
	return RT_EOK;
}

static rt_err_t wdt_close(rt_device_t dev)
{
	rt_watchdog_t *w = (rt_watchdog_t *)dev;

	if (w->ops->control(w, RT_DEVICE_CTRL_WDT_STOP, RT_NULL) != RT_EOK) {
		rt_kprintf(" This watchdog can not be stoped\n");
		return -RT_ERROR;
	}
	return RT_EOK;
}

static rt_err_t wdt_control(rt_device_t dev, int cmd, void *args)
{
	rt_watchdog_t *w = (rt_watchdog_t *)dev;

	return w->ops->control(w, cmd, args);
}

#ifdef RT_USING_DEVICE_OPS
static const struct rt_device_ops wdt_dev_ops = {wdt_init, wdt_open, wdt_close,
                                                 RT_NULL,  RT_NULL,  wdt_control};
#endif

rt_err_t rt_hw_watchdog_register(rt_watchdog_t *w, const char *name, rt_uint32_t flag, void *data)
{
	rt_device_t d = &w->parent;

	d->type = RT_Device_Class_WDT;
	d->rx_indicate = RT_NULL;
	d->tx_complete = RT_NULL;
#ifdef RT_USING_DEVICE_OPS
	d->ops = &wdt_dev_ops;
#else
	d->init = wdt_init;
	d->open = wdt_open;
	d->close = wdt_close;
	d->read = RT_NULL;
	d->write = RT_NULL;
	d->control = wdt_control;
#endif
	d->user_data = data;
	return rt_device_register(d, name, (rt_uint16_t)flag);
}

/* ---- ring buffer (behaviour of components/drivers/src/ringbuffer.c:
 * putchar stores one byte unless full and returns 1, else 0; getchar
 * returns 1 with a byte, 0 when empty) ---- */

void rt_ringbuffer_init(struct rt_ringbuffer *rb, rt_uint8_t *pool, rt_int32_t size)
{
	rb->buffer_ptr = pool;
	rb->read_mirror = 0;
	rb->read_index = 0;
	rb->write_mirror = 0;
	rb->write_index = 0;
	rb->buffer_size = size;
}

rt_size_t rt_ringbuffer_data_len(struct rt_ringbuffer *rb)
{
	rt_uint32_t w = rb->write_index, r = rb->read_index;

	if (w == r)
		return rb->write_mirror == rb->read_mirror ? 0u : (rt_size_t)rb->buffer_size;
	if (w > r)
		return w - r;
	return (rt_size_t)rb->buffer_size - (r - w);
}

rt_size_t rt_ringbuffer_putchar(struct rt_ringbuffer *rb, const rt_uint8_t ch)
{
	if (rt_ringbuffer_data_len(rb) == (rt_size_t)rb->buffer_size)
		return 0;
	rb->buffer_ptr[rb->write_index] = ch;
	if (rb->write_index == (rt_uint32_t)rb->buffer_size - 1u) {
		rb->write_mirror = (rb->write_mirror + 1u) & 1u;
		rb->write_index = 0;
	} else {
		rb->write_index++;
	}
	return 1;
}

rt_size_t rt_ringbuffer_getchar(struct rt_ringbuffer *rb, rt_uint8_t *ch)
{
	if (rt_ringbuffer_data_len(rb) == 0)
		return 0;
	*ch = rb->buffer_ptr[rb->read_index];
	if (rb->read_index == (rt_uint32_t)rb->buffer_size - 1u) {
		rb->read_mirror = (rb->read_mirror + 1u) & 1u;
		rb->read_index = 0;
	} else {
		rb->read_index++;
	}
	return 1;
}

/* The bulk pair, as RT-Thread's: as many bytes as fit (put) or are there
 * (get), in order; the count moved. */
rt_size_t rt_ringbuffer_put(struct rt_ringbuffer *rb, const rt_uint8_t *ptr, rt_uint32_t length)
{
	rt_size_t n = 0;

	while (n < length && rt_ringbuffer_putchar(rb, ptr[n]) == 1u)
		n++;
	return n;
}

rt_size_t rt_ringbuffer_get(struct rt_ringbuffer *rb, rt_uint8_t *ptr, rt_uint32_t length)
{
	rt_size_t n = 0;

	while (n < length && rt_ringbuffer_getchar(rb, &ptr[n]) == 1u)
		n++;
	return n;
}

/* ---- serial V2 framework: registration and the ISR events ---- */

unsigned rtt_host_serial_events[8];
static char console_name[RT_NAME_MAX];

rt_err_t rt_hw_serial_register(struct rt_serial_device *serial, const char *name, rt_uint32_t flag,
                               void *data)
{
	serial->parent.type = RT_Device_Class_Char;
	serial->parent.user_data = data;
	serial->serial_rx = RT_NULL;
	serial->serial_tx = RT_NULL;
	return rt_device_register(&serial->parent, name, (rt_uint16_t)flag);
}

unsigned rtt_host_serial_tx_runaway;

/* RT_SERIAL_EVENT_TX_DONE as components/drivers/serial/dev_serial_v2.c
 * handles it with a TX ring (serial_tx set): an empty ring ends the
 * transfer (activated cleared); data still in the ring is handed to the
 * driver's transmit() again (in interrupt mode the driver takes its bytes
 * from the ring: buffer and length are inactive parameters). A transmit()
 * that re-enters this event without ever emptying the ring would recurse
 * without end: it is stopped at a depth of 4 and counted. */
void rt_hw_serial_isr(struct rt_serial_device *serial, int event)
{
	static unsigned depth;
	struct rt_serial_tx_fifo *tx = (struct rt_serial_tx_fifo *)serial->serial_tx;
	rt_size_t len;

	rtt_host_serial_events[event & 7]++;
	if ((event & 0xff) != RT_SERIAL_EVENT_TX_DONE || tx == RT_NULL)
		return;
	len = rt_ringbuffer_data_len(&tx->rb);
	if (len == 0u) {
		if (rtt_host_serial_tx_done_preempt != NULL) {
			if (irq_level == 0)
				run_preempt();
			else
				preempt_pending = 1;
		}
		tx->activated = RT_FALSE;
		return;
	}
	if (depth >= 4u) {
		rtt_host_serial_tx_runaway++;
		return;
	}
	depth++;
	(void)serial->ops->transmit(serial, tx->rb.buffer_ptr, len,
	                            serial->parent.open_flag &
	                                    (RT_SERIAL_TX_BLOCKING | RT_SERIAL_TX_NON_BLOCKING));
	depth--;
}

rt_device_t rt_console_set_device(const char *name)
{
	strncpy(console_name, name, sizeof(console_name) - 1u);
	return rt_device_find(name);
}

rt_device_t rt_console_get_device(void)
{
	return console_name[0] != '\0' ? rt_device_find(console_name) : RT_NULL;
}

const char *rtt_host_console(void)
{
	return console_name;
}
