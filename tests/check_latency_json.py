#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The recorder's JSON line is valid JSON (python3 -m json.tool) and says
what the known distribution of tests/lat_report_demo.c implies.

usage: check_latency_json.py PATH/TO/lat_report_demo
"""
import json
import math
import subprocess
import sys
from fractions import Fraction


def ns3(counts, hz):
    """counts of an hz clock in ns, rounded to nearest 0.001 ns, halves up."""
    ps = math.floor(Fraction(counts) * 10**12 / hz + Fraction(1, 2))
    return ps / 1000.0


def main():
    out = subprocess.run([sys.argv[1]], capture_output=True, text=True, check=True).stdout
    lines = [l for l in out.splitlines() if l.startswith("{")]
    assert len(lines) == 1, lines
    # The stdlib validator, as a person would run it.
    subprocess.run([sys.executable, "-m", "json.tool"], input=lines[0], text=True,
                   check=True, capture_output=True)
    rep = json.loads(lines[0])
    hz = 24000000
    samples = list(range(1, 1001)) + [5000, 6000, 6001, 6002]
    n = len(samples)
    assert rep["samples"] == n and rep["missed"] == 2, rep
    assert rep["load"] == 'demo "known" distribution\\1..1000', rep["load"]
    assert rep["resolution_ns"] == ns3(1, hz)
    assert rep["min_ns"] == ns3(1, hz) and rep["max_ns"] == ns3(6002, hz)
    # Exact percentiles (inside 0..2000): nearest rank over the sorted list.
    for key, q in (("p50_ns", 500000), ("p90_ns", 900000), ("p99_ns", 990000)):
        rank = max(1, -(-q * n // 1000000))
        assert rep[key] == ns3(samples[rank - 1], hz), (key, rep[key])
    # p99.9: rank 1003 = 6001, in the overflow bucket [5632, 6143] with 6000
    # and 6002: reported as the bucket's bound clamped to max, and flagged.
    # p99.99: rank 1004, the last sample of the bucket holding max: exact.
    assert rep["p999_ns"] == ns3(6002, hz) and rep["p9999_ns"] == ns3(6002, hz)
    mean = Fraction(sum(samples), n)
    assert rep["mean_ns"] == ns3(mean, hz), rep["mean_ns"]
    assert rep["above_range"] == 4
    assert rep["overflow"] is True and rep["overflow_fields"] == ["p999_ns"], rep
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
