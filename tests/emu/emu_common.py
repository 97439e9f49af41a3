# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the emulated-D1 tests (QEMU machine allwinner-d1,
built from emu/qemu-d1). Python 3 stdlib only.

The QEMU binary: $D1_EMU_QEMU, else whatever emu/qemu-d1/build.sh prints
(it builds the emulator on first use and reuses the cached binary after).

Timing: -icount shift=0,sleep=off makes virtual time = retired
instructions x 1 ns and skips idle time instantly, so figures are
deterministic instruction time, not host noise (docs/emulator.md).
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
ICOUNT = "shift=0,sleep=off"
# $D1_EMU_TIMING: empty (instruction time, the default), "c906" (the
# timing mode, -M allwinner-d1,timing=c906: modelled C906 cycles;
# docs/emulator.md "Timing mode"), or "c906-fast" / "c906-slow": the timing
# mode with every estimated parameter at the end of its range that makes
# the model fastest / slowest (the ranges: the emulator's own table,
# C906_SOURCE). The OS stages run their images in it unchanged
# (bench/comparison.sh --timing MODE).
TIMINGS = ("", "c906", "c906-fast", "c906-slow")
C906_SOURCE = ROOT / "emu/qemu-d1/target/riscv/c906-timing.c"
# The parameters no public source fixes (docs/emulator.md "Timing mode"):
# a larger value is slower, except the TLB's entries.
C906_ESTIMATES = ("load-latency", "fp-latency", "fp-simple", "fdiv", "mispredict", "csr",
                  "fence", "fence-i", "cacheop-line", "cacheop-all", "trap", "xret", "wfi",
                  "dram-ns", "mmio-ns", "jtlb-entries")
C906_FASTER_WHEN_LARGER = ("jtlb-entries",)


def c906_ranges():
    """{parameter: (default, min, max)} of the estimates, read from the
    emulator's parameter table (c906_param_info[] in C906_SOURCE)."""
    rows = dict((m[0], tuple(int(v) for v in m[1:])) for m in re.findall(
        r'\{\s*"([a-z0-9-]+)",\s*(\d+),\s*(\d+),\s*(\d+)', C906_SOURCE.read_text()))
    missing = [p for p in C906_ESTIMATES if p not in rows]
    if missing:
        sys.exit(f"FAIL: {C906_SOURCE}: no row for {', '.join(missing)}")
    return {p: rows[p] for p in C906_ESTIMATES}


def c906_corner(fast):
    """The -M options that put every estimate at its fastest (or slowest) end."""
    out = []
    for p, (_, lo, hi) in c906_ranges().items():
        small = fast != (p in C906_FASTER_WHEN_LARGER)
        out.append(f"c906-{p}={lo if small else hi}")
    return ",".join(out)


def d1_machine():
    """The -M argument: allwinner-d1, with timing=c906 (and a corner's
    parameters) under D1_EMU_TIMING; any other value is refused with one
    line."""
    t = os.environ.get("D1_EMU_TIMING", "")
    if t not in TIMINGS:
        sys.exit(f"FAIL: D1_EMU_TIMING={t!r}: want empty, c906, c906-fast or c906-slow")
    if not t:
        return "allwinner-d1"
    corner = {"c906-fast": True, "c906-slow": False}.get(t)
    return "allwinner-d1,timing=c906" + ("" if corner is None else "," + c906_corner(corner))


def time_unit():
    """What a figure of this run is: "instruction time" (-icount alone) or
    "modelled C906 time" (D1_EMU_TIMING=c906)."""
    return "modelled C906 time" if ",timing=c906" in d1_machine() else "instruction time"


def qemu_path():
    q = os.environ.get("D1_EMU_QEMU")
    if q:
        return q
    r = subprocess.run([str(ROOT / "emu/qemu-d1/build.sh")], stdout=subprocess.PIPE,
                       text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.exit("FAIL: emu/qemu-d1/build.sh could not provide the emulator")
    return r.stdout.strip().splitlines()[-1]


def d1_cmd(kernel, icount=ICOUNT, bios=None, extra=()):
    cmd = [qemu_path(), "-M", d1_machine(), "-display", "none", "-monitor", "none",
           "-no-reboot", "-kernel", str(kernel)]
    if bios is not None:
        cmd += ["-bios", bios]
    if icount:
        cmd += ["-icount", icount]
    return cmd + list(extra)


def run_until(cmd, end_pattern, timeout):
    """Run with the serial port on stdout until @end_pattern appears (then
    QEMU is killed) or QEMU exits. Returns (text, exited_by_itself, rc)."""
    proc = subprocess.Popen(cmd + ["-serial", "stdio"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    os.set_blocking(proc.stdout.fileno(), False)
    buf = b""
    deadline = time.monotonic() + timeout
    rx = re.compile(end_pattern.encode(), re.M) if end_pattern else None
    exited = False
    while time.monotonic() < deadline:
        chunk = proc.stdout.read()
        if chunk:
            buf += chunk
            if rx is not None and rx.search(buf):
                break
        elif proc.poll() is not None:
            rest = proc.stdout.read()
            buf += rest or b""
            exited = True
            break
        else:
            time.sleep(0.05)
    rc = proc.poll()
    if rc is None:
        proc.kill()
        proc.wait()
    text = buf.decode("utf-8", "replace").replace("\r\n", "\n")
    return text, exited, rc


def run_logged(image, timeout, end_pattern=r"^halted\."):
    """Run a D1 image until @end_pattern with QEMU's cpu_reset and
    guest_errors log kept. Returns (serial text, exited by itself, rc, QEMU
    log text)."""
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        cmd = d1_cmd(image, extra=["-d", "cpu_reset,guest_errors", "-D", log.name])
        out, exited, rc = run_until(cmd, end_pattern, timeout)
        with open(log.name, errors="replace") as f:
            qlog = f.read()
    return out, exited, rc, qlog


class Checks:
    def __init__(self, name):
        self.name = name
        self.failed = []

    def ok(self, cond, what):
        print(("  ok    " if cond else "  FAIL  ") + what)
        if not cond:
            self.failed.append(what)
        return cond

    def done(self, output=None):
        if self.failed:
            if output is not None:
                print("---- output ----")
                print(output)
            print(f"FAIL {self.name}: {len(self.failed)} check(s) failed")
            return 1
        print(f"PASS {self.name}")
        return 0
