#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Boot Linux (scripts/os/linux.sh's kernel + initramfs) on the emulated D1 and
check what it does with the D1's blocks, through Linux's own drivers.

Usage: linux_boot.py --kernel Image --initrd initrd.cpio.gz --flavour F
                     [--qemu QEMU] [--logs DIR] [--bench] [CHECK...]

Boots (each a fresh QEMU, -icount shift=0,sleep=off, -no-reboot):
  main    the machine's own device tree. Checks, in this order:
    boot      the initramfs shell comes up; uname -v names PREEMPT or
              PREEMPT_RT as the flavour asks
    probe     each D1 driver probed, asserted on the kernel log (and bound
              in sysfs): the PLIC (thead,c900-plic), the CCU, the sun4i
              timer (clockevent sun4i_tick, clocksource timer@2050000),
              8250_dw on UART0, sunxi_wdt on riscv_wdt; no "Failed"
    uart      64 KiB of random bytes host -> /dev/ttyS0 (raw) arrive
              byte-exact (sha256), and the same 64 KiB back guest -> host
    grid      d1lat-linux: clock_nanosleep(TIMER_ABSTIME) every 1 ms for
              20 s on CLOCK_MONOTONIC = the time CSR (riscv_clocksource):
              no wake-up early, none a period late; what Linux's sun4i
              driver programs in Timer0 (read through QEMU's monitor),
              against the N+1 rule
    module    d1timer.ko refused with Timer1 in use (Linux's clocksource:
              EBUSY) and with a bad period (EINVAL, ERANGE), each with a
              kernel log line
    wdog      busybox watchdog feeds /dev/watchdog (timeout 4 s) every
              1 s, is killed; the machine resets 4 s after the last feed
              (the emulator's -d cpu_reset log: riscv-wdt restart -> expiry)
  nplus1  (CHECK "nplus1") highres=off nohz=off: Linux ticks periodic on
          sun4i's Timer0; the monitor reads INTV = 24000 (rate / HZ), and
          the tick measured against the time CSR over 400 s of
          /proc/timer_list (jiffies vs "now") is 24,001 clocks: +41.7 ppm,
          the N+1 error Linux's driver carries (within +-2 ticks)
  bench   (--bench, CHECK "bench") the device tree dumped with the CLINT
          described (sbi-timer=on: Linux ticks on the SBI timer) and the
          Timer block "reserved", so Linux leaves it alone: d1timer.ko's
          timer-IRQ rows (idle, loaded), d1lat-linux's wake-up rows (idle,
          loaded; SCHED_FIFO 80, and loaded SCHED_OTHER: 20,000 periods
          with its missed ones, also as a percentage; each row's wake names
          its scheduler), rmmod in the middle of a run; then d1svc, the
          OS-service measurements (d1/bench_svc.h), idle and loaded: each
          of the five prints its report, JSON line and dump line with the
          full count of include/d1/bench_svc.h (D1_SVC_SAMPLES,
          D1_SVC_THREAD_SAMPLES) and 0 failed samples, the clock's
          resolution line, and clock_gettime costs less than the system
          call (the vDSO is what clock-read measures); no "RT throttling
          activated" in the kernel log
  nodev   (CHECK "nodev") no Timer node at all: d1timer.ko says ENODEV
The loaded rows run beside d1load, the comparison's defined load
("memcpy+uart": a SCHED_IDLE thread copying 64 KiB in a loop and a thread
writing a 64-character line to the console every 5,556 us, the line's time
at 115,200 baud; docs/comparison.md "The loads"); the bench's output goes
to a file shown after the load stopped, so no load line cuts a report, and
each loaded run checks d1load's summary: exit 0, at least 1,000 lines
(the 20-second runs: 20,000 periods of 1 ms, as every other OS's), copies
made, no failed write (d1svc: at least 100 lines: the load runs 1 s
before it, and d1svc's threads, SCHED_FIFO above it, take a second or
less). The rows say load "idle" or "memcpy+uart", as every
other OS's. Every figure is instruction time
under -icount (1 instruction = 1 ns), not the D1's latency. Prints ok/FAIL
lines, the JSON rows, then "VERDICT: <flavour> <result>"; exit 1 on a FAIL.
"""
import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402  (the reports and dump lines, read as every OS's)
import oscon  # noqa: E402

PROMPT = r"d1# "
ICOUNT = "shift=0,sleep=off"
CMDLINE = "console=ttyS0,115200 earlycon=uart8250,mmio32,0x2500000 clocksource=riscv_clocksource"
LOAD = "memcpy+uart"
LOAD_SUMMARY = r"d1load: (\d+) lines, (\d+) copies of 65536 bytes, (\d+) failed writes"
IDLE = "idle"
PERIODS = 20000  # every row, idle and loaded: 20 s of 1 ms periods
LOAD_LINES_MIN = 1000  # a 20 s run; the load writes 180 lines a second while it runs
TIMER_BASE = 0x02050000
ALL = ["boot", "probe", "uart", "grid", "module", "wdog"]
SVC = ["clock-read", "mutex-handoff", "semaphore-handoff", "thread-create", "thread-create-join"]
SVC_WAKE = {"mutex-handoff": "pthread_mutex", "semaphore-handoff": "sem_post/sem_wait",
            "thread-create": "pthread_create", "thread-create-join": "pthread_create+pthread_join"}
SVC_LOAD_LINES_MIN = 100  # d1svc loaded: 1 s of load before it (180 lines), a second or less beside


class Checks:
    def __init__(self):
        self.failed = []
        self.notes = []
        self.rows = []

    def ok(self, cond, what):
        print(("  ok    " if cond else "  FAIL  ") + what, flush=True)
        if not cond:
            self.failed.append(what)
        return cond


def run(con, c, cmd, timeout=60):
    try:
        return con.run(cmd, PROMPT, timeout)
    except oscon.Timeout as e:
        c.ok(False, f"'{cmd}' returned to the prompt ({e})")
        return con.since(0)


def rc_of(con, c, cmd, timeout=60):
    out = run(con, c, cmd + "; echo RC=$?", timeout)
    m = re.search(r"^RC=(\d+)", out, re.M)
    return (int(m.group(1)) if m else None), out


def qemu_cmd(a, extra=()):
    mon = [] if "-monitor" in extra else ["-monitor", "none"]
    return [a.qemu, "-M", a.machine, "-display", "none"] + mon + ["-no-reboot",
            "-m", "512M", "-kernel", a.kernel, "-initrd", a.initrd,
            "-append", getattr(a, "cmdline", CMDLINE),
            "-icount", ICOUNT] + list(extra)


def boot(con, c, flavour):
    try:
        m = con.expect(r"d1-init: up ([0-9.]+) s, (\S+)\r?\n", 240)
        con.expect(PROMPT, 60)
    except oscon.Timeout as e:
        return c.ok(False, f"boot: the initramfs shell comes up ({e})")
    c.ok(True, f"boot: shell up at {m.group(1).decode()} s (guest uptime), kernel {m.group(2).decode()}")
    out = run(con, c, "uname -v")
    want = "PREEMPT_RT" if flavour == "rt" else "PREEMPT "
    return c.ok(want in out + " ", f"boot: uname -v names {want.strip()}: "
                f"{out.strip().splitlines()[-2] if out.count(chr(10)) > 1 else out.strip()}")


def check_probe(con, c):
    log = run(con, c, "dmesg", 60)
    pats = [
        (r"plic: interrupt-controller@10000000: mapped 175 interrupts",
         "PLIC (thead,c900-plic quirk) mapped 175 interrupts"),
        (r"clocksource: timer: mask: 0xffffffff", "sun4i timer: clocksource 'timer' (Timer1, 32 bits)"),
        (r"2500000\.serial: ttyS0 at MMIO 0x2500000 .* is a (U6_)?16550A",
         "8250_dw: ttyS0 at 0x2500000, a 16550A with 64-byte FIFOs (U6_16550A: no CPR register)"),
        (r"sunxi-wdt 6011000\.watchdog: Watchdog enabled",
         "sunxi_wdt: riscv_wdt at 0x6011000 (the timer block's watchdog is 'reserved')"),
    ]
    for rx, what in pats:
        c.ok(re.search(rx, log) is not None, "probe: " + what)
    c.ok(re.search(r"Failed|failed to|-EPROBE_DEFER|probe .* failed", log) is None,
         "probe: no 'Failed' in the kernel log")
    out = run(con, c, "ls /sys/bus/platform/drivers/sun20i-d1-ccu/ /sys/bus/platform/drivers/dw-apb-uart/ "
              "/sys/bus/platform/drivers/sunxi-wdt/; cat /sys/devices/system/clockevents/clockevent0/current_device "
              "/sys/devices/system/clocksource/clocksource0/current_clocksource "
              "/sys/devices/system/clocksource/clocksource0/available_clocksource")
    c.ok("2001000.clock-controller" in out, "probe: the D1 CCU driver bound 2001000.clock-controller")
    c.ok("2500000.serial" in out, "probe: dw-apb-uart bound 2500000.serial")
    c.ok("6011000.watchdog" in out and "20500a0.watchdog" not in out,
         "probe: sunxi-wdt bound 6011000.watchdog only")
    c.ok("sun4i_tick" in out, "probe: the clockevent is sun4i_tick (Timer0)")
    c.ok(re.search(r"^riscv_clocksource\s*$", out, re.M) is not None
         and re.search(r"^timer riscv_clocksource\s*$", out, re.M) is not None,
         "probe: current clocksource riscv_clocksource (command line); sun4i's 'timer' available")


def check_uart(con, c, n=65536):
    rnd = random.Random(0xD1)
    data = bytes(rnd.getrandbits(8) for _ in range(n))
    want = hashlib.sha256(data).hexdigest()
    # Host -> guest: raw mode, head reads exactly n bytes into a file.
    # RAW""READY: the command line's echo does not match, only the output,
    # which comes once stty has put the line in raw mode (on a loaded host a
    # fixed host-time pause was not always enough, in the timing mode)
    con.send('stty raw -echo; echo RAW""READY; head -c %d /dev/ttyS0 > /tmp/rx; stty sane; '
             'echo RXDONE' % n)
    con.expect(r"RAWREADY", 60)
    time.sleep(1.0)
    for i in range(0, n, 256):
        con.proc.stdin.write(data[i:i + 256])
        con.proc.stdin.flush()
        con._pump(0.005)
    try:
        con.expect(r"RXDONE", 300)
        con.expect(PROMPT, 30)
    except oscon.Timeout as e:
        c.ok(False, f"uart: 64 KiB host -> guest read by head ({e})")
        return "rx stuck"
    out = run(con, c, "sha256sum /tmp/rx")
    c.ok(want in out, f"uart: {n} bytes host -> /dev/ttyS0 arrive byte-exact (sha256 {want[:16]}...)")
    # Guest -> host: raw output, the file between two markers.
    start = len(con.buf)
    # TX""END: the echo of the command line does not match, only the output
    con.send('stty raw -echo; echo TXBEGIN; cat /tmp/rx; echo TX""END; stty sane')
    try:
        con.expect(r"TXEND", 300)
        con.expect(PROMPT, 30)
    except oscon.Timeout as e:
        c.ok(False, f"uart: 64 KiB guest -> host ({e})")
        return "tx stuck"
    seg = con.buf[start:]
    i = seg.find(b"TXBEGIN\n")
    got = seg[i + 8:i + 8 + n] if i >= 0 else b""
    c.ok(got == data, f"uart: {n} bytes /dev/ttyS0 -> host byte-exact ({len(got)} read)")
    return "64 KiB both ways"


def json_rows(text):
    """The JSON report lines of @text (not their dump lines)."""
    return benchrun.reports(text)[0]


def dump_lines(text):
    return benchrun.reports(text)[1]


def d1lat(con, c, flavour, load, loops, tick, prio=80):
    cmd = ("d1lat-linux -i 1000 -l %d -p %d --board '%s' --load '%s' --dump"
           % (loops, prio, board(flavour, tick), load))
    if load == IDLE:
        out = run(con, c, cmd, 900)
    else:
        out = with_load(con, c, "d1lat-linux", cmd + " >/tmp/d1lat.txt", "cat /tmp/d1lat.txt", 900)
    rows = json_rows(out)
    c.ok(dump_lines(out) == 1, f"d1lat-linux prints the recorder's dump line ({load}, "
         f"priority {prio})")
    return out, (rows[-1] if rows else None)


def board(flavour, tick):
    """The report's board field: the kernel flavour and what Linux ticks on."""
    return "allwinner-d1 %s, %s tick" % (flavour_name(flavour), tick)


def flavour_name(f):
    return "PREEMPT_RT" if f == "rt" else "PREEMPT"


def monitor_words(mon, addr, n):
    """@n 32-bit words at physical @addr, through QEMU's HMP monitor socket."""
    import socket
    try:
        with socket.socket(socket.AF_UNIX) as sk:
            sk.settimeout(10)
            sk.connect(mon)
            buf = b""
            while b"(qemu)" not in buf:
                buf += sk.recv(4096)
            sk.sendall(b"xp /%dwx 0x%x\n" % (n, addr))
            buf = b""
            while b"\n(qemu)" not in buf:
                chunk = sk.recv(4096)
                if not chunk:
                    break
                buf += chunk
    except OSError:
        return []
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", buf.decode(errors="replace"))
    words = []
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):((\s+0x[0-9a-f]{8})+)", line)
        if m:
            words += [int(w, 16) for w in m.group(2).split()]
    return words[:n]


def check_grid(con, c, flavour, mon):
    out, row = d1lat(con, c, flavour, IDLE, PERIODS, "sun4i")
    if not c.ok(row is not None, "grid: d1lat-linux printed its JSON line"):
        return "no report"
    c.rows.append(row)
    c.ok(row["samples"] + row["missed"] == PERIODS,
         f"grid: 20,000 periods of 1 ms = 20 s: {row['samples']} samples + {row['missed']} missed")
    c.ok("before the intended time" not in out, "grid: no wake-up before its intended time")
    if not c.ok(row["missed"] == 0, f"grid: no wake-up a period late (missed {row['missed']})"):
        print(run(con, c, "dmesg | tail -8"))
    # What Linux's sun4i driver leaves in the Timer block (one-shot: delta - 3),
    # read by the machine's monitor (the kernel has no /dev/mem).
    v = monitor_words(mon, TIMER_BASE, 10)
    if c.ok(len(v) == 10, "grid: the Timer block's registers read through the QEMU monitor"):
        en, c0, i0, c1, i1 = v[0], v[4], v[5], v[8], v[9]
        c.ok(c0 & 0x80 and c0 & 0x4, f"grid: Timer0 one-shot on OSC24M (CTRL 0x{c0:08x}, last INTV {i0}: "
             "sun4i programs delta - 3)")
        c.ok(c1 & 1 and i1 == 0xFFFFFFFF, f"grid: Timer1 free-running clocksource (CTRL 0x{c1:08x}, "
             f"INTV 0x{i1:08x})")
    return (f"20 s on the grid: p50 {row['p50_ns'] / 1000:.1f} us, max {row['max_ns'] / 1000:.1f} us "
            f"({oscon.emu_common.time_unit()})")


def check_nplus1(con, c, mon, seconds=400):
    """Linux's periodic tick on sun4i's Timer0 (highres=off nohz=off): what
    the driver programs, and the tick's length measured against the time
    CSR (CLOCK_MONOTONIC on riscv_clocksource) over @seconds."""
    v = monitor_words(mon, TIMER_BASE, 10)
    if not c.ok(len(v) == 10, "nplus1: the Timer block's registers read through the QEMU monitor"):
        return "no registers"
    c0, i0 = v[4], v[5]
    c.ok(c0 & 0x80 == 0 and c0 & 1 and i0 == 24000,
         f"nplus1: sun4i runs Timer0 periodic with INTV {i0} (CTRL 0x{c0:08x}): rate / HZ, "
         "which counts 24,001 clocks")
    out = run(con, c, "grep -E '^now at|^jiffies' /proc/timer_list | head -2; sleep %d; "
              "grep -E '^now at|^jiffies' /proc/timer_list | head -2" % seconds, 900)
    now = [int(x) for x in re.findall(r"^now at (\d+) nsecs", out, re.M)]
    jif = [int(x) for x in re.findall(r"^jiffies: (\d+)", out, re.M)]
    if not c.ok(len(now) == 2 and len(jif) == 2, "nplus1: /proc/timer_list read twice"):
        return "no timer_list"
    ticks = (jif[1] - jif[0]) % (1 << 64)
    tick_ns = (now[1] - now[0]) / ticks
    ppm = (tick_ns / 1e6 - 1) * 1e6
    # +-1 tick of phase at each end: +-2 ms over the run
    tol = 2e6 / (now[1] - now[0]) * 1e6
    c.ok(abs(ppm - 1e6 / 24000) <= tol + 1,
         f"nplus1: {ticks} ticks in {(now[1] - now[0]) / 1e9:.3f} s of the time CSR: "
         f"{tick_ns:.1f} ns per tick, {ppm:+.1f} ppm (24,001 clocks: +41.7 ppm; +-{tol:.1f})")
    return f"periodic tick {ppm:+.1f} ppm (INTV {i0})"


def insmod(con, c, args, want_errno, want_log):
    rc, out = rc_of(con, c, "insmod /lib/modules/d1timer.ko %s" % args)
    log = run(con, c, "dmesg | tail -3")
    return (c.ok(rc not in (None, 0) and want_errno in out,
                 f"module: insmod {args or '(defaults)'} refused: {want_errno}")
            and c.ok(want_log in log, f"module: kernel log says '{want_log}'"))


def check_module_refusals(con, c):
    insmod(con, c, "", "Device or resource busy", "Timer1 of /soc/timer@2050000 is in use")
    insmod(con, c, "period_us=0", "Invalid argument", "both must be > 0")

    out = run(con, c, "lsmod; cat /proc/sys/kernel/tainted")
    c.ok("d1timer" not in out, "module: nothing left loaded after the refusals")


def check_wdog(con, c, qlog, timeout_s=4):
    rc, out = rc_of(con, c, "watchdog -T %d -t 1 /dev/watchdog; sleep 3; pidof watchdog" % timeout_s)
    pid = re.findall(r"^(\d+)\s*$", out, re.M)
    if not c.ok(bool(pid), "wdog: busybox watchdog feeds /dev/watchdog"):
        return "no watchdog daemon"
    con.send("kill -9 %s" % pid[0])
    code = con.wait_exit(120)
    c.ok(code is not None, "wdog: QEMU exits at the watchdog reset (-no-reboot)")
    with open(qlog, errors="replace") as f:
        log = f.read()
    restarts = [int(x) for x in re.findall(r"^riscv-wdt: restarted at (\d+) ns virtual", log, re.M)]
    m = re.search(r"^riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset", log, re.M)
    c.ok(len(restarts) >= 3, f"wdog: the machine saw {len(restarts)} restarts (feeds)")
    if not c.ok(m is not None and bool(restarts), "wdog: riscv_wdt expired and reset the machine"):
        return "no reset"
    interval_ms, expired = int(m.group(1)), int(m.group(2))
    last = max(r for r in restarts if r <= expired)
    c.ok(interval_ms == timeout_s * 1000, f"wdog: the watchdog ran {interval_ms} ms ({timeout_s} s asked)")
    late = expired - last - timeout_s * 1_000_000_000
    c.ok(0 <= late <= 31_250, f"wdog: reset {(expired - last) / 1e6:.3f} ms after the last feed "
         "(within one 32 kHz tick)")
    return f"wdog reset {(expired - last) / 1e6:.3f} ms after the last feed"


def with_load(con, c, what, bench, show, timeout, lines_min=LOAD_LINES_MIN):
    """@bench (shell) with d1load running beside it, then @show (what
    prints the bench's result) once the load has stopped; returns that
    output. Checks d1load's exit and summary (at least @lines_min lines)."""
    out = run(con, c, "d1load 2>/tmp/load.txt & LP=$!; %s; kill $LP; wait $LP; "
              "echo LOADRC=$?; cat /tmp/load.txt; %s" % (bench, show), timeout)
    m = re.search(LOAD_SUMMARY, out)
    rc = re.search(r"LOADRC=(\d+)", out)
    c.ok(rc is not None and rc.group(1) == "0" and m is not None and
         int(m.group(1)) >= lines_min and int(m.group(2)) > 0 and m.group(3) == "0",
         f"load ({what}): d1load " + (m.group(0) if m else "printed no summary")
         + (f", exit {rc.group(1)}" if rc else ""))
    return out


def module_run(con, c, flavour, load, periods=PERIODS):
    # busybox insmod passes the string on; the kernel's parser takes "..."
    insmod = ("insmod /lib/modules/d1timer.ko period_us=1000 periods=%d "
              "'board=\"%s\"' 'load=\"%s\"'; echo INSMOD=$?"
              % (periods, board(flavour, "SBI"), load))
    wait = "i=0; while ! grep -q done /proc/d1timer && [ $i -lt 600 ]; do sleep 1; i=$((i+1)); done"
    if load == IDLE:
        out = run(con, c, insmod + "; " + wait + "; cat /proc/d1timer", 1800)
    else:
        out = with_load(con, c, "d1timer.ko", insmod + "; " + wait, "cat /proc/d1timer", 1800)
    m = re.search(r"INSMOD=(\d+)", out)
    if not c.ok(m is not None and m.group(1) == "0", f"bench: insmod d1timer.ko ({load})"):
        run(con, c, "dmesg | tail -5")
        return None
    rows = json_rows(out)
    c.ok(bool(rows), f"bench: /proc/d1timer gives the timer-irq JSON line ({load})")
    c.ok(dump_lines(out) == 1, f"bench: /proc/d1timer gives the recorder's dump line ({load})")
    rc, _ = rc_of(con, c, "rmmod d1timer")
    c.ok(rc == 0, "bench: rmmod d1timer")
    if rows:
        r = rows[-1]
        c.ok(r["samples"] + r["missed"] == periods,
             f"bench: {r['samples']} samples + {r['missed']} missed = {periods} periods")
        c.rows.append(r)
        return r
    return None


def check_bench(con, c, flavour, mon):
    out = run(con, c, "cat /sys/devices/system/clockevents/clockevent0/current_device; "
              "cat /sys/devices/system/clocksource/clocksource0/available_clocksource")
    c.ok("riscv_timer_clockevent" in out and re.search(r"^timer ", out, re.M) is None,
         "bench: Linux ticks on the SBI timer and leaves the reserved Timer block alone")
    # 2^32 clocks of OSC24M is 178.96 s: the library refuses 179 s (D1_ERANGE)
    insmod(con, c, "period_us=179000000", "Numerical result out of range",
           "a period of 179000000 us cannot be programmed on Timer1 (-34)")
    # rmmod in the middle of a run
    rc, _ = rc_of(con, c, "insmod /lib/modules/d1timer.ko periods=100000 && sleep 1 && "
                  "grep running /proc/d1timer && rmmod d1timer && ! grep -q d1timer /proc/modules")
    c.ok(rc == 0, "bench: rmmod in the middle of a run unloads cleanly")
    out = run(con, c, "insmod /lib/modules/d1timer.ko periods=100000; ps | grep -c '[i]rq/[0-9]*-d1timer'; "
              "grep d1timer /proc/interrupts; rmmod d1timer")
    c.ok(re.search(r"^0\s*$", out, re.M) is not None and "d1timer" in out,
         "bench: the handler runs in hard interrupt context (no irq/NN-d1timer thread)")
    v = monitor_words(mon, TIMER_BASE, 10)
    c.ok(len(v) == 10 and v[0] & 2 == 0 and v[8] & 1 == 0,
         "bench: after rmmod Timer1 is stopped and its interrupt off (IRQ_EN 0x%x, TMR1_CTRL 0x%x)"
         % (v[0], v[8]) if len(v) == 10 else "bench: Timer registers read after rmmod")
    rows = []
    rows.append(module_run(con, c, flavour, IDLE))
    _, r = d1lat(con, c, flavour, IDLE, PERIODS, "SBI")
    c.ok(r is not None, "bench: d1lat-linux idle row")
    c.rows.append(r) if r else None
    rows.append(module_run(con, c, flavour, LOAD))
    _, r = d1lat(con, c, flavour, LOAD, PERIODS, "SBI")
    c.ok(r is not None, "bench: d1lat-linux loaded row")
    c.rows.append(r) if r else None
    timerlat(con, c, flavour)
    # Linux's ordinary scheduler beside SCHED_FIFO 80: the same loaded row
    # with the thread SCHED_OTHER; its missed periods are part of the row.
    sched_other(con, c, flavour)
    for x in c.rows:
        if x and x.get("measurement") == "task-wakeup":
            c.ok(x.get("wake") in ("clock_nanosleep, SCHED_FIFO 80", "clock_nanosleep, SCHED_OTHER"),
                 f"bench: the wake-up row names its scheduler ({x.get('wake')!r}, {x.get('load')})")
    # The OS-service measurements (d1/bench_svc.h), idle and loaded.
    svc_run(con, c, flavour, IDLE)
    svc_run(con, c, flavour, LOAD)
    out = run(con, c, "dmesg | grep -c 'RT throttling activated'; echo THR-END")
    c.ok(re.search(r"^0\s*$", out, re.M) is not None,
         "bench: the SCHED_FIFO runs never met RT throttling (no 'RT throttling activated')")
    out = run(con, c, "dmesg | grep -iE 'warn|bug|oops' | head -5; echo DMESG-END")
    c.ok(re.search(r"WARNING|BUG|Oops", out) is None, "bench: no WARNING/BUG/Oops in the kernel log")
    return "rows: " + ", ".join(f"{x['measurement']}/{'idle' if x['load'] == IDLE else 'loaded'}"
                                f"/{x['board'].split()[-2]}"
                                + ("/SCHED_OTHER" if x.get("wake", "").endswith("SCHED_OTHER") else "")
                                + f" p50 {x['p50_ns'] / 1000:.1f} us max {x['max_ns'] / 1000:.1f} us"
                                for x in c.rows if x and x["measurement"] not in SVC) \
        + "; services: " + ", ".join(f"{x['measurement']}/{'idle' if x['load'] == IDLE else 'loaded'} "
                                     f"p50 {x['p50_ns']:.0f} ns" for x in c.rows if x and x["measurement"] in SVC)


def sched_other(con, c, flavour):
    t0 = time.monotonic()
    out, r = d1lat(con, c, flavour, LOAD, PERIODS, "SBI", prio=0)
    if not c.ok(r is not None, "sched_other: d1lat-linux -p 0 (SCHED_OTHER) loaded row"):
        return
    c.rows.append(r)
    c.ok(r["wake"] == "clock_nanosleep, SCHED_OTHER",
         f"sched_other: the row's wake names the scheduler ({r['wake']!r})")
    c.ok(r["samples"] + r["missed"] == PERIODS,
         f"sched_other: {r['samples']} samples + {r['missed']} missed = {PERIODS} periods")
    m = re.search(r"^d1lat-linux: SCHED_OTHER: missed (\d+) of (\d+) periods \(([0-9.]+) %\)", out, re.M)
    c.ok(m is not None and int(m.group(1)) == r["missed"] and int(m.group(2)) == PERIODS,
         "sched_other: the missed periods as a percentage: " + (m.group(0) if m else "no line"))
    slack = re.search(r"^SLACK=(\d+)", run(con, c, "echo SLACK=$(cat /proc/self/timerslack_ns)"), re.M)
    c.notes.append(f"SCHED_OTHER {flavour_name(flavour)} loaded: {r['missed']} of {PERIODS} periods "
                   f"missed ({100 * r['missed'] / PERIODS:.2f} %), p50 {r['p50_ns'] / 1000:.2f} us, "
                   f"max {r['max_ns'] / 1000:.2f} us ({time.monotonic() - t0:.0f} s host); a SCHED_OTHER "
                   f"shell's timer slack {slack.group(1) if slack else '?'} ns")
    print("  note  " + c.notes[-1])


def svc_counts():
    """D1_SVC_SAMPLES and D1_SVC_THREAD_SAMPLES, from include/d1/bench_svc.h."""
    hdr = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "d1",
                       "bench_svc.h")
    with open(hdr) as f:
        text = f.read()
    return {k: int(re.search(r"^#define %s (\d+)u" % k, text, re.M).group(1))
            for k in ("D1_SVC_SAMPLES", "D1_SVC_THREAD_SAMPLES")}


def svc_run(con, c, flavour, load):
    """d1svc: each of the five measurements printed its report, JSON line and
    dump line with the full sample count and no failed sample; the clock's
    resolution, and glibc's clock_gettime cheaper than the system call (the
    vDSO path is what clock-read measures)."""
    n = svc_counts()
    want = {x: n["D1_SVC_THREAD_SAMPLES" if x.startswith("thread-") else "D1_SVC_SAMPLES"] for x in SVC}
    cmd = "d1svc --board '%s'" % board(flavour, "SBI")
    t0 = time.monotonic()
    if load == IDLE:
        out = run(con, c, cmd + "; echo SVCRC=$?", 900)
    else:
        # a second of load first: d1svc checks that d1load runs
        out = with_load(con, c, "d1svc", "sleep 1; %s load >/tmp/d1svc.txt 2>&1; echo SVCRC=$?" % cmd,
                        "cat /tmp/d1svc.txt", 900, lines_min=SVC_LOAD_LINES_MIN)
    host_s = time.monotonic() - t0
    m = re.search(r"^SVCRC=(\d+)", out, re.M)
    c.ok(m is not None and m.group(1) == "0", f"svc ({load}): d1svc exit status "
         + (m.group(1) if m else "not printed"))
    rows = {r.get("measurement"): r for r in json_rows(out) if r.get("tool") == "d1lat"}
    dumps = [x for x in re.findall(r'^\{"tool":"d1lat-dump".*?"measurement":"([^"]*)"', out, re.M)]
    c.ok(sorted(dumps) == sorted(SVC), f"svc ({load}): a dump line per measurement ({len(dumps)})")
    res = re.search(r"^d1svc: clock-read resolution: getres (\d+) ns, observed step (\d+) ns", out, re.M)
    c.ok(res is not None and int(res.group(1)) > 0 and int(res.group(2)) > 0,
         f"svc ({load}): " + (res.group(0)[7:] if res else "no resolution line"))
    v = re.search(r"^d1svc: clock-read: vDSO (mapped|NOT mapped); one batch of \d+: clock_gettime "
                  r"([0-9.]+) ns, syscall\(SYS_clock_gettime\) ([0-9.]+) ns per call", out, re.M)
    c.ok(v is not None and v.group(1) == "mapped" and float(v.group(2)) < float(v.group(3)),
         f"svc ({load}): clock_gettime goes through the vDSO: "
         + (f"{v.group(2)} ns a call, the system call {v.group(3)} ns" if v else "no line"))
    for x in SVC:
        r = rows.get(x)
        wake_ok = r is not None and (r.get("wake", "").startswith(
            "clock_gettime(CLOCK_MONOTONIC) vDSO, resolution ") if x == "clock-read"
            else r.get("wake") == SVC_WAKE[x])
        c.ok(r is not None and r["samples"] == want[x] and r["missed"] == 0 and r["load"] == load
             and r["period_ns"] == 0 and wake_ok,
             f"svc ({load}): {x}: " + (f"{r['samples']} samples (want {want[x]}), {r['missed']} failed, "
                                       f"p50 {r['p50_ns']:.1f} ns, max {r['max_ns']:.1f} ns, "
                                       f"wake {r['wake']!r}" if r else "no report"))
        if r:
            c.rows.append(r)
    c.notes.append(f"d1svc {flavour_name(flavour)} {load}: {host_s:.0f} s host")
    print("  note  " + c.notes[-1])


def timerlat(con, c, flavour, seconds=5):
    out = run(con, c, "cd /sys/kernel/tracing && echo 0 > tracing_on && echo > trace && "
              "echo 1000 > osnoise/timerlat_period_us && echo timerlat > current_tracer && "
              "echo 1 > tracing_on && sleep %d && echo 0 > tracing_on && "
              "grep -c timer_latency trace; grep 'thread timer_latency' trace | "
              "awk '{print $(NF-1)}' | sort -n | awk '{a[NR]=$1} END {print \"TL\", NR, a[1], "
              "a[int(NR/2)+1], a[int(NR*0.99)+1], a[NR]}'; echo nop > current_tracer; cd /" % seconds, 300)
    m = re.search(r"^TL (\d+) (\d+) (\d+) (\d+) (\d+)", out, re.M)
    if c.ok(m is not None and int(m.group(1)) > 0, "bench: timerlat tracer recorded thread latencies"):
        n, lo, p50, p99, hi = (int(x) for x in m.groups())
        c.notes.append(f"timerlat {flavour_name(flavour)} idle {seconds} s: {n} thread samples, min {lo} "
                       f"p50 {p50} p99 {p99} max {hi} ns ({oscon.emu_common.time_unit()})")
        print("  note  " + c.notes[-1])


def dump_dtb(a, path, edit):
    """The machine's device tree with sbi-timer=on, edited by @edit (dts -> dts)."""
    raw = path + ".raw"
    # the tree does not depend on the timing mode, which needs -icount: without it
    machine = a.machine.split(",timing=")[0]
    subprocess.run([a.qemu, "-M", machine + ",sbi-timer=on,dumpdtb=" + raw, "-display", "none"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", raw], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    dts = edit(dts)
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", path, "-"], input=dts, text=True,
                   check=True)
    os.unlink(raw)
    return path


def reserve_timer(dts):
    out, n = re.subn(r"(timer@2050000 \{\n)", r'\1\t\t\tstatus = "reserved";\n', dts)
    assert n == 1, "no timer@2050000 node in the dumped device tree"
    return out


def drop_timer(dts):
    out, n = re.subn(r"\n\t\ttimer@2050000 \{.*?\n\t\t\};", "", dts, flags=re.S)
    assert n == 1, "no timer@2050000 node in the dumped device tree"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--flavour", choices=["preempt", "rt"], required=True)
    ap.add_argument("--qemu", default=None)
    ap.add_argument("--logs", default=".")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("checks", nargs="*")
    a = ap.parse_args()
    a.qemu = a.qemu or oscon.emu_common.qemu_path()
    a.machine = oscon.emu_common.d1_machine()  # timing=c906 under D1_EMU_TIMING=c906
    checks = a.checks or (ALL + ["nplus1"] + (["bench", "nodev"] if a.bench else []))
    c = Checks()
    verdicts = []
    tmp = tempfile.mkdtemp(prefix="d1linux.")
    qlog = os.path.join(tmp, "qemu.log")
    main_checks = [x for x in checks if x in ALL]
    if main_checks:
        log = os.path.join(a.logs, f"serial-{a.flavour}-main.txt")
        mon = os.path.join(tmp, "monitor.sock")
        with oscon.Console(qemu_cmd(a, ["-d", "cpu_reset,guest_errors", "-D", qlog,
                                        "-monitor", "unix:%s,server=on,wait=off" % mon]), log=log) as con:
            if boot(con, c, a.flavour):
                if "probe" in main_checks:
                    check_probe(con, c)
                if "uart" in main_checks:
                    verdicts.append(check_uart(con, c))
                if "grid" in main_checks:
                    verdicts.append(check_grid(con, c, a.flavour, mon))
                if "module" in main_checks:
                    check_module_refusals(con, c)
                if "wdog" in main_checks:
                    verdicts.append(check_wdog(con, c, qlog))
            else:
                verdicts.append("no shell")
    if "nplus1" in checks:
        log = os.path.join(a.logs, f"serial-{a.flavour}-nplus1.txt")
        mon = os.path.join(tmp, "monitor-nplus1.sock")
        a2 = argparse.Namespace(**vars(a))
        a2.cmdline = CMDLINE + " highres=off nohz=off"
        with oscon.Console(qemu_cmd(a2, ["-monitor", "unix:%s,server=on,wait=off" % mon]), log=log) as con:
            if boot(con, c, a.flavour):
                verdicts.append(check_nplus1(con, c, mon))
    if "bench" in checks:
        dtb = dump_dtb(a, os.path.join(tmp, "bench.dtb"), reserve_timer)
        log = os.path.join(a.logs, f"serial-{a.flavour}-bench.txt")
        a2 = argparse.Namespace(**vars(a))
        a2.machine = a.machine + ",sbi-timer=on"
        mon = os.path.join(tmp, "monitor-bench.sock")
        with oscon.Console(qemu_cmd(a2, ["-dtb", dtb, "-monitor", "unix:%s,server=on,wait=off" % mon]),
                           log=log) as con:
            if boot(con, c, a.flavour):
                verdicts.append(check_bench(con, c, a.flavour, mon))
    if "nodev" in checks:
        dtb = dump_dtb(a, os.path.join(tmp, "nodev.dtb"), drop_timer)
        log = os.path.join(a.logs, f"serial-{a.flavour}-nodev.txt")
        a2 = argparse.Namespace(**vars(a))
        a2.machine = a.machine + ",sbi-timer=on"
        with oscon.Console(qemu_cmd(a2, ["-dtb", dtb]), log=log) as con:
            if boot(con, c, a.flavour):
                insmod(con, c, "", "No such device", "no allwinner,sun20i-d1-timer node")
    for r in c.rows:
        if r:
            print(json.dumps(r, separators=(",", ":")))
    print(f"VERDICT: {a.flavour} {'ok' if not c.failed else 'FAIL (' + str(len(c.failed)) + ')'}: "
          + "; ".join(v for v in verdicts if v))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
