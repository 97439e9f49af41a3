#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Comment lines per code line for the public headers and the library sources.

A non-blank line that holds any code (outside comments and string literals)
is a code line, even with a trailing comment; a non-blank line holding only
comment text (or comment delimiters) is a comment line. The SPDX line counts
as a comment. Usage: scripts/comment_ratio.py [files...] (default:
include/d1/*.h and src/*.c, from the repository root).
"""
import glob
import os
import sys


def classify(text):
    """Return (code_lines, comment_lines) for C source text."""
    code = comment = 0
    in_block = False
    for line in text.splitlines():
        has_code = has_comment = False
        i, n = 0, len(line)
        in_str = None
        while i < n:
            c = line[i]
            if in_block:
                has_comment = True
                if line.startswith("*/", i):
                    in_block = False
                    i += 2
                    continue
                i += 1
                continue
            if in_str:
                has_code = True
                if c == "\\":
                    i += 2
                    continue
                if c == in_str:
                    in_str = None
                i += 1
                continue
            if line.startswith("/*", i):
                in_block = True
                has_comment = True
                i += 2
                continue
            if line.startswith("//", i):
                has_comment = True
                break
            if c in "\"'":
                in_str = c
                has_code = True
            elif not c.isspace():
                has_code = True
            i += 1
        if has_code:
            code += 1
        elif has_comment:
            comment += 1
    return code, comment


def main(argv):
    files = argv[1:]
    if not files:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        files = sorted(glob.glob(os.path.join(root, "include/d1/*.h")))
        files += sorted(glob.glob(os.path.join(root, "src/*.c")))
        files = [os.path.relpath(f, root) for f in files]
        os.chdir(root)
    tot = {"h": [0, 0], "api": [0, 0], "c": [0, 0]}
    print(f"{'file':36} {'code':>6} {'comment':>8} {'ratio':>6}")
    for f in files:
        with open(f, encoding="utf-8") as fh:
            code, com = classify(fh.read())
        kind = "h" if f.endswith(".h") else "c"
        tot[kind][0] += code
        tot[kind][1] += com
        base = os.path.basename(f)
        if kind == "h" and not base.endswith("_regs.h") and base != "memmap.h":
            tot["api"][0] += code
            tot["api"][1] += com
        ratio = com / code if code else float("inf")
        print(f"{f:36} {code:6d} {com:8d} {ratio:6.2f}")
    for kind, label in (
        ("h", "all headers"),
        ("api", "API headers (no *_regs.h, memmap.h)"),
        ("c", "all sources"),
    ):
        code, com = tot[kind]
        if code:
            print(f"{label:36} {code:6d} {com:8d} {com / code:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
