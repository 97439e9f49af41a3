#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run d1lat-linux briefly and check its report.

usage: check_d1lat_linux.py PATH/TO/d1lat-linux [loops]

Checks: one JSON line that parses, with the fields of docs/latency.md;
samples + missed == loops; min <= p50 <= ... <= p99.99 <= max (percentiles
flagged as estimates may equal max); min <= mean <= max (within 1/128);
--dump decodes to the same JSON line; clock 24 MHz (the D1's `time` CSR:
the recorder counts 24,000,000 Hz, 41.667 ns resolution, whatever the
host); period as asked; every sample below the recorder's exact range
is exact (no percentile an estimate in a run whose samples all are); the
text table shows the same numbers;
--json-only prints exactly that one line; bad options exit 2; output that
cannot be written (stdout on /dev/full: the report, the dump, --help) makes
the exit status non-zero.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "tools"))
import d1lat_dump  # noqa: E402

FIELDS = ["tool", "format", "os", "board", "clock_hz", "period_ns", "samples",
          "missed", "load", "measurement", "wake", "resolution_ns", "exact_max_ns", "top_ns",
          "min_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns", "mean_ns",
          "approx", "approx_fields", "above_exact", "above_top", "saturated"]
ORDER = ["min_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_line(line, loops, interval_us, load):
    rep = json.loads(line)
    missing = [f for f in FIELDS if f not in rep]
    if missing:
        fail("missing fields %s" % missing)
    if rep["tool"] != "d1lat" or rep["format"] != 3 or rep["os"] != "linux":
        fail("identity fields: %r" % rep)
    if not (isinstance(rep["measurement"], str) and isinstance(rep["wake"], str)):
        fail("measurement/wake: %r %r" % (rep["measurement"], rep["wake"]))
    if rep["clock_hz"] != 24000000 or rep["resolution_ns"] != 41.667:
        fail("clock: %r %r" % (rep["clock_hz"], rep["resolution_ns"]))
    if rep["period_ns"] != interval_us * 1000:
        fail("period_ns %r" % rep["period_ns"])
    if rep["load"] != load:
        fail("load %r" % rep["load"])
    if rep["samples"] + rep["missed"] != loops:
        fail("samples %d + missed %d != loops %d" % (rep["samples"], rep["missed"], loops))
    if rep["samples"] < 1:
        fail("no samples")
    vals = [rep[k] for k in ORDER]
    for a, b, ka, kb in zip(vals, vals[1:], ORDER, ORDER[1:]):
        if a > b:
            fail("%s %r > %s %r" % (ka, a, kb, b))
    # min and mean may be bucket estimates (within 1/128): compare with slack.
    if not rep["min_ns"] * (1 - 1 / 128) <= rep["mean_ns"] <= rep["max_ns"] * (1 + 1 / 128):
        fail("mean %r outside [min, max]" % rep["mean_ns"])
    if rep["saturated"] != 0:
        fail("saturation in a 200-sample run")
    if bool(rep["approx_fields"]) != rep["approx"]:
        fail("approx flag and approx_fields disagree")
    # Samples in 24 MHz counts: every exact figure is a whole number of
    # counts, and a run whose samples all lie in the exact range has no
    # estimate.
    for k in ORDER:
        counts = rep[k] * 24e6 / 1e9
        if k not in rep["approx_fields"] and abs(counts - round(counts)) > 0.001:
            fail("%s %r is not a whole number of 24 MHz counts" % (k, rep[k]))
    if rep["max_ns"] <= rep["exact_max_ns"] and rep["approx_fields"]:
        fail("estimates %r in a run within the exact range" % rep["approx_fields"])
    return rep


def main():
    exe = sys.argv[1]
    loops = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    interval = 1000
    load = "ctest \"quoted\" run"
    p = subprocess.run([exe, "-i", str(interval), "-l", str(loops), "-p", "80",
                        "--load", load], capture_output=True, text=True, timeout=60)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        fail("exit code %d" % p.returncode)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if len(lines) != 1:
        fail("expected one JSON line, got %d" % len(lines))
    rep = check_line(lines[0], loops, interval, load)
    text = p.stdout
    if "  samples      : %d\n" % rep["samples"] not in text:
        fail("text table samples line")
    if ("%.3f" % rep["max_ns"]) not in text:
        fail("text table max")
    print(text, end="")

    # --dump: the host decoder turns the dump into the same JSON line.
    p = subprocess.run([exe, "-i", "500", "-l", "50", "--json-only", "--dump"],
                       capture_output=True, text=True, timeout=60)
    out = p.stdout.splitlines()
    if p.returncode != 0 or len(out) != 2:
        fail("--dump: exit %d, %d lines" % (p.returncode, len(out)))
    if d1lat_dump.report_line(json.loads(out[1])) != out[0] + "\n":
        fail("decoded dump != JSON line:\n%s\n%s" % (out[0], out[1][:300]))

    p = subprocess.run([exe, "-i", "500", "-l", "20", "--json-only"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        fail("--json-only exit code %d" % p.returncode)
    out = p.stdout.splitlines()
    if len(out) != 1:
        fail("--json-only printed %d lines" % len(out))
    check_line(out[0], 20, 500, "none")

    # " -1": strtoull() skips the blank and negates, 2^64 - 1 loops (a run of
    # 584 million years at 1 ms) unless the number is checked for a digit.
    # -i 9: a period below the bench core's 240 counts (10 us); -i 178956971:
    # above its 32 bits of 24 MHz counts.
    for bad in (["-i", "0"], ["-i", "9"], ["-i", "178956971"], ["-l", "x"], ["-p", "100"], ["--nope"], ["extra"],
                ["-l", " -1"], ["-l", "\t-2"], ["-p", " -0"]):
        try:
            p = subprocess.run([exe] + bad, capture_output=True, text=True, timeout=10)
        except subprocess.TimeoutExpired:
            fail("%r: still running after 10 s, want exit 2" % (bad,))
        if p.returncode != 2:
            fail("%r: exit %d, want 2" % (bad, p.returncode))

    if os.path.exists("/dev/full"):
        for args in (["-l", "20"], ["-l", "20", "--json-only", "--dump"], ["--help"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([exe, "-i", "500"] + args, stdout=full,
                                   stderr=subprocess.PIPE, text=True, timeout=60)
            if p.returncode == 0:
                fail("%r on a full stdout: exit 0, output lost" % args)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
