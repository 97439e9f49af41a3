# SPDX-License-Identifier: Apache-2.0
"""Drive an OS's shell on the emulated D1's serial console, non-interactively.

A Console starts QEMU with the serial port on a pipe, reads what the guest
prints, waits for patterns with a timeout in real (host) seconds and types
commands one character at a time (the D1's UART FIFO is 64 bytes deep: a
whole line pasted at once could overrun a guest that reads it with
interrupts). Everything read is kept (Console.text) and, when a log path is
given, written to that file as it arrives, so a failure shows the whole
transcript. Python 3 standard library only.
"""
import os
import re
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "emu"))
import emu_common  # noqa: E402  (the emulator's path and command line)


class Timeout(Exception):
    """A pattern did not appear in time."""


class Console:
    def __init__(self, cmd, log=None, echo=False):
        self.proc = subprocess.Popen(cmd + ["-serial", "stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buf = b""
        self.pos = 0  # where the next expect() starts looking
        self.log = open(log, "wb") if log else None
        self.echo = echo
        self.t0 = time.monotonic()

    @property
    def text(self):
        return self.buf.decode("utf-8", "replace").replace("\r\n", "\n")

    def _pump(self, wait):
        r, _, _ = select.select([self.proc.stdout], [], [], wait)
        if not r:
            return self.proc.poll() is None
        chunk = self.proc.stdout.read()
        if not chunk:
            return self.proc.poll() is None
        self.buf += chunk
        if self.log:
            self.log.write(chunk)
            self.log.flush()
        if self.echo:
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
        return True

    def expect(self, pattern, timeout):
        """Wait for @pattern (a regex, multiline) after the last match;
        return the match. Raises Timeout (or on QEMU's exit)."""
        rx = re.compile(pattern.encode() if isinstance(pattern, str) else pattern, re.M)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout(f"no /{rx.pattern.decode()}/ within {timeout} s")
            if not self._pump(min(left, 0.2)) and self.proc.poll() is not None:
                # Drain what is left, then look once more.
                while self._pump(0):
                    pass
                m = rx.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                raise Timeout(f"QEMU exited ({self.proc.returncode}) before /{rx.pattern.decode()}/")

    def since(self, start):
        """The text printed from byte offset @start to now."""
        return self.buf[start:].decode("utf-8", "replace").replace("\r\n", "\n")

    def send(self, line, char_delay=0.002):
        """Type @line and a carriage return, one character at a time."""
        for ch in line.encode() + b"\r":
            self.proc.stdin.write(bytes([ch]))
            self.proc.stdin.flush()
            self._pump(char_delay)

    def run(self, command, prompt, timeout):
        """Type @command, wait for the next @prompt, return what it printed
        (the echo of the command included)."""
        start = len(self.buf)
        self.pos = start
        self.send(command)
        self.expect(prompt, timeout)
        return self.since(start)

    def wait_exit(self, timeout):
        """Wait for QEMU to exit by itself (a -no-reboot reset); its code or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._pump(0.2) and self.proc.poll() is not None:
                while self._pump(0):
                    pass
                return self.proc.returncode
        return None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        while self._pump(0):
            pass
        if self.log:
            self.log.close()
            self.log = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def d1_cmd(kernel, icount=emu_common.ICOUNT, extra=()):
    """The emulated D1's command line for @kernel (an ELF started by
    OpenSBI in S-mode), as the library's own emulator tests use it."""
    return emu_common.d1_cmd(kernel, icount=icount, extra=extra)


# ---- UART cost measurements (nuttx_boot.py uart, rtthread_boot.py A) ----

UART0 = (0x02500000, 0x02500400)  # docs/hardware-facts.md, memory map
MMIO_RX = re.compile(r"memory_region_ops_(read|write) cpu \d+ mr 0x[0-9a-f]+ addr 0x([0-9a-f]+) "
                     r"value 0x([0-9a-f]+) size \d+")


def uart_pattern(n):
    """The bytes d1uart_main.c sends and expects: 33 + (7 i + 13) mod 94."""
    return bytes(33 + (7 * i + 13) % 94 for i in range(n))


def fnv1a(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def uart_cost(con, c, tool, cmd, d, n, prompt, label):
    """Run a console cost command (NuttX's d1uart, RT-Thread's d1ucost):
    type @cmd, wait for "@tool: @d ready @n", send uart_pattern(@n) when
    @d is "rx", read its result line. Checks (through @c.ok) that the bytes'
    FNV-1a hash is the pattern's and that the window held more instructions
    outside the spinner than the tick alone accounts for. Returns
    (instructions per byte, index in con.buf where the command started), or
    None when the command did not report."""
    pat = uart_pattern(n)
    start = len(con.buf)
    con.pos = start
    con.send(cmd)
    try:
        con.expect(rf"{tool}: {d} ready {n}\r?\n", 30)
        if d == "rx":
            con.proc.stdin.write(pat)
            con.proc.stdin.flush()
        m = con.expect(rf"{tool}: {d} bytes={n} window=(\d+) other=(\d+) idle_other=(\d+) "
                       rf"idle_window=(\d+) per_byte=([0-9.]+) hash=([0-9a-f]+)\r?\n", 120)
        con.expect(prompt, 30)
    except Timeout as e:
        c.ok(False, f"{label}: {cmd} reports ({e})")
        return None
    got = int(m.group(6), 16)
    c.ok(got == fnv1a(pat), f"{label}: the {n} bytes {'received' if d == 'rx' else 'sent'} "
         f"hash {got:08x} (expected {fnv1a(pat):08x})")
    w, o, io, iw = (int(x) for x in m.group(1, 2, 3, 4))
    c.ok(o > io * w // iw, f"{label}: {o} instructions outside the spinner in a window of "
         f"{w}, against {io * w // iw} for the tick alone")
    return float(m.group(5)), start


def uart_trace(path):
    """UART0's accesses in QEMU's trace, in order: (is_write, offset, value)."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = MMIO_RX.search(line)
            if m:
                a = int(m.group(2), 16)
                if UART0[0] <= a < UART0[1]:
                    out.append((m.group(1) == "write", a - UART0[0], int(m.group(3), 16)))
    return out


def find_thr(acc, text, start=0):
    """Index range in @acc of the THR writes (offset 0) that spell @text,
    searching from access @start; None if absent."""
    idx = [i for i in range(start, len(acc)) if acc[i][0] and acc[i][1] == 0]
    vals = bytes(acc[i][2] & 0xFF for i in idx)
    k = vals.find(text)
    if k < 0:
        return None
    return idx[k], idx[k + len(text) - 1]
