#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whether the firmware's SBI timer interrupts on the emulated D1
(tests/emu/d1test/sbi_timer.c prints, this file asserts).

On the board it never does: the D1 device trees describe no CLINT, so
OpenSBI reports no timer device ("Platform Timer Device : --- @ 0Hz") yet
advertises the TIME extension, and set_timer returns without a supervisor
timer interrupt ever following (docs/hardware-facts.md "Why SBI set_timer
never interrupts on the board"). The machine models
that by default; its property sbi-timer=on describes the CLINT to the
firmware instead, and is the negative control here: the same image must
then see the interrupt, so a probe that could never see one fails.

--sbi-timer off (default): fired=0 after 20 ms, TIME extension probed,
OpenSBI's banner names no timer device.
--sbi-timer on: fired>=1, and the banner names the CLINT.
"""
import argparse
import re
import sys

from d1test_common import Checks, Run

WAIT = 20 * 24_000    # time counts the image waits (20 ms at 24 MHz)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--sbi-timer", choices=("off", "on"), default="off")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()

    extra = ["-machine", "sbi-timer=on"] if a.sbi_timer == "on" else []
    r = Run(a.image, extra=extra)
    r.wait_for(r"^SBITIMER .*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    line = next((ln for ln in out.splitlines() if ln.startswith("SBITIMER ")), "")
    kv = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
    c = Checks(f"emu_d1test_sbi_timer_{a.sbi_timer}")
    c.ok(bool(line), "the image printed its SBITIMER line")
    c.ok(kv.get("time_ext") == "1", "OpenSBI advertises the TIME extension (probe_extension)")
    waited = int(kv.get("waited", "0"))
    c.ok(waited >= WAIT, f"the image waited {waited} time counts (>= {WAIT}, 20 ms)")
    banner = re.search(r"^Platform Timer Device\s*:\s*(.*)$", out, re.M)
    fired = int(kv.get("fired", "-1"))
    if a.sbi_timer == "off":
        c.ok(banner is not None and banner.group(1).startswith("---"),
             f"OpenSBI found no timer device, as on the board "
             f"(banner: {banner.group(1) if banner else 'missing'})")
        c.ok(fired == 0, f"no supervisor timer interrupt within 20 ms of a 1 ms set_timer "
             f"(fired={fired})")
    else:
        c.ok(banner is not None and not banner.group(1).startswith("---"),
             f"OpenSBI found the CLINT (banner: {banner.group(1) if banner else 'missing'})")
        c.ok(fired >= 1, f"the interrupt came, so the probe can see one (fired={fired})")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out))


if __name__ == "__main__":
    sys.exit(main())
