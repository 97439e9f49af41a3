#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The watchdog "feed" policy on the emulated D1.

Image: bm_bench built with -DD1_BENCH_WDT=feed and a given
D1_BENCH_WDT_TIMEOUT_MS (CMake accepts 1..16000). The policy promises that
the watchdog is kept armed and fed from the main loop, so the 20 s bench
must run to "BENCH DONE" with no riscv_wdt expiry in QEMU's log, whatever
timeout the build accepted."""
import argparse
import re
import sys

from emu_common import Checks, run_logged


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=240)
    a = ap.parse_args()
    out, _, _, qlog = run_logged(a.image, a.timeout)
    exp = re.search(r"riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual", qlog)
    c = Checks("emu_wdt_feed")
    m = re.search(r"^watchdog: timeout now (\d+) ms$", out, re.M)
    c.ok("watchdog: policy feed" in out, "the image keeps the watchdog and feeds it")
    c.ok(m is not None, "timeout now %s ms" % (m.group(1) if m else "?"))
    # The policy parks after BENCH DONE and lets the watchdog reset the board
    # then; an expiry before the 20 s run is over is the defect.
    c.ok(exp is None or int(exp.group(2)) > 20e9,
         "no watchdog expiry during the 20 s run (%s)" % (exp.group(0) if exp else "-"))
    c.ok("BENCH DONE" in out and "halted." in out, "the bench ran to the end")
    return c.done(out + "\n---- qemu log ----\n" + qlog if c.failed else None)


if __name__ == "__main__":
    sys.exit(main())
