#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Device-level tests of the emulated D1 (QEMU -M allwinner-d1) against the
register facts of docs/hardware-facts.md and the openC906 RTL,
not against the library: QEMU's qtest protocol drives the registers and
the virtual clock directly; an M-mode probe image checks the PLIC's S-mode
privilege gate (qtest accesses are M-mode).

Each test is one function; run one with --only NAME."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from emu_common import Checks, d1_cmd, qemu_path, run_until
from qtest_d1 import QTest

TIMER = 0x02050000
TMR0_CTRL, TMR0_INTV, TMR0_CUR = TIMER + 0x10, TIMER + 0x14, TIMER + 0x18
TMR_IRQ_EN, TMR_IRQ_STA = TIMER + 0x00, TIMER + 0x04
RISCV_WDT = 0x06011000
PLIC = 0x10000000
UART0 = 0x02500000
CCU = 0x02001000
NS_PER_CLK24 = 1e9 / 24e6


def step_to(q, t_ns):
    now = q.clock_ns()
    assert t_ns >= now, (t_ns, now)
    if t_ns > now:
        q.clock_step(t_ns - now)


def t_timer_n_plus_1(q, c):
    """INTV = N gives N + 1 input clocks (docs/hardware-facts.md "The N+1
    rule"), not N."""
    step_to(q, 1000)                      # on the 24 MHz grid (24 clocks)
    q.writel(TMR0_INTV, 23999)
    q.writel(TMR0_CTRL, 0x4)              # OSC24M, /1, periodic
    q.writel(TMR0_CTRL, 0x4 | 0x2 | 0x1)  # RELOAD | EN
    c.ok(q.readl(TMR0_CUR) == 23999, "CUR = INTV right after RELOAD")
    # 24000 clocks = 1,000,000 ns after the start; N clocks would be 999,958 ns.
    step_to(q, 1000 + 999_990)
    sta = q.readl(TMR_IRQ_STA) & 1
    cur = q.readl(TMR0_CUR)
    c.ok(sta == 0 and cur == 0, f"at 23,999.76 clocks: not expired, CUR = {cur} (want 0)")
    step_to(q, 1000 + 1_000_000)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "expired at exactly 24,000 clocks (N + 1)")
    c.ok(q.readl(TMR0_CUR) == 23999, "periodic: reloaded INTV")
    step_to(q, 1000 + 2_000_000 - 10)
    q.writel(TMR_IRQ_STA, 0)              # writing 0 clears nothing
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "IRQ_STA: writing 0 leaves the bit")
    q.writel(TMR_IRQ_STA, 1)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 0, "IRQ_STA: write 1 clears")
    step_to(q, 1000 + 2_000_000)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "second period also 24,000 clocks")
    q.writel(TMR0_CTRL, 0)


def t_timer_reload_prescale_single_losc(q, c):
    """RELOAD self-clears; prescaler 2^k; single mode; LOSC 32,768 Hz."""
    step_to(q, 2_000_000_000 // 1000 * 1000)  # 2 s: on the grid of both clocks
    q.writel(TMR0_INTV, 99)
    q.writel(TMR0_CTRL, 0x4 | (3 << 4) | 0x80)        # OSC24M /8, single
    q.writel(TMR0_CTRL, 0x4 | (3 << 4) | 0x80 | 0x3)  # RELOAD | EN
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0x2, "RELOAD reads 1 right after the write")
    q.clock_step(84)                       # 2 clocks of 24 MHz
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0, "RELOAD self-clears 2 source clocks later")
    t0 = 2_000_000_000
    # (99 + 1) * 8 = 800 clocks = 33,333.3 ns
    step_to(q, t0 + 33_333)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 0, "prescaler /8: not yet at 799.99 clocks")
    step_to(q, t0 + 33_334)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "prescaler /8: expired at 800 clocks")
    c.ok(q.readl(TMR0_CTRL) & 1 == 0 and q.readl(TMR0_CUR) == 0,
         "single mode: EN cleared, CUR = 0 after expiry")
    q.writel(TMR_IRQ_STA, 1)
    # LOSC: INTV 32767 -> 32768 clocks = exactly 1 s
    t1 = 3_000_000_000
    step_to(q, t1)
    q.writel(TMR0_INTV, 32767)
    q.writel(TMR0_CTRL, 0x0 | 0x3)        # LOSC, /1, periodic, RELOAD | EN
    step_to(q, t1 + 999_999_000)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 0, "LOSC: not yet before 1 s")
    step_to(q, t1 + 1_000_000_000)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "LOSC 32,768 Hz: INTV 32767 expires at 1 s")
    q.writel(TMR0_CTRL, 0)
    q.writel(TMR_IRQ_STA, 1)


def t_timer_sync(q, c):
    """After a CTRL write that clears EN, the channel takes no reprogramming
    for 2 of its input clocks (docs/hardware-facts.md "Disabling and
    reprogramming": Linux waits
    "at least 2 cycles of the timer source clock", TIMER_SYNC_TICKS, before
    reprogramming). What the D1 does with a write inside that time is not
    known; the model drops it (and logs a guest error): the reading under
    which a driver that skips the wait fails."""
    step_to(q, 11_000)                        # source clock 264 of 24 MHz
    q.writel(TMR0_INTV, 999)
    q.writel(TMR0_CTRL, 0x4 | 0x3)            # OSC24M /1 periodic, RELOAD | EN
    q.clock_step(10_000)                      # clock 504
    q.writel(TMR0_CTRL, 0x4)                  # disable
    q.writel(TMR0_INTV, 4999)                 # at once: inside the sync time
    c.ok(q.readl(TMR0_INTV) == 999, "INTV written at the disable's clock: dropped")
    q.writel(TMR0_CTRL, 0x4 | 0x3)
    c.ok(q.readl(TMR0_CTRL) & 1 == 0, "RELOAD | EN at the disable's clock: dropped")
    q.clock_step(42)                          # clock 505: 1 clock later
    q.writel(TMR0_INTV, 4999)
    c.ok(q.readl(TMR0_INTV) == 999, "1 clock after the disable: still dropped")
    q.clock_step(42)                          # clock 506: 2 clocks later
    q.writel(TMR0_INTV, 4999)
    c.ok(q.readl(TMR0_INTV) == 4999, "2 clocks after the disable: INTV taken")
    q.writel(TMR0_CTRL, 0x4 | 0x3)
    c.ok(q.readl(TMR0_CTRL) & 1 == 1 and q.readl(TMR0_CUR) == 4999,
         "2 clocks after the disable: RELOAD | EN taken, CUR = INTV")
    # With the prescaler the input clock is the divided one: /8, 2 clocks
    # = 16 source clocks = 666.7 ns.
    q.writel(TMR0_CTRL, 0x4 | (3 << 4))       # disable (and /8 from now)
    q.clock_step(42 * 4)                      # 4 source clocks: stay dropped
    q.writel(TMR0_CTRL, 0x4 | (3 << 4) | 0x3)
    c.ok(q.readl(TMR0_CTRL) & 1 == 0, "/8: 4 source clocks after the disable: dropped")
    q.writel(TMR0_CTRL, 0x4)                  # also dropped: no new window
    q.clock_step(667 - 42 * 4)                # 16 source clocks after it
    q.writel(TMR0_CTRL, 0x4 | (3 << 4) | 0x3)
    c.ok(q.readl(TMR0_CTRL) & 1 == 1, "/8: 2 divided clocks after the disable: taken")
    q.writel(TMR0_CTRL, 0)
    q.writel(TMR_IRQ_STA, 1)


def t_timer_sync_off_grid(q, c):
    """The sync time is 2 whole input clocks from the disable wherever it
    falls in a clock period (docs/emulator.md: "a Timer write within 2 input
    clocks of a disable is dropped"), not up to the second clock edge: a
    disable 30 ns into a 41.7 ns period must still drop a write 1.5 clocks
    (63 ns) after it."""
    step_to(q, 11_000)                        # source clock 264 of 24 MHz
    q.writel(TMR0_INTV, 999)
    q.writel(TMR0_CTRL, 0x4 | 0x3)            # OSC24M /1 periodic, RELOAD | EN
    q.clock_step(10_030)                      # 30 ns after clock 504
    q.writel(TMR0_CTRL, 0x4)                  # disable
    q.clock_step(63)                          # 1.5 clocks later
    q.writel(TMR0_INTV, 4999)
    c.ok(q.readl(TMR0_INTV) == 999, "1.5 clocks after an off-grid disable: INTV dropped")
    q.clock_step(21)                          # 2 clocks (83.3 ns) after it
    q.writel(TMR0_INTV, 4999)
    c.ok(q.readl(TMR0_INTV) == 4999, "2 clocks after the disable: INTV taken")


def t_timer_reload_clock_switch(q, c):
    """RELOAD reads back 1 for 2 source clocks of the clock it was written
    under (docs/emulator.md "Unknown facts, chosen": "RELOAD reads 1 for 2
    source clocks"), also when CLK_SRC (SVD tmr_clk_src: 0 LOSC, 1 OSC24M)
    changes afterwards: a RELOAD written on OSC24M must not read back 1 for
    minutes once the channel is switched to LOSC without a new RELOAD."""
    step_to(q, 1_000_000_000)                 # 1 s: 24,000,000 OSC24M clocks
    q.writel(TMR0_INTV, 1000)
    q.writel(TMR0_CTRL, 0x4 | 0x2)            # OSC24M, RELOAD, EN off
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0x2, "RELOAD reads 1 right after the write")
    q.clock_step(1000)                        # 24 clocks of 24 MHz
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0, "RELOAD clear 1 us later (OSC24M)")
    q.writel(TMR0_CTRL, 0x0)                  # LOSC, no RELOAD, EN off
    q.clock_step(1_000_000)                   # 1 ms: 32 LOSC clocks
    ctrl = q.readl(TMR0_CTRL)
    c.ok(ctrl & 0x2 == 0, f"switched to LOSC without RELOAD: CTRL = 0x{ctrl:x} 1 ms "
         "later (want RELOAD 0: no RELOAD since, the old one 1 ms past)")
    q.writel(TMR0_CTRL, 0x0 | 0x2)            # RELOAD on LOSC: 2 clocks = 61 us
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0x2, "RELOAD on LOSC reads 1 right after the write")
    q.clock_step(70_000)
    c.ok(q.readl(TMR0_CTRL) & 0x2 == 0, "RELOAD on LOSC clear after 70 us (2.3 clocks)")
    q.writel(TMR0_CTRL, 0)


def t_wdt_key(q, c):
    """Writes without the 0x16AA key are ignored; the timeout table."""
    mode0 = q.readl(RISCV_WDT + 0x18)
    c.ok(mode0 == 0xB1, f"riscv_wdt at power-on: MODE = 0x{mode0:x} (EN, 16 s)")
    q.writel(RISCV_WDT + 0x18, 0x00000000)          # no key: ignored
    c.ok(q.readl(RISCV_WDT + 0x18) == 0xB1, "MODE write without the key ignored")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)          # bare key: stop
    c.ok(q.readl(RISCV_WDT + 0x18) == 0, "bare key 0x16AA0000 stops it")
    q.writel(RISCV_WDT + 0x14, 0x00000002)          # CFG without key: ignored
    c.ok(q.readl(RISCV_WDT + 0x14) & 3 == 1, "CFG write without the key ignored")
    q.writel(RISCV_WDT + 0x14, 0x16AA0002)          # interrupt only
    c.ok(q.readl(RISCV_WDT + 0x14) & 3 == 2, "CFG write with the key taken")
    for idx, ms in ((0, 500), (1, 1000), (7, 8000), (0xA, 14000)):
        q.writel(RISCV_WDT + 0x04, 1)
        t = q.clock_ns()
        q.writel(RISCV_WDT + 0x18, 0x16AA0001 | idx << 4)
        q.clock_step(ms * 1_000_000 - 1000)
        early = q.readl(RISCV_WDT + 0x04) & 1
        q.clock_step(1000)
        late = q.readl(RISCV_WDT + 0x04) & 1
        c.ok(early == 0 and late == 1, f"interval index {idx:#x}: expires at {ms} ms")
        q.writel(RISCV_WDT + 0x18, 0x16AA0000)
        del t
    # Feed: CTRL 0x14AF restarts the count; a wrong CTRL key does not.
    q.writel(RISCV_WDT + 0x04, 1)
    q.writel(RISCV_WDT + 0x18, 0x16AA0011)          # 1 s
    q.clock_step(900_000_000)
    q.writel(RISCV_WDT + 0x10, 0x000014AF)
    q.clock_step(900_000_000)
    c.ok(q.readl(RISCV_WDT + 0x04) & 1 == 0, "CTRL 0x14AF feed restarts the 1 s count")
    q.writel(RISCV_WDT + 0x10, 0x00000001)          # restart bit without 0xA57
    q.clock_step(100_000_001)
    c.ok(q.readl(RISCV_WDT + 0x04) & 1 == 1, "CTRL without the 0xA57 key does not feed")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)
    q.writel(RISCV_WDT + 0x04, 1)


def t_wdt_losc(q, c):
    """CFG bit 8 (SVD wdog_clk_src: LOSC_32K) counts the interval's cycles
    (SVD wdog_intv_value: the 16 s index is 512,000 of them) at 32,768 Hz:
    15.625 s, where the 32 kHz (24 MHz / 750) clock gives 16 s
    (docs/clocks-and-watchdog.md "The interval table and the count
    clock"). Interrupt mode, so the expiry shows in IRQ_STA."""
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)          # stop the armed 16 s count
    q.writel(RISCV_WDT + 0x04, 1)
    q.writel(RISCV_WDT + 0x14, 0x16AA0102)          # LOSC, interrupt only
    for idx, us in ((0xB, 15_625_000), (1, 976_563)):  # 512,000 and 32,000 cycles
        q.writel(RISCV_WDT + 0x04, 1)
        q.writel(RISCV_WDT + 0x18, 0x16AA0001 | idx << 4)
        q.clock_step(us * 1000 - 2000)
        early = q.readl(RISCV_WDT + 0x04) & 1
        q.clock_step(4000)
        late = q.readl(RISCV_WDT + 0x04) & 1
        c.ok(early == 0 and late == 1,
             f"LOSC, interval index {idx:#x}: expires at {us} us (early {early}, late {late})")
        q.writel(RISCV_WDT + 0x18, 0x16AA0000)
    q.writel(RISCV_WDT + 0x14, 0x16AA0002)          # back to the 32 kHz clock
    q.writel(RISCV_WDT + 0x04, 1)
    q.writel(RISCV_WDT + 0x18, 0x16AA00B1)
    q.clock_step(15_700_000_000)
    c.ok(q.readl(RISCV_WDT + 0x04) & 1 == 0, "32 kHz clock again: nothing at 15.7 s of 16 s")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)
    q.writel(RISCV_WDT + 0x04, 1)


def t_wdt_clk_src_switch_running(q, c):
    """CFG bit 8 (SVD wdog_clk_src: HOSC_32K / LOSC_32K) is the clock the
    count runs on, also for a count already running: switching a running
    16 s count (512,000 cycles) from the 32 kHz clock to LOSC 32,768 Hz one
    second in must bring the expiry before 16 s (15.625 s if the deadline
    is re-evaluated from the last restart, as tests/model/wdt_model.h does;
    15.648 s if only the remaining cycles run faster), not leave it at 16 s
    until the next restart. Interrupt mode, so the expiry shows in IRQ_STA."""
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)          # stop the armed 16 s count
    q.writel(RISCV_WDT + 0x04, 1)
    q.writel(RISCV_WDT + 0x14, 0x16AA0002)          # 32 kHz clock, interrupt only
    q.writel(RISCV_WDT + 0x18, 0x16AA00B1)          # 16 s, EN: t0
    q.clock_step(1_000_000_000)
    q.writel(RISCV_WDT + 0x14, 0x16AA0102)          # t0 + 1 s: LOSC, keyed, no feed
    q.clock_step(14_600_000_000)                    # t0 + 15.6 s
    early = q.readl(RISCV_WDT + 0x04) & 1
    q.clock_step(100_000_000)                       # t0 + 15.7 s
    late = q.readl(RISCV_WDT + 0x04) & 1
    c.ok(early == 0, f"switched to LOSC 1 s in: no expiry at 15.6 s (IRQ_STA {early})")
    c.ok(late == 1, f"switched to LOSC 1 s in: expired by 15.7 s, not at 16 s "
         f"(IRQ_STA {late})")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)
    q.writel(RISCV_WDT + 0x04, 1)
    # Back to the 32 kHz clock on a running LOSC count: no early expiry.
    q.writel(RISCV_WDT + 0x18, 0x16AA00B1)          # LOSC, 16 s index: t1
    q.clock_step(1_000_000_000)
    q.writel(RISCV_WDT + 0x14, 0x16AA0002)          # t1 + 1 s: the 32 kHz clock
    q.clock_step(14_700_000_000)                    # t1 + 15.7 s
    sta = q.readl(RISCV_WDT + 0x04) & 1
    c.ok(sta == 0, f"switched back to the 32 kHz clock 1 s in: no expiry at 15.7 s "
         f"(IRQ_STA {sta}; LOSC alone would expire at 15.625 s)")
    q.clock_step(400_000_000)                       # t1 + 16.1 s
    sta = q.readl(RISCV_WDT + 0x04) & 1
    c.ok(sta == 1, f"... and expired by 16.1 s (IRQ_STA {sta})")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)
    q.writel(RISCV_WDT + 0x04, 1)


TIMER_WDT = 0x020500A0
R_WDOG = 0x07020400


def wdt_expiry_effect(q, base, cfg_mode):
    """Arm @base for 0.5 s in CFG mode @cfg_mode, let it expire; returns
    (system reset?, IRQ_STA). A reset shows as Timer0's INTV (a marker
    written before) back at 0."""
    q.writel(TMR0_INTV, 0x1234)
    q.writel(base + 0x04, 1)
    q.writel(base + 0x14, 0x16AA0000 | cfg_mode)
    q.writel(base + 0x18, 0x16AA0001)                # EN, index 0: 0.5 s
    # 1 us past the expiry: a reset it asks for holds virtual time 1 ns
    # ahead until QEMU's main loop performs it (docs/emulator.md), so a
    # longer step would spin through that hold.
    q.clock_step(500_001_000)
    reset = q.readl(TMR0_INTV) != 0x1234
    sta = q.readl(base + 0x04) & 1
    q.writel(base + 0x18, 0x16AA0000)
    q.writel(base + 0x04, 1)
    return reset, sta


def t_wdt_cfg_power_on_and_modes(q, c):
    """CFG powers on as 0 where nothing armed the watchdog (the SVD's
    reset value: its file-wide default, as for every register it gives
    none of its own); the armed riscv_wdt reads the 1 that the boot chain's
    start sequence wrote (docs/hardware-facts.md "Watchdogs": CFG=0x16AA0001).
    Only modes 1 (reset the system) and 2 (interrupt only) are defined
    (SVD wdog_mode, docs/hardware-facts.md); 0 and 3 act on nothing here, so a
    start sequence that loses its keyed CFG write gets no reset."""
    for name, base in (("timer-block WDT", TIMER_WDT), ("R_WDOG", R_WDOG)):
        cfg = q.readl(base + 0x14)
        c.ok(cfg == 0, f"{name}: CFG = 0x{cfg:x} at power-on (want 0)")
    cfg = q.readl(RISCV_WDT + 0x14)
    c.ok(cfg == 1, f"riscv_wdt, armed at power-on: CFG = 0x{cfg:x} (want 1, reset the system)")
    q.writel(RISCV_WDT + 0x18, 0x16AA0000)          # stop the armed 16 s count
    for mode in (0, 3):
        reset, sta = wdt_expiry_effect(q, TIMER_WDT, mode)
        c.ok(not reset and sta == 0,
             f"CFG mode {mode}: expiry resets nothing and raises nothing "
             f"(reset={reset}, IRQ_STA={sta})")
    reset, sta = wdt_expiry_effect(q, TIMER_WDT, 2)
    c.ok(not reset and sta == 1, f"CFG mode 2: interrupt only (reset={reset}, IRQ_STA={sta})")
    reset, _ = wdt_expiry_effect(q, TIMER_WDT, 1)
    c.ok(reset, "CFG mode 1: the expiry resets the system (the marker is gone)")


def uart_init(q, div=13):
    q.writel(UART0 + 0x0C, 0x83)
    q.writel(UART0 + 0x00, div & 0xFF)
    q.writel(UART0 + 0x04, div >> 8)
    q.writel(UART0 + 0x0C, 0x03)
    q.writel(UART0 + 0x08, 0x07)


def t_uart_busy(q, c):
    """DW APB UART: BUSY while transmitting, LCR/DLL writes ignored then,
    busy-detect IIR cleared by reading USR, 64-byte FIFO, USR bits."""
    uart_init(q)                          # 115,384.6 baud: 86.67 us per char
    usr = q.readl(UART0 + 0x7C)
    c.ok(usr & 0x1F == 0x06, f"idle: USR = 0x{usr:x} (TFNF | TFE)")
    for i in range(65):
        q.writel(UART0, 0x41 + i % 26)
    usr = q.readl(UART0 + 0x7C)
    tfl = q.readl(UART0 + 0x80)
    c.ok(usr & 0x1F == 0x1, f"65 bytes written: USR = 0x{usr:x} (BUSY, FIFO full: "
         "TFNF = 0, TFE = 0)")
    c.ok(tfl == 64, f"TFL = {tfl}: 64 in the FIFO + 1 in the shifter (64-byte FIFO)")
    q.writel(UART0 + 0x0C, 0x1B)          # LCR while BUSY
    c.ok(q.readl(UART0 + 0x0C) == 0x03, "LCR write while BUSY ignored")
    iir = q.readl(UART0 + 0x08)
    c.ok(iir == 0xC7, f"IIR = 0x{iir:x}: busy detect (0x7) with FIFOs on")
    q.readl(UART0 + 0x7C)
    iir = q.readl(UART0 + 0x08)
    c.ok(iir & 0xF == 0x1, f"reading USR cleared busy detect: IIR = 0x{iir:x}")
    # 65 characters of 10 bits at 13 * 16 / 24 MHz = 86.67 us: 5.633 ms.
    q.clock_step(5_600_000)
    c.ok(q.readl(UART0 + 0x7C) & 1 == 1, "still BUSY before the 65th character ends")
    q.clock_step(100_000)
    usr = q.readl(UART0 + 0x7C)
    lsr = q.readl(UART0 + 0x14)
    c.ok(usr & 0x1F == 0x06 and lsr & 0x60 == 0x60,
         f"idle after 65 characters: USR = 0x{usr:x}, LSR = 0x{lsr:x} (THRE | TEMT)")
    q.writel(UART0 + 0x0C, 0x1B)
    c.ok(q.readl(UART0 + 0x0C) == 0x1B, "LCR write accepted when not BUSY")
    q.writel(UART0 + 0x0C, 0x03)


def t_uart_gate(q, c):
    """A gated UART reads 0 and ignores writes; a reset one loses its state
    (CCU UART_BGR 0x90C: gate bit 0, reset bit 16)."""
    q.writel(UART0 + 0x1C, 0x5A)
    c.ok(q.readl(UART0 + 0x1C) == 0x5A, "SCR holds 0x5A")
    q.writel(CCU + 0x90C, 0x00010000)     # gate off, reset de-asserted
    c.ok(q.readl(UART0 + 0x1C) == 0, "gated: SCR reads 0")
    q.writel(UART0 + 0x1C, 0x33)
    q.writel(CCU + 0x90C, 0x00010001)
    c.ok(q.readl(UART0 + 0x1C) == 0x5A, "gate on again: write while gated was ignored")
    q.writel(CCU + 0x90C, 0x00000001)     # reset asserted
    q.writel(CCU + 0x90C, 0x00010001)
    c.ok(q.readl(UART0 + 0x1C) == 0, "after a reset pulse: SCR back to 0")


def t_ccu_pll_lock(q, c):
    """PLL LOCK (bit 28) sets a modelled lock time after EN + LOCK_EN.
    PLL_VIDEO0 (0x040, off at boot): PLL_CPU runs the core in the boot
    state."""
    c.ok(q.readl(CCU + 0x000) & 0xF800FF03 == 0xF8002900,
         "boot state: PLL_CPU enabled, locked, gated, N = 42 (1008 MHz)")
    c.ok(q.readl(CCU + 0xD00) == 0x05000100, "boot state: RISCV_CLK on PLL_CPU, AXI /2")
    q.writel(CCU + 0x040, 0xA0002900)     # EN | LOCK_EN | N
    c.ok(q.readl(CCU + 0x040) & (1 << 28) == 0, "LOCK = 0 right after enabling")
    q.clock_step(20_000)
    c.ok(q.readl(CCU + 0x040) & (1 << 28) != 0, "LOCK = 1 after 20 us")
    c.ok(q.readl(CCU + 0x524) == 0, "APB1 at its SVD reset value 0 (OSC24M)")


def t_ccu_uart_clock_follows_lock(q, c):
    """A UART clocked from PLL_PERI0 (APB1 mux 3, PERI0 1X) gets its clock
    when the PLL locks, with no further CCU access: the lock is the PLL's
    own event (docs/hardware-facts.md "CCU": LOCK, bit 28, is status), not a
    register write. The UART reads 0 and ignores writes without a clock."""
    q.writel(CCU + 0x524, 3 << 24 | 5)       # APB1 = PERI0 1X (600 MHz) / 6
    q.writel(UART0 + 0x1C, 0x11)
    c.ok(q.readl(UART0 + 0x1C) == 0x11, "UART0 clocked from PERI0 1X: SCR holds 0x11")
    q.writel(CCU + 0x020, 0x08216300)        # PLL_PERI0 EN, LDO, LOCK_EN off
    q.writel(UART0 + 0x1C, 0x22)
    c.ok(q.readl(UART0 + 0x1C) == 0, "PLL_PERI0 off: UART0 has no clock (reads 0)")
    q.writel(CCU + 0x020, 0xE8216300)        # on again: locks 20 us later
    q.clock_step(10_000)
    q.writel(UART0 + 0x1C, 0x33)
    c.ok(q.readl(UART0 + 0x1C) == 0, "10 us into the lock time: still no clock")
    q.clock_step(10_001)                     # locked; no CCU access since
    q.writel(UART0 + 0x1C, 0x44)
    c.ok(q.readl(UART0 + 0x1C) == 0x44,
         "locked, no CCU access since: UART0 clocked again (SCR holds 0x44)")


def t_ccu_peri0_output_gate(q, c):
    """A UART clocked from PLL_PERI0 has no clock while the PLL's output
    gate (bit 27) is off, though the PLL stays enabled and locked: the
    gate is what lets the PLL's output out (docs/hardware-facts.md "CCU": U-Boot
    sets it last, after the lock)."""
    q.writel(CCU + 0x524, 3 << 24 | 5)       # APB1 = PERI0 1X (600 MHz) / 6
    q.writel(UART0 + 0x1C, 0x11)
    c.ok(q.readl(UART0 + 0x1C) == 0x11, "UART0 clocked from PERI0 1X: SCR holds 0x11")
    q.writel(CCU + 0x020, 0xE0216300)        # EN, LDO, LOCK_EN; output gate off
    lock = q.readl(CCU + 0x020) >> 28 & 1
    q.writel(UART0 + 0x1C, 0x22)
    c.ok(lock == 1 and q.readl(UART0 + 0x1C) == 0,
         f"PERI0 locked (LOCK {lock}), output gate off: UART0 has no clock (reads 0)")
    q.writel(CCU + 0x020, 0xE8216300)        # gate on again: no lock time
    q.writel(UART0 + 0x1C, 0x33)
    c.ok(q.readl(UART0 + 0x1C) == 0x33, "output gate on: UART0 clocked again at once")


UART1 = 0x02500400


def t_uart_fifo_off(c, q_exe):
    """With FIFOs off (FCR.FIFOE = 0) the receiver holds one character in
    RBR: a character that arrives before RBR is read overwrites it and
    sets OE (PC16550D data sheet, LSR bit 1: the previous character is
    destroyed; in FIFO mode the new one is lost instead), and there is no
    character-timeout identity (a FIFO-mode indication): IIR says RDA.
    UART1 on a pipe chardev, 3 characters sent with nothing read."""
    with tempfile.TemporaryDirectory() as d:
        q, wr = uart1_pipe(q_exe, d)
        try:
            q.writel(UART1 + 0x08, 0x00)         # FIFOs off
            q.writel(UART1 + 0x04, 0x01)         # ERBFI
            with open(wr, "wb", buffering=0) as f:
                f.write(b"ABC")
            time.sleep(0.5)                      # the main loop takes them onto the wire
            q.clock_step(1_000_000)              # 3 characters and > 4 character times
            iir = q.readl(UART1 + 0x08) & 0x0F
            lsr = q.readl(UART1 + 0x14)
            rbr = q.readl(UART1 + 0x00)
            lsr2 = q.readl(UART1 + 0x14)
            c.ok(iir == 0x4, f"FIFOs off: IIR identity 0x{iir:x} (want 0x4 RDA, no timeout)")
            c.ok(lsr & 0x03 == 0x03, f"FIFOs off: LSR 0x{lsr:02x} has DR and OE")
            c.ok(rbr == ord("C"), f"FIFOs off: RBR = {chr(rbr)!r} (want 'C': each new "
                                  "character overwrote the one not read)")
            c.ok(lsr2 & 0x03 == 0, f"after the read: LSR 0x{lsr2:02x}, no DR, OE cleared")
        finally:
            q.close()


def uart1_pipe(q_exe, d):
    """A QTest whose UART1 is on a pipe chardev; returns (q, write end)."""
    path = os.path.join(d, "u1")
    os.mkfifo(path + ".in")
    os.mkfifo(path + ".out")
    q = QTest(q_exe, extra=["-chardev", f"pipe,id=p1,path={path}", "-serial", "chardev:p1"])
    q.writel(CCU + 0x90C, q.readl(CCU + 0x90C) | 1 << 1 | 1 << 17)  # gate, reset
    q.writel(UART1 + 0x0C, 0x83)
    q.writel(UART1 + 0x00, 13)           # 115,385 baud: 86.7 us a character
    q.writel(UART1 + 0x04, 0)
    q.writel(UART1 + 0x0C, 0x03)
    return q, path + ".in"


def t_uart_auto_rts(c, q_exe):
    """MCR.AFCE with RTS and FIFOs on: RTS is deasserted at or above the RX
    trigger level (docs/uart-and-plic.md: DW_apb_uart MCR, "RTS ... gated
    with the receiver FIFO threshold trigger"), so a far end that uses
    hardware flow control stops sending and nothing overruns; without AFCE
    the same 100 characters overrun the 64-byte FIFO. The far end honours
    RTS only while the UART has AFCE set (the model's far end)."""
    msg = bytes(range(0x30, 0x30 + 100))
    for afce in (True, False):
        with tempfile.TemporaryDirectory() as d:
            q, wr = uart1_pipe(q_exe, d)
            try:
                q.writel(UART1 + 0x08, 0x81)      # FIFOs on, RX trigger 1/2 (32)
                q.writel(UART1 + 0x10, 0x22 if afce else 0x02)  # AFCE | RTS, or RTS
                with open(wr, "wb", buffering=0) as f:
                    f.write(msg)
                time.sleep(0.5)
                q.clock_step(20_000_000)          # 100 characters take 8.7 ms
                rfl = q.readl(UART1 + 0x84)
                lsr = q.readl(UART1 + 0x14)
                got = b""
                for _ in range(10):
                    n = q.readl(UART1 + 0x84)
                    got += bytes(q.readl(UART1 + 0x00) for _ in range(n))
                    lsr |= q.readl(UART1 + 0x14)
                    q.clock_step(10_000_000)
                if afce:
                    c.ok(32 <= rfl <= 33, f"AFCE: the FIFO stopped filling at the trigger "
                         f"(RFL {rfl}, trigger 32)")
                    c.ok(lsr & 0x02 == 0 and got == msg,
                         f"AFCE: no overrun, all {len(msg)} characters in order "
                         f"({len(got)} read, OE {lsr >> 1 & 1})")
                else:
                    c.ok(rfl == 64 and lsr & 0x02 and len(got) < len(msg),
                         f"no AFCE: the FIFO filled (RFL {rfl}) and overran "
                         f"(OE {lsr >> 1 & 1}, {len(got)} of {len(msg)} read)")
            finally:
                q.close()


def t_plic_masked_completion(q, c):
    """A completion of a source masked in that context is ignored (the
    source stays in service); level sources re-pend at completion."""
    q.writel(PLIC + 4 * 75, 1)            # Timer0 = source 75
    q.writel(PLIC + 0x2080 + 8, 1 << 11)  # enable 75 in context 1 (S)
    q.writel(PLIC + 0x201000, 0)
    q.writel(TMR_IRQ_EN, 1)
    q.writel(TMR0_INTV, 239)
    q.writel(TMR0_CTRL, 0x4 | 0x80 | 0x3)  # single shot, 10 us
    q.clock_step(20_000)
    c.ok(q.readl(TMR_IRQ_STA) & 1 == 1, "Timer0 expired, line high")
    claim = q.readl(PLIC + 0x201004)
    c.ok(claim == 75, f"claim = {claim} (want 75)")
    q.writel(PLIC + 0x2080 + 8, 0)        # mask it ...
    q.writel(PLIC + 0x201004, 75)         # ... and complete: ignored
    q.writel(PLIC + 0x2080 + 8, 1 << 11)
    c.ok(q.readl(PLIC + 0x201004) == 0,
         "masked completion ignored: still in service, claim = 0")
    q.writel(PLIC + 0x201004, 75)         # enabled completion
    c.ok(q.readl(PLIC + 0x201004) == 75,
         "enabled completion taken; the level still high re-pends: claim = 75")
    q.writel(TMR_IRQ_STA, 1)              # line low
    q.writel(PLIC + 0x201004, 75)
    c.ok(q.readl(PLIC + 0x201004) == 0, "line low at completion: nothing pending")
    q.writel(TMR_IRQ_EN, 0)
    q.writel(PLIC + 0x2080 + 8, 0)


def t_plic_ctrl_m_mode(q, c):
    """PLIC_CTRL (0x1FFFFC): reset 0, M-mode read/write of S_PER."""
    c.ok(q.readl(PLIC + 0x1FFFFC) == 0, "PLIC_CTRL resets to 0 (S_PER off)")
    q.writel(PLIC + 0x1FFFFC, 1)
    c.ok(q.readl(PLIC + 0x1FFFFC) == 1, "M-mode sets S_PER")
    q.writel(PLIC + 0x1FFFFC, 0)


def t_unknown_offsets(q, c):
    """Unknown offsets of every modelled block: read 0, writes ignored, no
    abort (the machine keeps answering)."""
    for base, offs in ((TIMER, (0x08, 0x0C, 0x30, 0x9C)), (RISCV_WDT, (0x0C, 0x1C + 4)),
                       (UART0, (0x20, 0x3C, 0x90, 0x3FC)), (CCU, (0x004, 0x8F0, 0xFFC)),
                       (PLIC, (0x0, 0x1100, 0x3000, 0x202000, 0x3FFFFFC))):
        for off in offs:
            v = q.readl(base + off)
            q.writel(base + off, 0xFFFFFFFF)
            c.ok(v == 0 and q.readl(base + off) == 0,
                 f"0x{base + off:08x}: unknown offset reads 0, write ignored")
    c.ok(q.readl(TMR0_INTV) is not None, "machine still answering")


QTESTS = [t_timer_n_plus_1, t_timer_reload_prescale_single_losc, t_timer_sync,
          t_timer_sync_off_grid, t_timer_reload_clock_switch, t_wdt_key, t_wdt_losc,
          t_wdt_clk_src_switch_running,
          t_wdt_cfg_power_on_and_modes, t_uart_busy,
          t_uart_gate, t_ccu_pll_lock, t_ccu_uart_clock_follows_lock,
          t_ccu_peri0_output_gate, t_plic_masked_completion, t_plic_ctrl_m_mode,
          t_unknown_offsets]


def t_plic_s_per_probe(c, cc):
    """S-mode accesses fault while S_PER = 0 (probe image, -bios none)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe", "sper_probe.S")
    with tempfile.TemporaryDirectory() as d:
        elf = os.path.join(d, "sper_probe.elf")
        r = subprocess.run([cc, "-march=rv64imac_zicsr", "-mabi=lp64", "-nostdlib",
                            "-nostartfiles", "-Wl,-N", "-Wl,--no-warn-rwx-segments",
                            "-Wl,-Ttext=0x40000000", "-o", elf, src])
        if not c.ok(r.returncode == 0, "probe image builds"):
            return
        out, exited, rc = run_until(d1_cmd(elf, bios="none", extra=["-d", "guest_errors"]),
                                    None, 60)
    c.ok(exited and rc == 0, f"probe: S_PER off -> S-mode faults on priority, enable, "
         f"M context and PLIC_CTRL, not on its S context; S_PER on -> only PLIC_CTRL "
         f"(QEMU status {rc}, 0 = as expected)")
    c.ok("refused (PLIC_CTRL.S_PER = 0)" in out, "QEMU logged the refused accesses")


def t_bad_payloads(c, cc):
    """A payload outside DRAM or too large for it is a clear QEMU error."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe", "sper_probe.S")
    with tempfile.TemporaryDirectory() as d:
        elf = os.path.join(d, "low.elf")
        subprocess.run([cc, "-march=rv64imac_zicsr", "-mabi=lp64", "-nostdlib",
                        "-nostartfiles", "-Wl,--no-warn-rwx-segments",
                        "-Wl,-Ttext=0x3fff0000", "-o", elf, src], check=True)
        r = subprocess.run(d1_cmd(elf, icount=None, bios="none"), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=30)
        c.ok(r.returncode != 0 and "outside DRAM" in r.stdout,
             f"ELF below DRAM refused: {r.stdout.strip()!r}")
        big = os.path.join(d, "big.bin")
        with open(big, "wb") as f:
            f.write(b"\0" * (3 << 20))
        r = subprocess.run(d1_cmd(big, icount=None, extra=["-m", "4M"]),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=30)
        c.ok(r.returncode != 0 and "does not fit in DRAM" in r.stdout,
             f"3 MiB raw payload with 4 MiB of DRAM refused: {r.stdout.strip()!r}")


def t_named_cpu_starts(c, q_exe):
    """The machine's Sstc-off default must not break a named -cpu: QEMU 7.2
    gives the extension properties only to its generic CPUs (any, rv64), so
    a mandatory machine global "sstc" aborts QEMU on sifive-u54."""
    for cpu in ("sifive-u54", "rv64"):
        q = QTest(q_exe, extra=["-cpu", cpu])
        try:
            v = q.readl(TMR0_INTV)
            c.ok(v == 0, f"-cpu {cpu}: the machine starts (Timer0 INTV reads {v})")
        except Exception as e:  # QEMU exited
            c.ok(False, f"-cpu {cpu}: the machine starts ({str(e).strip()[-160:]})")
        finally:
            q.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only")
    ap.add_argument("--cc", default="riscv64-unknown-elf-gcc")
    a = ap.parse_args()
    q_exe = qemu_path()
    c = Checks("emu_devices_d1")
    for t in QTESTS:
        if a.only and t.__name__ != a.only:
            continue
        print(f"{t.__name__}: {t.__doc__.splitlines()[0]}")
        q = QTest(q_exe)
        try:
            t(q, c)
        except Exception as e:  # a protocol error is a failure, not a crash
            c.ok(False, f"{t.__name__}: {e}")
        finally:
            q.close()
    if not a.only or a.only == "t_uart_fifo_off":
        print("t_uart_fifo_off: " + t_uart_fifo_off.__doc__.splitlines()[0])
        t_uart_fifo_off(c, q_exe)
    if not a.only or a.only == "t_uart_auto_rts":
        print("t_uart_auto_rts: " + t_uart_auto_rts.__doc__.splitlines()[0])
        t_uart_auto_rts(c, q_exe)
    if not a.only or a.only == "t_plic_s_per_probe":
        print("t_plic_s_per_probe: " + t_plic_s_per_probe.__doc__.splitlines()[0])
        t_plic_s_per_probe(c, a.cc)
    if not a.only or a.only == "t_named_cpu_starts":
        print("t_named_cpu_starts: " + t_named_cpu_starts.__doc__.splitlines()[0])
        t_named_cpu_starts(c, q_exe)
    if not a.only or a.only == "t_bad_payloads":
        print("t_bad_payloads: " + t_bad_payloads.__doc__.splitlines()[0])
        t_bad_payloads(c, a.cc)
    return c.done()


if __name__ == "__main__":
    sys.exit(main())
