#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/os/nuttx.sh's option combinations cover every pair: for each two of
the four options (TIMER, WATCHDOG, SERIAL, SCHED_TICKLESS), some built row
has them y,y, some y,n, some n,y and some n,n.

Usage: check_pairwise.py [scripts/os/nuttx.sh]   (exit 0 covered, 1 not)
"""
import itertools
import os
import re
import sys

NAMES = ("TIMER", "WATCHDOG", "SERIAL", "SCHED_TICKLESS")


def main(argv):
    path = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "os", "nuttx.sh")
    with open(path, encoding="utf-8") as f:
        m = re.search(r"^\s*for row in ([yn ]+); do", f.read(), re.M)
    if not m:
        print(f"FAIL: no 'for row in ...' list in {path}")
        return 1
    rows = m.group(1).split()
    bad = [r for r in rows if len(r) != len(NAMES)]
    if bad:
        print(f"FAIL: rows of the wrong width: {bad}")
        return 1
    missing = []
    for i, j in itertools.combinations(range(len(NAMES)), 2):
        seen = {(r[i], r[j]) for r in rows}
        for want in itertools.product("yn", repeat=2):
            if want not in seen:
                missing.append(f"{NAMES[i]}={want[0]} with {NAMES[j]}={want[1]}")
    for what in missing:
        print(f"FAIL: no combination builds {what}")
    print(f"check_pairwise: {len(rows)} rows, {len(missing)} pair states missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
