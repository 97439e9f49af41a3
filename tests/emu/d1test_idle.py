#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The emulated D1's clock while the hart idles with no timer armed
(tests/emu/d1test/idle.c prints, this file asserts), under -icount
shift=0,sleep=off.

On the D1 a machine-timer compare of ~0 (what OpenSBI leaves when no SBI
timer is pending) never fires, and nothing else is armed: the image waits
in WFI until the host's byte arrives, and the `time` CSR moves only by the
instructions executed. QEMU 7.2 turns such a compare into a timer at
INT64_MAX ns; with sleep=off its icount warp jumps the virtual clock there
(2.2e17 counts at 24 MHz), so a tickless guest saw time leap by 292 years
(docs/emulator.md "Timing", docs/nuttx.md "Tickless ostest, diagnosed").

Checks: the watchdog was stopped (no timer left armed by the image), the
byte was received through the PLIC, and t1 - t0 is below one second of
`time` counts although the host waited HOST_WAIT seconds before sending.
"""
import argparse
import sys
import time

from d1test_common import Checks, Run, fields

HOST_WAIT = 1.0               # s of host time between "ready" and the byte
LIMIT = 24_000_000            # time counts (1 s): the instructions of the wait fit
BYTE = 0x5A


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()

    r = Run(a.image)
    ready = r.wait_for(r"^IDLE ready.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    if ready is not None and ready.group(0).startswith(b"IDLE ready"):
        time.sleep(HOST_WAIT)
        r.send(bytes([BYTE]))
        r.wait_for(r"^IDLE woke.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "IDLE")
    c = Checks("emu_d1test_idle")
    c.ok("watchdog: policy stop -> " in out, "the watchdog was stopped: no timer armed by the image")
    c.ok("ready" in f, "the image reached its idle wait")
    w = f.get("woke", {})
    c.ok(w.get("byte") == BYTE, f"the host's byte arrived through the PLIC (byte={w.get('byte')})")
    c.ok(w.get("wakes", 0) >= 1 and w.get("spurious_traps", 1) == 0,
         f"woken by the UART interrupt: {w.get('wakes')} WFI return(s), "
         f"{w.get('spurious_traps')} spurious trap(s)")
    if "t0" in w and "t1" in w:
        d = w["t1"] - w["t0"]
        c.ok(0 <= d < LIMIT,
             f"time CSR advanced {d} counts ({d / 24e6:.6f} s) over the idle wait, < {LIMIT}: "
             "no warp to a compare that never fires")
    else:
        c.ok(False, "t0 and t1 printed")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out))


if __name__ == "__main__":
    sys.exit(main())
