#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the bare-metal latency bench image under QEMU virt and check its report.

The image is started as the board starts it: an S-mode payload at
0x80200000 under the OpenSBI that QEMU bundles. Checks: the recorder's dump
line arrives and decodes (bench/tools/d1lat_dump.py) into a report with every
field; when the image also prints the device-side text report and JSON line
(BENCH_DEVICE_REPORT=1), the text has its fields and the JSON line is byte
for byte the host's decoding of the dump; samples + missed account for every
period, no spurious/unhandled interrupt, "BENCH DONE", exit status 0, and
(unless --allow-missed) zero missed periods, and no "FAIL" line. With
--expect-timeout (the negative control of the run's bound, an image whose
tick never starts) it checks instead that the image stopped at its bound:
"FAIL bench: timeout after T us (bound B us)" with T >= B and T within
B + 10 %, "BENCH TIMEOUT" and no "BENCH DONE", and a non-zero exit status.
"""
import argparse
import json
import os
import re
import sys

from qemu_common import run_stdio

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "tools"))
import d1lat_dump  # noqa: E402

JSON_FIELDS = ("tool", "format", "os", "board", "clock_hz", "period_ns", "samples", "missed",
               "load", "measurement", "wake", "resolution_ns", "min_ns", "p50_ns", "p90_ns",
               "p99_ns", "p999_ns", "p9999_ns", "max_ns", "mean_ns", "approx", "saturated")
TEXT_FIELDS = ("samples", "missed", "clock", "period", "min", "p50", "p99", "p99.9", "max",
               "mean")


def expect_timeout(rc, out, timeout):
    """The image stopped at its bound, reported it and exited non-zero."""
    errors = []
    m = re.search(r"^FAIL bench: timeout after (\d+) us \(bound (\d+) us\)", out, re.M)
    if m is None:
        errors.append("no 'FAIL bench: timeout' line")
    else:
        took, bound = int(m.group(1)), int(m.group(2))
        if not bound <= took <= bound + bound // 10:
            errors.append(f"stopped after {took} us, bound {bound} us")
    lines = out.splitlines()
    if "BENCH TIMEOUT" not in lines:
        errors.append("no 'BENCH TIMEOUT' line")
    if "BENCH DONE" in lines:
        errors.append("'BENCH DONE' printed")
    if rc is None:
        errors.append(f"QEMU killed after {timeout} s (the bound did not end the run)")
    elif rc == 0:
        errors.append("exit status 0")
    if errors:
        print("FAIL: " + "; ".join(errors))
        return 1
    print(f"driver: PASS bench timeout: {m.group(0)}, exit status {rc}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--periods", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--icount", default=None,
                    help="e.g. shift=0,sleep=off: virtual time follows instructions")
    ap.add_argument("--allow-missed", action="store_true",
                    help="report missed periods without failing (wall-clock runs)")
    ap.add_argument("--device-report", action="store_true",
                    help="the image prints the device-side text report and JSON line too")
    ap.add_argument("--expect-timeout", action="store_true",
                    help="negative control: the run must stop at its bound and say so")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()

    rc, out = run_stdio(a.image, a.timeout, a.icount)
    if not a.quiet:
        sys.stdout.write(out)
    if a.expect_timeout:
        return expect_timeout(rc, out, a.timeout)
    errors = []
    fails = [l for l in out.splitlines() if l.startswith("FAIL")]
    if fails:
        errors.append("image printed " + "; ".join(fails))
    if rc is None:
        errors.append(f"QEMU killed after {a.timeout} s")
    elif rc != 0:
        errors.append(f"exit status {rc}")
    if "BENCH DONE" not in out.splitlines():
        errors.append("no 'BENCH DONE' line")
    rep = None
    host_line = None
    try:
        dumps = d1lat_dump.find_dumps(out, "console")
        if len(dumps) != 1:
            errors.append(f"{len(dumps)} dump lines, want 1")
        else:
            host_line = d1lat_dump.report_line(dumps[0])
            rep = json.loads(host_line)
    except (d1lat_dump.DumpError, ValueError) as e:
        errors.append(f"dump line does not decode: {e}")
    dev_lines = [l for l in out.splitlines() if l.startswith('{"tool":"d1lat",')]
    if a.device_report:
        m = re.search(r"^d1lat latency report$(.*?)^\{", out, re.M | re.S)
        if m is None:
            errors.append("no text report")
        else:
            for f in TEXT_FIELDS:
                if not re.search(rf"^\s+{re.escape(f)}\s", m.group(1), re.M):
                    errors.append(f"text report lacks '{f}'")
        if len(dev_lines) != 1:
            errors.append(f"{len(dev_lines)} device JSON lines, want 1")
        elif host_line is not None and dev_lines[0] + "\n" != host_line:
            errors.append("device JSON line != host decoding of the dump:\n  "
                          f"{dev_lines[0]}\n  {host_line.rstrip()}")
    elif dev_lines:
        errors.append("device JSON line printed without BENCH_DEVICE_REPORT")
    if rep is None:
        errors.append("no report")
    else:
        for f in JSON_FIELDS:
            if f not in rep:
                errors.append(f"JSON lacks '{f}'")
        if rep.get("os") != "baremetal":
            errors.append(f"os = {rep.get('os')!r}")
        samples, missed = rep.get("samples", 0), rep.get("missed", 0)
        if samples < 1:
            errors.append("no samples")
        if samples + missed < a.periods:
            errors.append(f"samples {samples} + missed {missed} < {a.periods} periods")
        if missed != 0 and not a.allow_missed:
            errors.append(f"{missed} missed periods")
        if rep.get("saturated", 1) != 0:
            errors.append("recorder saturated")
    c = re.search(r"^counters: spurious_ticks=(\d+) plic_spurious=(\d+) plic_unhandled=(\d+) "
                  r"unowned_traps=(\d+)", out, re.M)
    if c is None:
        errors.append("no counters line")
    elif any(int(x) != 0 for x in c.groups()):
        errors.append(f"non-zero interrupt counters: {c.group(0)}")
    if errors:
        print("FAIL: " + "; ".join(errors))
        return 1
    print(f"driver: PASS bench: {rep['samples']} samples, {rep['missed']} missed, "
          f"p50 {rep['p50_ns']} ns, max {rep['max_ns']} ns (emulated: not a hardware figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
