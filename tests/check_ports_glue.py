#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ports/ is glue a user ships; measurement lives in bench/ (docs/architecture.md).

A file under ports/ fails when it reaches the bench wing:
  - includes the bench core's header (d1/bench.h) or a bench shell's
    header (bench.h of bench/baremetal, d1_rt_ubench.h);
  - calls the bench core (d1_bench_*()) or the recorder's write side
    (d1_lat_init(), d1_lat_reset(), d1_lat_record(), d1_lat_missed(),
    d1_lat_dump());
  - names a path under bench/ (a build file compiling a bench source, an
    include path into the wing).
The other direction is allowed: a bench includes the glue's headers.

Usage: check_ports_glue.py [REPO]   (exit 0 clean, 1 with findings)
"""
import os
import re
import sys

from ccode import strip_c_comments

INCLUDE = re.compile(r'#\s*include\s*[<"]((?:d1/)?bench(?:_svc)?\.h|d1_rt_ubench\.h)[>"]')
CALL = re.compile(r"\b(d1_bench_\w+|d1_lat_(?:init|reset|record|missed|dump))\s*\(")
PATH = re.compile(r"(?<![\w.-])(?:\.\./)*bench/(?:baremetal|nuttx|rtsmart|linux|tools|comparison)\b")


def strip_hash_comments(text):
    return re.sub(r"(^|\s)#[^\n]*", r"\1", text)


def main(argv):
    repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    findings = checked = 0
    for top, dirs, files in os.walk(os.path.join(repo, "ports")):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(top, name)
            rel = os.path.relpath(path, repo)
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except UnicodeDecodeError:
                continue
            checked += 1
            c_like = name.endswith((".c", ".h", ".S"))
            code = strip_c_comments(text) if c_like else strip_hash_comments(text)
            for rx, what in ((INCLUDE, "includes bench code"), (CALL, "calls bench code"),
                             (PATH, "names the bench wing")):
                if rx is not PATH and not c_like:
                    continue
                for m in rx.finditer(code):
                    line = code.count("\n", 0, m.start()) + 1
                    print(f"FAIL   {rel}:{line}: {what}: {m.group(0).strip()}")
                    findings += 1
    print(f"check_ports_glue: {checked} files under ports/, {findings} finding(s)")
    return 1 if findings or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
