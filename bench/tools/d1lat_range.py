#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How far the comparison's figures move across the timing model's
estimated ranges: one table from three runs of the comparison in the
emulator's timing mode (bench/c906_range.sh).

  d1lat_range.py FAST DEFAULT SLOW [-o table.md]

Each argument is the baseline text a run wrote (bench/comparison.sh
--timing c906-fast / c906 / c906-slow: OUT/baseline.txt, one row per line,
figures in counts of the row's clock). The table gives every row's p50 in
ns at the fastest corner (every estimated parameter at the end of its range
that makes the model fastest), at the defaults, and at the slowest corner,
and slow / fast. A row missing from a run is said, not dropped.
"""
import argparse
import re
import sys

ROW = re.compile(r"^(?P<label>.*?) samples=(?P<samples>\d+) missed=(?P<missed>\d+) "
                 r"p50=(?P<p50>\d+).*\((?:counts|counts of (?P<hz>\d+) Hz)\)$")


def read(path):
    """{row label: (p50 ns, missed)} of a baseline text."""
    rows = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if m:
                hz = int(m.group("hz") or 24_000_000)
                rows[m.group("label")] = (int(m.group("p50")) * 1e9 / hz, int(m.group("missed")))
    return rows


def table(fast, default, slow):
    out = ["| row | p50 ns, fastest | p50 ns, defaults | p50 ns, slowest | slowest / fastest |",
           "|---|---|---|---|---|"]
    missing = []
    for label in sorted(set(fast) | set(default) | set(slow)):
        runs = [fast.get(label), default.get(label), slow.get(label)]
        if None in runs:
            missing.append(label)
            continue
        cells = [f"{ns:,.1f}" + (f" ({missed} missed)" if missed else "") for ns, missed in runs]
        ratio = runs[2][0] / runs[0][0] if runs[0][0] else float("inf")
        out.append(f"| {label} | " + " | ".join(cells) + f" | {ratio:.2f} |")
    if missing:
        out += ["", "Not in every run: " + "; ".join(missing) + "."]
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fast")
    ap.add_argument("default")
    ap.add_argument("slow")
    ap.add_argument("-o", "--output")
    a = ap.parse_args(argv)
    runs = [read(p) for p in (a.fast, a.default, a.slow)]
    empty = [p for p, r in zip((a.fast, a.default, a.slow), runs) if not r]
    if empty:
        sys.stderr.write("d1lat_range: no rows in " + ", ".join(empty) + "\n")
        return 1
    text = ("Modelled C906 time across the model's estimated ranges (a model, not the board; "
            "docs/emulator.md \"Timing mode\"): p50 per row, clock-read per call.\n\n"
            + table(*runs))
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    return 1 if "Not in every run" in text else 0


if __name__ == "__main__":
    sys.exit(main())
