// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later
/*
 * d1timer: the d1drivers library's Timer driver and latency recorder in a
 * Linux module, the same timer-IRQ bench as the bare-metal, NuttX and
 * RT-Thread images (docs/linux.md).
 *
 * At load, Timer1 of the D1 Timer block (device-tree node
 * "allwinner,sun20i-d1-timer", its second interrupt) runs periodic at
 * period_us on OSC24M through d1_timer_set_period_ns()/d1_timer_start().
 * Its handler, in hard interrupt context (IRQF_NO_THREAD, PREEMPT_RT
 * included), has the library's bench core capture d1_timer_isr()'s sample
 * (OSC24M clocks from the period boundary to the handler's read of the
 * counter) and the 24 MHz time CSR, d1_bench_isr(), then account it,
 * d1_bench_account() (d1/bench.h: the grid, missed periods and spurious
 * interrupts defined once for every OS's bench), which records it. After `periods` boundaries the handler stops the Timer.
 * /proc/d1timer reads the progress, then the recorder's text report and
 * JSON line.
 *
 * Refused, with an errno and a kernel log line: no such node (-ENODEV),
 * Timer1 already enabled or its interrupt already enabled in IRQ_EN
 * (-EBUSY: Linux's own sun4i driver runs Timer1 as its clocksource), a
 * period the library cannot program (-EINVAL / -ERANGE), no interrupt or
 * mapping (-ENXIO). rmmod at any point stops the Timer first.
 *
 * Registers shared with Linux's timer-sun4i driver, in the one block:
 * IRQ_EN (both read-modify-write it: sun4i only in its init, before any
 * module can load; the library under its critical section) and IRQ_STA
 * (write-one-to-clear: each writes only its own channel's bit). Timer0's
 * CTRL/INTV/CUR are sun4i's, Timer1's are this module's once it has checked
 * that nobody runs Timer1.
 */
#include <linux/clk.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irqdomain.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_irq.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "d1/bench.h"
#include "d1/error.h"
#include "d1/latency.h"
#include "d1/time.h"
#include "d1/timer.h"
#include "d1/timer_regs.h"

#define D1T_CHANNEL  1u
#define D1T_IRQ_IDX  1 /* the node's interrupts: Timer0, Timer1 */
#define D1T_LOSC_HZ  32768u

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Timer1 period, us (default 1000; OSC24M: at most 178,956,970)");

static unsigned int periods = 20000;
module_param(periods, uint, 0444);
MODULE_PARM_DESC(periods, "periods to record, then Timer1 stops (default 20000)");

static char *board = "allwinner-d1";
module_param(board, charp, 0444);
MODULE_PARM_DESC(board, "board field of the report");

static char *load = "none";
module_param(load, charp, 0444);
MODULE_PARM_DESC(load, "load field of the report: the load during the run");

struct d1t {
	struct d1_timer t;
	struct d1_lat rec;
	void __iomem *base;
	unsigned int irq;
	struct d1_bench acc; /* the bench core's accounting of the run */
	u64 period_ticks;  /* one period in time CSR ticks (= Timer clocks) */
	bool done;         /* set (release) once the recorder is final */
	char report[D1_LAT_REPORT_SIZE];
};

static struct d1t *d1t;
static struct proc_dir_entry *d1t_proc;

static irqreturn_t d1t_isr(int irq, void *arg)
{
	struct d1t *b = arg;
	struct d1_bench *acc = &b->acc;
	enum d1_bench_irq_result r = d1_bench_isr(acc, &b->t);

	/* no task: the accounting here, after the capture; after the run
	 * (finished) the core captures nothing more */
	if (r == D1_BENCH_SAMPLE && d1_bench_account(acc) == D1_BENCH_DONE) {
		(void)d1_timer_stop(&b->t);
		(void)d1_bench_finish(acc, d1_time_now());
		/* the recorder is final: pairs with the acquire in d1t_show() */
		smp_store_release(&b->done, true);
	}
	return r == D1_BENCH_SPURIOUS ? IRQ_NONE : IRQ_HANDLED;
}

/* d1_lat_dump()'s output, into the seq_file read of /proc/d1timer */
static void d1t_put(void *ctx, const char *s, size_t n)
{
	seq_write(ctx, s, n);
}

static int d1t_show(struct seq_file *m, void *v)
{
	struct d1t *b = m->private;
	struct d1_lat_meta meta = {
		.os = "linux",
		.board = board,
		.load = load,
		.measurement = "timer-irq",
		.wake = "none",
		.period_ns = (u64)period_us * 1000u,
	};
	struct d1_bench_stats bs;
	struct d1_timer_stats st;
	size_t n;

	/* pairs with the handler's release: the recorder is read only once final */
	if (!smp_load_acquire(&b->done)) {
		(void)d1_bench_get_stats(&b->acc, &bs); /* a snapshot: progress only */
		seq_printf(m, "running: %llu of %u periods\n", bs.boundaries, periods);
		return 0;
	}
	(void)d1_bench_get_stats(&b->acc, &bs);
	meta.bench_instr_min = bs.irq_instr_min;
	meta.bench_instr_max = bs.irq_instr_max;
	(void)d1_timer_get_stats(&b->t, &st);
	seq_printf(m, "done: %u periods of %u us, spurious %u, library spurious %llu\n",
		   periods, period_us, bs.spurious_irq, st.spurious);
	if (d1_lat_report_text(&b->rec, &meta, b->report, sizeof(b->report), &n) == D1_OK)
		seq_write(m, b->report, n);
	if (d1_lat_report_json(&b->rec, &meta, b->report, sizeof(b->report), &n) == D1_OK)
		seq_write(m, b->report, n);
	/* the recorder's dump line: every bin, for bench/tools/d1lat_dump.py */
	(void)d1_lat_dump(&b->rec, &meta, d1t_put, m);
	return 0;
}

static int d1t_errno(d1_err_t e)
{
	switch (e) {
	case D1_OK:
		return 0;
	case D1_ERANGE:
		return -ERANGE;
	case D1_ETIMEDOUT:
		return -ETIMEDOUT;
	case D1_EBUSY:
		return -EBUSY;
	default:
		return -EINVAL;
	}
}

static int d1t_setup(struct d1t *b, struct device_node *np)
{
	struct d1_timer_achieved ach;
	struct device_node *cpus;
	unsigned long rate;
	struct clk *clk;
	d1_err_t e;
	u32 tb;
	int ret;

	if (period_us == 0 || periods == 0) {
		pr_err("d1timer: period_us=%u periods=%u: both must be > 0\n", period_us, periods);
		return -EINVAL;
	}
	clk = of_clk_get(np, 0);
	if (IS_ERR(clk)) {
		pr_err("d1timer: %pOF has no input clock (%ld)\n", np, PTR_ERR(clk));
		return PTR_ERR(clk);
	}
	rate = clk_get_rate(clk);
	clk_put(clk);
	cpus = of_find_node_by_path("/cpus");
	ret = of_property_read_u32(cpus, "timebase-frequency", &tb);
	of_node_put(cpus);
	if (ret || tb == 0) {
		pr_err("d1timer: no /cpus timebase-frequency\n");
		return -ENODEV;
	}
	/* the core's boundary is now - sample: one clock for both */
	if (tb != rate) {
		pr_err("d1timer: the time CSR (%u Hz) and Timer1's input (%lu Hz) differ; the bench needs one rate\n",
		       tb, rate);
		return -ERANGE;
	}
	b->base = of_iomap(np, 0);
	if (!b->base) {
		pr_err("d1timer: cannot map %pOF\n", np);
		return -ENXIO;
	}
	e = d1_timer_init(&b->t, (uintptr_t)b->base, D1T_CHANNEL, (u32)rate, D1T_LOSC_HZ);
	if (e != D1_OK) {
		pr_err("d1timer: d1_timer_init (input %lu Hz): %s\n", rate, d1_strerror(e));
		return d1t_errno(e);
	}
	/*
	 * Linux's timer-sun4i runs Timer1 free as its clocksource (and its
	 * clockevent's stop waits on Timer1's counter): never take it over.
	 */
	if (d1_timer_hw_enabled(&b->t) ||
	    (readl(b->base + D1_TIMER_IRQ_EN_OFFSET) & BIT(D1T_CHANNEL))) {
		pr_err("d1timer: Timer1 of %pOF is in use (CTRL 0x%08x, IRQ_EN 0x%08x): Linux's sun4i clocksource or another driver\n",
		       np,
		       readl(b->base + D1_TIMER_CTRL_OFFSET(D1T_CHANNEL)),
		       readl(b->base + D1_TIMER_IRQ_EN_OFFSET));
		return -EBUSY;
	}
	ret = d1t_errno(d1_timer_set_clock(&b->t, D1_TIMER_SRC_OSC24M, 0));
	if (!ret)
		ret = d1t_errno(d1_timer_set_period_ns(&b->t, (u64)period_us * 1000u, &ach));
	if (ret) {
		pr_err("d1timer: a period of %u us cannot be programmed on Timer1 (%d)\n",
		       period_us, ret);
		return ret;
	}
	/* the handler counts boundaries on the time CSR: whole ticks only */
	if (ach.rem != 0 || ((u64)period_us * tb) % 1000000u != 0) {
		pr_err("d1timer: %u us is not a whole number of %lu Hz clocks and %u Hz ticks\n",
		       period_us, rate, tb);
		return -ERANGE;
	}
	b->period_ticks = (u64)period_us * tb / 1000000u;
	e = d1_lat_init(&b->rec, (u32)rate);
	if (e == D1_OK)
		e = d1_bench_init(&b->acc, &b->rec, NULL, b->period_ticks, periods);
	if (e != D1_OK) {
		pr_err("d1timer: %u periods of %llu clocks: %s\n", periods, b->period_ticks,
		       d1_strerror(e));
		return d1t_errno(e);
	}
	b->irq = irq_of_parse_and_map(np, D1T_IRQ_IDX);
	if (!b->irq) {
		pr_err("d1timer: %pOF has no interrupt %d (Timer1)\n", np, D1T_IRQ_IDX);
		return -ENXIO;
	}
	ret = request_irq(b->irq, d1t_isr, IRQF_NO_THREAD, "d1timer", b);
	if (ret) {
		pr_err("d1timer: request_irq(%u): %d\n", b->irq, ret);
		irq_dispose_mapping(b->irq);
		b->irq = 0;
		return ret;
	}
	pr_info("d1timer: Timer1 %u us = %llu clocks of %lu Hz, %u periods, irq %u\n",
		period_us, ach.clocks, rate, periods, b->irq);
	return 0;
}

static void d1t_teardown(struct d1t *b)
{
	if (b->irq) {
		/* the handler cannot run from here on: stop is ours alone */
		disable_irq(b->irq);
		if (b->t.running)
			(void)d1_timer_stop(&b->t);
		(void)d1_timer_irq_enable(&b->t, false);
		(void)d1_timer_irq_ack(&b->t);
		free_irq(b->irq, b);
		irq_dispose_mapping(b->irq);
	}
	if (b->base)
		iounmap(b->base);
}

static int __init d1t_init(void)
{
	struct device_node *np;
	struct d1t *b;
	d1_err_t e;
	int ret;

	np = of_find_compatible_node(NULL, NULL, "allwinner,sun20i-d1-timer");
	if (!np) {
		pr_err("d1timer: no allwinner,sun20i-d1-timer node in the device tree\n");
		return -ENODEV;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		of_node_put(np);
		return -ENOMEM;
	}
	ret = d1t_setup(b, np);
	of_node_put(np);
	if (ret)
		goto fail;
	d1t_proc = proc_create_single_data("d1timer", 0444, NULL, d1t_show, b);
	if (!d1t_proc) {
		ret = -ENOMEM;
		goto fail;
	}
	disable_irq(b->irq);
	e = d1_timer_irq_enable(&b->t, true);
	if (e == D1_OK) {
		/* before the start: the grid's origin (d1_bench_start()) */
		e = d1_bench_start(&b->acc, d1_time_now());
		if (e == D1_OK)
			e = d1_timer_start(&b->t, D1_TIMER_PERIODIC);
	}
	enable_irq(b->irq);
	if (e != D1_OK) {
		pr_err("d1timer: starting Timer1: %s\n", d1_strerror(e));
		ret = d1t_errno(e);
		proc_remove(d1t_proc);
		goto fail;
	}
	d1t = b;
	return 0;
fail:
	d1t_teardown(b);
	kfree(b);
	return ret;
}

static void __exit d1t_exit(void)
{
	proc_remove(d1t_proc);
	d1t_teardown(d1t);
	kfree(d1t);
}

module_init(d1t_init);
module_exit(d1t_exit);
MODULE_DESCRIPTION("d1drivers Timer1 timer-IRQ latency bench (Allwinner D1)");
MODULE_AUTHOR("The d1drivers authors");
/* Every source of the module is Apache-2.0 OR GPL-2.0-or-later: "GPL" */
MODULE_LICENSE("GPL");
