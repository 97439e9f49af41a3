/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i) Clock Control Unit
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * A register file at 0x02001000 (size 0x1000, Linux sun20i-d1.dtsi ccu
 * node) holding every register the SVD (d1_unofficial.svd, peripheral
 * CCU; d1drivers tests/svd/d1_svd_table.csv) lists, with the
 * SVD's reset values: it gives none per register, so its device default
 * 0x00000000 applies to all of them.  Offsets the SVD does not list read
 * as zero, ignore writes and are logged as guest errors.
 *
 * Behaviour modelled (d1drivers docs/hardware-facts.md "CCU",
 * from Linux ccu-sun20i-d1.c and U-Boot):
 *   - PLLs: bit31 EN, bit30 LDO_EN, bit29 LOCK_EN, bit28 LOCK (read only),
 *     bit27 output gate.  LOCK reads 1 once EN and LOCK_EN have been set
 *     for "pll-lock-us" microseconds (the lock time is not documented;
 *     U-Boot polls LOCK and then waits ~20 us: 20 us is the default).
 *     The UARTs' clocks follow the lock when it happens, not only at the
 *     next CCU access.
 *   - APB1 (0x524): M [4:0], P [9:8] (/2^P), mux [25:24] 0 OSC24M,
 *     1 LOSC, 2 PSI, 3 PERI0 1X; it feeds the UARTs.
 *   - PSI_AHB (0x510): M [1:0], N [9:8] (/2^N), mux [25:24] OSC24M, LOSC,
 *     IOSC, PERI0 1X.
 *   - PLL_PERI0 (0x020): N [15:8] (N = field + 1), M bit1, P0 [18:16];
 *     4X = 24 MHz * N / (M + 1), 2X = 4X / (P0 + 1), 1X = 2X / 2;
 *     no output (0 Hz) unless enabled, locked and its output gate on.
 *   - UART_BGR (0x90C): gate bit n, reset bit 16 + n (1 = de-asserted)
 *     for UART0..5.  Each UART's bus clock output is the APB1 rate while
 *     its gate is on and its reset de-asserted, and 0 otherwise (the UART
 *     model then reads 0 and ignores writes); its reset line is high while
 *     the reset bit is 0.
 * IOSC, the internal RC oscillator, is not in the reference: taken as
 * 16 MHz (marked, easy to change).
 *
 * "boot-state" (default on) starts the CCU as the D1's boot ROM and boot0
 * or U-Boot leave it when they hand over to OpenSBI, so that an image that
 * runs from OpenSBI finds what it finds on the board: PLL_PERI0 =
 * 0xE8216300 (docs/hardware-facts.md, the value U-Boot expects: N = 100,
 * P0 = 1, P1 = 2), APB1 on OSC24M (U-Boot clock_init_uart: 0, the reset
 * value) and UART0's gate on and reset de-asserted (U-Boot sets the gate,
 * then de-asserts the reset), and the core on PLL_CPU at 1008 MHz with
 * AXI /2 (PLL_CPU = 0xE8002900, RISCV_CLK = 0x05000100; see the reset
 * function).  With it off every register is the SVD's 0.
 *
 * The core's clock: a write (to a PLL or RISCV_CLK) that leaves RISCV_CLK
 * on a PLL that is not enabled, locked and gated is logged as a guest
 * error ("core clock from PLL_CPU, which is not locked, ..."): on the
 * board the core would run from a clock that is changing or absent.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/irq.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/misc/allwinner-d1-ccu.h"
#include "migration/vmstate.h"

#define OSC24M_HZ       24000000u
#define LOSC_HZ         32768u
#define IOSC_HZ         16000000u   /* assumption, see above */

#define REG_PLL_CPU     0x000
#define REG_PLL_PERI0   0x020
#define REG_PSI_AHB     0x510
#define REG_APB1        0x524
#define REG_UART_BGR    0x90c
#define REG_RISCV_CLK   0xd00

#define PLL_EN          BIT(31)
#define PLL_LOCK_EN     BIT(29)
#define PLL_LOCK        BIT(28)
#define PLL_OUT_GATE    BIT(27)

/* Registers of the SVD's CCU peripheral (offsets only). */
static const uint16_t aw_d1_ccu_svd_regs[] = {
    0x000, 0x010, 0x020, 0x040, 0x048, 0x058, 0x078, 0x080,
    0x110, 0x114, 0x120, 0x124, 0x140, 0x144, 0x148, 0x14c,
    0x158, 0x15c, 0x178, 0x17c, 0x180, 0x184,
    0x300, 0x310, 0x320, 0x340, 0x348, 0x358, 0x378, 0x380, 0x400,
    0x500, 0x504, 0x510, 0x520, 0x524, 0x540,
    0x600, 0x60c, 0x620, 0x62c, 0x630, 0x63c, 0x680, 0x68c, 0x690, 0x69c,
    0x70c, 0x71c, 0x72c, 0x73c, 0x740, 0x78c, 0x7ac, 0x7bc,
    0x800, 0x804, 0x80c, 0x830, 0x834, 0x838, 0x84c,
    0x90c, 0x91c, 0x940, 0x944, 0x96c, 0x970, 0x97c, 0x9c0, 0x9cc,
    0x9ec, 0x9fc,
    0xa10, 0xa14, 0xa18, 0xa1c, 0xa20, 0xa24, 0xa28, 0xa2c, 0xa40, 0xa4c,
    0xa50, 0xa54, 0xa5c, 0xa70, 0xa74, 0xa8c, 0xa9c, 0xabc,
    0xb24, 0xb4c, 0xb60, 0xb7c, 0xb80, 0xb9c, 0xbac, 0xbb0, 0xbbc,
    0xbc0, 0xbdc, 0xbf0, 0xbfc,
    0xc04, 0xc08, 0xc1c, 0xc50, 0xc5c, 0xc70, 0xc7c,
    0xd00, 0xd04, 0xd0c,
    0xf04, 0xf08, 0xf0c, 0xf10, 0xf30, 0xf34, 0xf38, 0xf3c,
};

/* The PLL control registers (SVD pll_*_ctrl). */
static const uint16_t aw_d1_ccu_plls[] = {
    0x000, 0x010, 0x020, 0x040, 0x048, 0x058, 0x078, 0x080,
};

static bool ccu_is_svd_reg(hwaddr offset)
{
    int i;

    for (i = 0; i < ARRAY_SIZE(aw_d1_ccu_svd_regs); i++) {
        if (aw_d1_ccu_svd_regs[i] == offset) {
            return true;
        }
    }
    return false;
}

static bool ccu_is_pll(hwaddr offset)
{
    int i;

    for (i = 0; i < ARRAY_SIZE(aw_d1_ccu_plls); i++) {
        if (aw_d1_ccu_plls[i] == offset) {
            return true;
        }
    }
    return false;
}

static bool ccu_pll_locked(AwD1CcuState *s, hwaddr offset)
{
    uint32_t v = s->regs[offset / 4];

    if ((v & (PLL_EN | PLL_LOCK_EN)) != (PLL_EN | PLL_LOCK_EN)) {
        return false;
    }
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->pll_enabled_ns[offset / 4]
           >= (int64_t)s->pll_lock_us * SCALE_US;
}

/* PERI0 1X in Hz (0 while the PLL is off, unlocked or its output gated). */
static uint64_t ccu_peri0_1x_hz(AwD1CcuState *s)
{
    uint32_t v = s->regs[REG_PLL_PERI0 / 4];
    uint64_t n = ((v >> 8) & 0xff) + 1;
    uint64_t m = ((v >> 1) & 1) + 1;
    uint64_t p0 = ((v >> 16) & 7) + 1;

    if (!ccu_pll_locked(s, REG_PLL_PERI0) || !(v & PLL_OUT_GATE)) {
        return 0;
    }
    return OSC24M_HZ * n / m / p0 / 2;
}

static uint64_t ccu_psi_hz(AwD1CcuState *s)
{
    uint32_t v = s->regs[REG_PSI_AHB / 4];
    uint64_t src;

    switch ((v >> 24) & 3) {
    case 0:
        src = OSC24M_HZ;
        break;
    case 1:
        src = LOSC_HZ;
        break;
    case 2:
        src = IOSC_HZ;
        break;
    default:
        src = ccu_peri0_1x_hz(s);
        break;
    }
    return src / ((v & 3) + 1) >> ((v >> 8) & 3);
}

static uint64_t ccu_apb1_hz(AwD1CcuState *s)
{
    uint32_t v = s->regs[REG_APB1 / 4];
    uint64_t src;

    switch ((v >> 24) & 3) {
    case 0:
        src = OSC24M_HZ;
        break;
    case 1:
        src = LOSC_HZ;
        break;
    case 2:
        src = ccu_psi_hz(s);
        break;
    default:
        src = ccu_peri0_1x_hz(s);
        break;
    }
    return src / ((v & 0x1f) + 1) >> ((v >> 8) & 3);
}

/*
 * The core's clock (RISCV_CLK mux [26:24]: 3 PERI0 800M, 4 PERI0 1X,
 * 5 PLL_CPU) must come from a PLL that is enabled, locked and gated: a
 * write that leaves it otherwise is logged, and counted.
 */
static void ccu_check_core(AwD1CcuState *s, hwaddr written)
{
    uint32_t mux = (s->regs[REG_RISCV_CLK / 4] >> 24) & 7;
    hwaddr pll;
    uint32_t v;
    const char *why;

    if (mux < 3 || mux > 5) {
        return;
    }
    pll = mux == 5 ? REG_PLL_CPU : REG_PLL_PERI0;
    v = s->regs[pll / 4];
    if (!(v & PLL_EN)) {
        why = "disabled";
    } else if (!ccu_pll_locked(s, pll)) {
        why = "not locked";
    } else if (!(v & PLL_OUT_GATE)) {
        why = "output gated off";
    } else {
        return;
    }
    s->core_violations++;
    qemu_log_mask(LOG_GUEST_ERROR,
                  "allwinner-d1-ccu: core clock from %s, which is %s, after a "
                  "write to 0x%03" HWADDR_PRIx "\n",
                  mux == 5 ? "PLL_CPU" : "PLL_PERI0", why, written);
}

static void ccu_update_uarts(AwD1CcuState *s)
{
    uint32_t bgr = s->regs[REG_UART_BGR / 4];
    uint64_t apb1 = ccu_apb1_hz(s);
    int i;

    for (i = 0; i < AW_D1_CCU_NUM_UARTS; i++) {
        bool gate = bgr & BIT(i);
        bool out_of_reset = bgr & BIT(16 + i);

        qemu_set_irq(s->uart_reset[i], !out_of_reset);
        clock_update_hz(s->uart_clk[i], gate && out_of_reset ? apb1 : 0);
    }
}

static uint64_t aw_d1_ccu_read(void *opaque, hwaddr offset, unsigned size)
{
    AwD1CcuState *s = opaque;
    uint32_t v;

    if (!ccu_is_svd_reg(offset)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "allwinner-d1-ccu: read of unknown offset 0x%"
                      HWADDR_PRIx "\n", offset);
        return 0;
    }
    v = s->regs[offset / 4];
    if (ccu_is_pll(offset)) {
        v &= ~PLL_LOCK;
        if (ccu_pll_locked(s, offset)) {
            v |= PLL_LOCK;
        }
    }
    return v;
}

static void aw_d1_ccu_write(void *opaque, hwaddr offset, uint64_t value,
                            unsigned size)
{
    AwD1CcuState *s = opaque;
    uint32_t old;

    if (!ccu_is_svd_reg(offset)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "allwinner-d1-ccu: write of unknown offset 0x%"
                      HWADDR_PRIx "\n", offset);
        return;
    }
    old = s->regs[offset / 4];
    if (ccu_is_pll(offset)) {
        value &= ~PLL_LOCK;
        /* The lock time runs from EN and LOCK_EN both set. */
        if ((value & (PLL_EN | PLL_LOCK_EN)) == (PLL_EN | PLL_LOCK_EN) &&
            ((old & (PLL_EN | PLL_LOCK_EN)) != (PLL_EN | PLL_LOCK_EN) ||
             (value & 0xffff) != (old & 0xffff))) {
            s->pll_enabled_ns[offset / 4] =
                qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        }
    }
    s->regs[offset / 4] = value;
    ccu_update_uarts(s);
    if (ccu_is_pll(offset) || offset == REG_RISCV_CLK) {
        ccu_check_core(s, offset);
    }
    if (offset == REG_PLL_PERI0 && !ccu_pll_locked(s, offset) &&
        (value & (PLL_EN | PLL_LOCK_EN)) == (PLL_EN | PLL_LOCK_EN)) {
        /* PERI0 feeds APB1 (mux 3, or 2 through PSI): clock at the lock */
        timer_mod(&s->lock_timer, s->pll_enabled_ns[offset / 4] +
                                  (int64_t)s->pll_lock_us * SCALE_US);
    }
}

static void aw_d1_ccu_lock_done(void *opaque)
{
    ccu_update_uarts(opaque);
}

static const MemoryRegionOps aw_d1_ccu_ops = {
    .read = aw_d1_ccu_read,
    .write = aw_d1_ccu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl.min_access_size = 4,
};

static void aw_d1_ccu_reset(DeviceState *dev)
{
    AwD1CcuState *s = ALLWINNER_D1_CCU(dev);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    timer_del(&s->lock_timer);
    memset(s->regs, 0, sizeof(s->regs));
    memset(s->pll_enabled_ns, 0, sizeof(s->pll_enabled_ns));
    if (s->boot_state) {
        s->regs[REG_PLL_PERI0 / 4] = 0xe8216300;
        s->pll_enabled_ns[REG_PLL_PERI0 / 4] =
            now - (int64_t)s->pll_lock_us * SCALE_US;
        s->regs[REG_UART_BGR / 4] = BIT(16) | BIT(0);
        /*
         * The core at the D1's top operating point, 1008 MHz (Linux
         * sun20i-d1.dtsi opp-hz), from PLL_CPU (N = 42: EN, LDO, LOCK_EN,
         * output gate) with AXI at /2.  What boot0 writes is not in the
         * reference: chosen so that the core runs from PLL_CPU, as it does
         * at ~1 GHz on the board.
         */
        s->regs[REG_PLL_CPU / 4] = 0xe8002900;
        s->pll_enabled_ns[REG_PLL_CPU / 4] =
            now - (int64_t)s->pll_lock_us * SCALE_US;
        s->regs[REG_RISCV_CLK / 4] = (5u << 24) | (1u << 8);
    }
    ccu_update_uarts(s);
}

static void aw_d1_ccu_init(Object *obj)
{
    AwD1CcuState *s = ALLWINNER_D1_CCU(obj);
    SysBusDevice *sbd = SYS_BUS_DEVICE(obj);
    int i;

    memory_region_init_io(&s->iomem, obj, &aw_d1_ccu_ops, s,
                          TYPE_ALLWINNER_D1_CCU, AW_D1_CCU_MMIO_SIZE);
    sysbus_init_mmio(sbd, &s->iomem);
    for (i = 0; i < AW_D1_CCU_NUM_UARTS; i++) {
        g_autofree char *name = g_strdup_printf("uart%d-clk", i);

        s->uart_clk[i] = qdev_init_clock_out(DEVICE(obj), name);
    }
    qdev_init_gpio_out_named(DEVICE(obj), s->uart_reset, "uart-reset",
                             AW_D1_CCU_NUM_UARTS);
    timer_init_ns(&s->lock_timer, QEMU_CLOCK_VIRTUAL, aw_d1_ccu_lock_done, s);
}

static Property aw_d1_ccu_properties[] = {
    DEFINE_PROP_BOOL("boot-state", AwD1CcuState, boot_state, true),
    DEFINE_PROP_UINT32("pll-lock-us", AwD1CcuState, pll_lock_us, 20),
    DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription vmstate_aw_d1_ccu = {
    .name = "allwinner-d1-ccu",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, AwD1CcuState, AW_D1_CCU_MMIO_SIZE / 4),
        VMSTATE_INT64_ARRAY(pll_enabled_ns, AwD1CcuState,
                            AW_D1_CCU_MMIO_SIZE / 4),
        VMSTATE_TIMER(lock_timer, AwD1CcuState),
        VMSTATE_END_OF_LIST()
    }
};

static void aw_d1_ccu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = aw_d1_ccu_reset;
    dc->vmsd = &vmstate_aw_d1_ccu;
    device_class_set_props(dc, aw_d1_ccu_properties);
    dc->desc = "Allwinner D1 Clock Control Unit";
}

static const TypeInfo aw_d1_ccu_info = {
    .name = TYPE_ALLWINNER_D1_CCU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(AwD1CcuState),
    .instance_init = aw_d1_ccu_init,
    .class_init = aw_d1_ccu_class_init,
};

static void aw_d1_ccu_register(void)
{
    type_register_static(&aw_d1_ccu_info);
}

type_init(aw_d1_ccu_register)
