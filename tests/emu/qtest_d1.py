#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Minimal client of QEMU's qtest protocol (-qtest stdio), stdlib only."""
import os
import subprocess


class QTest:
    def __init__(self, qemu, extra=()):
        cmd = [qemu, "-M", "allwinner-d1", "-bios", "none", "-display", "none",
               "-monitor", "none", "-serial", "none", "-qtest", "stdio",
               "-accel", "qtest"] + list(extra)
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        while True:
            r = self.p.stdout.readline()
            if not r:
                raise RuntimeError("qtest: QEMU exited: " + self.p.stderr.read())
            r = r.strip()
            if r.startswith("IRQ"):
                continue
            if not r.startswith("OK"):
                raise RuntimeError(f"qtest: {line!r} -> {r!r}")
            return r

    def readl(self, addr):
        return int(self.cmd(f"readl 0x{addr:x}").split()[1], 16)

    def writel(self, addr, val):
        self.cmd(f"writel 0x{addr:x} 0x{val:x}")

    def clock_step(self, ns):
        return int(self.cmd(f"clock_step {ns}").split()[1])

    def clock_ns(self):
        return int(self.cmd("clock_step 0").split()[1])

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
