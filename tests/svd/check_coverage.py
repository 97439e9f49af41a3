#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Every register offset / field position macro in include/d1/*_regs.h is checked by test_regs_svd.
"""Usage: check_coverage.py <include/d1 dir> <test_regs_svd binary>

Lists the macros ending in _OFFSET, _LSB or _BITS in the register headers and
fails if one is not named by any expectation of test_regs_svd (its
--list-macros output). Macros that are not SVD facts are listed in EXEMPT
with the reason.
"""
import glob
import os
import re
import subprocess
import sys

EXEMPT = {
    # helper that turns a register index into a D1 byte offset (index * 4);
    # each D1_UART_<REG>_OFFSET built from it is checked.
    "D1_UART_OFFSET": "index-to-offset helper",
    # per-channel bit helper for IRQ_EN/IRQ_STA, checked via tmrN_irq_* fields
    "D1_TIMER_IRQ_BIT": "bit helper",
}


def main():
    inc, binary = sys.argv[1], sys.argv[2]
    defined = set()
    for path in sorted(glob.glob(os.path.join(inc, "*_regs.h"))):
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r"^#define\s+(D1_\w+?(?:_OFFSET|_LSB|_BITS))\b", f.read(), re.M):
                defined.add(m.group(1))
    out = subprocess.run([binary, "--list-macros"], check=True, capture_output=True,
                         text=True).stdout
    named = set(re.findall(r"D1_\w+", out))
    missing = sorted(d for d in defined if d not in named and d not in EXEMPT)
    print(f"register macros: {len(defined)}, checked against the SVD: "
          f"{len(defined & named)}, exempt: {len(defined & set(EXEMPT))}")
    if missing:
        print("not checked against the SVD:\n  " + "\n  ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
