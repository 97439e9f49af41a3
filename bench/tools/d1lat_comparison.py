#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The same-board comparison as one table: a row per OS x load x measurement.

  d1lat_comparison.py [-o table.md] [--plot pic.png] [--baseline-out F]
                      [--check BASELINE] [--missed-max N]
                      [--reference REF.json] SOURCE...

SOURCE is "OS=FILE" (a serial log or saved report lines of that OS's bench:
d1lat report lines of format 3, or dump lines of format 2), "OS=!REASON"
(the OS's image could not be built or run here: a row that says so, not a
silent gap), or "hw:OS=FILE" (a log saved from a real board: its rows go to
a hardware table of their own, never mixed with the emulated ones). Columns: samples, missed, p50, p99, p99.9 and max, in us and
in instructions. Every figure of the emulated D1 is instruction time under
-icount shift=0 (one instruction = 1 ns of virtual time), never a C906
latency: the two columns say the same thing in two units. The reference
(--reference) is a published hardware measurement, printed in a table of
its own and never mixed with emulated rows.

A run is named, never dropped or averaged in, when: its source printed no
report line (the OS's bench printed nothing), a line is of another format or
cut short (d1lat_compare.py's "Not compared" list), or its missed periods
exceed --missed-max (default 0). Any of these makes the exit status 1.

With --check, an OS whose source is "OS=!skipped: ..." (its tree is not on
this machine) is left out of the comparison with the baseline, and said;
any other reason an OS was not run fails the check.

--baseline-out writes the rows' figures in counts of the 24 MHz sample
clock, one line each: the text the test command compares with the
committed baseline (--check), so a change that moves any compared figure
by one count (41.667 ns: about 42 instructions under -icount shift=0, the
resolution of the 24 MHz sample) shows in review as a readable diff. Loaded rows give samples,
missed and p50 only: their tail depends on the phase at which the load
meets the bench, set by when the command reached the console.
"""
import argparse
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import d1lat_compare  # noqa: E402

COLS = [("p50_ns", "p50"), ("p99_ns", "p99"), ("p999_ns", "p99.9"), ("max_ns", "max")]
OS_ORDER = ["baremetal", "nuttx", "rtthread", "rtsmart", "linux"]


def read_source(spec):
    """(os, runs, problems, reason, hardware): reason set when the OS was not run."""
    hardware = spec.startswith("hw:")
    if hardware:
        spec = spec[3:]
    if "=" not in spec:
        sys.exit(f"d1lat_comparison: bad source {spec!r} (want OS=FILE, OS=!REASON or hw:OS=FILE)")
    osname, path = spec.split("=", 1)
    if path.startswith("!"):
        return osname, [], [], path[1:], hardware
    try:
        text = d1lat_compare.read_text(path)
    except OSError as e:
        return osname, [], [f"{path}: {e.strerror}"], None, hardware
    problems = []
    runs = d1lat_compare.parse_reports(text, path, problems)
    if hardware:
        for r in runs:
            r["label"] = d1lat_compare.label_of(r) + " [hardware]"
    if not runs and not problems:
        problems = [f"{path}: no report line (the bench printed nothing)"]
    for r in runs:
        if r.get("os") != osname:
            problems.append(f"{path}: a report of os {r.get('os')!r} where {osname!r} was expected")
    return osname, [r for r in runs if r.get("os") == osname], problems, None, hardware


def measured(r):
    """The measurement and, where there is one, how the task was woken: a
    kernel thread's and a user process's wake-up on one OS are two rows."""
    meas = r.get("measurement", "?")
    wake = r.get("wake", "none")
    return meas if wake in ("none", "unknown") else f"{meas} ({wake})"


def key(r):
    o = r.get("os", "")
    return (OS_ORDER.index(o) if o in OS_ORDER else len(OS_ORDER), o, r.get("board", ""),
            r.get("load", ""), measured(r))


def us(ns):
    return f"{ns / 1000:.3f}"


def rows_table(rows, flagged):
    out = ["| OS | board | load | measurement (wake) | samples | missed | "
           + " | ".join(f"{n} us" for _, n in COLS) + " | "
           + " | ".join(f"{n} instr" for _, n in COLS) + " | bench instr |",
           "|" + "---|" * (7 + 2 * len(COLS))]
    for r in rows:
        meas = measured(r)
        flag = " **missed above threshold**" if id(r) in flagged else ""
        out.append(f"| {r.get('os')} | {r.get('board')} | {r.get('load')} | {meas} | "
                   f"{r.get('samples')} | {r.get('missed')}{flag} | "
                   + " | ".join(us(r.get(k, 0)) for k, _ in COLS) + " | "
                   + " | ".join(f"{round(r.get(k, 0))}" for k, _ in COLS) + " | "
                   + bench_cost(r) + " |")
    return out


def bench_cost(r):
    """The bench's own instructions in the interrupt per sample, fewest..most
    (bench_instr_min/max, by instret); "-" where the bench did not say."""
    lo, hi = r.get("bench_instr_min"), r.get("bench_instr_max")
    if not isinstance(lo, int) or not isinstance(hi, int):
        return "-"
    return str(lo) if lo == hi else f"{lo}..{hi}"


def table(rows, hw_rows, skipped, problems, flagged, ref):
    out = rows_table(rows, flagged)
    for osname, reason in skipped:
        out.append(f"| {osname} | - | - | not run: {reason} |" + " - |" * (3 + 2 * len(COLS)))
    out.append("")
    out.append("Emulated D1 (QEMU `-M allwinner-d1`, `-icount shift=0,sleep=off`): instruction "
               "time, one instruction = 1 ns of virtual time; not a C906 latency.")
    out.append("")
    out.append("bench instr: the bench's own instructions in the interrupt per sample "
               "(instret, from before the Timer's handler to the end of the accounting): all "
               "of them are inside a task-wakeup sample, and the part before the counter read "
               "inside a timer-irq sample; subtract to compare the OS alone.")
    if hw_rows:
        out.append("")
        out.append("Hardware (logs saved from a board; real time, not comparable cell by cell "
                   "with the emulated rows; the instr columns are ns there):")
        out.append("")
        out += rows_table(hw_rows, flagged)
    if problems:
        out.append("")
        out.append("Not compared:")
        out += [f"- {p}" for p in problems]
    if ref:
        out.append("")
        out.append(f"Reference (hardware, published, not emulated): {ref.get('source', '')}")
        out.append("")
        out.append("| OS | board | load | measurement | samples | missed | p50 us | p99 us | max us |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        for r in ref.get("rows", []):
            out.append(f"| {r['os']} | {r['board']} | {r['load']} | {r['measurement']} | "
                       f"{r['samples']} | {r['missed']} | {r['p50_us']:.3f} | {r['p99_us']:.3f} | "
                       f"{r['max_us']:.3f} |")
    return "\n".join(out) + "\n"


def baseline(rows, skipped):
    """Each row by samples, missed and p50; idle rows also by p99 and
    p99.9. The maximum, and a loaded row's p99 and above, depend on where
    the OS's own timers and the load stand when the bench starts, which the
    moment the command reaches the console sets (host time): they move
    between runs (docs/comparison.md)."""
    lines = []
    for r in rows:
        hz = r.get("clock_hz", 24_000_000)
        cols = COLS[:3] if r.get("load") == "idle" else COLS[:1]
        counts = [round(r.get(k, 0) * hz / 1e9) for k, _ in cols]
        lines.append(f"{r.get('os')} {r.get('board')} {r.get('load')} {measured(r)} "
                     f"samples={r.get('samples')} missed={r.get('missed')} "
                     + " ".join(f"{n}={c}" for (_, n), c in zip(cols, counts)) + " (counts)")
    lines += [f"{o} not run" for o, _ in skipped]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sources", nargs="+", metavar="OS=FILE")
    ap.add_argument("-o", "--output")
    ap.add_argument("--plot")
    ap.add_argument("--title", default="Latency on the emulated D1, every OS, one bench core: "
                    "instruction time under -icount (1 instruction = 1 ns), not a C906 latency")
    ap.add_argument("--reference")
    ap.add_argument("--missed-max", type=int, default=0)
    ap.add_argument("--baseline-out")
    ap.add_argument("--check", metavar="BASELINE")
    ap.add_argument("--unchecked", action="append", default=[], metavar="OS",
                    help="this OS's rows go to the table and the plot but not to the baseline "
                    "(figures that do not repeat run to run; said under the table)")
    a = ap.parse_args(argv)

    rows, hw_rows, skipped, problems = [], [], [], []
    for spec in a.sources:
        osname, runs, probs, reason, hardware = read_source(spec)
        if reason is not None:
            skipped.append((osname, reason))
        (hw_rows if hardware else rows).extend(runs)
        problems += probs
    rows.sort(key=key)
    hw_rows.sort(key=key)
    flagged = {id(r) for r in rows + hw_rows if r.get("missed", 0) > a.missed_max}
    for r in rows + hw_rows:
        if id(r) in flagged:
            problems.append(f"{r.get('os')} {measured(r)} {r.get('load')}: "
                            f"{r.get('missed')} missed periods (threshold {a.missed_max})")
    ref = None
    if a.reference:
        with open(a.reference) as f:
            ref = json.load(f)
    text = f"## {a.title}\n\n" + table(rows, hw_rows, skipped, problems, flagged, ref)
    unchecked = sorted({r.get("os") for r in rows if r.get("os") in a.unchecked})
    if unchecked:
        text += ("\nNot in the baseline (their figures do not repeat from run to run under "
                 "-icount): " + ", ".join(unchecked) + ".\n")
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    rc = 1 if problems else 0
    if a.plot and rows + hw_rows:
        both = rows + hw_rows
        prc = d1lat_compare.plot(both, a.plot, a.title)
        if prc not in (0, None):
            rc = rc or prc
    base = baseline([r for r in rows if r.get("os") not in a.unchecked],
                    [(o, why) for o, why in skipped if o not in a.unchecked])
    if a.baseline_out:
        with open(a.baseline_out, "w") as f:
            f.write(base)
    if a.check:
        with open(a.check) as f:
            want = f.read()
        # An OS skipped here for want of its tree (not a failure) is left
        # out of both sides, and said.
        gone = {o for o, reason in skipped if reason.startswith("skipped")}
        if gone:
            keep = lambda t: "".join(l for l in t.splitlines(True)
                                     if l.split(" ", 1)[0] not in gone)
            want, base = keep(want), keep(base)
            print("d1lat_comparison: not compared with the baseline (skipped here): "
                  + ", ".join(sorted(gone)))
        if want != base:
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), base.splitlines(True), a.check, "this run"))
            print("d1lat_comparison: the figures differ from the baseline (a deliberate change "
                  "updates it in the same commit: bench/comparison.sh --update-baseline)")
            rc = 1
        else:
            print(f"d1lat_comparison: {len(rows)} rows identical to {a.check}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
