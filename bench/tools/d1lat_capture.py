#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Capture a bench's console from a serial port into a log that
d1lat_comparison.py (and bench/comparison.sh --board OS=LOG) reads.

usage: d1lat_capture.py DEVICE -o LOG [--baud 115200] [--reports N]
                        [--timeout SECONDS]

Opens DEVICE (a board's UART0 through a USB serial adapter, e.g.
/dev/ttyUSB0) raw at BAUD 8N1 without flow control, copies everything it
receives to LOG (and to standard output), and stops when N report lines
('{"tool":"d1lat"...' or the bare-metal bench's dump line) have arrived
and the line after the last one has ended, or after SECONDS without a
byte. Start the bench on the board (docs/comparison.md "On a Lichee RV /
86 Panel") after this prints "capturing". Exit 0 when N reports arrived,
1 on a timeout before that (LOG keeps what came), 2 on bad input (the
device cannot be opened or set up). Python 3 standard library only.
"""
import argparse
import os
import select
import sys
import termios
import time
import tty

BAUDS = {9600: termios.B9600, 57600: termios.B57600, 115200: termios.B115200,
         230400: termios.B230400, 460800: termios.B460800, 921600: termios.B921600,
         1500000: termios.B1500000}
REPORT_MARKS = (b'{"tool":"d1lat"', b'{"tool":"d1lat-dump"')


def open_port(dev, baud):
    fd = os.open(dev, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        tty.setraw(fd)
        attr = termios.tcgetattr(fd)
        attr[2] &= ~(termios.PARENB | termios.CSTOPB | termios.CSIZE | termios.CRTSCTS)
        attr[2] |= termios.CS8 | termios.CLOCAL | termios.CREAD
        attr[4] = attr[5] = BAUDS[baud]
        termios.tcsetattr(fd, termios.TCSANOW, attr)
    except (termios.error, OSError):
        os.close(fd)
        raise
    return fd


def capture(fd, out, reports, timeout, echo=sys.stdout.buffer):
    """Copy from @fd to @out until @reports report lines are complete or
    @timeout seconds pass without a byte; returns the reports seen."""
    seen = 0
    line = b""
    last = time.monotonic()
    while True:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except BlockingIOError:
                chunk = b""
            if chunk:
                last = time.monotonic()
                out.write(chunk)
                out.flush()
                if echo is not None:
                    echo.write(chunk)
                    echo.flush()
                line += chunk
                *done, line = line.split(b"\n")
                seen += sum(1 for d in done if any(m in d for m in REPORT_MARKS))
                if seen >= reports:
                    return seen
        if time.monotonic() - last > timeout:
            return seen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("device")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--baud", type=int, default=115200, choices=sorted(BAUDS))
    ap.add_argument("--reports", type=int, default=2,
                    help="report lines to wait for (d1bench prints 2 per run, the "
                    "bare-metal bench 1 dump line)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds without a byte before giving up")
    a = ap.parse_args(argv)
    if a.reports < 1 or a.timeout <= 0:
        print("d1lat_capture: --reports must be >= 1 and --timeout > 0", file=sys.stderr)
        return 2
    try:
        fd = open_port(a.device, a.baud)
    except (termios.error, OSError) as e:
        print(f"d1lat_capture: cannot use {a.device} at {a.baud} baud: {e}", file=sys.stderr)
        return 2
    print(f"d1lat_capture: capturing {a.device} at {a.baud} baud into {a.output}",
          file=sys.stderr)
    try:
        with open(a.output, "wb") as out:
            got = capture(fd, out, a.reports, a.timeout)
    finally:
        os.close(fd)
    if got < a.reports:
        print(f"d1lat_capture: {got} of {a.reports} report lines before {a.timeout:g} s of "
              f"silence ({a.output} keeps what came)", file=sys.stderr)
        return 1
    print(f"d1lat_capture: {got} report lines in {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
