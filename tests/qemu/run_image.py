#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run a bare-metal test image under QEMU virt; pass iff it prints
"PASS <name>" and exits with status 0 through SBI system reset."""
import argparse
import sys

from qemu_common import run_stdio


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("name", help="expected PASS line suffix")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--icount", default=None)
    a = ap.parse_args()
    rc, out = run_stdio(a.image, a.timeout, a.icount)
    sys.stdout.write(out)
    lines = out.splitlines()
    if rc is None:
        print(f"FAIL: QEMU killed after {a.timeout} s")
        return 1
    if f"PASS {a.name}" not in lines:
        print(f"FAIL: no 'PASS {a.name}' line (exit status {rc})")
        return 1
    if rc != 0:
        print(f"FAIL: exit status {rc}")
        return 1
    print(f"driver: PASS {a.name} (exit status 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
