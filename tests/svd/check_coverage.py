#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Every register offset / field position macro in include/d1/*_regs.h is checked by test_regs_svd.
"""Usage: check_coverage.py [--self-test] <include/d1 dir> <test_regs_svd binary>

Lists the macros ending in _OFFSET, _LSB or _BITS in the register headers and
fails if one is not named by any expectation of test_regs_svd (its
--list-macros output). Macros that are not SVD facts are listed in EXEMPT
with the reason. The expectations are generated from tests/svd/regs.spec
with the headers, so a macro written by hand into the spec's copied lines
(not an @reg / @field / @mask / @index line) is one this check reports.

--self-test: copies the headers, adds such a macro to the copy and passes
only if the check fails on it (ctest regs_svd_coverage_can_fail).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

EXEMPT = {
    # helper that turns a register index into a D1 byte offset (index * 4);
    # each D1_UART_<REG>_OFFSET built from it is checked.
    "D1_UART_OFFSET": "index-to-offset helper",
    # per-channel bit helper for IRQ_EN/IRQ_STA, checked via tmrN_irq_* fields
    "D1_TIMER_IRQ_BIT": "bit helper",
}


def check(inc, binary):
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


def self_test(inc, binary):
    planted = "D1_TIMER_UNCHECKED_OFFSET"
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "d1")
        shutil.copytree(inc, copy)
        with open(os.path.join(copy, "timer_regs.h"), "a", encoding="utf-8") as f:
            f.write("#define %s 0x30u\n" % planted)
        print("self-test: %s added to a copy of timer_regs.h" % planted)
        rc = check(copy, binary)
    if rc != 1:
        print("self-test: the check passed with an unchecked macro")
        return 1
    print("self-test: the check failed on it, as it must")
    return 0


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return self_test(argv[2], argv[3])
    return check(argv[1], argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
