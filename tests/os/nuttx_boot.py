#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Boot a NuttX image on the emulated D1 and check what NuttX prints.

Usage: nuttx_boot.py KIND ELF [--log FILE] [--options T,W,S,K]

KIND says which checks apply (scripts/os/nuttx.sh builds each image):
  stock     upstream lichee-rv-86-panel:nsh: boots to nsh>, answers help,
            uname -a and free (the machine checked by code nobody here wrote)
  default   the library board's defconfig + ostest, examples/timer and
            examples/watchdog: the riscv_wdt firmware left running is reported
            at entry and taken over; /dev lists timer0, watchdog0, ttyS0;
            ostest ends with status 0; /dev/timer0 signals on the period's
            grid; wdog stops feeding and the machine resets one timeout after
            the last feed (the emulator's log: last restart -> expiry)
  bench     d1bench, idle and under the comparison's load (d1bench load):
            20,000 samples, 0 missed, both recorders' JSON lines, each
            naming its load
  tickless  the one-shot lower half + SCHED_TICKLESS: ostest status 0
            (round-robin off in this image: CONFIG_RR_INTERVAL=0) and d1bench
  plic      D1LIB_PLIC: boot, ostest status 0, d1bench
  probe     D1LIB_TICK_PROBE: the tick path's instret count at boot
  uart      D1LIB_UART_COST (d1uart): N bytes in and N bytes out through
            the console's serial path, every byte checked; the instructions
            per byte the app counts, and the UART's register accesses per
            byte counted in the emulator's trace of its MMIO (a -trace of
            memory_region_ops_*, between the app's marker lines)
  combo     an option combination (--options TIMER,WATCHDOG,SERIAL,TICKLESS as
            y/n): with SERIAL it reaches nsh> and /dev matches the options;
            without, it prints the watchdog report and nothing fails
All runs are under -icount shift=0,sleep=off: times are instruction time
(1 instruction = 1 ns), not the D1's. Prints ok/FAIL lines, then
"VERDICT: <kind> <short result>" and exits 1 if any check failed.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402
import oscon  # noqa: E402

PROMPT = r"nsh> "
TIME_HZ = 24_000_000


class Checks:
    def __init__(self):
        self.failed = []
        self.notes = []

    def ok(self, cond, what):
        print(("  ok    " if cond else "  FAIL  ") + what, flush=True)
        if not cond:
            self.failed.append(what)
        return cond


def boot(con, c, timeout=60):
    try:
        con.expect(PROMPT, timeout)
        return c.ok(True, "boots to nsh>")
    except oscon.Timeout as e:
        return c.ok(False, f"boots to nsh> ({e})")


def run(con, c, cmd, timeout, prompt=PROMPT):
    try:
        return con.run(cmd, prompt, timeout)
    except oscon.Timeout as e:
        c.ok(False, f"'{cmd}' returned to the prompt ({e})")
        return con.since(0)


def check_stock(con, c):
    if not boot(con, c):
        return "no nsh>"
    out = run(con, c, "help", 20)
    c.ok("help usage:" in out and "uname" in out, "help lists the commands")
    out = run(con, c, "uname -a", 20)
    c.ok(re.search(r"^NuttX .* risc-v lichee-rv-86-panel", out, re.M) is not None,
         "uname -a names NuttX on lichee-rv-86-panel")
    out = run(con, c, "free", 20)
    m = re.search(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+Umem", out, re.M)
    c.ok(m is not None and int(m.group(1)) > 100_000_000, "free reports the heap (> 100 MB)")
    return "nsh> help/uname/free"


def check_wdt_report(text, c):
    # (The chip's head code prints "A" before NuttX's first line.)
    c.ok(re.search(r"^A?riscv_wdt: running, 16000 ms, reset mode \(at entry\)", text, re.M)
         is not None, "boot log: riscv_wdt left running by the machine (16 s, at entry)")
    c.ok(re.search(r"^riscv_wdt: taken over", text, re.M) is not None,
         "boot log: riscv_wdt taken over")


def check_ostest(con, c, timeout=900):
    out = run(con, c, "ostest", timeout)
    m = re.search(r"ostest_main: Exiting with status (-?\d+)", out)
    c.ok(m is not None and m.group(1) == "0",
         "ostest ends with status 0" + ("" if m else " (no status line)")
         + (f" (status {m.group(1)})" if m and m.group(1) != "0" else ""))
    return out


def check_bench(con, c, periods=20000, load="idle"):
    out = run(con, c, "d1bench" + (" load" if load != "idle" else ""), 600)
    run_line = benchrun.parse(out)
    c.ok(benchrun.clean(run_line, periods),
         f"d1bench: {periods} boundaries, every one a sample of both, none missed or dropped"
         + (f" ({run_line['line']})" if run_line else " (no run line)"))
    reports, dumps, bad = benchrun.reports(out)
    for line in bad:
        c.ok(False, f"d1bench JSON line parses: {line}")
    c.ok(dumps == 2, f"d1bench prints both recorders' dump lines ({dumps})")
    c.ok(all(r.get("load") == load for r in reports), f"d1bench: load {load} in every JSON line")
    kinds = sorted(r.get("measurement", "") for r in reports)
    c.ok(kinds == ["task-wakeup", "timer-irq"],
         f"d1bench prints both JSON lines (timer-irq, task-wakeup): {kinds}")
    for r in reports:
        c.ok(r.get("samples") == periods and r.get("missed") == 0,
             f"{r.get('measurement')}: {r.get('samples')} samples, {r.get('missed')} missed, "
             f"p50 {r.get('p50_ns')} ns, max {r.get('max_ns')} ns ({oscon.emu_common.time_unit()})")
    p50 = {r["measurement"]: r.get("p50_ns", 0) for r in reports if "measurement" in r}
    return (f"d1bench {load} {run_line['irq_samples']} samples + {run_line['irq_missed']} missed"
            if run_line else f"d1bench {load} failed") + \
        "".join(f", {k} p50 {v:.0f} ns" for k, v in sorted(p50.items()))


SVC = ("clock-read", "mutex-handoff", "semaphore-handoff", "thread-create",
       "thread-create-join")
SVC_SAMPLES = {"thread-create": 2000, "thread-create-join": 2000}  # else 20000


def check_svc(con, c, load="idle"):
    """d1bench svc [load]: the five service measurements (d1/bench_svc.h),
    each with its full count of samples, none failed, its report, JSON line
    and dump line, and the clock's resolution line."""
    out = run(con, c, "d1bench svc" + (" load" if load != "idle" else ""), 900)
    found, dumps, bad = benchrun.reports(out)
    for line in bad:
        c.ok(False, f"d1bench svc JSON line parses: {line}")
    reports = {r.get("measurement"): r for r in found}
    c.ok(dumps == len(SVC), f"d1bench svc prints every recorder's dump line ({dumps})")
    res = re.search(r"^d1svc: clock-read resolution: getres (\d+) ns, observed step (\d+) ns", out,
                    re.M)
    c.ok(res is not None and int(res.group(2)) > 0,
         "d1bench svc: the clock's resolution" + (f" (getres {res.group(1)} ns, step "
                                                  f"{res.group(2)} ns)" if res else " (no line)"))
    for name in SVC:
        r = reports.get(name)
        want = SVC_SAMPLES.get(name, 20000)
        got = (f"{r.get('samples')} samples, {r.get('missed')} failed, p50 {r.get('p50_ns')} ns "
               f"({oscon.emu_common.time_unit()})" if r else "no report")
        c.ok(r is not None and r.get("samples") == want and r.get("missed") == 0
             and r.get("load") == load, f"d1bench svc {load} {name}: {got}")
    return f"d1bench svc {load} " + ", ".join(
        f"{n} p50 {reports[n].get('p50_ns', 0):.0f} ns" for n in SVC if n in reports), reports


OSPERF = ("pthread-create", "pthread-switch", "context-switch", "hpwork", "poll-write",
          "pipe-rw", "semwait", "sempost")


# osperf's primitives that measure what a service row measures
# (docs/comparison.md "Cross-check by NuttX's osperf"): pthread-create is
# pthread_create to a higher-priority thread's first statement;
# pthread-switch is sem_post to a blocked higher-priority waiter's return.
OSPERF_SAME = (("pthread-create", "thread-create"), ("pthread-switch", "semaphore-handoff"))
OSPERF_TOLERANCE = 0.20


def check_osperf(con, c, svc=None):
    """nuttx-apps' benchmarks/osperf on the board's performance counter
    (up_perf_*() on the time CSR, D1LIB_PERF): every primitive's max, min
    and average in ns, none 0 (on system ticks every one read 0). Its
    figures, instruction time under -icount, are returned for the verdict.
    With the idle service reports (@svc), each osperf average is held
    against the service row of the same primitive: within 20 %."""
    out = run(con, c, "osperf", 300)
    rows = {}
    for name, mx, mn, avg in re.findall(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", out, re.M):
        rows[name] = (int(mx), int(mn), int(avg))
    missing = [n for n in OSPERF if n not in rows]
    c.ok(not missing, "osperf prints every primitive" + (f" (missing {missing})" if missing else ""))
    zero = [n for n, (mx, mn, avg) in rows.items() if n in OSPERF and (mn == 0 or avg == 0)]
    c.ok(rows and not zero, "osperf: every figure above 0 ns (the counter resolves them)"
         + (f" (0 in {zero})" if zero else ""))
    verdict = "osperf avg " + ", ".join(f"{n} {rows[n][2]} ns" for n in OSPERF if n in rows)
    for prim, row in OSPERF_SAME if svc is not None else ():
        ours = svc.get(row, {}).get("p50_ns")
        theirs = rows.get(prim, (0, 0, 0))[2]
        diff = abs(theirs - ours) / ours if ours else None
        c.ok(diff is not None and diff <= OSPERF_TOLERANCE,
             f"osperf {prim} avg {theirs} ns beside d1bench svc {row} p50 {ours} ns"
             + (f": {diff * 100:.1f} % apart (at most {OSPERF_TOLERANCE * 100:.0f} %)"
                if diff is not None else ": no figure"))
        if diff is not None:
            verdict += f"; osperf {prim} vs {row} {diff * 100:.1f} % apart"
    return verdict


def check_timer(con, c, interval_us):
    """examples/timer: while the timer runs, every sample's elapsed time is
    nsignals x interval + (interval - timeleft). A sample whose usleep() ran
    to its end is one sample delay (100 ms on a 1 ms tick: 100..102 ms)
    after the one before; a signal cuts the sleep short, so the sample after
    a signal lies at most that far on and just past the signal's boundary.
    A signal early or late moves the grid; a lost or extra one breaks the
    count."""
    out = run(con, c, "timer", 120)
    samples = [(int(f, 16), int(t), int(left), int(n)) for f, t, left, n in re.findall(
        r"flags: ([0-9a-f]+) timeout: (\d+) timeleft: (\d+) nsignals: (\d+)", out)]
    running = [s[1:] for s in samples if s[0] & 1]
    if not c.ok(len(running) >= 10, f"/dev/timer0: {len(running)} samples while running"):
        return "timer: no samples"
    c.ok(all(t == interval_us for t, _, _ in running),
         f"/dev/timer0: timeout reads back as the {interval_us} us asked")
    elapsed = [n * interval_us + (interval_us - left) for _, left, n in running]
    bad = []
    for (a, b), (pa, pb) in zip(zip(elapsed, elapsed[1:]), zip(running, running[1:])):
        step = b - a
        if pb[2] == pa[2]:
            good = 99_000 <= step <= 103_000
        else:
            good = pb[2] == pa[2] + 1 and 0 < step <= 103_000 and b % interval_us <= 1_000
        if not good:
            bad.append((a, b, pa[2], pb[2]))
    c.ok(not bad, "/dev/timer0: samples on one grid of the period asked (100 ms apart, or "
         "within 1 ms after a signal's boundary)" + (f": off at {bad[:3]}" if bad else ""))
    nsig = running[-1][2]
    c.ok(nsig == elapsed[-1] // interval_us and nsig >= 5,
         f"/dev/timer0: {nsig} signals in {elapsed[-1]} us of {interval_us} us periods")
    return f"timer0 {nsig} signals on a {interval_us} us grid"


def check_wdog(con, c, qlog, timeout_ms=2000, pingtime_ms=5000, pingdelay_ms=500):
    """examples/watchdog: pings for pingtime, then stops; the machine resets
    timeout_ms after the last feed, and not before pingtime + timeout."""
    con.send("wdog -t %d -d %d -p %d" % (timeout_ms, pingtime_ms, pingdelay_ms))
    rc = con.wait_exit(120)
    c.ok(rc is not None, "wdog: QEMU exits at the watchdog reset (-no-reboot)")
    out = con.since(0)
    pings = len(re.findall(r"^\s*ping elapsed=", out, re.M))
    nopings = re.findall(r"^\s*NO ping elapsed=(\d+)", out, re.M)
    with open(qlog, errors="replace") as f:
        log = f.read()
    restarts = [int(x) for x in re.findall(r"^riscv-wdt: restarted at (\d+) ns virtual", log, re.M)]
    m = re.search(r"^riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset",
                  log, re.M)
    c.ok(pings == pingtime_ms // pingdelay_ms, f"wdog: {pings} pings printed")
    c.ok(len(restarts) >= pings, f"wdog: the machine saw {len(restarts)} restarts (feeds)")
    if not c.ok(m is not None and restarts, "wdog: riscv_wdt expired and reset the machine"):
        return "wdog: no reset"
    interval_ms, expired = int(m.group(1)), int(m.group(2))
    last = max(r for r in restarts if r <= expired)
    c.ok(interval_ms == timeout_ms, f"wdog: the watchdog ran the {timeout_ms} ms asked ({interval_ms})")
    # One tick of the watchdog's 32 kHz count (HOSC/750) is 31,250 ns.
    late = expired - last - timeout_ms * 1_000_000
    c.ok(0 <= late <= 31_250, f"wdog: reset {(expired - last) / 1e6:.6f} ms after the last feed "
         f"(timeout {timeout_ms} ms, within one 32 kHz tick)")
    want_noping = (timeout_ms - 1) // pingdelay_ms
    c.ok(len(nopings) == want_noping, f"wdog: {len(nopings)} 'NO ping' lines after the feeding "
         f"stopped ({want_noping} fit in the timeout)")
    return f"wdog reset {(expired - last) / 1e6:.3f} ms after last feed"


def check_probe(con, c):
    m = None
    try:
        m = con.expect(r"tick path, instret from __trap_vec to the jal into "
                       r"nxsched_process_timer: (\d+) ticks, min (\d+), max (\d+) \(", 120)
    except oscon.Timeout as e:
        c.ok(False, f"probe line printed ({e})")
        return None
    n, lo, hi = (int(x) for x in m.groups())
    c.ok(n >= 900 and lo == hi, f"tick path: {n} ticks counted, min {lo} = max {hi} instructions")
    boot(con, c)
    return lo


UART_N = 4096


def check_uart(con, c, qlog, n=UART_N):
    """d1uart rx and tx; returns {dir: (instructions per byte, accesses per byte)}."""
    res = {}
    pat = oscon.uart_pattern(n)
    for d in ("rx", "tx"):
        r = oscon.uart_cost(con, c, "d1uart", f"d1uart {d} {n}", d, n, PROMPT, f"d1uart {d}")
        if r is None:
            return None
        if d == "tx":
            c.ok(pat in con.buf[r[1]:], f"d1uart tx: the {n} bytes arrived on the line intact")
        res[d] = [r[0]]
    con.proc.terminate()  # SIGTERM: QEMU exits cleanly and its log is complete
    try:
        con.proc.wait(20)
    except subprocess.TimeoutExpired:
        pass
    con.close()
    acc = oscon.uart_trace(qlog)
    # rx: from the ready line's end to the result line's start: the bytes
    # received and whatever the ready line's tail left (a TX-empty
    # interrupt); tx: from the first payload byte written to the last.
    r0 = oscon.find_thr(acc, f"rx ready {n}".encode())
    r1 = oscon.find_thr(acc, b"d1uart: rx bytes=", r0[1] if r0 else 0)
    t = oscon.find_thr(acc, pat)
    if not c.ok(r0 and r1 and t, "the trace holds both windows' marker and payload writes"):
        return None
    lf = oscon.find_thr(acc, b"\n", r0[1])
    rx_n = r1[0] - lf[1] - 1
    tx_n = t[1] - t[0] + 1
    res["rx"].append(rx_n / n)
    res["tx"].append(tx_n / n)
    c.ok(rx_n >= n and tx_n >= n, f"UART accesses: rx {rx_n}, tx {tx_n} for {n} bytes each "
         "(at least one per byte)")
    return res


def check_combo(con, c, opts):
    timer, wdt, serial, tickless = (o == "y" for o in opts)
    if not serial:
        # No console device: the syslog's up_putc lines are all there is.
        try:
            con.expect(r"riscv_wdt: taken over.*\n", 30)
            c.ok(True, "no SERIAL: the boot log reaches the watchdog takeover")
        except oscon.Timeout as e:
            c.ok(False, f"no SERIAL: the boot log reaches the watchdog takeover ({e})")
        return "boot log"
    if not boot(con, c):
        return "no nsh>"
    out = run(con, c, "ls /dev", 20)
    c.ok(("timer0" in out) == timer, f"/dev/timer0 {'present' if timer else 'absent'} as configured")
    c.ok(("watchdog0" in out) == wdt,
         f"/dev/watchdog0 {'present' if wdt else 'absent'} as configured")
    out = run(con, c, "sleep 1", 30)
    c.ok(True, "sleep 1 returns" + (" (tickless)" if tickless else ""))
    return "nsh> ls /dev, sleep 1"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["stock", "default", "bench", "tickless", "plic", "probe", "combo",
                                     "uart"])
    ap.add_argument("elf")
    ap.add_argument("--log", help="serial transcript file")
    ap.add_argument("--options", default="y,y,y,n", help="combo: TIMER,WATCHDOG,SERIAL,TICKLESS")
    ap.add_argument("--timer-interval", type=int, default=250000)
    a = ap.parse_args()

    c = Checks()
    qlog = tempfile.NamedTemporaryFile(suffix=".qemu.log", delete=False).name
    extra = ["-m", "512M"]
    if a.kind == "default":
        extra += ["-d", "cpu_reset,guest_errors", "-D", qlog]
    elif a.kind == "uart":
        extra += ["-trace", "memory_region_ops_*", "-D", qlog]
    verdict = ""
    with oscon.Console(oscon.d1_cmd(a.elf, extra=extra), log=a.log) as con:
        if a.kind == "stock":
            verdict = check_stock(con, c)
        elif a.kind == "default":
            if boot(con, c):
                check_wdt_report(con.since(0), c)
                out = run(con, c, "ls /dev", 20)
                c.ok(all(d in out for d in ("timer0", "watchdog0", "ttyS0", "console")),
                     "/dev has console, ttyS0, timer0, watchdog0")
                check_ostest(con, c)
                v1 = check_timer(con, c, a.timer_interval)
                v2 = check_wdog(con, c, qlog)
                verdict = f"ostest 0, {v1}, {v2}"
        elif a.kind in ("bench", "tickless", "plic"):
            if boot(con, c):
                check_wdt_report(con.since(0), c)
                ost = ""
                if a.kind != "bench":
                    check_ostest(con, c)
                    ost = "ostest 0, "
                if a.kind == "tickless":
                    # NuttX 4ebc8a7291df never re-arms the round-robin slice
                    # when a SCHED_RR task is switched in tickless (fixed
                    # upstream by apache/nuttx#20057): the image has RR off.
                    ost = "ostest 0 (round-robin off: apache/nuttx#20057 is after this commit), "
                verdict = ost + check_bench(con, c)
                if a.kind == "bench":
                    # The comparison's defined load (docs/comparison.md).
                    verdict += "; " + check_bench(con, c, load="memcpy+uart")
                    # The service measurements, idle and loaded.
                    v, svc = check_svc(con, c)
                    verdict += "; " + v
                    verdict += "; " + check_svc(con, c, load="memcpy+uart")[0]
                    # NuttX's own measurement of its primitives, beside.
                    verdict += "; " + check_osperf(con, c, svc)
        elif a.kind == "probe":
            lo = check_probe(con, c)
            verdict = f"tick path {lo} instructions" if lo is not None else "no probe line"
        elif a.kind == "combo":
            verdict = check_combo(con, c, a.options.split(","))
        elif a.kind == "uart" and boot(con, c):
            r = check_uart(con, c, qlog)
            verdict = ("no figures" if r is None else
                       "rx %.2f instructions, %.3f UART accesses per byte; "
                       "tx %.2f instructions, %.3f UART accesses per byte" %
                       (r["rx"][0], r["rx"][1], r["tx"][0], r["tx"][1]))
    os.unlink(qlog)
    print(f"VERDICT: {a.kind} {'ok' if not c.failed else 'FAIL'}: {verdict}")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
