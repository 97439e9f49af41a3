#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of count_paths.py on small objects assembled here (skipped without
riscv64-unknown-elf-gcc / -objdump)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "count_paths.py")
GCC = shutil.which("riscv64-unknown-elf-gcc")
OBJDUMP = shutil.which("riscv64-unknown-elf-objdump")


def build(asm, d):
    src = os.path.join(d, "t.s")
    obj = os.path.join(d, "t.o")
    with open(src, "w") as f:
        f.write('\t.section .text.fn,"ax",@progbits\n\t.globl fn\nfn:\n' + asm)
    subprocess.run([GCC, "-c", src, "-o", obj], check=True)
    return obj


def count(obj):
    return subprocess.run([sys.executable, TOOL, obj, "fn", "--objdump", OBJDUMP],
                          capture_output=True, text=True)


@unittest.skipUnless(GCC and OBJDUMP, "riscv64-unknown-elf toolchain not installed")
class CountPaths(unittest.TestCase):
    def test_indirect_call_is_not_a_leaf(self):
        # `jalr a5` is jalr ra,0(a5): a call. The tool must refuse it
        # (exit 1, "call"), not count it as the function's return.
        with tempfile.TemporaryDirectory() as d:
            p = count(build("\taddi sp,sp,-16\n\tsd ra,8(sp)\n\tjalr a5\n"
                            "\tld ra,8(sp)\n\taddi sp,sp,16\n\tret\n", d))
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("call", p.stdout + p.stderr)

    def test_indirect_jump_ends_a_path(self):
        with tempfile.TemporaryDirectory() as d:
            p = count(build("\tbeqz a0,1f\n\tjr a5\n1:\tli a0,1\n\tret\n", d))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("min 2, max 3 instructions per path", p.stdout)


if __name__ == "__main__":
    unittest.main()
