#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Count the instructions executed on every path through a leaf function,
from its disassembly (riscv64-unknown-elf-objdump -d).

  count_paths.py OBJ FUNCTION [--objdump riscv64-unknown-elf-objdump]

The function must be a loop-free leaf (as d1_lat_record() is): the paths
are enumerated over its control-flow graph -- each conditional branch
taken and not taken, `j` followed, `ret`/`jr`/`tail` ends a path -- so
infeasible combinations are included and the maximum is an upper bound of
any real execution. Every executed instruction counts once, the branch
and the `ret` included. Prints each path (its instruction count and
the branch targets taken), then min and max. Exit 1 on a loop or a call.
"""
import argparse
import re
import subprocess
import sys

BRANCHES = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez", "blez", "bgez",
            "bltz", "bgtz", "bgt", "ble", "bgtu", "bleu"}


def disassemble(objdump, obj, fn):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-j", ".text." + fn, obj],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if not insns:
        raise SystemExit("%s: no section .text.%s (built with -ffunction-sections?)" % (obj, fn))
    return insns


def target(ops):
    m = re.search(r"\b([0-9a-f]+)\s+<", ops)
    return int(m.group(1), 16) if m else None


def paths(insns):
    at = {a: k for k, (a, _, _) in enumerate(insns)}
    done = []

    def walk(k, n, trail, seen):
        while True:
            if k >= len(insns):
                raise SystemExit("fell off the end of the function")
            a, op, ops = insns[k]
            if a in seen:
                raise SystemExit("loop at 0x%x: not a loop-free function" % a)
            seen = seen | {a}
            n += 1
            # objdump writes `jalr rs` for jalr ra,0(rs) (a call) and
            # `jr rs` for rd = zero (a jump that leaves the function).
            args = [x.strip() for x in ops.split(",")] if ops.strip() else []
            if op in ("ret", "jr", "tail") or \
                    (op == "jalr" and len(args) > 1 and args[0] in ("zero", "x0")):
                done.append((n, trail))
                return
            if op in ("call", "jal", "jalr"):
                raise SystemExit("call at 0x%x: not a leaf" % a)
            if op == "j":
                k = at[target(ops)]
                continue
            if op in BRANCHES:
                t = target(ops)
                walk(at[t], n, trail + ["%s->0x%x" % (op, t)], seen)
                trail = trail + ["%s falls" % op]
            k += 1

    walk(0, 0, [], frozenset())
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("obj")
    ap.add_argument("function")
    ap.add_argument("--objdump", default="riscv64-unknown-elf-objdump")
    a = ap.parse_args()
    insns = disassemble(a.objdump, a.obj, a.function)
    ps = paths(insns)
    print("%s: %d instructions in the function, %d paths" % (a.function, len(insns), len(ps)))
    for n, trail in sorted(ps):
        print("  %3d  %s" % (n, ", ".join(trail)))
    print("min %d, max %d instructions per path" % (min(n for n, _ in ps),
                                                     max(n for n, _ in ps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
