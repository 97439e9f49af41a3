#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Boot the RT-Thread D1 images of scripts/os/rtthread.sh on the emulated D1
and check what RT-Thread prints; or print their sizes from the link maps.

  rtthread_boot.py boot stock|A|A-bytes|B|smart-stock|smart-A|smart-B ELF [--logdir DIR]
  rtthread_boot.py sizes --size SIZE_TOOL IMAGE=ELF...

boot: QEMU -M allwinner-d1, -icount shift=0,sleep=off (the time CSR follows
the instruction count, so the clock figures do not depend on host load),
-no-reboot, the console on a pipe (tests/os/oscon.py). Checks:
  stock  boots to "msh />"; `list device` lists devices.
  A      boots to "msh />" with the port's console (d1uart0) and the
         watchdog takeover lines; `list device` shows d1uart0, d1timer0,
         d1wdt; `d1ucost 4096` (not under Smart): the host sends 4,096
         bytes, the command reads every one (FNV-1a hash) and prints the
         instructions per byte, the UART register accesses per byte are
         counted in QEMU's MMIO trace (-trace memory_region_ops_*); `d1hwtimer 1000`: 24,000 OSC24M clocks programmed (1 ms at
         24 MHz) and the interrupt 24,000..24,048 clocks of the time CSR
         after the start (2 us allowed for trap entry and dispatch);
         `d1hwtimer 1`: 24 clocks programmed, the interrupt within 48
         clocks more; `d1irq`: dispatches counted, no spurious, unhandled
         or foreign; `d1wdt start 2` and no feeding: QEMU (-no-reboot)
         exits at the reset, its log (-d cpu_reset) names a 2000 ms
         riscv-wdt expiry, and the expiry lies 2,000 ms after the start
         time the command printed, within that print's 1 ms resolution
         (+50 us for the instructions between the START write and the
         time read).
  A-bytes  A with BSP_D1_UART_PER_BYTE (the per-byte library calls):
         `d1ucost 4096` as in A, for the side-by-side figures.
  B      boots; `d1bench 20000` idle and `d1bench 20000 1000 load` (the
         comparison's load: a 64 KiB copy and console lines): "irq 20000
         samples + 0 missed, wake 20000 samples + 0 missed"; under load at
         least 1,000 load lines printed; two JSON lines per run that
         parse (tests/os/benchrun.py reports()), os rtthread, load idle / memcpy+uart,
         measurements timer-irq and task-wakeup, 20000 samples and 0 missed
         each. Then `d1svc` and `d1svc load` (the OS-service measurements in
         kernel threads): the clock-read resolution line (getres and the
         observed step 10,000,000 ns, 2 steps, 10 ms apart by the time CSR
         within 10 us), five reports in order
         (clock-read, mutex-handoff, semaphore-handoff, thread-create,
         thread-create-join), each with its dump line, 20000 samples (2000
         for the two thread ones) and 0 failed, period_ns 0, the wake naming
         the API; under load at least one load line.
  smart-stock, smart-A, smart-B: the same checks on the RT_USING_SMART
         images (scripts/os/rtthread.sh --smart), the labels prefixed "smart-".
         smart-B also runs the user-process bench from its romfs,
         `/bin/d1ubench 20000` and `/bin/d1ubench 20000 1000 load`: the
         device announces a run for a user process, the run line as above,
         one JSON line (task-wakeup, wake "read, user process", 20000
         samples, 0 missed), at least 1,000 load lines when loaded, and
         `list_process` no longer lists d1ubench.
Each check prints "ok ..." or "FAIL ..."; the last line is "RESULT: ..."
(one clause for scripts/os/rtthread.sh's summary). Exit 0 all passed, 1 not.

sizes: per image, text/data/bss of the ELF (SIZE_TOOL) and, from the link
map (rtthread.map beside the ELF), the bytes of kept input sections of the
port's objects (build/packages/d1drivers/: glue and the library sources it
compiles) against the rest, by kind (code, read-only data, data, bss).
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402
import oscon  # noqa: E402

PROMPT = r"msh />"
TIME_HZ = 24_000_000
BOOT_TIMEOUT = 120          # host seconds
EXPIRY = r"riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset"


class Checks:
    def __init__(self):
        self.failed = []

    def ok(self, cond, what):
        print(("ok    " if cond else "FAIL  ") + what, flush=True)
        if not cond:
            self.failed.append(what)
        return cond


def list_device(con, c):
    out = con.run("list device", PROMPT, 30)
    if "command not found" in out:
        out = con.run("list_device", PROMPT, 30)
    c.ok(re.search(r"^device\s+type\s+ref count", out, re.M) is not None,
         "list device prints the device table")
    return out


def boot(con, c, what):
    try:
        con.expect(PROMPT, BOOT_TIMEOUT)
        c.ok(True, f"{what}: boots to msh />")
        return True
    except oscon.Timeout as e:
        c.ok(False, f"{what}: boots to msh /> ({e})")
        return False


def run_stock(con, c, a):
    n = a.image
    if not boot(con, c, n):
        return f"{n} boot FAIL"
    out = list_device(con, c)
    c.ok(re.search(r"^uart0\s", out, re.M) is not None, f"{n}: the BSP's uart0 is listed")
    return f"{n} boot ok" if not c.failed else f"{n} FAIL"


def hwtimer(con, c, us):
    out = con.run(f"d1hwtimer {us}", PROMPT, 60)
    m = re.search(r"= (\d+) OSC24M clocks programmed; time CSR: start -> ISR (\d+) clocks, "
                  r"write -> callback (\d+) \(fired\)", out)
    want = us * TIME_HZ // 1_000_000
    if not c.ok(m is not None, f"d1hwtimer {us}: fired ({out.strip().splitlines()[-2:]})"):
        return None
    prog, isr = int(m.group(1)), int(m.group(2))
    c.ok(prog == want, f"d1hwtimer {us}: {prog} clocks programmed (asked {us} us = {want})")
    c.ok(want <= isr <= want + 48, f"d1hwtimer {us}: start -> ISR {isr} clocks of the time CSR "
         f"({want}..{want + 48} allowed)")
    return isr


UCOST_N = 4096


def ucost(con, c, a, n=UCOST_N):
    """d1ucost N; returns instructions per byte, or None. The UART accesses
    are counted after QEMU has exited (ucost_accesses())."""
    r = oscon.uart_cost(con, c, "d1ucost", f"d1ucost {n}", "rx", n, PROMPT,
                        f"{a.image}: d1ucost")
    return None if r is None else r[0]


def ucost_accesses(c, a, n=UCOST_N):
    """UART accesses per byte between d1ucost's ready and result lines."""
    acc = oscon.uart_trace(a.qemu_log)
    r0 = oscon.find_thr(acc, f"rx ready {n}".encode())
    r1 = oscon.find_thr(acc, b"d1ucost: rx bytes=", r0[1] if r0 else 0)
    if not c.ok(r0 is not None and r1 is not None, f"{a.image}: the trace holds d1ucost's lines"):
        return None
    lf = oscon.find_thr(acc, b"\n", r0[1])
    k = r1[0] - lf[1] - 1
    c.ok(k >= n, f"{a.image}: {k} UART accesses for {n} bytes received")
    return k / n


def run_ucost(con, c, a):
    n = a.image
    if not boot(con, c, n):
        return f"{n} boot FAIL"
    per = ucost(con, c, a)
    con.proc.terminate()  # SIGTERM: QEMU exits cleanly and its log is complete
    try:
        con.proc.wait(20)
    except subprocess.TimeoutExpired:
        pass
    acc = ucost_accesses(c, a)
    if c.failed or per is None or acc is None:
        return f"{n} FAIL: " + (c.failed[0] if c.failed else "no figures")
    return f"{n} (per-byte UART calls) rx {per:.2f} instructions, {acc:.3f} UART accesses per byte"


def run_a(con, c, a):
    n = a.image
    if not boot(con, c, n):
        return f"{n} boot FAIL"
    per = None if n.startswith("smart") else ucost(con, c, a)
    text = con.text
    c.ok(re.search(r"riscv_wdt: kept, \d+ ms, fed every \d+ ms until started", text) is not None,
         f"{n}: watchdog taken over (KEEP) at boot")
    out = list_device(con, c)
    for dev in ("d1uart0", "d1timer0", "d1wdt"):
        c.ok(re.search(rf"^{dev}\s", out, re.M) is not None, f"{n}: {dev} listed")
    c.ok(re.search(r"^uart0\s", out, re.M) is None, f"{n}: the BSP's uart0 is not (console = d1uart0)")
    isr = hwtimer(con, c, 1000)
    hwtimer(con, c, 1)
    out = con.run("d1irq", PROMPT, 30)
    m = re.search(r"dispatched (\d+), spurious (\d+), unhandled (\d+), foreign (\d+)", out)
    c.ok(m is not None and int(m.group(1)) > 0 and m.group(2) == m.group(3) == m.group(4) == "0",
         f"{n}: d1irq: " + (m.group(0) if m else "no counters"))
    out = con.run("d1wdt", PROMPT, 30)
    if not c.ok(re.search(r"d1wdt: running, timeout 16 s, .*kept by kernel timer: yes", out)
                is not None, f"{n}: d1wdt: running, 16 s, kept by the kernel timer"):
        return f"{n} FAIL: " + c.failed[0]
    # Unfed: the machine must reset 2 s after the start (QEMU exits: -no-reboot).
    start = len(con.buf)
    con.send("d1wdt start 2")
    rc = con.wait_exit(120)
    out = con.since(start)
    m = re.search(r"start 2 s: 0, at time CSR (\d+) ms", out)
    c.ok(m is not None, f"{n}: d1wdt start 2: " + (m.group(0) if m else out.strip()[-200:]))
    c.ok(rc is not None, f"{n}: QEMU exited at the watchdog reset (-no-reboot), rc={rc}")
    with open(a.qemu_log, errors="replace") as f:
        exp = [(int(x), int(y)) for x, y in re.findall(EXPIRY, f.read())]
    c.ok(len(exp) == 1 and exp[0][0] == 2000, f"{n}: QEMU logged one 2000 ms riscv-wdt expiry ({exp})")
    wdt = "wdt FAIL"
    if m and len(exp) == 1:
        d = exp[0][1] - int(m.group(1)) * 1_000_000
        good = 2000e6 - 50e3 <= d <= 2001e6 + 50e3
        c.ok(good, f"{n}: reset {d / 1e9:.6f} s after the start (2 s; 1 ms print resolution "
             "+ 50 us allowed)")
        if good:
            wdt = f"wdt reset {d / 1e9:.4f} s after start 2"
    if per is not None:
        acc = ucost_accesses(c, a)
        wdt += f"; rx {per:.2f} instructions, {acc:.3f} UART accesses per byte"
    if c.failed:
        return f"{n} FAIL: " + c.failed[0]
    return (f"{n} boot+devices+hwtimer+wdt ok (1000 us = 24000 clocks, ISR at {isr}; {wdt})")


def bench_run(con, c, a, load):
    """One d1bench run; returns {measurement: p50_ns} or None."""
    n = a.image
    cmd = "d1bench 20000" + (" 1000 load" if load != "idle" else "")
    try:
        out = con.run(cmd, PROMPT, a.bench_timeout)
    except oscon.Timeout as e:
        c.ok(False, f"{n}: {cmd} ended ({e})")
        return None
    r = benchrun.parse(out)
    c.ok(benchrun.clean(r, 20000), f"{n} ({load}): " + (r["line"] if r else "no run line"))
    if load != "idle":
        k = len(re.findall(r"^d1bench load: ", out, re.M))
        c.ok(k >= 1000, f"{n} ({load}): {k} load lines on the console during the run")
    docs, dumps, bad = benchrun.reports(out)  # the reports; their dump lines counted
    for line in bad:
        c.ok(False, f"{n}: JSON line does not parse: {line}")
    c.ok(dumps == len(docs), f"{n} ({load}): a dump line beside each report ({dumps})")
    c.ok(len(docs) == 2, f"{n} ({load}): two d1lat JSON lines ({len(docs)})")
    p50 = {}
    for d in docs:
        meas = d.get("measurement")
        p50[meas] = d.get("p50_ns")
        want_os = "rtsmart" if n.startswith("smart") else "rtthread"
        c.ok(d.get("os") == want_os and d.get("board") == "allwinner-d1" and
             d.get("load") == load and d.get("samples") == 20000 and d.get("missed") == 0
             and d.get("clock_hz") == TIME_HZ,
             f"{n}: {meas} ({d.get('load')}): {d.get('samples')} samples, {d.get('missed')} "
             f"missed, p50 {d.get('p50_ns')} ns, max {d.get('max_ns')} ns ({oscon.emu_common.time_unit()})")
    c.ok(sorted(p50) == ["task-wakeup", "timer-irq"], f"{n} ({load}): measurements {sorted(p50)}")
    return p50


USER_WAKE = "read, user process"
# The run's last line: the recorder's dump line, after the report's JSON line.
USER_END = (r'(\{"tool":"d1lat-dump"[^\n]*"wake":"' + re.escape(USER_WAKE) + r'"[^\n]*\}'
            r"|d1ubench: [^\n]*failed[^\n]*|usage: d1ubench[^\n]*)")


def user_run(con, c, a, load):
    """One run of the user-process bench /bin/d1ubench (smart-B's romfs);
    returns its task-wakeup p50 in ns, or None."""
    n = a.image
    cmd = "/bin/d1ubench 20000" + (" 1000 load" if load != "idle" else "")
    try:
        out = con.run(cmd, USER_END, a.bench_timeout)
    except oscon.Timeout as e:
        c.ok(False, f"{n}: {cmd} printed its report ({e})")
        return None
    c.ok("d1bench: 20000 periods of 1000 us on Timer0 (PLIC 75), user process priority"
         in out, f"{n} ({load}): the d1bench device started the run for the user process")
    r = benchrun.parse(out)
    c.ok(benchrun.clean(r, 20000),
         f"{n} user process ({load}): " + (r["line"] if r else "no run line"))
    if load != "idle":
        k = len(re.findall(r"^d1bench load: ", out, re.M))
        c.ok(k >= 1000, f"{n} user process ({load}): {k} load lines on the console")
    docs, dumps, bad = benchrun.reports(out)  # the reports; their dump lines counted
    for line in bad:
        c.ok(False, f"{n}: JSON line does not parse: {line}")
    c.ok(dumps == len(docs), f"{n} ({load}): a dump line beside each report ({dumps})")
    d = docs[-1] if docs else {}
    c.ok(len(docs) == 1 and d.get("os") == "rtsmart" and d.get("measurement") == "task-wakeup"
         and d.get("wake") == USER_WAKE and d.get("load") == load and d.get("samples") == 20000
         and d.get("missed") == 0 and d.get("clock_hz") == TIME_HZ,
         f"{n} user process: task-wakeup ({d.get('wake')}, {d.get('load')}): "
         f"{d.get('samples')} samples, {d.get('missed')} missed, p50 {d.get('p50_ns')} ns, "
         f"max {d.get('max_ns')} ns ({oscon.emu_common.time_unit()}; {len(docs)} JSON line)")
    try:  # the shell answers, and the process has exited
        out = con.run("list_process", PROMPT, 30)
        c.ok("d1ubench" not in out, f"{n} ({load}): d1ubench exited (list_process)")
    except oscon.Timeout as e:
        c.ok(False, f"{n}: msh answers list_process after d1ubench ({e})")
    return d.get("p50_ns")


SVC = [("clock-read", 20000), ("mutex-handoff", 20000), ("semaphore-handoff", 20000),
       ("thread-create", 2000), ("thread-create-join", 2000)]  # include/d1/bench_svc.h
SVC_WAKE = {"mutex-handoff": "rt_mutex", "semaphore-handoff": "rt_sem",
            "thread-create": "rt_thread_create",
            "thread-create-join": "rt_thread_create, rt_sem at exit",
            "clock-read": "rt_tick_get, step 10000000 ns"}
CLOCK_LINE = (r"^d1svc: clock-read resolution: getres (\d+) ns \(1 tick, RT_TICK_PER_SECOND "
              r"(\d+)\), observed step (\d+) ns \((\d+) steps, (\d+) ns apart by the time CSR\)")


def svc_check(c, n, out, load, svc=SVC):
    """The checks of one d1svc run's output; returns {measurement: p50_ns}."""
    m = re.search(CLOCK_LINE, out, re.M)
    # the smallest step is one tick (10 ms), and two steps are 10 ms apart
    # by the time CSR within 10 us (the polling loop)
    c.ok(m is not None and int(m.group(1)) == 10_000_000 and int(m.group(3)) == 10_000_000
         and int(m.group(4)) == 2 and abs(int(m.group(5)) - 10_000_000) <= 10_000,
         f"{n} ({load}): " + (m.group(0)[len("d1svc: "):] if m else "no clock-read resolution line"))
    c.ok(not re.search(r"^d1svc: [^\n]*(stopped|did not|out of memory|usage)", out, re.M),
         f"{n} ({load}): d1svc ran every measurement to its end")
    docs, dumps, bad = benchrun.reports(out)  # the reports; their dump lines counted
    for line in bad:
        c.ok(False, f"{n}: d1svc JSON line does not parse: {line}")
    c.ok(dumps == len(docs), f"{n} ({load}): a dump line beside each d1svc report ({dumps})")
    c.ok([d.get("measurement") for d in docs] == [w for w, _ in svc],
         f"{n} ({load}): d1svc reports {[d.get('measurement') for d in docs]}")
    want_os = "rtsmart" if n.startswith("smart") else "rtthread"
    p50 = {}
    for d in docs:
        meas = d.get("measurement")
        want = dict(svc).get(meas)
        hz = TIME_HZ * 128 if meas == "clock-read" else TIME_HZ
        p50[meas] = d.get("p50_ns")
        c.ok(d.get("os") == want_os and d.get("board") == "allwinner-d1" and
             d.get("load") == load and d.get("samples") == want and d.get("missed") == 0
             and d.get("period_ns") == 0 and d.get("clock_hz") == hz
             and d.get("wake") == SVC_WAKE.get(meas),
             f"{n}: {meas} ({d.get('load')}, {d.get('wake')}): {d.get('samples')} samples "
             f"(want {want}), {d.get('missed')} failed, p50 {d.get('p50_ns')} ns, max "
             f"{d.get('max_ns')} ns ({oscon.emu_common.time_unit()})")
    return p50


def svc_run(con, c, a, load):
    """One d1svc run (kernel threads); returns {measurement: p50_ns} or None."""
    n = a.image
    cmd = "d1svc" + (" load" if load != "idle" else "")
    t0 = time.monotonic()
    try:
        out = con.run(cmd, PROMPT, a.bench_timeout)
    except oscon.Timeout as e:
        c.ok(False, f"{n}: {cmd} ended ({e})")
        return None
    print(f"time: {n}: {cmd} took {time.monotonic() - t0:.1f} s (host)", flush=True)
    if load != "idle":
        k = len(re.findall(r"^d1bench load: ", out, re.M))
        c.ok(k >= 1, f"{n} d1svc ({load}): {k} load lines on the console during the runs")
    return svc_check(c, n, out, load)


def run_b(con, c, a):
    n = a.image
    if not boot(con, c, n):
        return f"{n} boot FAIL"
    res = {}
    for load in ("idle", "memcpy+uart"):
        p50 = bench_run(con, c, a, load)
        if p50 is None:
            return f"{n} d1bench FAIL (no end)"
        res[load] = p50
    svc = {}
    for load in ("idle", "memcpy+uart"):
        svc[load] = svc_run(con, c, a, load)
        if svc[load] is None:
            return f"{n} d1svc FAIL (no end)"
    user = {}
    if n == "smart-B":
        for load in ("idle", "memcpy+uart"):
            user[load] = user_run(con, c, a, load)
            if user[load] is None:
                return f"{n} d1ubench FAIL: " + c.failed[0]
    if c.failed:
        return f"{n} FAIL: " + c.failed[0]
    more = ""
    if user:
        more = (f"; user-process d1ubench 20000/0 idle and memcpy+uart ok (p50 "
                f"{user['idle']} / {user['memcpy+uart']} ns)")
    more += "; d1svc full/0 idle and memcpy+uart ok (p50 " + ", ".join(
        f"{w} {svc['idle'].get(w)} / {svc['memcpy+uart'].get(w)} ns" for w, _ in SVC) + ")"
    return (f"{n} d1bench 20000/0 idle and memcpy+uart ok (p50 timer-irq "
            f"{res['idle'].get('timer-irq')} / {res['memcpy+uart'].get('timer-irq')} ns, "
            f"task-wakeup {res['idle'].get('task-wakeup')} / "
            f"{res['memcpy+uart'].get('task-wakeup')} ns){more}")


def cmd_boot(a):
    os.makedirs(a.logdir, exist_ok=True)
    a.qemu_log = os.path.join(a.logdir, f"qemu-{a.image}.log")
    if os.path.exists(a.qemu_log):
        os.remove(a.qemu_log)
    extra = ["-d", "cpu_reset,guest_errors", "-D", a.qemu_log]
    if a.image in ("A", "A-bytes"):
        extra += ["-trace", "memory_region_ops_*"]  # d1ucost's UART accesses
    cmd = oscon.d1_cmd(a.elf, extra=extra)
    print("qemu: " + " ".join(cmd), flush=True)
    c = Checks()
    with oscon.Console(cmd, log=os.path.join(a.logdir, f"console-{a.image}.log")) as con:
        kind = a.image.replace("smart-", "")
        result = {"stock": run_stock, "A": run_a, "A-bytes": run_ucost, "B": run_b}[kind](con, c, a)
    print("RESULT: " + result)
    return 1 if c.failed else 0


SECTION = re.compile(r"^ (\.\S+|COMMON)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
NAME_ONLY = re.compile(r"^ (\.\S+)$")
CONT = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")


def kind(sec):
    if sec.startswith(".text"):
        return "code"
    if sec.startswith((".rodata", ".srodata")):
        return "rodata"
    if sec.startswith((".data", ".sdata")):
        return "data"
    if sec.startswith((".bss", ".sbss")) or sec == "COMMON":
        return "bss"
    return None


def map_sizes(path):
    """{'port': {kind: bytes}, 'rest': {...}} over kept, allocated input sections."""
    tot = {w: {"code": 0, "rodata": 0, "data": 0, "bss": 0} for w in ("port", "rest")}
    in_map = False
    pending = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not in_map:
                in_map = line.startswith("Linker script and memory map")
                continue
            m = SECTION.match(line)
            if m:
                sec, addr, size, obj = m.groups()
            elif pending and CONT.match(line):
                sec = pending
                addr, size, obj = CONT.match(line).groups()
            else:
                n = NAME_ONLY.match(line)
                pending = n.group(1) if n else None
                continue
            pending = None
            k = kind(sec)
            if k is None or int(addr, 16) == 0:
                continue
            who = "port" if "/packages/d1drivers/" in obj else "rest"
            tot[who][k] += int(size, 16)
    return tot


def cmd_sizes(a):
    rows = {}
    for spec in a.images:
        img, elf = spec.split("=", 1)
        out = subprocess.run([a.size, elf], check=True, stdout=subprocess.PIPE, text=True).stdout
        text, data, bss = (int(x) for x in out.splitlines()[1].split()[:3])
        rows[img] = (text, data, bss, map_sizes(os.path.join(os.path.dirname(elf), "rtthread.map")))
    print(f"{'image':6} {'text':>8} {'data':>7} {'bss':>7}   port objects: code rodata data bss"
          "   (size of the ELF; port = kept input sections of build/packages/d1drivers)")
    for img, (text, data, bss, m) in rows.items():
        p = m["port"]
        print(f"{img:6} {text:8} {data:7} {bss:7}   {p['code']:6} {p['rodata']:6} {p['data']:4} "
              f"{p['bss']:6}")
    s = rows.get("stock") or rows.get("smart-stock")
    parts = []
    for img, (text, data, bss, m) in rows.items():
        if img in ("stock", "smart-stock"):
            parts.append(f"{img} {text}")
        else:
            d = f" = stock {text - s[0]:+d}" if s else ""
            parts.append(f"{img} {text}{d} (port code {m['port']['code']})")
    print("summary: text " + ", ".join(parts))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boot")
    b.add_argument("image", choices=["stock", "A", "A-bytes", "B", "smart-stock", "smart-A",
                                     "smart-B"])
    b.add_argument("elf")
    b.add_argument("--logdir", default=".")
    b.add_argument("--bench-timeout", type=float, default=900)
    s = sub.add_parser("sizes")
    s.add_argument("--size", required=True)
    s.add_argument("images", nargs="+", metavar="IMAGE=ELF")
    a = ap.parse_args()
    return cmd_boot(a) if a.cmd == "boot" else cmd_sizes(a)


if __name__ == "__main__":
    sys.exit(main())
