#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare latency runs: d1lat JSON report lines side by side.

Reads the one-line JSON reports of the latency recorder (docs/latency.md)
from any text -- d1lat-linux output, a bare-metal / NuttX / RT-Smart serial
log, files of saved lines -- and writes a markdown table and, with --plot,
one picture of the latency distributions (a percentile plot, by gnuplot).

  d1lat_compare.py [-o table.md] [--plot pic.png|pic.svg] [--title T] [--labels a,b] FILE...
  d1lat_compare.py --from-cyclictest CT.txt [--interval-us N] [--board B] [--load D]
  d1lat_compare.py --verdict FILE...

Reads report lines of format 3 (d1lat and cyclictest) and dump lines of
format 2 (decoded by d1lat_dump.py). A line of another format, a line cut
short or otherwise unreadable, and an input file with no report line at all
(a run that printed nothing) are not compared: each is named, with its file
and line, in a "Not compared" list under the table (and on standard
error), and the tool exits 1 after writing the table.

--from-cyclictest turns the output of `cyclictest -q -m -p P -i N -l L -h H`
into the same JSON line ("tool":"cyclictest", format 3, measurement
"task-wakeup", wake "clock_nanosleep": cyclictest's own mechanism), with
percentiles computed from its 1 us histogram by the recorder's nearest-rank
definition.
--verdict compares the medians of the first d1lat and the first cyclictest
run (tolerance in docs/latency.md) and exits 0 if they agree, 1 if not or
if any input was not compared.

Python 3 standard library only; the picture needs Debian's gnuplot-nox
(or gnuplot). Without it the table is still written and the tool exits 3
with a message saying so. FILE "-" is standard input.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import d1lat_dump

PCTS = [("p50_ns", "p50", 500000), ("p90_ns", "p90", 900000), ("p99_ns", "p99", 990000),
        ("p999_ns", "p99.9", 999000), ("p9999_ns", "p99.99", 999900)]
TOOLS = ("d1lat", "cyclictest")
# The report format this tool reads (both tools) and the dump format.
FORMAT = 3
DUMP_FORMAT = d1lat_dump.DUMP_FORMAT

# Verdict defaults (docs/latency.md, "Agreement with cyclictest", explains
# where these come from: the spread measured here between repeated runs).
TOL_ABS_US = 20.0
TOL_REL = 0.5
BOUND_US = 1000.0

EXIT_NO_GNUPLOT = 3
EXIT_NOT_COMPARED = 1


class UsageError(Exception):
    pass


# ---- reading ------------------------------------------------------------

def read_text(path):
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# What makes two report objects the same run: a device that prints both its
# report line and its dump line (the bare-metal bench) ran once, and the
# dump decodes to the same figures as the report (bench/tools/d1lat_dump.py).
SAME_RUN = ("os", "board", "load", "measurement", "wake", "clock_hz", "period_ns", "samples",
            "missed", "min_ns", "max_ns", "mean_ns")


def same_run(a, b):
    return all(a.get(k) == b.get(k) for k in SAME_RUN + tuple(k for k, _, _ in PCTS))


def parse_reports(text, source="input", problems=None):
    """Every d1lat/cyclictest JSON object found in text, in order; a dump
    line next to the report line of the same run (either order) is that
    run, counted once.

    A line that cannot be compared (not JSON, cut short, lacking a field,
    another format) raises UsageError naming it; with a list as
    @problems it is appended there instead ("<source>: line N: ...") and
    the reading goes on."""
    runs = []
    last_dump = None  # whether runs[-1] came from a dump line; None once paired

    def problem(lineno, what):
        msg = "%s: line %d: %s" % (source, lineno, what)
        if problems is None:
            raise UsageError(msg)
        problems.append(msg)

    for lineno, obj in d1lat_dump.tool_objects(text):
        if isinstance(obj, ValueError):
            problem(lineno, "bad JSON report line (cut short?): %s" % obj)
            continue
        if not isinstance(obj, dict):
            continue
        tool = obj.get("tool")
        dump = tool == "d1lat-dump"
        if dump:
            # The recorder dump (a device may print only that): decode it here.
            if obj.get("format") != DUMP_FORMAT:
                problem(lineno, "d1lat-dump format %s, expected %d: re-run with a current "
                        "image" % (json.dumps(obj.get("format")), DUMP_FORMAT))
                continue
            try:
                obj = d1lat_dump.report(obj)
            except d1lat_dump.DumpError as e:
                problem(lineno, "bad dump line: %s" % e)
                continue
        elif tool not in TOOLS:
            continue
        elif obj.get("format") != FORMAT:
            problem(lineno, "%s format %s, expected %d" % (tool, json.dumps(obj.get("format")),
                                                          FORMAT))
            continue
        missing = [k for k in ["os", "samples", "min_ns", "max_ns", "mean_ns"] +
                   [k for k, _, _ in PCTS] if k not in obj]
        if missing:
            problem(lineno, "report lacks field %r" % missing[0])
            continue
        obj.setdefault("overflow_fields", [])  # cyclictest: beyond its histogram
        obj.setdefault("approx_fields", [])    # d1lat: bucket estimates
        if last_dump == (not dump) and same_run(runs[-1], obj):
            last_dump = None  # a third such line is another run
            continue
        runs.append(obj)
        last_dump = dump
    return runs


def read_runs(paths):
    """(runs, problems) of all input files: a file with no report line
    at all is a problem of its own (the run printed nothing)."""
    runs, problems = [], []
    for f in paths:
        before = len(problems)
        got = parse_reports(read_text(f), "stdin" if f == "-" else f, problems)
        if not got and len(problems) == before:
            problems.append("%s: no d1lat report line (the run printed nothing?)"
                            % ("stdin" if f == "-" else f))
        runs += got
    return runs, problems


def known(v):
    return v is not None and str(v) not in ("", "unknown")


def label_of(run):
    """"<os> <tool> (<board>, <measurement>[/<wake>], load <load>)", without
    what is unknown; the wake only when it says something ("none" is the
    timer interrupt's)."""
    if run.get("label"):
        return str(run["label"])
    name = "%s %s" % (run.get("os", "?"), run["tool"])
    parts = []
    if known(run.get("board")):
        parts.append(str(run["board"]))
    if known(run.get("measurement")):
        m = str(run["measurement"])
        if known(run.get("wake")) and str(run["wake"]) != "none":
            m += "/" + str(run["wake"])
        parts.append(m)
    elif known(run.get("wake")) and str(run["wake"]) != "none":
        parts.append("wake " + str(run["wake"]))
    if known(run.get("load")):
        parts.append("load " + str(run["load"]))
    if parts:
        name += " (%s)" % ", ".join(parts)
    return name


def unique_labels(runs):
    """Labels, numbered "#1", "#2", ... where several runs share one."""
    base = [label_of(r) for r in runs]
    seen = {}
    out = []
    for b in base:
        seen[b] = seen.get(b, 0) + 1
        out.append("%s #%d" % (b, seen[b]) if base.count(b) > 1 else b)
    return out


# ---- cyclictest ---------------------------------------------------------

def nearest_rank(n, q_ppm):
    """ceil(q * n / 1e6), at least 1 -- the recorder's definition."""
    return max(1, -(-q_ppm * n // 1000000))


def from_cyclictest(text, interval_us=None, board="unknown", load="none", os_name="linux"):
    """One report dict (format 3) from `cyclictest -q -m -h H` output (all
    threads summed): a task-wakeup measurement, the task woken by
    clock_nanosleep()."""
    hist = {}
    total = overflows = None
    mins, avgs, maxs = [], [], []
    for line in text.splitlines():
        m = re.match(r"^(\d+)((?:\s+\d+)+)\s*$", line)
        if m:
            hist[int(m.group(1))] = hist.get(int(m.group(1)), 0) + \
                sum(int(x) for x in m.group(2).split())
            continue
        m = re.match(r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|"
                     r"Histogram Overflows):((?:\s+\d+)+)\s*$", line)
        if not m:
            continue
        vals = [int(x) for x in m.group(2).split()]
        key = m.group(1)
        if key == "Total":
            total = sum(vals)
        elif key == "Min Latencies":
            mins = vals
        elif key == "Avg Latencies":
            avgs = vals
        elif key == "Max Latencies":
            maxs = vals
        else:
            overflows = sum(vals)
    if not hist or not maxs or not mins:
        raise UsageError("no cyclictest histogram found (run it with -q -h N)")
    in_hist = sum(hist.values())
    overflows = overflows or 0
    n = in_hist + overflows
    lo, hi = min(mins), max(maxs)
    rep = {"tool": "cyclictest", "format": FORMAT, "os": os_name, "board": board,
           "clock_hz": 1000000,
           "period_ns": interval_us * 1000 if interval_us else 0,
           "samples": n, "missed": None, "load": load,
           "measurement": "task-wakeup", "wake": "clock_nanosleep", "resolution_ns": 1000.0,
           "exact_max_ns": (max(hist) * 1000.0), "min_ns": lo * 1000.0}
    flagged = []
    bins = sorted(hist)
    for key, _, q in PCTS:
        rank = nearest_rank(n, q)
        cum, val = 0, None
        for b in bins:
            cum += hist[b]
            if cum >= rank:
                val = b
                break
        if val is None:  # in cyclictest's overflow: only max bounds it
            val = hi
            if rank != n:
                flagged.append(key)
        rep[key] = val * 1000.0
    rep["max_ns"] = hi * 1000.0
    # cyclictest's Avg is per thread, in whole us; weight equally.
    rep["mean_ns"] = (sum(avgs) / len(avgs)) * 1000.0 if avgs else None
    rep["overflow"] = bool(flagged)
    rep["overflow_fields"] = flagged
    rep["above_range"] = overflows
    if total is not None and total != in_hist:
        raise UsageError("cyclictest Total %d != histogram sum %d" % (total, in_hist))
    return rep


def dump_line(rep):
    """The JSON line, ns fields with 3 decimals like the C recorder writes.
    ASCII only, as the C line: a raw U+0085/U+2028/U+2029 in --board or
    --load would split it for parse_reports() (str.splitlines())."""
    parts = []
    for k, v in rep.items():
        if k.endswith("_ns") and isinstance(v, float):
            parts.append('"%s":%.3f' % (k, v))
        else:
            parts.append("%s:%s" % (json.dumps(k), json.dumps(v)))
    return "{" + ",".join(parts) + "}"


# ---- table --------------------------------------------------------------

def us(v):
    return "n/a" if v is None else "%.3f" % (v / 1000.0)


def markdown(runs, title=None, problems=()):
    labels = unique_labels(runs)
    out = []
    if title:
        out += ["## " + title, ""]
    if not runs:
        out.append("No run to compare.")
        return "\n".join(out + not_compared(problems)) + "\n"
    out.append("| | " + " | ".join(labels) + " |")
    out.append("|---|" + "---:|" * len(runs))

    def row(name, cells):
        out.append("| %s | %s |" % (name, " | ".join(cells)))

    row("tool", [r["tool"] for r in runs])
    row("os", [str(r.get("os", "")) for r in runs])
    row("board", [str(r.get("board", "")) for r in runs])
    row("load", [str(r.get("load", "")).replace("|", "\\|") for r in runs])
    row("measurement", [str(r.get("measurement", "")).replace("|", "\\|") for r in runs])
    row("wake", [str(r.get("wake", "")).replace("|", "\\|") for r in runs])
    row("period (us)", [us(r.get("period_ns")) if r.get("period_ns") else "n/a" for r in runs])
    row("samples", [str(r["samples"]) for r in runs])
    row("missed", ["n/a" if r.get("missed") is None else str(r["missed"]) for r in runs])
    row("resolution (us)", [us(r.get("resolution_ns")) for r in runs])
    def cell(r, key):
        if key in r.get("overflow_fields", []):
            return "<= " + us(r[key])
        if key in r.get("approx_fields", []):
            return "~" + us(r[key])
        return us(r[key])

    row("min (us)", [cell(r, "min_ns") for r in runs])
    for key, name, _ in PCTS:
        row(name + " (us)", [cell(r, key) for r in runs])
    row("max (us)", [cell(r, "max_ns") for r in runs])
    row("mean (us)", [cell(r, "mean_ns") for r in runs])
    out.append("")
    out.append("Percentiles: nearest rank (smallest v with at least ceil(q*N) samples <= v). "
               "\"<=\": the value is an upper bound (beyond cyclictest's histogram); "
               "\"~\": a bucket estimate of the recorder (within 1/128 up to its top, an "
               "upper bound above it). cyclictest values are whole microseconds; "
               "its missed periods are not counted (n/a).")
    return "\n".join(out + not_compared(problems)) + "\n"


def not_compared(problems):
    """The list under the table of the inputs that were not compared."""
    if not problems:
        return []
    return ["", "Not compared (%d):" % len(problems), ""] + \
        ["- " + p.replace("|", "\\|") for p in problems]


# ---- picture ------------------------------------------------------------

def gnuplot_path():
    env = os.environ.get("D1LAT_GNUPLOT")
    if env is not None:
        return env if (os.path.isfile(env) and os.access(env, os.X_OK)) else None
    return shutil.which("gnuplot")


def gp_str(s):
    """s as a gnuplot string constant. Single-quoted: gnuplot takes every
    character literally ('' is a quote), where a double-quoted one (JSON's
    quoting) reads backslash escapes and knows no \\uXXXX; a line break would
    end the command, so control characters become blanks."""
    s = "".join(" " if ord(c) < 0x20 or c == "\x7f" else c for c in str(s))
    return "'" + s.replace("'", "''") + "'"


# The key goes below the curves, one line per run: the picture is the plot
# area plus KEY_LINE_PX per run, so a long comparison never hides its curves.
PLOT_W, PLOT_H, KEY_LINE_PX = 1000, 420, 18
COLOURS = 8  # gnuplot's default line colours; runs beyond them change dash type


def plot_script(runs, out_path, title):
    ext = os.path.splitext(out_path)[1].lower()
    height = PLOT_H + 60 + KEY_LINE_PX * len(runs)
    if ext == ".svg":
        term = ("set terminal svg size %d,%d dynamic enhanced font 'Sans,12' background '#ffffff'"
                % (PLOT_W, height))
    elif ext == ".png":
        term = "set terminal pngcairo size %d,%d enhanced font 'Sans,10'" % (PLOT_W, height)
    else:
        raise UsageError("--plot wants a .png or .svg file name")
    cats = [("min_ns", "min")] + [(k, n) for k, n, _ in PCTS] + [("max_ns", "max")]
    labels = unique_labels(runs)
    lines = [term,
             "set output %s" % gp_str(out_path),
             "set title %s noenhanced" % gp_str(title or "Latency distributions"),
             "set ylabel 'latency (us), log scale'",
             "set logscale y",
             "set grid ytics mytics xtics",
             "set key below left Left reverse noenhanced box maxcols 1 title "
             "'x: percentile (nearest rank); circled points are upper bounds or estimates'",
             "set xtics (%s)" % ", ".join('"%s" %d' % (n, i) for i, (_, n) in enumerate(cats)),
             "set xrange [-0.3:%f]" % (len(cats) - 0.7)]
    plots = []
    for idx, (r, lab) in enumerate(zip(runs, labels)):
        lines.append("$d%d << EOD" % idx)
        for i, (k, _) in enumerate(cats):
            v = r[k]
            flag = 1 if k in r.get("overflow_fields", []) + r.get("approx_fields", []) else 0
            lines.append("%d %.6f %d" % (i, max(v / 1000.0, 0.001), flag))
        lines.append("EOD")
        lt = idx % COLOURS + 1
        plots.append("$d%d using 1:2 with linespoints lt %d dt %d pt 7 ps 1.0 title %s"
                     % (idx, lt, idx // COLOURS + 1, gp_str(lab)))
        plots.append("$d%d using 1:($3 > 0 ? $2 : 1/0) with points lt %d pt 6 ps 2.0 notitle"
                     % (idx, lt))
    lines.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(lines) + "\n"


def plot(runs, out_path, title):
    return render(plot_script(runs, out_path, title), out_path)


def render(script, out_path):
    """Run gnuplot on @script, which writes @out_path: 0, 1 if gnuplot
    failed, EXIT_NO_GNUPLOT without gnuplot (said on standard error)."""
    gp = gnuplot_path()
    if gp is None:
        sys.stderr.write("d1lat_compare: gnuplot not found (install Debian's gnuplot-nox: "
                         "apt-get install -y gnuplot-nox); no picture written\n")
        return EXIT_NO_GNUPLOT
    p = subprocess.run([gp], input=script, text=True, capture_output=True)
    if p.returncode != 0 or not os.path.exists(out_path):
        sys.stderr.write("d1lat_compare: gnuplot failed:\n" + p.stderr)
        return 1
    return 0


# ---- verdict ------------------------------------------------------------

def verdict(runs, tol_abs_us=TOL_ABS_US, tol_rel=TOL_REL, bound_us=BOUND_US, problems=()):
    """(agree, text) for the first d1lat run against the first cyclictest run;
    any input not compared (@problems) fails it."""
    a = next((r for r in runs if r["tool"] == "d1lat"), None)
    b = next((r for r in runs if r["tool"] == "cyclictest"), None)
    if problems:
        fail = ("not compared:\n" + "".join("  %s\n" % p for p in problems) +
                "VERDICT: FAIL (%d input(s) not compared)" % len(problems))
        if a is None or b is None:
            return False, fail
        return False, verdict(runs, tol_abs_us, tol_rel, bound_us)[1].rsplit("\n", 1)[0] + \
            "\n" + fail
    if a is None or b is None:
        raise UsageError("--verdict needs one d1lat and one cyclictest report")
    ma, mb = a["p50_ns"] / 1000.0, b["p50_ns"] / 1000.0
    diff = abs(ma - mb)
    tol = max(tol_abs_us, tol_rel * max(ma, mb))
    ok_med = diff <= tol
    ok_bound = ma <= bound_us and mb <= bound_us
    agree = ok_med and ok_bound
    text = ("medians: d1lat %.3f us, cyclictest %.3f us, |diff| %.3f us, tolerance "
            "max(%.1f us, %.0f%% of the larger) = %.3f us -> %s; sanity bound %.0f us on "
            "both medians -> %s\nVERDICT: %s"
            % (ma, mb, diff, tol_abs_us, tol_rel * 100, tol, "ok" if ok_med else "NOT ok",
               bound_us, "ok" if ok_bound else "NOT ok",
               "AGREE" if agree else "DISAGREE"))
    return agree, text


# ---- main ---------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="text files with report lines ('-': stdin)")
    ap.add_argument("-o", "--output", help="markdown file to write (default: stdout)")
    ap.add_argument("--plot", help="picture to write, .png (pngcairo) or .svg")
    ap.add_argument("--title", help="table heading and picture title")
    ap.add_argument("--labels", help="comma-separated column/legend names, one per run")
    ap.add_argument("--from-cyclictest", metavar="FILE",
                    help="convert cyclictest -h output to a JSON line")
    ap.add_argument("--interval-us", type=int, help="with --from-cyclictest: its -i")
    ap.add_argument("--board", default="unknown", help="with --from-cyclictest")
    ap.add_argument("--load", default="none", help="with --from-cyclictest")
    ap.add_argument("--verdict", action="store_true",
                    help="judge d1lat against cyclictest (exit 0 agree, 1 disagree)")
    ap.add_argument("--tol-abs-us", type=float, default=TOL_ABS_US)
    ap.add_argument("--tol-rel", type=float, default=TOL_REL)
    ap.add_argument("--bound-us", type=float, default=BOUND_US)
    args = ap.parse_args(argv)
    try:
        if args.from_cyclictest:
            rep = from_cyclictest(read_text(args.from_cyclictest), args.interval_us,
                                  args.board, args.load)
            print(dump_line(rep))
            return 0
        if not args.files:
            raise UsageError("no input files")
        runs, problems = read_runs(args.files)
        for p in problems:
            sys.stderr.write("d1lat_compare: not compared: %s\n" % p)
        if not runs:
            raise UsageError("no d1lat report lines found in the input" +
                             (" that could be compared" if problems else ""))
        if args.labels:
            names = args.labels.split(",")
            if len(names) != len(runs):
                raise UsageError("--labels has %d names for %d runs" % (len(names), len(runs)))
            for r, n in zip(runs, names):
                r["label"] = n
        if args.verdict:
            agree, text = verdict(runs, args.tol_abs_us, args.tol_rel, args.bound_us, problems)
            print(text)
            return 0 if agree else 1
        md = markdown(runs, args.title, problems)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(md)
        else:
            sys.stdout.write(md)
        rc = 0
        if args.plot:
            rc = plot(runs, args.plot, args.title)
        return rc if rc != 0 or not problems else EXIT_NOT_COMPARED
    except (UsageError, OSError) as e:
        sys.stderr.write("d1lat_compare: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
