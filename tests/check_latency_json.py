#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The recorder's JSON line is valid JSON (python3 -m json.tool), says what
the known distribution of tests/lat_report_demo.c implies (exact below
1024 counts, within 1/128 above, flagged), and the host decoder
(bench/tools/d1lat_dump.py) turns the demo's dump line into exactly the same
bytes as the device-side d1_lat_report_json(). A report that cannot be
written (stdout on /dev/full) is a failed run, not a silent exit 0.

usage: check_latency_json.py PATH/TO/lat_report_demo
"""
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "tools"))
import d1lat_dump  # noqa: E402


def ns3(counts, hz):
    """counts of an hz clock in ns, rounded to nearest 0.001 ns, halves up."""
    ps = math.floor(Fraction(counts) * 10**12 / hz + Fraction(1, 2))
    return ps / 1000.0


def within(got_ns, true_counts, hz):
    """|got - true| <= true / 128 (+ the 0.5 ps rounding of the ns figure)."""
    true_ns = Fraction(true_counts) * 10**9 / hz
    return abs(Fraction(got_ns) - true_ns) <= true_ns / 128 + Fraction(1, 1000)


def main():
    out = subprocess.run([sys.argv[1]], capture_output=True, text=True, check=True).stdout
    lines = [l for l in out.splitlines() if l.startswith('{"tool":"d1lat",')]
    dumps = [l for l in out.splitlines() if l.startswith('{"tool":"d1lat-dump",')]
    assert len(lines) == 1 and len(dumps) == 1, out
    for l in lines + dumps:  # the stdlib validator, as a person would run it
        subprocess.run([sys.executable, "-m", "json.tool"], input=l, text=True, check=True,
                       capture_output=True)
    assert all(ord(c) < 0x80 for c in lines[0] + dumps[0])
    # Host decoder = device report, byte for byte.
    host = d1lat_dump.report_line(json.loads(dumps[0]))
    assert host == lines[0] + "\n", (host, lines[0])
    rep = json.loads(lines[0])
    hz = 24000000
    samples = list(range(1, 1001)) + [5000, 6000, 6001, 6002]
    n = len(samples)
    assert rep["tool"] == "d1lat" and rep["format"] == 3, rep
    dump = json.loads(dumps[0])
    assert dump["tool"] == "d1lat-dump" and dump["format"] == 2, dump
    assert rep["measurement"] == dump["measurement"] == "timer-irq", rep
    assert rep["wake"] == dump["wake"] == "none", rep
    # The keys in the order of docs/latency.md: the meta after "load".
    keys = list(rep)
    assert keys[keys.index("load") + 1:keys.index("load") + 5] == [
        "measurement", "wake", "bench_instr_min", "bench_instr_max"], keys
    # The bench's own cost, carried by the dump into the host's report.
    assert rep["bench_instr_min"] == dump["bench_instr_min"] == 97, rep
    assert rep["bench_instr_max"] == dump["bench_instr_max"] == 104, rep
    assert rep["samples"] == n and rep["missed"] == 2, rep
    assert rep["load"] == 'demo "known" distribution\\1..1000', rep["load"]
    assert rep["resolution_ns"] == ns3(1, hz)
    assert rep["exact_max_ns"] == ns3(1023, hz) and rep["top_ns"] == ns3(2**25 - 1, hz)
    assert rep["min_ns"] == ns3(1, hz) and rep["max_ns"] == ns3(6002, hz)
    # Nearest rank over the sorted list: exact inside 0..1023.
    for key, q in (("p50_ns", 500000), ("p90_ns", 900000), ("p99_ns", 990000)):
        rank = max(1, -(-q * n // 1000000))
        assert rep[key] == ns3(samples[rank - 1], hz), (key, rep[key])
    # p99.9: rank 1003 = 6001, in bucket [5952, 6015] with 6000 and 6002:
    # an estimate within 1/128, flagged. p99.99: rank 1004, the last sample
    # of the bucket holding max: exact.
    assert within(rep["p999_ns"], 6001, hz) and rep["p999_ns"] != ns3(6001, hz)
    assert rep["p9999_ns"] == ns3(6002, hz)
    mean = Fraction(sum(samples), n)
    assert within(rep["mean_ns"], mean, hz), rep["mean_ns"]
    assert rep["above_exact"] == 4 and rep["above_top"] == 0 and rep["saturated"] == 0
    assert rep["approx"] is True and rep["approx_fields"] == ["p999_ns", "mean_ns"], rep
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            rc = subprocess.run([sys.argv[1]], stdout=full, stderr=subprocess.PIPE).returncode
        assert rc != 0, "report lost on a full stdout, yet exit status 0"
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
