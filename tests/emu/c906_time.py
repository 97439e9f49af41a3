#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The emulated D1's timing mode (-M allwinner-d1,timing=c906 on top of
-icount shift=0: virtual time in modelled XuanTie C906 cycles at 1.008 GHz;
docs/emulator.md "Timing mode"). Python 3 stdlib only.

  c906_time.py check [--summary FILE]   stage c906-time of scripts/test.sh
  c906_time.py bench [--out FILE]       the bare-metal bench's table, both modes

check: (1) the micro-programs of tests/emu/c906time/micro.c, each within
the cycle count the documented parameters fix; (2) the same micro-program
output and the same bench dump twice (determinism); (3) the unmodified
bench image bm_bench.bin in timing mode (20,000 samples, none missed) and
its wall time against the -icount mode's (at most 5x); (4) bad timing
options refused at start-up with one line naming them.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu_common import ROOT, Checks, d1_cmd, qemu_path, run_until  # noqa: E402

MICRO_SRC = ROOT / "tests/emu/c906time/micro.c"
BENCH = ROOT / "build/d1/ports/baremetal/bm_bench.bin"
TIMING = "allwinner-d1,timing=c906"

# The documented parameters (docs/emulator.md "Timing mode"; the defaults
# of emu/qemu-d1/target/riscv/c906-timing.c).
HZ = 1008000000
LOAD_LAT = 3
DIV_BASE = 5
MISPREDICT = 3
DRAM = -(-120 * HZ // 10**9)    # 120 ns -> 121 cycles
MMIO = -(-100 * HZ // 10**9)    # 100 ns -> 101 cycles

# Cycles per loop iteration each kernel's documentation fixes (every loop
# ends with addi + bnez: 2 cycles when the branch is predicted).
EXPECT = {
    # 64 dependent adds, 1 cycle each
    "add": (64 * 1 + 2, "64 dependent adds x 1 + loop 2"),
    # 32 loads each waiting for the last: 31 x load latency, the last
    # load's latency covered by the loop's two insns
    "load-use": (31 * LOAD_LAT + 1 + 2, "31 x load-latency 3 + 1 + loop 2"),
    # 16 divides of 2^40 by 3 (bits 40 - 1: 5 + 39//2) and 16 by 2^40/3
    # (bits 40 - 38: 5 + 2//2), each waiting for the last
    "div": (16 * (DIV_BASE + 39 // 2) + 16 * (DIV_BASE + 2 // 2) + 2,
            "16 x (5 + 19) + 16 x (5 + 1) + loop 2"),
    # 16 taken branches + the loop's, all predicted once warm
    "branch-bpe-on": (16 + 2, "16 taken branches predicted + loop 2"),
    # predictor off (mhcr.BPE = 0): every taken branch mispredicts
    "branch-bpe-off": (17 * (1 + MISPREDICT) + 1,
                       "17 taken branches x (1 + mispredict 3) + addi 1"),
    # 16 loads 64 bytes apart, a D-cache miss each
    "dstride": (16 * (1 + DRAM + 1) + 2, "16 x (load 1 + DRAM 121 + addi 1) + loop 2"),
    # 8 loads a page + a line apart, untranslated: a D-cache miss each
    "walk-bare": (8 * (1 + DRAM + 1) + 2, "8 x (1 + DRAM 121 + 1) + loop 2"),
    # 8 MMIO reads
    "mmio": (8 * (1 + MMIO) + 2, "8 x (load 1 + MMIO 101) + loop 2"),
}
# walk-sv39 - walk-bare, per load: a TLB miss walks 3 levels; the leaf PTE
# line is new every 8 pages (a DRAM miss), the root and level-1 PTE lines
# stay cached but for the odd FIFO eviction by the data lines.
WALK_LO = DRAM / 8
WALK_HI = DRAM / 8 + 2
TOL = 0.01


def build_micro(cc, out):
    r = subprocess.run([cc, "-march=rv64imac_zicsr", "-mabi=lp64", "-O2", "-Wall", "-Wextra",
                        "-Werror", "-nostdlib", "-nostartfiles", "-ffreestanding",
                        "-mcmodel=medany", "-Wl,--no-relax", "-Wl,-N", "-Wl,-Ttext=0x40000000",
                        "-Wl,--no-warn-rwx-segments", "-o", out, str(MICRO_SRC)])
    return r.returncode == 0


def machine(cmd, m):
    cmd = list(cmd)
    cmd[cmd.index("allwinner-d1")] = m
    return cmd


def run_micro(elf):
    cmd = machine(d1_cmd(elf, bios="none"), TIMING)
    out, exited, rc = run_until(cmd, None, 120)
    rows = {}
    for m in re.finditer(r"^c906time (\S+) (\d+) (\d+) (\d+) (\d+)$", out, re.M):
        name, n1, c1, n2, c2 = m.group(1), *map(int, m.groups()[1:])
        rows[name] = (c2 - c1) / (n2 - n1)
    return out, exited and rc == 0 and "c906time done" in out, rows


def run_bench(m):
    cmd = machine(d1_cmd(BENCH), m)
    t0 = time.monotonic()
    out, _, _ = run_until(cmd, r"^halted\.", 600)
    wall = time.monotonic() - t0
    dump = re.search(r'^\{"tool":"d1lat-dump".*\}$', out, re.M)
    return out, wall, dump.group(0) if dump else None


def percentiles(dump):
    """(samples, {p: counts}) of a d1lat-dump line; bins below the exact
    limit (1024 counts) are exact, above it the bucket's low bound."""
    vals = [int(x) for x in re.search(r'"bins":\[([0-9,]*)\]', dump).group(1).split(",") if x]
    mx = int(re.search(r'"max":(\d+)', dump).group(1))
    pairs = sorted(zip(vals[0::2], vals[1::2]))
    n = sum(c for _, c in pairs)
    res = {}
    for name, q in (("p50", 500000), ("p99", 990000), ("p99.9", 999000)):
        rank, cum = max(1, -(-q * n // 1000000)), 0
        for i, c in pairs:
            cum += c
            if cum >= rank:
                res[name] = i
                break
    res["max"] = mx
    return n, res


def us(counts):
    return f"{counts / 24:.3f}"


def bench_table(icount_dump, timing_dump):
    lines = ["| bare-metal bench, timer-irq (Timer1 expiry to ISR) | samples | p50 us | "
             "p99 us | p99.9 us | max us |", "|---|---|---|---|---|---|"]
    for what, d in (("-icount shift=0: instruction time (1 insn = 1 ns)", icount_dump),
                    ("timing=c906: modelled C906 cycles at 1.008 GHz", timing_dump)):
        n, p = percentiles(d)
        lines.append(f"| {what} | {n} | {us(p['p50'])} | {us(p['p99'])} | "
                     f"{us(p['p99.9'])} | {us(p['max'])} |")
    return "\n".join(lines)


BAD = [
    (["-M", "allwinner-d1,timing=bogus"], "timing=bogus"),
    (["-M", "allwinner-d1,timing=c906,c906-dram-ns=5", "-icount", "shift=0"],
     "c906-dram-ns=5"),
    (["-M", "allwinner-d1,timing=c906,c906-bogus=1", "-icount", "shift=0"], "c906-bogus"),
    (["-M", "allwinner-d1,timing=c906,c906-dcache-kib=48", "-icount", "shift=0"],
     "c906-dcache-kib=48"),
    (["-M", "allwinner-d1,c906-dram-ns=100"], "c906-dram-ns"),
    (["-M", "allwinner-d1,timing=c906", "-icount", "shift=1"], "-icount shift=0"),
    (["-M", "allwinner-d1,timing=c906"], "-icount shift=0"),
]


def check_bad_input(c):
    q = qemu_path()
    for args, name in BAD:
        r = subprocess.run([q] + args + ["-display", "none", "-monitor", "none", "-serial",
                                         "none", "-kernel", str(BENCH)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=30)
        lines = r.stdout.strip().splitlines()
        c.ok(r.returncode != 0 and len(lines) == 1 and name in lines[0],
             f"refused at start-up, one line naming {name!r}: {r.stdout.strip()!r}")


def cmd_check(a):
    c = Checks("c906-time")
    with tempfile.TemporaryDirectory() as d:
        elf = os.path.join(d, "micro.elf")
        if not c.ok(build_micro(a.cc, elf), "micro-programs build"):
            return c.done()
        out1, ok1, rows = run_micro(elf)
        out2, ok2, _ = run_micro(elf)
    c.ok(ok1 and ok2, "micro-programs run to 'c906time done' (status 0)")
    c.ok(out1 == out2, "same micro-program output twice (deterministic)")
    print("  micro-program          cycles/iteration  documented  (C906 time, 1.008 GHz)")
    for name, (exp, why) in EXPECT.items():
        got = rows.get(name)
        print(f"    {name:18} {got if got is None else round(got, 2):>10}  {exp:>10}  {why}")
        c.ok(got is not None and abs(got - exp) <= TOL * exp,
             f"{name}: {got} cycles/iteration within 1 % of {exp}")
    walk = None
    if "walk-sv39" in rows and "walk-bare" in rows:
        walk = (rows["walk-sv39"] - rows["walk-bare"]) / 8
    print(f"    {'walk (per load)':18} {walk if walk is None else round(walk, 2):>10}  "
          f"{WALK_LO:.2f}..{WALK_HI:.2f}  TLB miss: 3-level walk, leaf PTE line "
          f"new every 8 pages (DRAM 121 / 8)")
    c.ok(walk is not None and WALK_LO <= walk <= WALK_HI,
         f"page walk {walk} cycles per load within {WALK_LO:.2f}..{WALK_HI:.2f}")

    _, wall_i, dump_i = run_bench("allwinner-d1")
    out_t, wall_t, dump_t = run_bench(TIMING)
    _, _, dump_t2 = run_bench(TIMING)
    c.ok(dump_i is not None and dump_t is not None, "bench dumps in both modes")
    c.ok("BENCH DONE" in out_t and "20000 samples + 0 missed" in out_t,
         "bench in timing mode: 20000 samples + 0 missed, BENCH DONE")
    c.ok(dump_t == dump_t2, "same bench dump twice in timing mode (deterministic)")
    ratio = wall_t / wall_i if wall_i else float("inf")
    print(f"  wall time of the bench: -icount {wall_i:.1f} s, timing=c906 {wall_t:.1f} s "
          f"(x{ratio:.2f})")
    c.ok(ratio <= 5.0, f"timing mode at most 5x the -icount wall time (x{ratio:.2f})")
    if dump_i and dump_t:
        print(bench_table(dump_i, dump_t))
    check_bad_input(c)
    rc = c.done()
    if a.summary:
        n_ok = len(EXPECT) + 1
        with open(a.summary, "w") as f:
            if rc == 0:
                _, p = percentiles(dump_t)
                f.write(f"c906-time: {n_ok} micro-programs within their documented C906 "
                        f"cycles, deterministic; bench timer-irq p50 {us(p['p50'])} us "
                        f"C906 time; wall x{ratio:.2f} of -icount\n")
            else:
                f.write(f"c906-time: FAILED ({len(c.failed)} check(s))\n")
    return rc


def cmd_bench(a):
    _, wall_i, dump_i = run_bench("allwinner-d1")
    _, wall_t, dump_t = run_bench(TIMING)
    if not dump_i or not dump_t:
        print("c906_time.py bench: no d1lat-dump line from the bench", file=sys.stderr)
        return 1
    text = (bench_table(dump_i, dump_t) +
            f"\n\nwall time: -icount {wall_i:.1f} s, timing=c906 {wall_t:.1f} s\n")
    print(text, end="")
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("check", "bench"))
    ap.add_argument("--summary")
    ap.add_argument("--out", help="bench: also write the table to this file")
    ap.add_argument("--cc", default="riscv64-unknown-elf-gcc")
    a = ap.parse_args()
    return cmd_check(a) if a.what == "check" else cmd_bench(a)


if __name__ == "__main__":
    sys.exit(main())
