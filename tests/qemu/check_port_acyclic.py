#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bare-metal port's files call each other in one direction only.

usage: check_port_acyclic.py NM OBJECT...

From the symbols each object defines and the ones it leaves undefined (NM,
the cross toolchain's nm), the graph "file A calls file B"; prints it and
exits 1 if any file reaches itself (a circle such as board -> platform ->
board), 2 on bad input. Python 3 standard library only.
"""
import os
import subprocess
import sys


def symbols(nm, obj):
    out = subprocess.run([nm, obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBRCSG":
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
    return defined, undefined


def name(obj):
    base = os.path.basename(obj)
    return base.split(".")[0]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    nm, objs = sys.argv[1], sys.argv[2:]
    owner, needs = {}, {}
    for o in objs:
        try:
            d, u = symbols(nm, o)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"check_port_acyclic: {nm} could not read {o}: {e}", file=sys.stderr)
            return 2
        for s in d:
            owner[s] = name(o)
        needs[name(o)] = u
    graph = {a: sorted({owner[s] for s in u if s in owner and owner[s] != a})
             for a, u in needs.items()}
    for a in sorted(graph):
        print(f"{a} -> {', '.join(graph[a]) or '(nothing)'}")
    circular = []
    for a in graph:
        seen, stack = set(), list(graph[a])
        while stack:
            x = stack.pop()
            if x not in seen:
                seen.add(x)
                stack.extend(graph.get(x, []))
        if a in seen:
            circular.append(a)
    if circular:
        print(f"FAIL: in a circle: {', '.join(sorted(circular))}")
        return 1
    print(f"PASS: {len(graph)} files, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
