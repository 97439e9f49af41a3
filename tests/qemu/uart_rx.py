#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lossless-receive test: feed pseudo-random bytes into the QEMU virt UART.

QEMU's serial port is a TCP client of a loopback-only listening socket
opened here. The image prints "READY <n>", we send n seeded pseudo-random
bytes, the image reports the count and FNV-1a 64 checksum of what its
interrupt-driven UART driver delivered plus the driver's error counters.
Pass iff count and checksum equal ours, every loss counter is 0, the image
prints "PASS uart_rx" and QEMU exits with status 0.
"""
import argparse
import random
import re
import socket
import subprocess
import sys
import threading
import time

from qemu_common import qemu_base


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=20240605)
    ap.add_argument("--icount", default=None,
                    help="e.g. shift=0: instret then counts guest instructions")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()

    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.bind(("127.0.0.1", 0))  # loopback only
    lsock.listen(1)
    port = lsock.getsockname()[1]
    cmd = qemu_base(a.image, a.icount) + [
        "-chardev", f"socket,id=s0,host=127.0.0.1,port={port},server=off",
        "-serial", "chardev:s0"]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + a.timeout
    lsock.settimeout(10.0)
    try:
        conn, _ = lsock.accept()
    except socket.timeout:
        proc.kill()
        print("FAIL: QEMU did not connect to the serial socket")
        print(proc.communicate()[0].decode("utf-8", "replace"))
        return 1
    lsock.close()

    buf = bytearray()
    lock = threading.Lock()

    def reader():
        while True:
            try:
                chunk = conn.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            with lock:
                buf.extend(chunk)

    th = threading.Thread(target=reader, daemon=True)
    th.start()

    def text():
        with lock:
            return bytes(buf).decode("utf-8", "replace").replace("\r\n", "\n")

    def wait_for(pattern):
        while time.monotonic() < deadline:
            m = re.search(pattern, text(), re.M)
            if m:
                return m
            if proc.poll() is not None:
                time.sleep(0.2)
                return re.search(pattern, text(), re.M)
            time.sleep(0.02)
        return None

    rc = 1
    try:
        m = wait_for(r"^READY (\d+)\n")  # the whole line: "READY 6553" is a prefix
        if m is None:
            print(text())
            print("FAIL: image never printed READY")
            return 1
        n = int(m.group(1))
        data = random.Random(a.seed).randbytes(n)
        want = fnv1a64(data)
        t0 = time.monotonic()
        conn.sendall(data)
        t_sent = time.monotonic() - t0
        m = wait_for(r"^(PASS|FAIL) uart_rx$")
        try:
            proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        out = text()
        if not a.quiet:
            sys.stdout.write(out)
        if m is None:
            print(f"FAIL: no PASS/FAIL line before the {a.timeout} s timeout")
            return 1
        r = re.search(r"^RESULT count=(\d+) fnv=([0-9a-f]+)$", out, re.M)
        s = re.search(r"^STATS (.*)$", out, re.M)
        if r is None or s is None:
            print("FAIL: RESULT/STATS lines missing")
            return 1
        got_n, got_h = int(r.group(1)), int(r.group(2), 16)
        stats = dict(kv.split("=") for kv in s.group(1).split())
        errors = []
        if got_n != n:
            errors.append(f"count {got_n} != sent {n} ({n - got_n} lost)")
        if got_h != want:
            errors.append(f"checksum {got_h:016x} != sent {want:016x}")
        for k in ("overrun", "framing", "parity", "brk", "rx_dropped"):
            if int(stats.get(k, "-1")) != 0:
                errors.append(f"{k}={stats.get(k)}")
        if m.group(1) != "PASS":
            errors.append("image printed FAIL")
        proc.wait(timeout=10)
        if proc.returncode != 0:
            errors.append(f"QEMU exit status {proc.returncode}")
        if errors:
            print("FAIL: " + "; ".join(errors))
            return 1
        print(f"driver: PASS uart_rx: {n} bytes sent in {t_sent:.2f} s, "
              f"count and FNV-1a {want:016x} match, 0 lost/overrun/dropped")
        rc = 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        conn.close()
    return rc


if __name__ == "__main__":
    sys.exit(main())
