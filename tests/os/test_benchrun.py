#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The run line's one writer against its one parser: tests/bench_run_demo
(d1_bench_report_run() on two runs driven through the bench core) prints
each line after the figures it must carry; benchrun.parse() must read
exactly those.

Usage: test_benchrun.py BENCH_RUN_DEMO
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402


def main(argv):
    out = subprocess.run([argv[1]], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    failed = checked = 0
    for want_line, run_line in zip(lines[0::2], lines[1::2]):
        want = dict(kv.split("=") for kv in want_line[len("want: "):].split())
        got = benchrun.parse(run_line)
        checked += 1
        if got is None:
            print(f"FAIL: not parsed: {run_line}")
            failed += 1
            continue
        for k, v in want.items():
            if str(got[k]) != v:
                print(f"FAIL: {k} = {got[k]}, want {v}: {run_line}")
                failed += 1
    if benchrun.parse("run: 3 period boundaries = 3 samples + 0 missed") is not None:
        print("FAIL: an old-format line parsed")
        failed += 1
    # reports(): objects after a prompt, dumps counted, a cut line named
    text = ('msh />{"tool":"d1lat","format":3,"measurement":"timer-irq"}\n'
            '{"tool":"d1lat-dump","format":2,"bins":[1]}\n'
            'nsh> {"tool":"d1lat","format":3,"measurement":"task-wakeup"}\n'
            '{"tool":"d1lat","format":3,"measu\n'
            '{"tool":"other"}\n')
    found, dumps, bad = benchrun.reports(text)
    if ([r["measurement"] for r in found] != ["timer-irq", "task-wakeup"] or dumps != 1
            or len(bad) != 1 or not bad[0].startswith('{"tool":"d1lat","format":3')):
        print(f"FAIL: reports() read {found}, {dumps} dumps, bad {bad}")
        failed += 1
    print(f"test_benchrun: {checked} lines, {failed} problems")
    return 1 if failed or checked != 2 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
