#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""PLIC faults on the emulated D1: storms of spurious,
foreign and unhandled claims through the library's d1_plic_isr(), each
counted, none hanging the image (tests/emu/d1test/plic_storm.c has
the scenarios). -icount shift=0,sleep=off.

spurious: 20,000 Timer0 interrupts at 10 us, every other one withdrawn at
the device after the trap and before the claim: the PLIC keeps the request
pending (RISC-V PLIC spec), so each withdrawn one is claimed and counted
once as a handler call with no IRQ_STA bit (timer spurious), none as a
claim of 0; the rest delivered; the main loop ran throughout. claim0: 20,000 traps of
Timer0 at 50 us, on every other one the source disabled in the S context
before the claim and enabled again after: each such claim returns 0 and
must be counted once as spurious, and the request, still pending, must be
delivered by the next trap: every timer expiry of the run (counted from
the time CSR) reaches the handler once, none lost. foreign / unhandled: a
stuck source outside the handle's range / without a handler is claimed
once, completed, masked at the machine (enable bit read back 0), counted,
and never re-enters."""
import argparse
import sys

from d1test_common import Checks, Run, fields


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=200)
    a = ap.parse_args()
    r = Run(a.image)
    r.wait_for(r"^PSTORM end.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "PSTORM")
    c = Checks("emu_d1test_plic_storm")
    s = f.get("spurious", {})
    c.ok(s.get("events") == 20000, f"spurious: the storm ran its 20000 interrupts ({s.get('events')})")
    c.ok(s.get("withdrawn") == 10000 and s.get("fired") == 10000,
         f"  10000 withdrawn, 10000 delivered to the handler ({s.get('fired')})")
    c.ok(s.get("timer_spurious") == s.get("withdrawn") and s.get("plic_spurious") == 0,
         f"  every withdrawn request counted once: timer spurious {s.get('timer_spurious')}, "
         f"PLIC claims of 0 {s.get('plic_spurious')} (the request stays pending)")
    c.ok(s.get("dispatched") == (s.get("fired") or 0) + (s.get("timer_spurious") or 0),
         f"  handler calls {s.get('dispatched')} = delivered + spurious")
    c.ok(s.get("unhandled") == 0, "  nothing unhandled")
    c.ok((s.get("main_iters") or 0) > 100000, f"  the main loop kept running ({s.get('main_iters')})")
    z = f.get("claim0", {})
    c.ok(z.get("events") == 20000 and z.get("masked") == 10000,
         f"claim0: 20000 traps, 10000 with the source masked before the claim "
         f"({z.get('events')}, {z.get('masked')})")
    c.ok(z.get("plic_spurious") == z.get("masked"),
         f"  every spurious claim counted once: {z.get('plic_spurious')} claims of 0")
    c.ok(z.get("fired") == (z.get("events") or 0) - (z.get("masked") or 0) and
         z.get("dispatched") == z.get("fired"),
         f"  each masked request delivered by the next trap: {z.get('fired')} to the handler")
    c.ok(abs((z.get("fired") or 0) - (z.get("expiries_by_time") or -9)) <= 1,
         f"  every timer expiry delivered, none lost: {z.get('fired')} of "
         f"{z.get('expiries_by_time')} by the time CSR")
    c.ok(z.get("timer_spurious") == 0 and z.get("unhandled") == 0,
         "  no handler call without a request, nothing unhandled")
    for name in ("foreign", "unhandled"):
        d = f.get(name, {})
        c.ok(d.get("hook_calls") == 1 and d.get(name) == 1,
             f"{name}: claimed once, counted ({d.get(name)}), no re-entry "
             f"({d.get('hook_calls')} trap(s))")
        c.ok(d.get("enabled_after") == 0, "  masked at the machine afterwards")
        c.ok((d.get("main_iters") or 0) > 100000, "  the main loop ran on")
    c.ok(f.get("foreign", {}).get("last_foreign") == 76, "foreign: the id reported is 76")
    c.ok(f.get("end", {}).get("traps_spurious") == 0, "the image ran to its end, no stray trap")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out))


if __name__ == "__main__":
    sys.exit(main())
