#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every committed file that can carry a comment names its licence, and the
licence is the one its room has (README "License"):

  include/, src/, bench/linux/   Apache-2.0 OR GPL-2.0-or-later
  emu/                           GPL-2.0-or-later
  tests/svd/d1_svd_table.csv     MIT (data extracted from the d1-pac SVD)
  everything else                Apache-2.0

Files that cannot carry a comment (patches applied to other projects'
trees, fuzz corpora, JSON, images, captured logs, LICENSE) are not read.

Usage: check_spdx.py [REPO]   (exit 0 clean, 1 with findings)
"""
import os
import re
import subprocess
import sys

TAG = re.compile(r"SPDX-License-Identifier:\s*([A-Za-z0-9.+() -]+?)\s*(?:\*/|-->|$)", re.M)
SKIP = re.compile(r"(^LICENSE$|^LICENSES/|\.patch$|\.png$|\.json$|\.jsonl$|^tests/fuzz/corpus/|"
                  r"^bench/comparison/baseline\.txt$|^bench/tools/testdata/)")
ROOMS = [
    ("include/", "Apache-2.0 OR GPL-2.0-or-later"),
    ("src/", "Apache-2.0 OR GPL-2.0-or-later"),
    ("bench/linux/", "Apache-2.0 OR GPL-2.0-or-later"),
    ("emu/", "GPL-2.0-or-later"),
    ("tests/svd/d1_svd_table.csv", "MIT"),
]


def expected(path):
    for prefix, lic in ROOMS:
        if path.startswith(prefix):
            return lic
    return "Apache-2.0"


def main(argv):
    repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = subprocess.run(["git", "-C", repo, "ls-files"], check=True, capture_output=True,
                           text=True).stdout.split("\n")
    findings = checked = 0
    for path in filter(None, files):
        if SKIP.search(path) or not os.path.isfile(os.path.join(repo, path)):
            continue
        with open(os.path.join(repo, path), "rb") as f:
            head = f.read(600).decode("utf-8", "replace")
        checked += 1
        m = TAG.search(head)
        want = expected(path)
        if not m:
            print(f"{path}: no SPDX-License-Identifier in its first lines (want {want})")
            findings += 1
        elif m.group(1) != want:
            print(f"{path}: SPDX {m.group(1)!r}, its room's licence is {want!r}")
            findings += 1
    print(f"check_spdx: {checked} files, {findings} findings")
    return 1 if findings or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
