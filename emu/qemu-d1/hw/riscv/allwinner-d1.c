/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Allwinner D1 (sun20i, XuanTie C906) machine
 *
 * Copyright (c) 2026 The d1drivers authors
 *
 * One hart, DRAM at 0x40000000, the C906's CLINT and PLIC, and the D1's
 * Timer block, watchdogs, UARTs, CCU and the RTC's general-purpose
 * registers; every other block of the D1's memory map is an unimplemented
 * device (-d unimp shows the accesses).
 * Addresses and interrupt numbers: d1drivers
 * d1drivers docs/hardware-facts.md "Memory map and interrupts" (Linux
 * sun20i-d1s.dtsi / sunxi-d1s-t113.dtsi, NuttX allwinner_d1_memorymap.h,
 * OpenSBI sun20i-d1.c, openC906 RTL) and the SVD d1_unofficial.svd
 * (peripheral base addresses and address-block sizes).
 *
 * Boot as on the board: the reset vector in a stand-in for the boot ROM
 * jumps to the firmware at 0x40000000 in M-mode: by default Debian's
 * OpenSBI generic fw_dynamic (package opensbi), or -bios FILE.  It finds
 * the -kernel payload through struct fw_dynamic_info and starts it in
 * S-mode at its ELF entry, or, for a raw image, at the firmware's end
 * rounded up to 2 MiB (0x40200000).  With -bios none the -kernel image
 * itself runs in M-mode from its entry (0x40000000 for a raw image).
 *
 * The hart is QEMU 7.2's generic rv64 CPU with the C906 extensions of
 * patches/0003 switched on (xthead: XTheadCmo/XTheadSync, mxstatus, mhcr,
 * mcor, mhint, sxstatus, MAEE page attributes); docs/emulator.md lists
 * what else of the C906 is missing and who uses it.
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/datadir.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/char/dw-apb-uart.h"
#include "hw/core/cpu.h"
#include "hw/intc/riscv_aclint.h"
#include "hw/intc/thead-c900-plic.h"
#include "hw/loader.h"
#include "hw/misc/sifive_test.h"
#include "hw/misc/unimp.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/allwinner-d1.h"
#include "hw/riscv/boot.h"
#include "hw/riscv/riscv_hart.h"
#include "hw/rtc/allwinner-d1-rtc-gpr.h"
#include "elf.h"
#include "sysemu/cpu-timers.h"
#include "sysemu/device_tree.h"
#include "sysemu/qtest.h"
#include "sysemu/reset.h"
#include "sysemu/sysemu.h"
#include "target/riscv/cpu.h"

#include <libfdt.h>

/* Debian's opensbi package */
#define AW_D1_DEFAULT_FIRMWARE \
    "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.elf"

#define AW_D1_TIMEBASE_HZ   24000000    /* time CSR = OSC24M */
#define AW_D1_UART_CLK_HZ   24000000

/* D1 PLIC: sources 1..175 (riscv,ndev = 175), plus sifive_plic's spare */
#define AW_D1_PLIC_NDEV     175
#define AW_D1_PLIC_SOURCES  (AW_D1_PLIC_NDEV + 2)

enum {
    AW_D1_BROM,
    AW_D1_TEST,
    AW_D1_CCU,
    AW_D1_TIMER,
    AW_D1_TIMER_WDT,
    AW_D1_UART0,
    AW_D1_RISCV_WDT,
    AW_D1_R_WDOG,
    AW_D1_RTC_GPR,
    AW_D1_PLIC,
    AW_D1_CLINT,
    AW_D1_DRAM,
};

static const MemMapEntry aw_d1_memmap[] = {
    [AW_D1_BROM]      = { 0x00000000,     0x10000 },
    [AW_D1_TEST]      = { 0x00100000,      0x1000 },  /* QEMU only */
    [AW_D1_CCU]       = { 0x02001000,      0x1000 },
    [AW_D1_TIMER]     = { 0x02050000,        0xa0 },
    [AW_D1_TIMER_WDT] = { 0x020500a0,        0x20 },
    [AW_D1_UART0]     = { 0x02500000,       0x400 },
    [AW_D1_RISCV_WDT] = { 0x06011000,        0x20 },
    [AW_D1_R_WDOG]    = { 0x07020400,        0x20 },
    [AW_D1_RTC_GPR]   = { 0x07090100,        0x20 },  /* RTC gp_data0..7 */
    [AW_D1_PLIC]      = { 0x10000000,   0x4000000 },
    [AW_D1_CLINT]     = { 0x14000000,     0x10000 },
    [AW_D1_DRAM]      = { 0x40000000,           0 },
};

/* PLIC source ids (hardware-facts.md: dtsi SOC_PERIPHERAL_IRQ(n) = n + 16) */
#define AW_D1_IRQ_UART0     18
#define AW_D1_IRQ_TIMER0    75
#define AW_D1_IRQ_TIMER1    76
#define AW_D1_IRQ_TIMER_WDT 79
#define AW_D1_IRQ_RISCV_WDT 147

#define AW_D1_DRAM_MAX      (2 * GiB)   /* 0x40000000 .. 0xbfffffff */

/*
 * Blocks not modelled: SVD peripheral base addresses and address-block
 * sizes, plus RISCV_CFG's neighbours and the R_ domain from the sources
 * named in the header.  An unimplemented device has the lowest priority,
 * so a modelled device inside one of these ranges wins.
 */
static const struct {
    const char *name;
    hwaddr base;
    hwaddr size;
} aw_d1_unimp[] = {
    { "dsp-msgbox",     0x01701000,     0x1000 },
    { "gpio",           0x02000000,      0x800 },
    { "pwm",            0x02000c00,      0x400 },
    { "ccu-rest",       0x02002000,      0x1000 },
    { "cir-tx",         0x02003000,      0x400 },
    { "ledc",           0x02008000,      0x400 },
    { "gpadc",          0x02009000,      0x400 },
    { "ths",            0x02009400,      0x400 },
    { "lradc",          0x02009800,      0x400 },
    { "tpadc",          0x02009c00,      0x400 },
    { "iommu",          0x02010000,    0x10000 },
    { "audio-codec",    0x02030000,     0x1000 },
    { "dmic",           0x02031000,      0x400 },
    { "i2s-pcm",        0x02032000,     0x3000 },
    { "owa",            0x02036000,      0x400 },
    { "timer-avs",      0x020500c0,      0xf40 },
    { "twi",            0x02502000,     0x1000 },
    { "sys-cfg",        0x03000000,     0x1000 },
    { "dmac",           0x03002000,     0x1000 },
    { "spinlock",       0x03005000,     0x1000 },
    { "hs-timer",       0x03008000,     0x1000 },
    { "ce-ns",          0x03040000,      0x800 },
    { "smhc",           0x04020000,     0x3000 },
    { "spi0",           0x04025000,     0x1000 },
    { "spi-dbi",        0x04026000,     0x1000 },
    { "usb0",           0x04100000,   0x100000 },
    { "usb1",           0x04200000,   0x100000 },
    { "emac",           0x04500000,    0x10000 },
    { "tcon-lcd0",      0x05461000,     0x1000 },
    { "tcon-tv0",       0x05470000,     0x1000 },
    { "tve-top",        0x05600000,     0x4000 },
    { "tve",            0x05604000,     0x4000 },
    { "csic",           0x05800000,   0x400000 },
    { "tvd-top",        0x05c00000,     0x1000 },
    { "tvd0",           0x05c01000,     0x1000 },
    { "riscv-cfg",      0x06010000,     0x1000 },
    { "riscv-wdt-rest", 0x06011020,      0xfe0 },
    { "rv-msgbox",      0x0601f000,     0x1000 },
    { "r-prcm",         0x07010000,     0x1000 },
    { "r-wdog-rest",    0x07020000,      0x400 },
    { "cir-rx",         0x07040000,      0x400 },
    { "rtc",            0x07090000,     0x1000 },
    /* C906 CLINT: SSIP at 0xC000, STIMECMP at 0xD000 (hardware-facts.md) */
    { "clint-s-mode",   0x1400c000,     0x4000 },
};

/* include/dt-bindings/{clock,reset}/sun20i-d1-ccu.h in Linux */
#define AW_D1_CLK_BUS_UART0 62
#define AW_D1_RST_BUS_UART0 18

/* The RTC's clock outputs as Linux's sun6i-rtc numbers them: not modelled */
#define AW_D1_OSC32K_HZ     32768
#define AW_D1_IOSC_HZ       16000000    /* internal RC, nominal */

static void aw_d1_fdt_uart(AwD1MachineState *s, int n, uint32_t plic_ph,
                           uint32_t ccu_ph)
{
    hwaddr base = aw_d1_memmap[AW_D1_UART0].base + 0x400 * n;
    g_autofree char *name = g_strdup_printf("/soc/serial@%" HWADDR_PRIx,
                                            base);
    void *fdt = s->fdt;

    qemu_fdt_add_subnode(fdt, name);
    qemu_fdt_setprop_string(fdt, name, "compatible", "snps,dw-apb-uart");
    qemu_fdt_setprop_cells(fdt, name, "reg", base, 0x400);
    qemu_fdt_setprop_cells(fdt, name, "interrupts", AW_D1_IRQ_UART0 + n, 4);
    qemu_fdt_setprop_cell(fdt, name, "interrupt-parent", plic_ph);
    qemu_fdt_setprop_cell(fdt, name, "reg-shift", 2);
    qemu_fdt_setprop_cell(fdt, name, "reg-io-width", 4);
    /*
     * As Linux's sunxi-d1s-t113.dtsi: the bus clock gate and reset in the
     * CCU (without them Linux's CCU driver gates UART0 at "clk: Disabling
     * unused clocks").  clock-frequency is kept for clients that read no
     * clocks (OpenSBI, U-Boot's ns16550); 8250_dw takes the clock's rate.
     */
    qemu_fdt_setprop_cells(fdt, name, "clocks", ccu_ph,
                           AW_D1_CLK_BUS_UART0 + n);
    qemu_fdt_setprop_cells(fdt, name, "resets", ccu_ph,
                           AW_D1_RST_BUS_UART0 + n);
    qemu_fdt_setprop_cell(fdt, name, "clock-frequency", AW_D1_UART_CLK_HZ);
    qemu_fdt_setprop_string(fdt, name, "status", n == 0 ? "okay" : "disabled");
    if (n == 0) {
        qemu_fdt_setprop_string(fdt, "/aliases", "serial0", name);
        qemu_fdt_setprop_string(fdt, "/chosen", "stdout-path", name);
    }
}

static void aw_d1_fdt_wdt(void *fdt, hwaddr base, const char *compat,
                          size_t compat_len, int irq, uint32_t plic_ph,
                          uint32_t hosc_ph, uint32_t losc_ph,
                          const char *status)
{
    g_autofree char *name = g_strdup_printf("/soc/watchdog@%" HWADDR_PRIx,
                                            base);
    static const char clock_names[] = "hclk\0losc";

    qemu_fdt_add_subnode(fdt, name);
    qemu_fdt_setprop(fdt, name, "compatible", compat, compat_len);
    qemu_fdt_setprop_cells(fdt, name, "reg", base, 0x20);
    if (irq) {
        qemu_fdt_setprop_cells(fdt, name, "interrupts", irq, 4);
        qemu_fdt_setprop_cell(fdt, name, "interrupt-parent", plic_ph);
    }
    qemu_fdt_setprop_cells(fdt, name, "clocks", hosc_ph, losc_ph);
    qemu_fdt_setprop(fdt, name, "clock-names", clock_names,
                     sizeof(clock_names));
    qemu_fdt_setprop_string(fdt, name, "status", status);
}

/* A fixed-rate oscillator at the root, as Linux's D1 device trees have */
static uint32_t aw_d1_fdt_osc(void *fdt, const char *node, const char *out,
                              uint32_t hz)
{
    g_autofree char *name = g_strdup_printf("/%s", node);
    uint32_t ph = qemu_fdt_alloc_phandle(fdt);

    qemu_fdt_add_subnode(fdt, name);
    qemu_fdt_setprop_string(fdt, name, "compatible", "fixed-clock");
    qemu_fdt_setprop_cell(fdt, name, "#clock-cells", 0);
    qemu_fdt_setprop_cell(fdt, name, "clock-frequency", hz);
    qemu_fdt_setprop_string(fdt, name, "clock-output-names", out);
    qemu_fdt_setprop_cell(fdt, name, "phandle", ph);
    return ph;
}

static void aw_d1_create_fdt(AwD1MachineState *s)
{
    MachineState *ms = MACHINE(s);
    uint32_t intc_ph, plic_ph, ccu_ph, hosc_ph, losc_ph, iosc_ph;
    void *fdt;
    static const char ccu_clock_names[] = "hosc\0losc\0iosc";
    int n;
    static const char root_compat[] = "allwinner,sun20i-d1";
    static const char cpu_compat[] = "thead,c906\0riscv";
    static const char clint_compat[] = "sifive,clint0\0riscv,clint0";
    static const char plic_compat[] =
        "allwinner,sun20i-d1-plic\0thead,c900-plic";
    static const char timer_compat[] =
        "allwinner,sun20i-d1-timer\0allwinner,sun8i-a23-timer";
    static const char wdt_reset_compat[] =
        "allwinner,sun20i-d1-wdt-reset\0allwinner,sun20i-d1-wdt";
    static const char wdt_compat[] = "allwinner,sun20i-d1-wdt";
    hwaddr b;

    fdt = s->fdt = create_device_tree(&s->fdt_size);
    if (!fdt) {
        error_report("allwinner-d1: create_device_tree() failed");
        exit(1);
    }
    qemu_fdt_setprop_string(fdt, "/", "model",
                            "Allwinner D1 (QEMU allwinner-d1 machine)");
    qemu_fdt_setprop(fdt, "/", "compatible", root_compat,
                     sizeof(root_compat));
    qemu_fdt_setprop_cell(fdt, "/", "#size-cells", 2);
    qemu_fdt_setprop_cell(fdt, "/", "#address-cells", 2);
    qemu_fdt_add_subnode(fdt, "/chosen");
    qemu_fdt_add_subnode(fdt, "/aliases");
    if (ms->kernel_cmdline && *ms->kernel_cmdline) {
        qemu_fdt_setprop_string(fdt, "/chosen", "bootargs",
                                ms->kernel_cmdline);
    }

    b = aw_d1_memmap[AW_D1_DRAM].base;
    qemu_fdt_add_subnode(fdt, "/memory@40000000");
    qemu_fdt_setprop_string(fdt, "/memory@40000000", "device_type", "memory");
    qemu_fdt_setprop_cells(fdt, "/memory@40000000", "reg", 0, b,
                           ms->ram_size >> 32, ms->ram_size);

    intc_ph = qemu_fdt_alloc_phandle(fdt);
    plic_ph = qemu_fdt_alloc_phandle(fdt);
    qemu_fdt_add_subnode(fdt, "/cpus");
    qemu_fdt_setprop_cell(fdt, "/cpus", "timebase-frequency",
                          AW_D1_TIMEBASE_HZ);
    qemu_fdt_setprop_cell(fdt, "/cpus", "#size-cells", 0);
    qemu_fdt_setprop_cell(fdt, "/cpus", "#address-cells", 1);
    qemu_fdt_add_subnode(fdt, "/cpus/cpu@0");
    qemu_fdt_setprop_string(fdt, "/cpus/cpu@0", "device_type", "cpu");
    qemu_fdt_setprop(fdt, "/cpus/cpu@0", "compatible", cpu_compat,
                     sizeof(cpu_compat));
    qemu_fdt_setprop_cell(fdt, "/cpus/cpu@0", "reg", 0);
    qemu_fdt_setprop_string(fdt, "/cpus/cpu@0", "riscv,isa", "rv64imafdc");
    qemu_fdt_setprop_string(fdt, "/cpus/cpu@0", "mmu-type", "riscv,sv39");
    qemu_fdt_setprop_string(fdt, "/cpus/cpu@0", "status", "okay");
    qemu_fdt_add_subnode(fdt, "/cpus/cpu@0/interrupt-controller");
    qemu_fdt_setprop_string(fdt, "/cpus/cpu@0/interrupt-controller",
                            "compatible", "riscv,cpu-intc");
    qemu_fdt_setprop(fdt, "/cpus/cpu@0/interrupt-controller",
                     "interrupt-controller", NULL, 0);
    qemu_fdt_setprop_cell(fdt, "/cpus/cpu@0/interrupt-controller",
                          "#interrupt-cells", 1);
    qemu_fdt_setprop_cell(fdt, "/cpus/cpu@0/interrupt-controller",
                          "phandle", intc_ph);

    /*
     * The oscillators: DCXO 24 MHz, and the RTC's 32 kHz and internal RC
     * outputs.  The RTC is not modelled (only its general-purpose
     * registers are), so its outputs are fixed clocks here where Linux's
     * device tree has <&rtc CLK_OSC32K> and <&rtc CLK_IOSC>.
     */
    hosc_ph = aw_d1_fdt_osc(fdt, "dcxo-clk", "dcxo", AW_D1_TIMEBASE_HZ);
    losc_ph = aw_d1_fdt_osc(fdt, "osc32k-clk", "osc32k", AW_D1_OSC32K_HZ);
    iosc_ph = aw_d1_fdt_osc(fdt, "iosc-clk", "iosc", AW_D1_IOSC_HZ);

    qemu_fdt_add_subnode(fdt, "/soc");
    qemu_fdt_setprop_string(fdt, "/soc", "compatible", "simple-bus");
    qemu_fdt_setprop(fdt, "/soc", "ranges", NULL, 0);
    qemu_fdt_setprop_cell(fdt, "/soc", "#size-cells", 1);
    qemu_fdt_setprop_cell(fdt, "/soc", "#address-cells", 1);

    /*
     * The D1 device trees describe no CLINT, so on the board OpenSBI has
     * no timer device ("Platform Timer Device : --- @ 0Hz"), still
     * advertises the TIME extension, and SBI set_timer never interrupts
     * (d1drivers docs/hardware-facts.md "CLINT"; OpenSBI issue 292).  As there,
     * by default.  sbi-timer=on describes it as OpenSBI 1.1's timer and
     * IPI drivers know it (riscv,clint0 / sifive,clint0; it knows
     * thead,c900-clint only from 1.2): the C906's M-mode part has the
     * SiFive layout.
     */
    if (s->sbi_timer) {
        qemu_fdt_add_subnode(fdt, "/soc/clint@14000000");
        qemu_fdt_setprop(fdt, "/soc/clint@14000000", "compatible",
                         clint_compat, sizeof(clint_compat));
        qemu_fdt_setprop_cells(fdt, "/soc/clint@14000000", "reg",
                               aw_d1_memmap[AW_D1_CLINT].base,
                               aw_d1_memmap[AW_D1_CLINT].size);
        qemu_fdt_setprop_cells(fdt, "/soc/clint@14000000",
                               "interrupts-extended",
                               intc_ph, IRQ_M_SOFT, intc_ph, IRQ_M_TIMER);
    }

    qemu_fdt_add_subnode(fdt, "/soc/interrupt-controller@10000000");
    qemu_fdt_setprop(fdt, "/soc/interrupt-controller@10000000", "compatible",
                     plic_compat, sizeof(plic_compat));
    qemu_fdt_setprop_cells(fdt, "/soc/interrupt-controller@10000000", "reg",
                           aw_d1_memmap[AW_D1_PLIC].base,
                           aw_d1_memmap[AW_D1_PLIC].size);
    qemu_fdt_setprop_cells(fdt, "/soc/interrupt-controller@10000000",
                           "interrupts-extended",
                           intc_ph, IRQ_M_EXT, intc_ph, IRQ_S_EXT);
    qemu_fdt_setprop(fdt, "/soc/interrupt-controller@10000000",
                     "interrupt-controller", NULL, 0);
    qemu_fdt_setprop_cell(fdt, "/soc/interrupt-controller@10000000",
                          "#interrupt-cells", 2);
    qemu_fdt_setprop_cell(fdt, "/soc/interrupt-controller@10000000",
                          "#address-cells", 0);
    qemu_fdt_setprop_cell(fdt, "/soc/interrupt-controller@10000000",
                          "riscv,ndev", AW_D1_PLIC_NDEV);
    qemu_fdt_setprop_cell(fdt, "/soc/interrupt-controller@10000000",
                          "phandle", plic_ph);

    ccu_ph = qemu_fdt_alloc_phandle(fdt);
    qemu_fdt_add_subnode(fdt, "/soc/clock-controller@2001000");
    qemu_fdt_setprop_string(fdt, "/soc/clock-controller@2001000",
                            "compatible", "allwinner,sun20i-d1-ccu");
    qemu_fdt_setprop_cells(fdt, "/soc/clock-controller@2001000", "reg",
                           aw_d1_memmap[AW_D1_CCU].base,
                           aw_d1_memmap[AW_D1_CCU].size);
    qemu_fdt_setprop_cells(fdt, "/soc/clock-controller@2001000", "clocks",
                           hosc_ph, losc_ph, iosc_ph);
    qemu_fdt_setprop(fdt, "/soc/clock-controller@2001000", "clock-names",
                     ccu_clock_names, sizeof(ccu_clock_names));
    qemu_fdt_setprop_cell(fdt, "/soc/clock-controller@2001000",
                          "#clock-cells", 1);
    qemu_fdt_setprop_cell(fdt, "/soc/clock-controller@2001000",
                          "#reset-cells", 1);
    qemu_fdt_setprop_cell(fdt, "/soc/clock-controller@2001000", "phandle",
                          ccu_ph);

    qemu_fdt_add_subnode(fdt, "/soc/timer@2050000");
    qemu_fdt_setprop(fdt, "/soc/timer@2050000", "compatible", timer_compat,
                     sizeof(timer_compat));
    qemu_fdt_setprop_cells(fdt, "/soc/timer@2050000", "reg",
                           aw_d1_memmap[AW_D1_TIMER].base,
                           aw_d1_memmap[AW_D1_TIMER].size);
    qemu_fdt_setprop_cells(fdt, "/soc/timer@2050000", "interrupts",
                           AW_D1_IRQ_TIMER0, 4, AW_D1_IRQ_TIMER1, 4);
    qemu_fdt_setprop_cell(fdt, "/soc/timer@2050000", "interrupt-parent",
                          plic_ph);
    qemu_fdt_setprop_cell(fdt, "/soc/timer@2050000", "clocks", hosc_ph);

    /*
     * OpenSBI's system reset driver (fdt_reset_sunxi_wdt.c) uses the
     * timer block's watchdog; Linux's device tree marks it "reserved" for
     * the firmware, so Linux's sunxi_wdt drives riscv_wdt.  R_WDOG is in
     * no Linux device tree: described, disabled.
     */
    aw_d1_fdt_wdt(fdt, aw_d1_memmap[AW_D1_TIMER_WDT].base, wdt_reset_compat,
                  sizeof(wdt_reset_compat), AW_D1_IRQ_TIMER_WDT, plic_ph,
                  hosc_ph, losc_ph, "reserved");
    aw_d1_fdt_wdt(fdt, aw_d1_memmap[AW_D1_RISCV_WDT].base, wdt_compat,
                  sizeof(wdt_compat), AW_D1_IRQ_RISCV_WDT, plic_ph,
                  hosc_ph, losc_ph, "okay");
    aw_d1_fdt_wdt(fdt, aw_d1_memmap[AW_D1_R_WDOG].base, wdt_compat,
                  sizeof(wdt_compat), 0, plic_ph, hosc_ph, losc_ph,
                  "disabled");

    for (n = 0; n < AW_D1_NUM_UARTS; n++) {
        aw_d1_fdt_uart(s, n, plic_ph, ccu_ph);
    }

    if (s->test_finisher) {
        static const char test_compat[] = "sifive,test1\0sifive,test0";

        qemu_fdt_add_subnode(fdt, "/soc/test@100000");
        qemu_fdt_setprop(fdt, "/soc/test@100000", "compatible", test_compat,
                         sizeof(test_compat));
        qemu_fdt_setprop_cells(fdt, "/soc/test@100000", "reg",
                               aw_d1_memmap[AW_D1_TEST].base,
                               aw_d1_memmap[AW_D1_TEST].size);
    }
}

/*
 * -dtb FILE: the guest gets that device tree instead of the generated one
 * (e.g. the generated one, dumped with dumpdtb=, with a node's status
 * changed).  /chosen is created if missing and bootargs set from -append;
 * -initrd adds its properties later.
 */
static void aw_d1_load_dtb(AwD1MachineState *s, const char *file)
{
    MachineState *ms = MACHINE(s);

    s->fdt = load_device_tree(file, &s->fdt_size);
    if (!s->fdt) {
        error_report("allwinner-d1: could not load device tree '%s'", file);
        exit(1);
    }
    if (fdt_path_offset(s->fdt, "/chosen") < 0) {
        qemu_fdt_add_subnode(s->fdt, "/chosen");
    }
    if (ms->kernel_cmdline && *ms->kernel_cmdline) {
        qemu_fdt_setprop_string(s->fdt, "/chosen", "bootargs",
                                ms->kernel_cmdline);
    }
}

static void aw_d1_create_wdt(AwD1MachineState *s, int i, const char *name,
                             hwaddr base, int irq, bool soft_reset,
                             bool armed)
{
    DeviceState *dev;

    object_initialize_child(OBJECT(s), name, &s->wdt[i],
                            TYPE_ALLWINNER_D1_WDT);
    dev = DEVICE(&s->wdt[i]);
    qdev_prop_set_string(dev, "name", name);
    qdev_prop_set_bit(dev, "soft-reset", soft_reset);
    qdev_prop_set_bit(dev, "armed-at-reset", armed);
    sysbus_realize(SYS_BUS_DEVICE(dev), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0, base);
    if (irq) {
        sysbus_connect_irq(SYS_BUS_DEVICE(dev), 0,
                           qdev_get_gpio_in(s->plic, irq));
    }
}

/* ELF program headers are sorted by address: the first one is the base. */
typedef struct AwD1Reloc {
    bool have_base;
    uint64_t base;
    uint64_t to;
} AwD1Reloc;

static uint64_t aw_d1_reloc(void *opaque, uint64_t addr)
{
    AwD1Reloc *r = opaque;

    if (!r->have_base) {
        r->have_base = true;
        r->base = addr;
    }
    return addr - r->base + r->to;
}

/*
 * Load the firmware at the start of DRAM.  A position-independent ELF
 * (Debian's fw_dynamic.elf is linked at 0x80000000) is moved there; a
 * binary is loaded there as it is.  Returns the end address.
 */
static hwaddr aw_d1_load_firmware(const char *file, hwaddr dram,
                                  hwaddr dram_end)
{
    AwD1Reloc r = { .to = dram };
    uint64_t entry, low, high;
    ssize_t size;

    size = load_elf_ram_sym(file, NULL, aw_d1_reloc, &r, &entry, &low, &high,
                            NULL, 0, EM_RISCV, 1, 0, NULL, true, NULL);
    if (size > 0) {
        if (entry != r.base) {
            error_report("allwinner-d1: firmware '%s': entry 0x%" PRIx64
                         " is not at its lowest address 0x%" PRIx64,
                         file, entry, r.base);
            exit(1);
        }
        /* @high is already translated; @entry is not */
    } else {
        size = load_image_targphys(file, dram, dram_end - dram);
        if (size <= 0) {
            error_report("allwinner-d1: could not load firmware '%s'", file);
            exit(1);
        }
        high = dram + size;
    }
    if (high > dram_end) {
        error_report("allwinner-d1: firmware '%s' does not fit in DRAM",
                     file);
        exit(1);
    }
    return high;
}

/* Load -kernel; refuse what does not fit or has no entry in DRAM. */
static hwaddr aw_d1_load_kernel(const char *file, hwaddr start,
                                hwaddr dram, hwaddr dram_end)
{
    uint64_t entry, low, high;
    ssize_t size;

    size = load_elf_ram_sym(file, NULL, NULL, NULL, &entry, &low, &high,
                            NULL, 0, EM_RISCV, 1, 0, NULL, true, NULL);
    if (size > 0) {
        if (low < dram || high > dram_end) {
            error_report("allwinner-d1: '%s' occupies 0x%" PRIx64
                         "..0x%" PRIx64 ", outside DRAM 0x%" HWADDR_PRIx
                         "..0x%" HWADDR_PRIx, file, low, high, dram,
                         dram_end);
            exit(1);
        }
        if (entry < dram || entry >= dram_end) {
            error_report("allwinner-d1: '%s' has its entry 0x%" PRIx64
                         " outside DRAM", file, entry);
            exit(1);
        }
        return entry;
    }
    size = get_image_size(file);
    if (size <= 0) {
        error_report("allwinner-d1: could not read kernel '%s'", file);
        exit(1);
    }
    if (start + size > dram_end) {
        error_report("allwinner-d1: '%s' (%zd bytes) does not fit in DRAM "
                     "at 0x%" HWADDR_PRIx " (DRAM ends at 0x%" HWADDR_PRIx
                     ")", file, size, start, dram_end);
        exit(1);
    }
    if (load_image_targphys(file, start, dram_end - start) != size) {
        error_report("allwinner-d1: could not load kernel '%s'", file);
        exit(1);
    }
    return start;
}

/*
 * Load -initrd where a Linux kernel does not unpack over it: as QEMU's
 * riscv_load_initrd() places it (half of DRAM above the kernel, at most
 * 128 MiB), but bounded by the end of DRAM, which 7.2's helper measures
 * from address 0.  The FDT, loaded afterwards at the top of DRAM, must
 * not overlap it.  /chosen gets linux,initrd-start and -end.
 */
static void aw_d1_load_initrd(AwD1MachineState *s, const char *file,
                              hwaddr kernel, hwaddr dram_end)
{
    hwaddr start = QEMU_ALIGN_UP(kernel + MIN((dram_end - kernel) / 2,
                                              128 * MiB), 2 * MiB);
    int64_t size = get_image_size(file);

    if (size <= 0) {
        error_report("allwinner-d1: could not read initrd '%s'", file);
        exit(1);
    }
    /* 2 MiB at the top stay for the FDT (riscv_load_fdt) */
    if (start + size > dram_end - 2 * MiB ||
        load_image_targphys(file, start, dram_end - start) != size) {
        error_report("allwinner-d1: initrd '%s' (%" PRId64 " bytes) does "
                     "not fit in DRAM at 0x%" HWADDR_PRIx, file, size,
                     start);
        exit(1);
    }
    qemu_fdt_setprop_u64(s->fdt, "/chosen", "linux,initrd-start", start);
    qemu_fdt_setprop_u64(s->fdt, "/chosen", "linux,initrd-end",
                         start + size);
}

static void aw_d1_boot(AwD1MachineState *s)
{
    MachineState *ms = MACHINE(s);
    hwaddr dram = aw_d1_memmap[AW_D1_DRAM].base;
    hwaddr dram_end = dram + ms->ram_size;
    hwaddr fw_end = dram, start = dram;
    uint64_t kernel_entry = 0, fdt_addr;
    const char *fw = ms->firmware;

    if (!fw || !strcmp(fw, "default")) {
        fw = AW_D1_DEFAULT_FIRMWARE;
        if (!g_file_test(fw, G_FILE_TEST_EXISTS)) {
            error_report("allwinner-d1: %s not found: install Debian's "
                         "opensbi package, or give -bios FILE or -bios none",
                         fw);
            exit(1);
        }
    }
    if (strcmp(fw, "none")) {
        g_autofree char *path = qemu_find_file(QEMU_FILE_TYPE_BIOS, fw);

        if (!path) {
            error_report("allwinner-d1: firmware '%s' not found", fw);
            exit(1);
        }
        fw_end = aw_d1_load_firmware(path, dram, dram_end);
    }
    if (ms->kernel_filename) {
        kernel_entry = aw_d1_load_kernel(ms->kernel_filename,
                                         QEMU_ALIGN_UP(fw_end, 2 * MiB),
                                         dram, dram_end);
        if (!strcmp(fw, "none")) {
            start = kernel_entry;
        }
    } else if (!strcmp(fw, "none") && !qtest_enabled()) {
        error_report("allwinner-d1: -bios none needs -kernel");
        exit(1);
    }
    if (ms->initrd_filename) {
        if (!ms->kernel_filename) {
            error_report("allwinner-d1: -initrd needs -kernel");
            exit(1);
        }
        aw_d1_load_initrd(s, ms->initrd_filename, kernel_entry, dram_end);
    }
    fdt_addr = riscv_load_fdt(dram, ms->ram_size, s->fdt);
    ms->fdt = s->fdt;
    riscv_setup_rom_reset_vec(ms, &s->harts, start,
                              aw_d1_memmap[AW_D1_BROM].base,
                              aw_d1_memmap[AW_D1_BROM].size,
                              kernel_entry, fdt_addr);
}

/*
 * MTIMECMP at power-on.  The C906's reset value is not documented (the
 * ACLINT spec: unknown); on the board an SBI set_timer, which enables
 * MTIE without a timer device to write the compare, is never followed by
 * an interrupt (hardware-facts.md "CLINT"), so the compare lies ahead of any
 * time the firmware reaches: ~0, QEMU's zero would fire at once.
 * Unknown fact, chosen from that observation (docs/emulator.md).
 */
static void aw_d1_mtimecmp_reset(void *opaque)
{
    address_space_stq_le(&address_space_memory,
                         aw_d1_memmap[AW_D1_CLINT].base +
                         RISCV_ACLINT_SWI_SIZE + RISCV_ACLINT_DEFAULT_MTIMECMP,
                         UINT64_MAX, MEMTXATTRS_UNSPECIFIED, NULL);
}

/*
 * timing=c906: virtual time in modelled C906 cycles (target/riscv/
 * c906-timing.c) on top of -icount shift=0.  Every c906-<name> parameter
 * was range-checked when it was set; here the combination is checked, and
 * the mode is either fully configured or QEMU stops with one line.
 */
static void aw_d1_timing_init(AwD1MachineState *s)
{
    int i;

    if (!s->timing_c906) {
        for (i = 0; i < C906_NPARAMS; i++) {
            if (s->c906_set[i]) {
                error_report("allwinner-d1: c906-%s needs timing=c906",
                             c906_param_info[i].name);
                exit(1);
            }
        }
        return;
    }
    if (icount_enabled() != 1 || icount_to_ns(1) != 1) {
        error_report("allwinner-d1: timing=c906 needs -icount shift=0");
        exit(1);
    }
    c906_timing_configure(s->c906);
}

static void aw_d1_machine_init(MachineState *ms)
{
    AwD1MachineState *s = ALLWINNER_D1_MACHINE(ms);
    MemoryRegion *sys = get_system_memory();
    DeviceState *dev;
    int i;

    if (ms->ram_size > AW_D1_DRAM_MAX) {
        error_report("allwinner-d1: at most %" PRIu64 " MiB of DRAM",
                     (uint64_t)(AW_D1_DRAM_MAX / MiB));
        exit(1);
    }
    aw_d1_timing_init(s);

    object_initialize_child(OBJECT(ms), "harts", &s->harts,
                            TYPE_RISCV_HART_ARRAY);
    object_property_set_str(OBJECT(&s->harts), "cpu-type", ms->cpu_type,
                            &error_abort);
    object_property_set_int(OBJECT(&s->harts), "num-harts", 1, &error_abort);
    object_property_set_int(OBJECT(&s->harts), "hartid-base", 0,
                            &error_abort);
    object_property_set_int(OBJECT(&s->harts), "resetvec",
                            aw_d1_memmap[AW_D1_BROM].base, &error_abort);
    sysbus_realize(SYS_BUS_DEVICE(&s->harts), &error_fatal);

    memory_region_add_subregion(sys, aw_d1_memmap[AW_D1_DRAM].base,
                                ms->ram);
    memory_region_init_rom(&s->brom, NULL, "allwinner-d1.brom",
                           aw_d1_memmap[AW_D1_BROM].size, &error_fatal);
    memory_region_add_subregion(sys, aw_d1_memmap[AW_D1_BROM].base,
                                &s->brom);

    /* CLINT: MSIP at +0, MTIMECMP at +0x4000 (C906 layout, openC906) */
    riscv_aclint_swi_create(aw_d1_memmap[AW_D1_CLINT].base, 0, 1, false);
    riscv_aclint_mtimer_create(aw_d1_memmap[AW_D1_CLINT].base +
                               RISCV_ACLINT_SWI_SIZE,
                               RISCV_ACLINT_DEFAULT_MTIMER_SIZE, 0, 1,
                               RISCV_ACLINT_DEFAULT_MTIMECMP,
                               RISCV_ACLINT_DEFAULT_MTIME,
                               AW_D1_TIMEBASE_HZ, true);
    /* Registered before the device reset, so it runs first: see above */
    qemu_register_reset(aw_d1_mtimecmp_reset, s);

    s->plic = thead_c900_plic_create(aw_d1_memmap[AW_D1_PLIC].base, 0,
                                     AW_D1_PLIC_SOURCES);

    object_initialize_child(OBJECT(ms), "ccu", &s->ccu,
                            TYPE_ALLWINNER_D1_CCU);
    qdev_prop_set_bit(DEVICE(&s->ccu), "boot-state", s->boot_state);
    sysbus_realize(SYS_BUS_DEVICE(&s->ccu), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->ccu), 0, aw_d1_memmap[AW_D1_CCU].base);

    object_initialize_child(OBJECT(ms), "timer", &s->timer,
                            TYPE_ALLWINNER_D1_TIMER);
    sysbus_realize(SYS_BUS_DEVICE(&s->timer), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->timer), 0,
                    aw_d1_memmap[AW_D1_TIMER].base);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->timer), 0,
                       qdev_get_gpio_in(s->plic, AW_D1_IRQ_TIMER0));
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->timer), 1,
                       qdev_get_gpio_in(s->plic, AW_D1_IRQ_TIMER1));

    aw_d1_create_wdt(s, 0, "timer-wdt", aw_d1_memmap[AW_D1_TIMER_WDT].base,
                     AW_D1_IRQ_TIMER_WDT, true, false);
    aw_d1_create_wdt(s, 1, "riscv-wdt", aw_d1_memmap[AW_D1_RISCV_WDT].base,
                     AW_D1_IRQ_RISCV_WDT, false, s->riscv_wdt_armed);
    aw_d1_create_wdt(s, 2, "r-wdog", aw_d1_memmap[AW_D1_R_WDOG].base, 0,
                     false, false);

    for (i = 0; i < AW_D1_NUM_UARTS; i++) {
        g_autofree char *clk = g_strdup_printf("uart%d-clk", i);

        dev = qdev_new(TYPE_DW_APB_UART);
        qdev_prop_set_chr(dev, "chardev", serial_hd(i));
        qdev_connect_clock_in(dev, "clk",
                              qdev_get_clock_out(DEVICE(&s->ccu), clk));
        sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
        sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0,
                        aw_d1_memmap[AW_D1_UART0].base + 0x400 * i);
        sysbus_connect_irq(SYS_BUS_DEVICE(dev), 0,
                           qdev_get_gpio_in(s->plic, AW_D1_IRQ_UART0 + i));
        qdev_connect_gpio_out_named(DEVICE(&s->ccu), "uart-reset", i,
                                    qdev_get_gpio_in_named(dev, "reset", 0));
        s->uart[i] = dev;
    }

    /*
     * The RTC's general-purpose registers, which keep their values through
     * a system reset; the rest of the RTC is an unimplemented device.
     */
    dev = qdev_new(TYPE_ALLWINNER_D1_RTC_GPR);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    sysbus_mmio_map(SYS_BUS_DEVICE(dev), 0, aw_d1_memmap[AW_D1_RTC_GPR].base);

    /*
     * Not on the D1: QEMU's test finisher, so that an SBI shutdown (and a
     * -bios none image) can end QEMU with a status.  On the board OpenSBI
     * has no shutdown device and parks the hart.
     */
    if (s->test_finisher) {
        sifive_test_create(aw_d1_memmap[AW_D1_TEST].base);
    }

    for (i = 0; i < ARRAY_SIZE(aw_d1_unimp); i++) {
        create_unimplemented_device(aw_d1_unimp[i].name, aw_d1_unimp[i].base,
                                    aw_d1_unimp[i].size);
    }

    if (ms->dtb) {
        aw_d1_load_dtb(s, ms->dtb);
    } else {
        aw_d1_create_fdt(s);
    }
    aw_d1_boot(s);
}

static bool aw_d1_get_riscv_wdt_armed(Object *obj, Error **errp)
{
    return ALLWINNER_D1_MACHINE(obj)->riscv_wdt_armed;
}

static void aw_d1_set_riscv_wdt_armed(Object *obj, bool value, Error **errp)
{
    ALLWINNER_D1_MACHINE(obj)->riscv_wdt_armed = value;
}

static bool aw_d1_get_boot_state(Object *obj, Error **errp)
{
    return ALLWINNER_D1_MACHINE(obj)->boot_state;
}

static void aw_d1_set_boot_state(Object *obj, bool value, Error **errp)
{
    ALLWINNER_D1_MACHINE(obj)->boot_state = value;
}

static bool aw_d1_get_test_finisher(Object *obj, Error **errp)
{
    return ALLWINNER_D1_MACHINE(obj)->test_finisher;
}

static void aw_d1_set_test_finisher(Object *obj, bool value, Error **errp)
{
    ALLWINNER_D1_MACHINE(obj)->test_finisher = value;
}

static bool aw_d1_get_sbi_timer(Object *obj, Error **errp)
{
    return ALLWINNER_D1_MACHINE(obj)->sbi_timer;
}

static void aw_d1_set_sbi_timer(Object *obj, bool value, Error **errp)
{
    ALLWINNER_D1_MACHINE(obj)->sbi_timer = value;
}

static char *aw_d1_get_timing(Object *obj, Error **errp)
{
    return g_strdup(ALLWINNER_D1_MACHINE(obj)->timing_c906 ? "c906" : "off");
}

static void aw_d1_set_timing(Object *obj, const char *value, Error **errp)
{
    if (strcmp(value, "c906") && strcmp(value, "off")) {
        error_setg(errp, "allwinner-d1: timing=%s: only off or c906", value);
        return;
    }
    ALLWINNER_D1_MACHINE(obj)->timing_c906 = !strcmp(value, "c906");
}

static void aw_d1_get_c906(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    AwD1MachineState *s = ALLWINNER_D1_MACHINE(obj);

    visit_type_uint32(v, name, &s->c906[(uintptr_t)opaque], errp);
}

static void aw_d1_set_c906(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    AwD1MachineState *s = ALLWINNER_D1_MACHINE(obj);
    const C906ParamInfo *p = &c906_param_info[(uintptr_t)opaque];
    uint32_t value;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    if (value < p->min || value > p->max) {
        error_setg(errp, "allwinner-d1: %s=%" PRIu32 " is outside its range "
                   "%" PRIu32 "..%" PRIu32, name, value, p->min, p->max);
        return;
    }
    if (p->pow2 && (value & (value - 1))) {
        error_setg(errp, "allwinner-d1: %s=%" PRIu32 " is not a power of two",
                   name, value);
        return;
    }
    s->c906[(uintptr_t)opaque] = value;
    s->c906_set[(uintptr_t)opaque] = true;
}

static void aw_d1_machine_instance_init(Object *obj)
{
    AwD1MachineState *s = ALLWINNER_D1_MACHINE(obj);
    int i;

    s->riscv_wdt_armed = true;
    s->boot_state = true;
    s->test_finisher = true;
    for (i = 0; i < C906_NPARAMS; i++) {
        s->c906[i] = c906_param_info[i].def;
    }
}

/*
 * The C906's S-mode timer compare is the CLINT's STIMECMP at 0xD000
 * (d1drivers hardware-facts.md "CLINT"), not Sstc's stimecmp CSR, which the
 * core predates (Sstc was ratified in 2021): QEMU's generic rv64 has Sstc
 * on, and OpenSBI 1.1 would give S-mode a timer through it.  Off here;
 * -cpu rv64,sstc=on still wins.
 */
static GlobalProperty aw_d1_compat[] = {
    /*
     * Optional: only the generic CPUs (any, rv64, x-rv128) have the
     * extension properties in QEMU 7.2; a named one (sifive-u54...) has no
     * Sstc, and a mandatory global would abort QEMU on it.
     */
    { TYPE_RISCV_CPU, "sstc", "false", .optional = true },
    /*
     * The C906's vendor extensions (patches/0003), with mxstatus as the
     * D1's boot firmware (boot0, T-Head's OpenSBI) leaves it for S-mode:
     * MM, UCME, CLINTEE, MAEE and THEADISAEE set (0x638000; XuanTie C906
     * User Manual, "mxstatus").  Debian's OpenSBI does not set them.
     */
    { TYPE_RISCV_CPU, "xthead", "true", .optional = true },
    { TYPE_RISCV_CPU, "th-mxstatus", "0x638000", .optional = true },
};

static void aw_d1_machine_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    int i;

    mc->desc = "Allwinner D1 (sun20i, XuanTie C906 emulated by rv64)";
    mc->init = aw_d1_machine_init;
    mc->max_cpus = 1;
    mc->min_cpus = 1;
    mc->default_cpus = 1;
    mc->default_cpu_type = TYPE_RISCV_CPU_BASE64;
    mc->default_ram_size = 512 * MiB;
    mc->default_ram_id = "allwinner-d1.ram";

    object_class_property_add_bool(oc, "riscv-wdt-armed",
                                   aw_d1_get_riscv_wdt_armed,
                                   aw_d1_set_riscv_wdt_armed);
    object_class_property_set_description(oc, "riscv-wdt-armed",
        "riscv_wdt running with 16 s at power-on, as the vendor bootloader "
        "leaves it (default on)");
    object_class_property_add_bool(oc, "boot-state", aw_d1_get_boot_state,
                                   aw_d1_set_boot_state);
    object_class_property_set_description(oc, "boot-state",
        "CCU as the boot chain leaves it: PLL_PERI0 on, UART0 clocked "
        "(default on); off = the SVD's reset values");
    object_class_property_add_bool(oc, "test-finisher",
                                   aw_d1_get_test_finisher,
                                   aw_d1_set_test_finisher);
    object_class_property_set_description(oc, "test-finisher",
        "QEMU's sifive_test at 0x100000, not on the D1: SBI shutdown ends "
        "QEMU (default on)");
    object_class_property_add_bool(oc, "sbi-timer", aw_d1_get_sbi_timer,
                                   aw_d1_set_sbi_timer);
    object_class_property_set_description(oc, "sbi-timer",
        "describe the CLINT in the FDT, so that the firmware's SBI timer "
        "interrupts (default off: as on the board, it never does)");
    object_class_property_add_str(oc, "timing", aw_d1_get_timing,
                                  aw_d1_set_timing);
    object_class_property_set_description(oc, "timing",
        "off: -icount instruction time (default); c906: virtual time in "
        "modelled XuanTie C906 cycles (needs -icount shift=0)");
    for (i = 0; i < C906_NPARAMS; i++) {
        g_autofree char *name = g_strdup_printf("c906-%s",
                                                c906_param_info[i].name);
        g_autofree char *desc = g_strdup_printf(
            "timing=c906 parameter, %" PRIu32 "..%" PRIu32 " (default %"
            PRIu32 ")", c906_param_info[i].min, c906_param_info[i].max,
            c906_param_info[i].def);

        object_class_property_add(oc, name, "uint32", aw_d1_get_c906,
                                  aw_d1_set_c906, NULL, (void *)(uintptr_t)i);
        object_class_property_set_description(oc, name, desc);
    }
    compat_props_add(mc->compat_props, aw_d1_compat,
                     G_N_ELEMENTS(aw_d1_compat));
}

static const TypeInfo aw_d1_machine_info = {
    .name = TYPE_ALLWINNER_D1_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(AwD1MachineState),
    .instance_init = aw_d1_machine_instance_init,
    .class_init = aw_d1_machine_class_init,
};

static void aw_d1_machine_register(void)
{
    type_register_static(&aw_d1_machine_info);
}

type_init(aw_d1_machine_register)
