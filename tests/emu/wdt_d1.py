#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Watchdog takeover on the emulated D1, with its negative control.

The machine starts riscv_wdt armed with 16 s in reset mode (what the vendor
bootloader can leave, docs/hardware-facts.md "Watchdogs"). --expect
survives: the image takes the watchdog over (D1_BENCH_WDT=stop, the default build) and runs its 20 s bench
to the end: no watchdog expiry in QEMU's log. --expect reset: the same image
built with D1_BENCH_WDT=off leaves it alone and the machine is reset at
16 s of virtual time (-no-reboot: QEMU exits; -d cpu_reset logs the
expiry with its virtual time)."""
import argparse
import re
import sys

from emu_common import Checks, run_logged


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--expect", choices=["survives", "reset"], required=True)
    ap.add_argument("--timeout", type=float, default=240)
    a = ap.parse_args()

    out, exited, rc, qlog = run_logged(a.image, a.timeout)
    exp = re.search(r"riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset",
                    qlog)
    c = Checks(f"emu_wdt_{a.expect}")
    c.ok("watchdog: inherited from firmware: riscv_wdt: running, 16000 ms, reset mode" in out,
         "the image found riscv_wdt running with 16 s (machine power-on state)")
    if a.expect == "survives":
        c.ok("watchdog: policy stop -> stopped" in out, "the image took the watchdog over")
        c.ok("BENCH DONE" in out and "halted." in out,
             "ran its 20 s bench to the end (past 16 s of virtual time)")
        c.ok(exp is None, "no watchdog expiry in QEMU's log")
        c.ok(not exited, "QEMU was still running at the end (no reset)")
    else:
        c.ok("takeover off (D1_BENCH_WDT=off)" in out, "the image did not take it over")
        c.ok(exited and rc == 0, f"QEMU ended by itself (reset with -no-reboot), rc={rc}")
        if c.ok(exp is not None, "QEMU logged the riscv_wdt expiry"):
            ms, ns = int(exp.group(1)), int(exp.group(2))
            c.ok(ms == 16000, f"timeout {ms} ms")
            c.ok(16.0e9 <= ns < 16.001e9, f"expired at {ns / 1e9:.6f} s of virtual time "
                 "(armed at power-on: 16 s)")
        c.ok("BENCH DONE" not in out, "the bench did not finish (reset first)")
    return c.done(out + "\n---- qemu log ----\n" + qlog if c.failed else None)


if __name__ == "__main__":
    sys.exit(main())
