#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Image size by component from GNU ld link maps, side by side.

Usage: mapsize.py NAME=MAP [NAME=MAP ...] [--port-objs LIST]

Each input section kept in the image (the map's "Linker script and memory
map" part; debug and discarded sections left out) is counted by its kind
(code + read-only data, data, bss) and by its component: the archive it
came from (libsched, libc, ...), or "d1drivers" for an object of this
project (a glue file of the port or a library source: the object names
given by --port-objs, default every ports/nuttx, ports/rtsmart and src/
source's basename, in NuttX's board or apps archive; an RT-Thread object
under packages/d1drivers/). Prints one table (bytes) and, last, one line with the
totals and the project's share of each image.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = re.compile(r"^\s*(\.[\w.$-]*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")


def project_objects():
    names = set()
    for d in ("src", "ports/nuttx", "ports/rtsmart", "bench/nuttx/apps/d1bench"):
        for f in os.listdir(os.path.join(ROOT, d)):
            if f.endswith((".c", ".S")):
                names.add(os.path.splitext(f)[0])
    return names


def kind(section):
    if section.startswith((".bss", ".sbss", "COMMON", ".tbss")):
        return "bss"
    if section.startswith((".data", ".sdata", ".tdata")):
        return "data"
    if section.startswith((".text", ".rodata", ".srodata", ".init", ".fini", ".eh_frame",
                           ".gcc_except", ".vector", ".start", ".isr")):
        return "text"
    return None


def component(path, ours):
    m = re.match(r"(.*?)\(([^)]+)\)$", path)
    obj = m.group(2) if m else path
    stem = os.path.splitext(os.path.basename(obj))[0]
    # NuttX: the board's archive holds the glue and the library sources it
    # compiles, the apps' archive d1bench's; RT-Thread: SCons objects under
    # the package's build directory.
    if m and os.path.basename(m.group(1)) in ("libboard.a", "libapps.a") and stem in ours:
        return "d1drivers"
    if not m and "/packages/d1drivers/" in path:
        return "d1drivers"
    if m:
        return re.sub(r"^lib|\.a$", "", os.path.basename(m.group(1)))
    parts = path.split("/")
    return parts[-2] if len(parts) > 1 else "other"


def parse(path, ours):
    sizes = {}
    in_map = False
    section = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("Linker script and memory map"):
                in_map = True
                continue
            if not in_map:
                continue
            if re.match(r"^\s*\.\S+\s*$", line):
                section = line.split()[0]  # the address follows on the next line
                continue
            m = LINE.match(line)
            if not m:
                section = None
                continue
            sec = m.group(1) or section
            section = None
            if sec is None or not line.startswith(" "):
                continue
            k = kind(sec)
            size = int(m.group(3), 16)
            src = m.group(4).strip()
            if k is None or size == 0 or src.startswith("load address") or " " in src:
                continue
            comp = component(src, ours)
            sizes.setdefault(comp, {"text": 0, "data": 0, "bss": 0})[k] += size
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("maps", nargs="+", metavar="NAME=MAP")
    ap.add_argument("--port-objs", help="comma-separated object names counted as d1drivers")
    a = ap.parse_args()
    if not all("=" in m for m in a.maps):
        sys.exit("mapsize: each map is given as NAME=PATH")
    ours = set(a.port_objs.split(",")) if a.port_objs else project_objects()
    images = [(m.split("=", 1)[0], parse(m.split("=", 1)[1], ours)) for m in a.maps]
    for lab, s in images:
        if not s:
            sys.exit(f"mapsize: no input sections found in the map of {lab}")
    comps = sorted({c for _, s in images for c in s},
                   key=lambda c: -max(s.get(c, {}).get("text", 0) for _, s in images))
    head = f"{'component':<16}" + "".join(f"{lab + ' text':>16}{'data':>8}{'bss':>9}" for lab, _ in images)
    print("size by component (bytes; text = code + read-only data)")
    print(head)
    for comp in comps:
        row = f"{comp:<16}"
        for _, s in images:
            v = s.get(comp, {"text": 0, "data": 0, "bss": 0})
            row += f"{v['text']:>16}{v['data']:>8}{v['bss']:>9}"
        print(row)
    tot = []
    for lab, s in images:
        t = {k: sum(v[k] for v in s.values()) for k in ("text", "data", "bss")}
        ours_t = s.get("d1drivers", {"text": 0})["text"]
        tot.append(f"{lab} {t['text']}/{t['data']}/{t['bss']} B text/data/bss"
                   f" (d1drivers {ours_t} B text)")
    print("; ".join(tot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
