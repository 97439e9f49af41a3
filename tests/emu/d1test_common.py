# SPDX-License-Identifier: Apache-2.0
"""Helpers of the d1test runs on the emulated D1 (QEMU -M allwinner-d1,
emu/qemu-d1). Python 3 stdlib only.

The QEMU binary: $D1_EMU_QEMU, else the last line emu/qemu-d1/build.sh
prints (it builds the emulator on first use, into $D1_EMU_CACHE, and
reuses the cached binary after).
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
ICOUNT = "shift=0,sleep=off"


def qemu_path():
    q = os.environ.get("D1_EMU_QEMU")
    if q:
        return q
    r = subprocess.run([str(ROOT / "emu/qemu-d1/build.sh")], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.exit("FAIL: emu/qemu-d1/build.sh could not provide the emulator")
    return r.stdout.strip().splitlines()[-1]


class Run:
    """One QEMU run with UART0 on a pipe. send() writes to the guest's RX
    line; wait_for() reads until a pattern; the QEMU log (-d ... -D) is
    in .qlog after close()."""

    def __init__(self, kernel, bios=None, icount=ICOUNT, log="guest_errors",
                 reboot=False, extra=(), serial="stdio"):
        self.logf = tempfile.NamedTemporaryFile(suffix=".log", delete=False)
        cmd = [qemu_path(), "-M", "allwinner-d1", "-display", "none", "-monitor", "none",
               "-kernel", str(kernel), "-serial", serial]
        if not reboot:
            cmd.append("-no-reboot")
        if bios is not None:
            cmd += ["-bios", str(bios)]
        if icount:
            cmd += ["-icount", icount]
        if log:
            cmd += ["-d", log, "-D", self.logf.name]
        cmd += list(extra)
        self.cmd = cmd
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        os.set_blocking(self.p.stdout.fileno(), False)
        self.buf = b""
        self.qlog = ""
        self.t0 = time.monotonic()

    def send(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def _pump(self):
        chunk = self.p.stdout.read()
        if chunk:
            self.buf += chunk
            return True
        return False

    def wait_for(self, pattern, timeout):
        """Read until @pattern (regex on the text so far) matches; returns
        the match or None on timeout / QEMU exit."""
        rx = re.compile(pattern.encode(), re.M)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = rx.search(self.buf)
            if m:
                return m
            if not self._pump():
                if self.p.poll() is not None:
                    self._pump()
                    return rx.search(self.buf)
                time.sleep(0.02)
        return None

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        self._pump()
        self.qlog = open(self.logf.name, errors="replace").read()
        os.unlink(self.logf.name)
        return self.p.returncode

    @property
    def text(self):
        return self.buf.decode("utf-8", "replace").replace("\r\n", "\n")

    @property
    def seconds(self):
        return time.monotonic() - self.t0


def fields(text, tag):
    """Every line 'TAG name k=v k=v ...' as {name: {k: v}} (last one wins);
    values that are integers become int."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[0] != tag:
            continue
        kv = {}
        for p in parts[2:]:
            if "=" in p:
                k, v = p.split("=", 1)
                if k != "data":     # hex dumps stay strings
                    try:
                        v = int(v, 0)
                    except ValueError:
                        pass
                kv[k] = v
        out[parts[1]] = kv
    return out


def line_kv(line):
    """The k=v pairs after a line's first two words ('reset record: k=v
    ...'), integers as int."""
    out = {}
    for part in line.split()[2:]:
        if "=" in part:
            k, v = part.split("=", 1)
            try:
                out[k] = int(v)
            except ValueError:
                out[k] = v
    return out


class Checks:
    def __init__(self, name):
        self.name = name
        self.failed = []

    def ok(self, cond, what):
        print(("  ok    " if cond else "  FAIL  ") + what, flush=True)
        if not cond:
            self.failed.append(what)
        return cond

    def done(self, *dumps):
        if self.failed:
            for title, body in dumps:
                print(f"---- {title} ----")
                print(body[-20000:])
            print(f"FAIL {self.name}: {len(self.failed)} check(s) failed")
            return 1
        print(f"PASS {self.name}")
        return 0


def d1_errors():
    """{name: value} of enum d1_err_t, read from include/d1/error.h."""
    txt = (ROOT / "include/d1/error.h").read_text()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(D1_[A-Z]+) = (-?\d+)", txt)}
