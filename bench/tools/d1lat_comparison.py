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
-icount shift=0 (one instruction = 1 ns of virtual time), never C906 time:
the two columns say the same thing in two units (the caveat is printed
once, under the emulated table). The reference (--reference,
docs/comparison-reference.json) holds the published board figures, C906
time: printed in a table of their own, never mixed with emulated rows,
each with the emulated rows it corresponds to (same OS and measurement),
or "not measured yet" for a measurement no bench here makes.

--plot draws one panel per measurement and load, every OS in one colour in
every panel, and the published board figures as marked points in the
panel of their measurement (idle or loaded).

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
# What the benches here measure (docs/comparison.md "What is measured");
# a published figure of another measurement has no emulated row yet.
LATENCY = ["timer-irq", "task-wakeup"]
# The OS-service measurements (include/d1/bench_svc.h, docs/comparison.md
# "The service measurements"): a table of their own, in ns.
SERVICES = ["clock-read", "mutex-handoff", "semaphore-handoff", "thread-create",
            "thread-create-join"]
MEASURED = LATENCY + SERVICES
# --timing c906: the rows come from the emulator's timing mode (modelled
# C906 cycles at 1.008 GHz): another caveat, cycles instead of
# instructions, and each row against the published figure it corresponds
# to (the ratio).
C906_HZ = 1_008_000_000
CAVEAT_C906 = ("Emulated figures (QEMU `-M allwinner-d1,timing=c906`, `-icount shift=0,sleep=off`) "
               "are modelled C906 time: the emulator's C906 timing model at 1.008 GHz "
               "(docs/emulator.md \"Timing mode\"), a model from public facts, not the board. "
               "Published board figures are C906 time measured on the board.")
TIMING = {"mode": ""}
CAVEAT = ("Emulated figures (QEMU `-M allwinner-d1`, `-icount shift=0,sleep=off`) are "
          "instruction time, one instruction = 1 ns of virtual time: not C906 time. "
          "Published board figures are C906 time.")


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


CORNERS = {"c906-fast": "fastest", "c906-slow": "slowest"}


def timing():
    return TIMING["mode"].startswith("c906")


def caveat():
    if not timing():
        return CAVEAT
    corner = CORNERS.get(TIMING["mode"])
    return CAVEAT_C906 + (f" This run: every estimated parameter of the model at its {corner} "
                          "end (tests/emu/emu_common.py c906_corner())." if corner else "")


def unit_count(ns_value):
    """A figure in the second unit of the table: instructions (one per ns
    under -icount), or modelled C906 cycles (1.008 per ns) in timing mode."""
    return round(ns_value * C906_HZ / 1e9) if timing() else round(ns_value)


def rows_table(rows, flagged):
    unit = "cycles" if timing() else "instr"
    out = ["| OS | board | load | measurement (wake) | samples | missed | "
           + " | ".join(f"{n} us" for _, n in COLS) + " | "
           + " | ".join(f"{n} {unit}" for _, n in COLS) + f" | bench {unit} |",
           "|" + "---|" * (7 + 2 * len(COLS))]
    for r in rows:
        meas = measured(r)
        flag = " **missed above threshold**" if id(r) in flagged else ""
        out.append(f"| {r.get('os')} | {r.get('board')} | {r.get('load')} | {meas} | "
                   f"{r.get('samples')} | {missed_cell(r)}{flag} | "
                   + " | ".join(us(r.get(k, 0)) for k, _ in COLS) + " | "
                   + " | ".join(f"{unit_count(r.get(k, 0))}" for k, _ in COLS) + " | "
                   + bench_cost(r) + " |")
    return out


def missed_cell(r):
    """Missed periods, and as a percentage of the run's periods (the
    published comparison gives Linux's SCHED_OTHER row that way)."""
    missed, samples = r.get("missed", 0) or 0, r.get("samples", 0) or 0
    if not r.get("period_ns") or missed + samples == 0:
        return str(missed)
    return f"{missed} ({missed * 100 / (missed + samples):.2f} %)"


def same_scheduler(pub, r):
    """A published row that names a Linux policy (SCHED_FIFO, SCHED_OTHER)
    corresponds to the emulated rows whose wake names the same policy, or
    none; any other published row to every row of its OS and measurement."""
    sched = pub.get("scheduler", "")
    for policy in ("SCHED_FIFO", "SCHED_OTHER"):
        if sched.startswith(policy):
            return policy in str(r.get("wake", ""))
    return True


def same_context(pub, r):
    """A published row taken in a user process (its "context") corresponds
    to the emulated rows of a user process only (their wake says so)."""
    ctx = pub.get("context", "")
    return not ctx.startswith("user process") or "user process" in str(r.get("wake", ""))


def corresponds(pub, r):
    """The emulated row @r stands for the published row @pub: the same OS
    and measurement, the same Linux policy, the same context."""
    return (r.get("os") == pub.get("os") and r.get("measurement") == pub.get("measurement")
            and same_scheduler(pub, r) and same_context(pub, r))


def bench_cost(r):
    """The bench's own instructions in the interrupt per sample, fewest..most
    (bench_instr_min/max, by instret); "-" where the bench did not say."""
    lo, hi = r.get("bench_instr_min"), r.get("bench_instr_max")
    if not isinstance(lo, int) or not isinstance(hi, int):
        return "-"
    return str(lo) if lo == hi else f"{lo}..{hi}"


def ns(v):
    return f"{v:,.1f}"


def published(ref, r):
    """The published board figure of the row's OS and measurement (p50, or
    the per-call cost of clock-read), C906 time; "-" where none."""
    for p in (ref or {}).get("rows", []):
        if not corresponds(p, r):
            continue
        if isinstance(p.get("p50_us"), (int, float)):
            return figure(p["p50_us"] * 1000)
        if p.get("per_call_ns") is not None:
            return ("about " if p.get("approximate") else "") + figure(p["per_call_ns"])
    return "-"


def services_table(rows, flagged, ref):
    """The service rows (SERVICES), in ns: clock-read per call; failed
    samples in the missed column; the published board figure beside."""
    out = ["| OS | load | measurement (API) | samples | failed | "
           + " | ".join(f"{n} ns" for _, n in COLS) + " | published p50 ns (board, C906) |",
           "|" + "---|" * (6 + len(COLS))]
    for r in rows:
        flag = " **failed samples**" if id(r) in flagged else ""
        out.append(f"| {r.get('os')} | {r.get('load')} | {measured(r)} | {r.get('samples')} | "
                   f"{r.get('missed')}{flag} | "
                   + " | ".join(ns(r.get(k, 0)) for k, _ in COLS)
                   + f" | {published(ref, r)} |")
    return out


def table(rows, hw_rows, skipped, problems, flagged, ref):
    svc = [r for r in rows if r.get("measurement") in SERVICES]
    rows = [r for r in rows if r.get("measurement") not in SERVICES]
    out = rows_table(rows, flagged)
    for osname, reason in skipped:
        out.append(f"| {osname} | - | - | not run: {reason} |" + " - |" * (3 + 2 * len(COLS)))
    out.append("")
    out.append(caveat())
    out.append("")
    if timing():
        out.append("bench cycles: the bench's `instret` difference, which the timing mode "
                   "advances by the model's cycles (its icount unit), not by instructions.")
        out.append("")
    out.append("bench instr: the bench's own instructions in the interrupt per sample "
               "(instret, across the bench core's capture, d1_bench_isr(): the Timer's "
               "acknowledge and counter read, the time CSR read and the slot's stores; the "
               "accounting runs after the wake-up sample): all of them are inside a "
               "task-wakeup sample, and the part before the counter read inside a timer-irq "
               "sample; subtract to compare the OS alone.")
    if svc:
        out.append("")
        out.append("OS services (docs/comparison.md \"The service measurements\"; the "
                   "emulated figures as the caveat above says): clock-read "
                   "is per call, from batches of 128, the clock's observed step in its label; "
                   "a hand-off is the unlock or post call to the blocked higher-priority "
                   "waiter's return; thread-create the create call to the new thread's first "
                   "statement, thread-create-join to the join's return.")
        out.append("")
        out += services_table(svc, flagged, ref)
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
        out += reference_table(ref, rows + svc, skipped)
        if timing():
            out.append("")
            out += ratio_table(ref, rows + svc)
    return "\n".join(out) + "\n"


def published_p50_ns(p):
    """(figure in ns, what it is) of a published row: its p50, or the
    per-call cost of clock-read; None where it has neither."""
    if isinstance(p.get("p50_us"), (int, float)):
        return p["p50_us"] * 1000, "p50"
    if isinstance(p.get("per_call_ns"), (int, float)):
        return p["per_call_ns"], "per call"
    return None


def ratio_table(ref, rows):
    """Every modelled row that has a published counterpart (same OS and
    measurement; a published loaded row against the loaded rows, any other
    against the idle ones), its p50 beside the published figure, and the
    ratio modelled / published: the model's accuracy, whatever it is."""
    out = ["Modelled C906 time against the board (p50; clock-read per call): ratio = "
           "modelled / published. No parameter of the model is set from these figures.",
           "",
           "| OS | board | measurement (wake) | load | modelled ns | published ns | ratio |",
           "|---|---|---|---|---|---|---|"]
    for p in ref.get("rows", []):
        pub = published_p50_ns(p)
        if pub is None:
            continue
        loaded = p.get("load", "").startswith(("loaded", "a FIFO"))
        for r in rows:
            if not corresponds(p, r) or (r.get("load") != "idle") != loaded:
                continue
            mod = r.get("p50_ns", 0)
            out.append(f"| {r.get('os')} | {cell(r.get('board'))} | {cell(measured(r))} | "
                       f"{r.get('load')} | "
                       f"{ns(mod)} | {figure(pub[0])} ({pub[1]}, "
                       f"{cell(p.get('scheduler', '-'))}) | {mod / pub[0]:.2f} |")
    return out


REF_COLS = [("p50_us", "p50"), ("p99_us", "p99"), ("p999_us", "p99.9"), ("max_us", "max")]


def figure(v):
    """A published figure as published: up to 3 decimals, no trailing zeros."""
    return ("%.3f" % v).rstrip("0").rstrip(".")


def cell(v):
    return str(v).replace("|", "\\|")


def per_call(r):
    ns = r.get("per_call_ns")
    if ns is None:
        return "-"
    text = f"{figure(ns / 1000)} us" if ns >= 1000 else f"{figure(ns)} ns"
    return ("about " if r.get("approximate") else "") + text


def corresponding(ref_row, rows, skipped):
    """The emulated rows of the reference row's OS and measurement, by
    measurement (wake) and loads; "not measured yet" for a measurement no
    bench here makes."""
    osname, meas = ref_row.get("os"), ref_row.get("measurement")
    if meas not in MEASURED:
        return "not measured yet"
    loads = {}
    for r in rows:
        if corresponds(ref_row, r):
            loads.setdefault(measured(r), [])
            if r.get("load") not in loads[measured(r)]:
                loads[measured(r)].append(r.get("load"))
    if not loads:
        why = [reason for o, reason in skipped if o == osname]
        if why:
            return f"none in this run ({osname} not run)"
        if ref_row.get("context", "").startswith("user process"):
            return "none in this run: no user-process row (docs/comparison.md \"Not yet\")"
        return "none in this run"
    return "; ".join(f"{osname} {m}: {', '.join(str(x) for x in ls)}"
                     for m, ls in sorted(loads.items()))


def reference_table(ref, rows, skipped):
    """The published board figures, a table of their own, each row with
    the emulated rows it corresponds to."""
    out = [f"Published board figures (hardware, C906 time; not emulated): {ref.get('board', '')}."
           f" Source: {ref.get('source', '')}"]
    if ref.get("timebase"):
        out.append("")
        out.append(ref["timebase"])
    out.append("")
    out.append("| OS | measurement | scheduler | load | samples | missed | "
               + " | ".join(f"{n} us" for _, n in REF_COLS)
               + " | per call | emulated rows here | conditions |")
    out.append("|" + "---|" * (9 + len(REF_COLS)))
    for r in ref.get("rows", []):
        missed = r.get("missed")
        if missed is None and r.get("missed_percent") is not None:
            missed = f"{figure(r['missed_percent'])} % of periods"
        cond = r.get("conditions", "")
        if r.get("context"):
            cond = f"{r['context']}; {cond}"
        if r.get("note"):
            cond = f"**{r['note']}**; {cond}"
        out.append(f"| {cell(r.get('os'))} | {cell(r.get('measurement'))} | "
                   f"{cell(r.get('scheduler', '-'))} | {cell(r.get('load', '-'))} | "
                   f"{r.get('samples', '-')} | {'-' if missed is None else missed} | "
                   + " | ".join(figure(r[k]) if isinstance(r.get(k), (int, float)) else "-"
                                for k, _ in REF_COLS)
                   + f" | {per_call(r)} | {cell(corresponding(r, rows, skipped))} | "
                   f"{cell(cond)} |")
    return out


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
        unit = "counts" if hz == 24_000_000 else f"counts of {hz} Hz"
        lines.append(f"{r.get('os')} {r.get('board')} {r.get('load')} {measured(r)} "
                     f"samples={r.get('samples')} missed={r.get('missed')} "
                     + " ".join(f"{n}={c}" for (_, n), c in zip(cols, counts)) + f" ({unit})")
    lines += [f"{o} not run" for o, _ in skipped]
    return "\n".join(lines) + "\n"


# ---- the plot: one panel per measurement and load -----------------------

# One colour per OS, the same in every panel (Okabe-Ito, readable by
# colour-blind readers); an OS not named here takes the grey.
OS_COLOURS = {"baremetal": "#000000", "nuttx": "#0072B2", "rtthread": "#009E73",
              "rtsmart": "#D55E00", "linux": "#CC79A7"}
OTHER_COLOUR = "#999999"
PCT_CATS = [("min_ns", "min")] + [(k, n) for k, n, _ in d1lat_compare.PCTS] + [("max_ns", "max")]
REF_X = {"p50_us": 1, "p99_us": 3, "p999_us": 4, "max_us": 6}  # positions in PCT_CATS
PANEL_W, PANEL_PLOT_H, PANEL_PAD, KEY_LINE_PX, TITLE_PX = 720, 300, 90, 18, 70
REF_POINT = "pt 12 ps 2.6 lw 2"  # open diamonds: the published board figures
WAKE_STYLES = [(1, 7), (2, 5), (4, 9), (5, 11), (3, 13)]  # (dash type, point type) by variant


def colour(osname):
    return OS_COLOURS.get(osname, OTHER_COLOUR)


def panels(rows):
    """The (measurement, load) panels rows fall in: measurements in MEASURED
    order, then others; loads idle first."""
    meas = sorted({r.get("measurement", "?") for r in rows},
                  key=lambda m: (MEASURED.index(m) if m in MEASURED else len(MEASURED), m))
    loads = sorted({r.get("load", "?") for r in rows}, key=lambda l: (l != "idle", l))
    return meas, loads


def ref_points(ref, meas, load):
    """The published rows drawn in panel (meas, load): an idle row (or one
    whose load is not stated) in the idle panel, any other in each loaded
    panel; rows with no percentile
    (a missed fraction, a note, a per-call cost) are the table's only."""
    out = []
    for r in (ref or {}).get("rows", []):
        if r.get("measurement") != meas or not any(isinstance(r.get(k), (int, float))
                                                   for k in REF_X):
            continue
        # a published row whose load is not stated (the services) stands
        # beside the idle rows, as in the ratio table
        if (r.get("load") in ("idle", "not stated")) == (load == "idle"):
            out.append(r)
    return out


def curve_label(r):
    wake = r.get("wake", "none")
    label = r.get("os", "?") + ("" if wake in ("none", "unknown") else f" ({wake})")
    if d1lat_compare.known(r.get("board")):
        label += f", {r['board']}"
    return label + (" [hardware]" if r.get("hardware") else "")


def plot_script(rows, hw_rows, ref, out_path, title):
    """gnuplot script: a grid of panels, a row per measurement and a column
    per load, each the percentile curves of its rows (x: min, p50 ... max;
    y: us, log, one range for all panels), colour by OS, dash and point type
    by the OS's variants within the panel; the published board figures of
    the panel's measurement as open diamonds in their OS's colour."""
    ext = os.path.splitext(out_path)[1].lower()
    every = list(rows) + [dict(r, hardware=True) for r in hw_rows]
    meas, loads = panels(every)
    cells = {}
    for r in every:
        cells.setdefault((r.get("measurement", "?"), r.get("load", "?")), []).append(r)
    refs = {(m, l): ref_points(ref, m, l) for m in meas for l in loads}
    keys = {(m, l): len(cells.get((m, l), [])) + len(refs[(m, l)]) for m in meas for l in loads}
    row_h = [PANEL_PLOT_H + PANEL_PAD + KEY_LINE_PX * max(keys[(m, l)] for l in loads)
             for m in meas]
    width, height = PANEL_W * len(loads), TITLE_PX + sum(row_h)
    if ext == ".svg":
        term = ("set terminal svg size %d,%d dynamic enhanced font 'Sans,11' background '#ffffff'"
                % (width, height))
    elif ext == ".png":
        term = "set terminal pngcairo size %d,%d enhanced font 'Sans,10'" % (width, height)
    else:
        raise d1lat_compare.UsageError("--plot wants a .png or .svg file name")
    vals = [max(r.get(k, 0) / 1000.0, 0.001) for r in every for k, _ in PCT_CATS]
    vals += [p[k] for ps in refs.values() for p in ps for k in REF_X
             if isinstance(p.get(k), (int, float))]
    gp = d1lat_compare.gp_str
    lines = [term, "set output %s" % gp(out_path),
             "set multiplot title %s noenhanced" % gp(title or "Latency"),
             "set label 2 %s at screen 0.5, %.5f center noenhanced"
             % (gp(caveat().replace("`", "").split(". Published")[0] + "."),
                1 - 36.0 / height),
             "set label 3 %s at screen 0.5, %.5f center noenhanced"
             % (gp("Open diamonds: the published board figures of the panel's measurement, "
                   "C906 time (docs/comparison-reference.json)."), 1 - 52.0 / height),
             "set logscale y", "set grid ytics mytics xtics",
             "set ylabel 'latency (us), log scale'",
             "set yrange [%g:%g]" % (min(vals) / 2, max(vals) * 2),
             "set xtics (%s)" % ", ".join('"%s" %d' % (n, i) for i, (_, n) in enumerate(PCT_CATS)),
             "set xrange [-0.3:%f]" % (len(PCT_CATS) - 0.7),
             "set key left top Left reverse noenhanced maxcols 1 samplen 3"]
    top = height - TITLE_PX
    n = 0
    for mi, m in enumerate(meas):
        bottom = top - row_h[mi]
        for li, l in enumerate(loads):
            x0, x1 = li * PANEL_W, (li + 1) * PANEL_W
            lines.append("set title %s noenhanced" % gp(f"{m}, load {l}"))
            lines.append("set lmargin at screen %.5f" % ((x0 + 80) / width))
            lines.append("set rmargin at screen %.5f" % ((x1 - 30) / width))
            lines.append("set tmargin at screen %.5f" % ((top - 30) / height))
            lines.append("set bmargin at screen %.5f" % ((top - 30 - PANEL_PLOT_H) / height))
            # the key under the panel's x axis, one line per curve
            lines.append("set key at screen %.5f, %.5f"
                         % ((x0 + 40) / width, (top - 30 - PANEL_PLOT_H - 28) / height))
            plots, variant = [], {}
            for r in cells.get((m, l), []):
                o = r.get("os", "?")
                dt, pt = WAKE_STYLES[variant.setdefault(o, [0])[0] % len(WAKE_STYLES)]
                variant[o][0] += 1
                lines.append("$d%d << EOD" % n)
                for i, (k, _) in enumerate(PCT_CATS):
                    flag = 1 if k in r.get("overflow_fields", []) + r.get("approx_fields", []) \
                        else 0
                    lines.append("%d %.6f %d" % (i, max(r.get(k, 0) / 1000.0, 0.001), flag))
                lines.append("EOD")
                plots.append("$d%d using 1:2 with linespoints lc rgb '%s' dt %d pt %d ps 1.0 "
                             "lw 1.5 title %s" % (n, colour(o), dt, pt, gp(curve_label(r))))
                plots.append("$d%d using 1:($3 > 0 ? $2 : 1/0) with points lc rgb '%s' pt 6 "
                             "ps 2.0 notitle" % (n, colour(o)))
                n += 1
            for p in refs[(m, l)]:
                lines.append("$d%d << EOD" % n)
                for k, x in REF_X.items():
                    if isinstance(p.get(k), (int, float)):
                        lines.append("%d %.6f" % (x, p[k]))
                lines.append("EOD")
                plots.append("$d%d using 1:2 with points lc rgb '%s' %s title %s"
                             % (n, colour(p.get("os")), REF_POINT,
                                gp(f"published board: {p.get('os')}, {p.get('scheduler', '')} "
                                   "(C906 time)")))
                n += 1
            if plots:  # else no row of this measurement under this load: left blank
                lines.append("plot " + ", \\\n     ".join(plots))
                lines.append("unset label 2; unset label 3")  # the caveat: drawn once
        top = bottom
    lines.append("unset multiplot")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sources", nargs="+", metavar="OS=FILE")
    ap.add_argument("-o", "--output")
    ap.add_argument("--plot")
    ap.add_argument("--title", default="Latency on the emulated D1, every OS, one bench core, "
                    "beside the published board figures")
    ap.add_argument("--reference")
    ap.add_argument("--missed-max", type=int, default=0)
    ap.add_argument("--timing", choices=["c906", "c906-fast", "c906-slow"],
                    help="the rows come from the emulator's timing mode: the C906 caveat, "
                    "cycles, and the ratio of each row to its published figure")
    ap.add_argument("--baseline-out")
    ap.add_argument("--check", metavar="BASELINE")
    ap.add_argument("--unchecked", action="append", default=[], metavar="OS",
                    help="this OS's rows go to the table and the plot but not to the baseline "
                    "(figures that do not repeat run to run; said under the table)")
    a = ap.parse_args(argv)
    TIMING["mode"] = a.timing or ""
    if a.timing and a.check:
        ap.error("--check compares instruction time with the baseline: not with --timing")

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
        try:
            script = plot_script(rows, hw_rows, ref, a.plot, a.title)
        except d1lat_compare.UsageError as e:
            sys.stderr.write(f"d1lat_comparison: {e}\n")
            return 2
        prc = d1lat_compare.render(script, a.plot)
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
