#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""d1_ccu_set_pll_cpu() on the emulated D1 with the core running from
PLL_CPU, as the boot chain leaves it (tests/emu/d1test/ccu_cpu.c
prints, this file asserts): the boot rates decode to 1008 MHz core and
504 MHz AXI; 1008 -> 1200 -> 1008 MHz succeed, end with the core back on
PLL_CPU at the new rate; and the emulated CCU, which logs any write that
leaves the core on a PLL that is not enabled, locked and gated
(`-d guest_errors`: "allwinner-d1-ccu: core clock ..."), logs nothing.

--glitch: the negative control image (CCU_RAW_GLITCH=1) changes N under
the running core; the log must then name the violation, so the check can
fail."""
import argparse
import re
import sys

from d1test_common import Checks, Run

CORE_ERR = "allwinner-d1-ccu: core clock"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--glitch", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()

    r = Run(a.image)
    r.wait_for(r"^CCU set 1008 .*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out, log = r.text, r.qlog
    c = Checks("emu_d1test_ccu_cpu" + ("_glitch" if a.glitch else ""))
    errs = [ln for ln in log.splitlines() if CORE_ERR in ln]
    if a.glitch:
        c.ok(len(errs) >= 1, f"the emulated CCU reported the change under the core "
             f"({len(errs)} line(s): {errs[:1]})")
        return c.done(("output", out), ("qemu log", log))
    b = re.search(r"^CCU boot core=(\d+) axi=(\d+)", out, re.M)
    c.ok(b is not None and int(b.group(1)) == 1008000000 and int(b.group(2)) == 504000000,
         f"boot state decoded: core {b.group(1) if b else '?'} Hz, AXI "
         f"{b.group(2) if b else '?'} Hz (want 1008 MHz, 504 MHz)")
    for mhz in (1200, 1008):
        m = re.search(rf"^CCU set {mhz} err=(-?\d+) achieved=(\d+) core=(\d+) "
                      r"riscv_clk=0x([0-9a-f]+)", out, re.M)
        ok = (m is not None and int(m.group(1)) == 0 and int(m.group(2)) == mhz * 10**6 and
              int(m.group(3)) == mhz * 10**6 and (int(m.group(4), 16) >> 24) & 7 == 5)
        c.ok(ok, f"{mhz} MHz: D1_OK, core at {m.group(3) if m else '?'} Hz, back on PLL_CPU "
             f"(RISCV_CLK 0x{m.group(4) if m else '?'})")
    c.ok(not errs, f"no write left the core on a PLL that was not running ({len(errs)} "
         f"logged{': ' + errs[0] if errs else ''})")
    return c.done(("output", out), ("qemu log", log))


if __name__ == "__main__":
    sys.exit(main())
