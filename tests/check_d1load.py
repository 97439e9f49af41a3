#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""d1load (bench/linux/d1load.c), the comparison's defined load on Linux:
its lines are the load's 64-character lines, never more than one per
5,556 us (the line's time at 115,200 baud), its summary counts exactly the
lines written, it stops on SIGTERM, a bad argument is a usage error (exit
2), and a write that fails (stdout on /dev/full) is counted and fails the
run instead of vanishing.

usage: check_d1load.py PATH/TO/d1load
"""
import os
import re
import signal
import subprocess
import sys
import time

LINE = "d1bench load: 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"
SUMMARY = re.compile(r"^d1load: (\d+) lines, (\d+) copies of 65536 bytes, (\d+) failed writes$",
                     re.M)


def main(exe):
    t0 = time.monotonic()
    p = subprocess.run([exe, "1"], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - t0
    out = p.stdout.splitlines()
    m = SUMMARY.search(p.stderr)
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert took >= 1.0, f"ended after {took:.3f} s, before its 1 s"
    assert out and all(ln == LINE for ln in out), out[:3]
    assert m and int(m.group(1)) == len(out) and int(m.group(3)) == 0, p.stderr
    assert int(m.group(2)) > 0, "the copy thread never copied"
    # one line at the start, then one per 5,556 us for as long as it ran
    # (it stops at the first line slot after its second is up)
    assert len(out) <= 1 + int(took * 1_000_000) // 5556, \
        f"{len(out)} lines in {took:.3f} s: faster than the line"
    for bad in ("0", "1x", "86401", "-1", "1 2"):
        q = subprocess.run([exe] + bad.split(), capture_output=True, text=True, timeout=30)
        assert q.returncode == 2 and "usage: d1load" in q.stderr, (bad, q.returncode, q.stderr)
    q = subprocess.Popen([exe], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    q.send_signal(signal.SIGTERM)
    err = q.communicate(timeout=30)[1]
    assert q.returncode == 0 and SUMMARY.search(err), (q.returncode, err)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            q = subprocess.run([exe, "1"], stdout=full, stderr=subprocess.PIPE, text=True,
                               timeout=30)
        m = SUMMARY.search(q.stderr)
        assert q.returncode == 1 and m and int(m.group(3)) > 0 and int(m.group(1)) == 0, q.stderr
    print(f"d1load: {len(out)} lines in {took:.3f} s, summary agrees; usage errors, SIGTERM "
          "and failed writes as documented")


if __name__ == "__main__":
    main(sys.argv[1])
