#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot test of the C906 extensions (patches/0003) of -M allwinner-d1.

  t_xthead.py QEMU

Builds xthead.c + xthead_start.S with riscv64-unknown-elf-gcc, runs the
image in M-mode (-bios none) and checks the seven lines it prints:
mxstatus at reset 0xc0638000 (PM = M; MM, UCME, CLINTEE, MAEE,
THEADISAEE as the D1's boot firmware leaves them), mhcr kept, mcor reads
0, every XTheadCmo/XTheadSync instruction executes, S-mode runs under Sv39
with attribute bits 63..59 in its PTEs while MAEE is set and takes an
instruction page fault (cause 12) with MAEE clear, and dcache.call is an
illegal instruction with THEADISAEE clear. Prints "ok"/"FAIL" lines and
"RESULT: ..."; exit 0 all passed, 1 not. Python 3 standard library only.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECT = ["mxstatus", "mhcr", "mcor", "XTheadCmo/XTheadSync", "MAEE on", "MAEE off",
          "THEADISAEE off"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: t_xthead.py QEMU")
    qemu = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        elf = os.path.join(tmp, "xthead.elf")
        cc = ["riscv64-unknown-elf-gcc", "-march=rv64imac_zicsr", "-mabi=lp64", "-mcmodel=medany",
              "-O2", "-Wall", "-Wextra", "-Werror", "-ffreestanding", "-nostdlib",
              "-Wl,--no-warn-rwx-segments", "-T", os.path.join(HERE, "xthead.ld"),
              os.path.join(HERE, "xthead_start.S"), os.path.join(HERE, "xthead.c"), "-o", elf]
        r = subprocess.run(cc, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(r.stdout)
            print("RESULT: xthead FAIL: the test image did not build")
            return 1
        cmd = [qemu, "-M", "allwinner-d1", "-bios", "none", "-kernel", elf, "-display", "none",
               "-monitor", "none", "-serial", "stdio", "-no-reboot"]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        os.set_blocking(p.stdout.fileno(), False)
        out = b""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and b"xthead: done" not in out:
            out += p.stdout.read() or b""
            if p.poll() is not None:
                out += p.stdout.read() or b""
                break
            time.sleep(0.05)
        p.kill()
        p.wait()
    text = out.decode(errors="replace")
    failed = []
    for what in EXPECT:
        m = re.search(rf"^xthead: {re.escape(what)}.*$", text, re.M)
        good = m is not None and m.group(0).rstrip().endswith(("ok", "ok (instruction page fault)",
                                                               "ok (illegal instruction)"))
        print(("ok    " if good else "FAIL  ") + (m.group(0) if m else f"xthead: {what}: no line"))
        if not good:
            failed.append(what)
    done = "xthead: done" in text
    if not done:
        print("FAIL  xthead: no 'xthead: done' within 30 s")
        failed.append("done")
    vendor = re.search(r"^xthead: mvendorid (0x[0-9a-f]+)", text, re.M)
    print("RESULT: " + (f"xthead FAIL: {', '.join(failed)}" if failed else
                        f"xthead ok ({len(EXPECT)} checks; mvendorid "
                        f"{vendor.group(1) if vendor else '?'})"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
