#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bare-metal images run with sstatus.FS = Off and the trap entry saves
integer registers only, so no image may contain a floating-point
instruction. Scan `objdump -d` listings; fail on any f-register operand or
FP CSR access."""
import re
import sys

FP = re.compile(r"\t(f[a-z0-9.]+|c\.f[a-z]+)\s+(f[tsa]\d+|f\d+)\b|\tfrcsr|\tfscsr|\tfrflags|\tfsflags|\tfrrm|\tfsrm")


def main():
    bad = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                if FP.search(line):
                    print(f"{path}: {line.rstrip()}")
                    bad += 1
    print(f"{len(sys.argv) - 1} listings, {bad} floating-point instructions")
    return 1 if bad or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
