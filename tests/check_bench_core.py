#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every bench counts through the one bench core (include/d1/bench.h).

A bench (a file under bench/) that records samples or missed periods into a recorder
itself (d1_lat_record(), d1_lat_missed()) has its own idea of a boundary, a
missed period or a spurious interrupt, which is the trap the comparison
exists to avoid: its figures would measure its code, not its OS. Such a
file must capture with d1_bench_isr() / d1_bench_isr_at() and account with
d1_bench_account() / d1_bench_wake() instead.

Usage: check_bench_core.py [REPO]   (exit 0 clean, 1 with findings)
"""
import os
import re
import sys

from ccode import strip_c_comments

CALL = re.compile(r"\b(d1_lat_record|d1_lat_missed)\s*\(")


def main(argv):
    repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    findings = 0
    for top, dirs, files in os.walk(os.path.join(repo, "bench")):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, repo)
            with open(path, encoding="utf-8") as f:
                code = strip_c_comments(f.read())
            for m in CALL.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                print(f"FAIL   {rel}:{line}: {m.group(1)}() outside the bench core: count "
                      "through d1_bench_isr()/d1_bench_wake() (include/d1/bench.h)")
                findings += 1
    print(f"check_bench_core: {findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
