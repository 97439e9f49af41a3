#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The D1 images' wake-up, bm_platform_wake_at() (ports/baremetal/
platform_d1.c: Timer0 one-shot through the library, because the
firmware's SBI timer never fires on the D1), on the emulated D1 under
-icount shift=0,sleep=off (tests/emu/d1test/wake.c prints, this file
asserts):

- 1 ms: the WFI ends at the deadline (late < LATE counts), one WFI;
- 400 s: beyond one arm's reach (2^32 clocks = 178.96 s), the interrupt
  re-arms twice: three WFIs, and the wake is not early (late >= 0 by
  construction) nor late;
- a deadline already past: armed at the minimum lead, one WFI at most;
- a cancelled wake-up neither expires nor leaves an interrupt pending.
"""
import argparse
import sys

from d1test_common import Checks, Run, fields

LATE = 24 * 20       # time counts: 20 us at 24 MHz, the ISR and the loop under -icount


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()

    r = Run(a.image)
    r.wait_for(r"^WAKE cancel.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "WAKE")
    c = Checks("emu_d1test_wake")
    for name, wfis in (("1ms", (1,)), ("400s", (3,)), ("past", (0, 1))):
        w = f.get(name, {})
        late = w.get("late", -1)
        c.ok(0 <= late < LATE, f"{name}: woke {late} counts after the deadline (< {LATE})")
        c.ok(w.get("wfis") in wfis, f"{name}: {w.get('wfis')} WFI return(s) (want {wfis})")
    k = f.get("cancel", {})
    c.ok(k.get("expired") == 0 and k.get("pending") == 0,
         f"cancelled: not expired ({k.get('expired')}), nothing pending ({k.get('pending')})")
    c.ok(k.get("spurious_traps") == 0, "no stray trap")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out), ("qemu log", r.qlog))


if __name__ == "__main__":
    sys.exit(main())
