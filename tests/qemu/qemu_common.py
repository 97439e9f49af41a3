# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for the QEMU virt test drivers (Python 3 stdlib only).

Every image runs as an S-mode payload at 0x80200000 under the OpenSBI that
QEMU bundles (`-bios default`), exactly as `qemu-system-riscv64 -M virt
-nographic -kernel image` starts it, and leaves through SBI system reset.
"""
import os
import shutil
import subprocess
import sys

QEMU = os.environ.get("QEMU", "qemu-system-riscv64")


def qemu_base(image, icount=None):
    """The QEMU command line for a bare-metal image (serial not included)."""
    exe = shutil.which(QEMU)
    if exe is None:
        sys.exit(f"FAIL: {QEMU} not found (apt-get install qemu-system-misc)")
    cmd = [exe, "-M", "virt", "-smp", "1", "-m", "128M", "-bios", "default",
           "-kernel", image, "-display", "none", "-monitor", "none"]
    if icount is not None:
        cmd += ["-icount", icount]
    return cmd


def run_stdio(image, timeout, icount=None, extra=()):
    """Run with the serial port on stdout; return (exit status, output text).

    The exit status is None when QEMU had to be killed at the timeout.
    """
    cmd = qemu_base(image, icount) + ["-serial", "stdio"] + list(extra)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        out, _ = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace").replace("\r\n", "\n")
