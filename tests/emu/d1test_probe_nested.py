#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""d1_port_probe32() from an interrupt handler on the emulated D1
(tests/emu/d1test/probe_nested.c prints, this file asserts): the
probe's access fault is a trap taken inside the Timer0 trap, and the
outer trap must still return into the interrupted main loop with
interrupts on.

Checks: the probe reported D1_ENODELEG (the fault was fixed up), the main
loop resumed in its own code (main_ok=1) with sstatus.SIE set
(sie_after=1), the second one-shot reached its handler (calls=2), and no
stray trap.
"""
import argparse
import sys

from d1test_common import Checks, Run, d1_errors, fields


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()

    r = Run(a.image)
    r.wait_for(r"^PNEST result.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "PNEST").get("result", {})
    c = Checks("emu_d1test_probe_nested")
    c.ok("FATAL" not in out and "FAIL" not in out, "no fatal trap, no failed call")
    c.ok(f.get("probe") == d1_errors()["D1_ENODELEG"],
         f"the probe's fault was fixed up: probe={f.get('probe')} (D1_ENODELEG)")
    c.ok(f.get("main_ok") == 1, f"the trap returned into the main loop (main_ok={f.get('main_ok')})")
    c.ok(f.get("sie_after") == 1,
         f"interrupts back on after the trap (sstatus.SIE={f.get('sie_after')})")
    c.ok(f.get("calls") == 2, f"the second interrupt was taken (calls={f.get('calls')})")
    c.ok(f.get("spurious_traps") == 0, f"no stray trap ({f.get('spurious_traps')})")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out), ("qemu log", r.qlog))


if __name__ == "__main__":
    sys.exit(main())
