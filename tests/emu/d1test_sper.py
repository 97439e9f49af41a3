#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""PLIC delegation on the emulated D1: d1_plic_check_delegation() with
PLIC_CTRL.S_PER off reports D1_ENODELEG without crashing the image; with
S_PER on (the d1test shim built with S_PER = 1, and Debian's OpenSBI, which
sets it) it reports D1_OK and an interrupt makes the round trip.

The machine measures the probe: under -d guest_errors its T-Head PLIC logs
every S-mode access it refused with a bus error (emu/qemu-d1/hw/intc/
thead-c900-plic.c). The negative control (--case raw) does the same read
without the fault-safe probe: the image must take the load access fault."""
import argparse
import sys

from d1test_common import Checks, Run, fields

PRIO175 = 0x10000000 + 4 * 175      # priority register the check probes
DENY = "thead-c900-plic: read at 0x2bc from S-mode refused (PLIC_CTRL.S_PER = 0)"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--case", choices=["off", "on", "opensbi", "raw"], required=True)
    ap.add_argument("--image", required=True, help="d1test_sper.elf (raw: d1test_sper_raw.elf)")
    ap.add_argument("--shim0")
    ap.add_argument("--shim1")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()

    bios = {"off": a.shim0, "raw": a.shim0, "on": a.shim1, "opensbi": None}[a.case]
    r = Run(a.image, bios=bios)
    end = r"^SPER end.*\n|^FAIL exception.*\n"
    r.wait_for(end, a.timeout)
    r.close()
    out, qlog = r.text, r.qlog
    f = fields(out, "SPER")
    denials = qlog.count(DENY)
    c = Checks(f"emu_d1test_sper_{a.case}")
    c.ok("start" in f, "the image started in S-mode and its console works")
    if a.case == "raw":
        c.ok("raw_read_now" in f, "the image made the raw S-mode read of PLIC priority 175")
        c.ok("FATAL: exception scause=5 " in out and f"stval={PRIO175:x}" in out,
             "the raw read took a load access fault (scause 5) at 0x%x" % PRIO175)
        c.ok("raw_read_survived" not in f, "the raw read did not complete")
        c.ok(denials == 1, f"the machine refused exactly that read (denials logged: {denials})")
        return c.done(("output", out), ("qemu log", qlog))
    want = "D1_ENODELEG" if a.case == "off" else "D1_OK"
    c.ok(f"SPER init_ex={want}" in out, f"d1_plic_init_ex(context 1) -> {want}")
    c.ok(f"SPER check={want} repeat_same=3/3" in out,
         f"d1_plic_check_delegation() -> {want}, 3 times out of 3")
    c.ok(f.get("survived", {}).get("spurious_traps") == 0,
         "the image went on after the checks, with no stray trap")
    c.ok("SPER end" in out and "FATAL" not in out, "the image ran to its end, no fatal exception")
    if a.case == "off":
        # init_ex's check + 3 checks: one faulting read each, nothing more
        c.ok(denials == 4, f"the machine refused the probe's read 4 times (logged: {denials}): "
             "each check faulted on its first access and made no other")
        c.ok("write at" not in qlog, "no refused write: the probe never wrote without S_PER")
        c.ok("irq_round_trip" not in f, "no interrupt set-up attempted without delegation")
    else:
        c.ok(denials == 0 and "refused" not in qlog, "the machine refused no access")
        rt = f.get("irq_round_trip", {})
        c.ok(rt.get("irqs") == 1 and rt.get("plic_dispatched") == 1,
             f"Timer0 deadline delivered once through the PLIC S context ({rt})")
        c.ok(rt.get("clocks", 0) >= 2400, "not before its 2400-clock deadline")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out), ("qemu log", qlog))


if __name__ == "__main__":
    sys.exit(main())
