/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-03     d1drivers    interrupt layer on the library's PLIC driver
 */

/*
 * rt_hw_interrupt_install/mask/umask and the PLIC dispatch of the c906
 * libcpu, served by the library's PLIC driver (d1_plic_*; one claim per
 * trap through its lean entry, d1_plic_claim_begin()/_end(), into this
 * file's handler table) instead of libcpu/risc-v/t-head/c906/plic.c. A
 * claim of 0 is counted as spurious; a source with no handler is
 * completed, masked and counted as unhandled (d1_plic_claim_unhandled());
 * rt_hw_interrupt_mask() from a handler completes its source before
 * masking it.
 *
 * Mechanism, with no RT-Thread file edited: the SConscript links with
 * -Wl,--wrap= for rt_hw_interrupt_init, rt_hw_interrupt_install,
 * rt_hw_interrupt_mask, rt_hw_interrupt_umask and plic_handle_irq. Every
 * call from another object (board.c, the drivers, trap.c's handle_trap())
 * then reaches the __wrap_ functions below; libcpu's own functions stay
 * linked but are only called through __real_rt_hw_interrupt_init() (its
 * isr_table and nesting variables). docs/rtsmart.md carries the upstream
 * proposal that would make the wrap unnecessary (weak symbols in libcpu).
 *
 * Vectors are PLIC source IDs, as in libcpu (docs/rtsmart.md). A vector
 * outside 1..D1_PLIC_NSOURCES is refused (install returns RT_NULL, mask
 * and umask do nothing) and counted. Installing over another handler is
 * reported with both names, so two drivers cannot silently share a source
 * (e.g. the sunxi-hal codec's Timer0 and the hwtimer device); installing
 * RT_NULL removes a handler.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rthw.h>
#include <rtthread.h>

#include "d1/memmap.h"
#include "d1/plic.h"
#include "d1_rt.h"

#ifdef BSP_USING_D1_PLIC

/* S-mode context of hart 0 (docs/uart-and-plic.md). */
#define D1_RT_PLIC_CONTEXT 1u
/* The window rt_ioremap maps under Smart: up to the end of this context's
 * threshold/claim page (+0x201000..+0x201FFF for context 1; PLIC_CTRL at
 * +0x1FFFFC and the enables lie below it; plic_regs.h). */
#define D1_RT_PLIC_MAP_SIZE (D1_PLIC_THRESHOLD_OFFSET(D1_RT_PLIC_CONTEXT) + 0x1000u)
/* Priority of an unmasked source: one level, as libcpu uses. */
#define D1_RT_PLIC_PRIO 1u

struct d1_rt_irq
{
    rt_isr_handler_t handler;
    void *param;
    const char *name;
    rt_uint32_t count;
};

static struct d1_plic d1_plic_dev;
static bool d1_plic_ready;
static struct d1_rt_irq d1_irqs[D1_PLIC_NSOURCES + 1u];
static struct d1_plic_stats d1_plic_stat;
static rt_uint32_t d1_irq_bad_vector;
static rt_uint32_t d1_irq_replaced;
static d1_err_t d1_plic_init_err = D1_ESTATE;

/* NOLINTNEXTLINE(bugprone-reserved-identifier): ld --wrap's name of the original */
void __real_rt_hw_interrupt_init(void);

static bool d1_rt_vector_ok(int vector)
{
    if (vector < 1 || vector > (int)D1_PLIC_NSOURCES)
    {
        d1_irq_bad_vector++;
        return false;
    }
    return true;
}

void __wrap_rt_hw_interrupt_init(void)
{
    uintptr_t base;

    /* libcpu's table and nesting state first (it also programs the PLIC
     * its own way; the library's init below sets every register again). */
    __real_rt_hw_interrupt_init();
    rt_memset(d1_irqs, 0, sizeof(d1_irqs));
    rt_memset(&d1_plic_stat, 0, sizeof(d1_plic_stat));
    d1_irq_bad_vector = 0u;
    d1_irq_replaced = 0u;
    d1_plic_ready = false;
    base = d1_rt_map(D1_PLIC_BASE, D1_RT_PLIC_MAP_SIZE);
    if (base == 0u)
    {
        d1_plic_init_err = D1_EINVAL;
        return;
    }
    d1_plic_init_err = d1_plic_init(&d1_plic_dev, base, D1_RT_PLIC_CONTEXT, D1_PLIC_NSOURCES, 0u);
    d1_plic_ready = (d1_plic_init_err == D1_OK);
    if (!d1_plic_ready)
    {
        rt_kprintf("d1 plic: init failed (%d): no external interrupts\n", (int)d1_plic_init_err);
    }
}

rt_isr_handler_t __wrap_rt_hw_interrupt_install(int vector, rt_isr_handler_t handler, void *param,
                                                const char *name)
{
    struct d1_rt_irq *e;
    rt_isr_handler_t old;
    rt_base_t level;

    if (!d1_rt_vector_ok(vector))
    {
        return RT_NULL;
    }
    e = &d1_irqs[vector];
    level = rt_hw_interrupt_disable();
    old = e->handler;
    if (old != RT_NULL && handler != RT_NULL && old != handler)
    {
        d1_irq_replaced++;
        rt_kprintf("d1 plic: irq %d: \"%s\" replaces \"%s\"\n", vector,
                   name != RT_NULL ? name : "?", e->name != RT_NULL ? e->name : "?");
    }
    e->handler = handler;
    e->param = param;
    e->name = name;
    rt_hw_interrupt_enable(level);
    return old;
}

void __wrap_rt_hw_interrupt_mask(int vector)
{
    if (!d1_rt_vector_ok(vector) || !d1_plic_ready)
    {
        return;
    }
    (void)d1_plic_disable(&d1_plic_dev, (unsigned)vector);
}

void __wrap_rt_hw_interrupt_umask(int vector)
{
    if (!d1_rt_vector_ok(vector) || !d1_plic_ready)
    {
        return;
    }
    if (d1_plic_set_priority(&d1_plic_dev, (unsigned)vector, D1_RT_PLIC_PRIO) == D1_OK)
    {
        (void)d1_plic_enable(&d1_plic_dev, (unsigned)vector);
    }
}

/* Called by handle_trap() for a supervisor external interrupt, inside
 * rt_interrupt_enter()/leave(), with interrupts off: one claim (another
 * pending source keeps SEIP high and traps again). All D1 peripheral
 * sources are level: the completion follows the handler. */
void __wrap_plic_handle_irq(void)
{
    struct d1_plic_frame frame;
    struct d1_rt_irq *e;
    unsigned src;

    if (!d1_plic_ready)
    {
        return;
    }
    src = d1_plic_claim_begin(&d1_plic_dev, &frame, &d1_plic_stat);
    if (src == 0u)
    {
        return; /* spurious or foreign: counted, completed and masked there */
    }
    e = &d1_irqs[src];
    if (e->handler == RT_NULL)
    {
        d1_plic_claim_unhandled(&d1_plic_dev, &frame, &d1_plic_stat);
        return;
    }
    e->count++;
    e->handler((int)src, e->param);
    d1_plic_claim_end(&d1_plic_dev, &frame, &d1_plic_stat);
}

/* Counters, for the msh command and tests. */
void d1_rt_plic_stats(struct d1_plic_stats *out, rt_uint32_t *bad_vector, rt_uint32_t *replaced)
{
    *out = d1_plic_stat;
    *bad_vector = d1_irq_bad_vector;
    *replaced = d1_irq_replaced;
}

rt_uint32_t d1_rt_irq_count(int vector)
{
    if (vector < 1 || vector > (int)D1_PLIC_NSOURCES)
    {
        return 0u;
    }
    return d1_irqs[vector].count;
}

#ifdef RT_USING_FINSH
#include <finsh.h>

static int d1irq(int argc, char **argv)
{
    unsigned v;

    (void)argc;
    (void)argv;
    rt_kprintf("plic: init %d, dispatched %u, spurious %u, unhandled %u, foreign %u, "
               "bad vector %u, replaced %u, rejected completes %u\n",
               (int)d1_plic_init_err, (unsigned)d1_plic_stat.dispatched,
               (unsigned)d1_plic_stat.spurious, (unsigned)d1_plic_stat.unhandled,
               (unsigned)d1_plic_stat.foreign, (unsigned)d1_irq_bad_vector,
               (unsigned)d1_irq_replaced, (unsigned)d1_plic_dev.rejected);
    for (v = 1u; v <= D1_PLIC_NSOURCES; v++)
    {
        if (d1_irqs[v].handler != RT_NULL)
        {
            rt_kprintf("  %3u %-12s %u\n", v, d1_irqs[v].name != RT_NULL ? d1_irqs[v].name : "?",
                       (unsigned)d1_irqs[v].count);
        }
    }
    return 0;
}
MSH_CMD_EXPORT(d1irq, d1drivers PLIC counters and handlers);
#endif /* RT_USING_FINSH */

#endif /* BSP_USING_D1_PLIC */
