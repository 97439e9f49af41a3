#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""64 KiB of random bytes into UART0 of the emulated D1, received
byte-exact through PLIC interrupts after a BUSY-safe reconfigure while
transmitting (image: tests/emu/uart_rx_d1.c).

The host side is tests/qemu/uart_rx.py unchanged (socket chardev, seeded
data, FNV-1a check, loss counters); only the QEMU command line is the D1's.
The machine's UART receives at the programmed baud rate and is told the
line's rate (-global dw-apb-uart.line-baud=N): a divisor that did not land
gives framing errors and wrong bytes. The image must also report that
BUSY was set when d1_uart_configure() was called.

-icount shift=0,sleep=on: instruction-counted virtual time while the hart
runs (so RX pacing and the hart are in lockstep: no overrun from host
stalls), real time while it idles (the host's bytes arrive in real time)."""
import argparse
import io
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu"))
import uart_rx  # noqa: E402  (tests/qemu/uart_rx.py)
from emu_common import Checks, d1_cmd  # noqa: E402


FIFO_DEPTH = 64  # the D1 UART's RX FIFO (dw-apb-uart fifo-size)


def expect_corrupt(rc, out, baud):
    """The wrong line rate must be seen as such: the transfer fails, the
    receiver counts line errors, and the image ends by itself (its
    end-of-input bound needs a wake-up that works on the board) and says
    what it got."""
    c = Checks(f"emu_uart_rx_{baud}_corrupt")
    c.ok(rc != 0, "tests/qemu/uart_rx.py failed: the bytes did not arrive intact")
    res = re.search(r"^RESULT count=(\d+) fnv=([0-9a-f]+)$", out, re.M)
    c.ok(res is not None, "the image ended its receive by itself and printed RESULT "
                          "(its end-of-input bound woke it)")
    st = re.search(r"^STATS .*framing=(\d+) parity=(\d+)", out, re.M)
    errs = int(st.group(1)) + int(st.group(2)) if st else 0
    c.ok(errs > 0, f"the receiver counted the line errors (framing + parity = {errs})")
    return c.done(("output", out))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--baud", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--inject-cto-empty", type=int, default=0, metavar="N",
                    help="the machine leaves a character timeout with an empty FIFO behind "
                         "after every Nth character read (dw-apb-uart.inject-cto-empty-every): "
                         "the library must clear each with one dummy read and count it")
    ap.add_argument("--expect-corrupt", action="store_true",
                    help="negative control (line faster than the image's baud): the bytes "
                         "must arrive wrong, be counted as errors, and the image must still "
                         "end its receive by itself and report")
    a = ap.parse_args()
    if 0 < a.inject_cto_empty <= 2 * FIFO_DEPTH:
        # The machine keeps one pending injection (cto_empty_due) until the
        # FIFO next empties; the ISR empties it about every 64 characters
        # (a few more when some arrive during the drain), so with a small N
        # several Nth reads fall between two empties and count as one:
        # count // N would overstate what was injected (N = 10: 1,057
        # injected and cleared, 6,553 expected; N = 1: 1,058 vs 65,536).
        ap.error(f"--inject-cto-empty must be > {2 * FIFO_DEPTH} (twice the RX FIFO "
                 "depth) for count // N to be the number injected")

    extra = ["-global", f"dw-apb-uart.line-baud={a.baud}"]
    if a.inject_cto_empty:
        extra += ["-global", f"dw-apb-uart.inject-cto-empty-every={a.inject_cto_empty}"]

    def d1_base(image, icount=None):
        return d1_cmd(image, icount=os.environ.get("D1_EMU_RX_ICOUNT", "shift=0,sleep=on"),
                      extra=extra)

    uart_rx.qemu_base = d1_base
    sys.argv = ["uart_rx.py", a.image, "--timeout", str(a.timeout)]
    real = sys.stdout
    cap = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, s):
            cap.write(s)
            return real.write(s)

    sys.stdout = Tee()
    try:
        rc = uart_rx.main()
    finally:
        sys.stdout = real
    out = cap.getvalue()
    if a.expect_corrupt:
        return expect_corrupt(rc, out, a.baud)
    c = Checks(f"emu_uart_rx_{a.baud}")
    c.ok(rc == 0, "tests/qemu/uart_rx.py: byte-exact, 0 lost/overrun/dropped")
    rec = re.findall(r"^RECONF baud=(\d+) achieved=(\d+) busy_at_call=(\d) "
                     r"busy_detect=(\d+) lcr_retries=(\d+)$", out, re.M)
    c.ok(len(rec) >= 1 and int(rec[-1][0]) == a.baud, f"reconfigured to {a.baud}")
    for baud, achieved, busy, _bd, _rt in rec:
        c.ok(busy == "1", f"reconfigure to {baud} called while USR.BUSY = 1")
        c.ok(abs(int(achieved) - int(baud)) * 100 <= 2 * int(baud),
             f"achieved {achieved} within 2 % of {baud}")
    st = re.search(r"^STATS .*rx_timeout_empty=(\d+) isr_idle=(\d+)", out, re.M)
    res = re.search(r"^RESULT count=(\d+)", out, re.M)
    if c.ok(st is not None and res is not None, "RESULT and STATS lines"):
        empty, idle = int(st.group(1)), int(st.group(2))
        if a.inject_cto_empty:
            # One per N characters read, each left behind by the read that
            # emptied the FIFO after the Nth (the FIFO empties at least
            # about every 64 characters and N > 128, so no two Nth reads
            # fall between two empties and none is merged into the next).
            want = int(res.group(1)) // a.inject_cto_empty
            c.ok(empty == want, f"every empty character timeout cleared and counted: "
                 f"rx_timeout_empty={empty} (injected {want})")
        else:
            c.ok(empty == 0, f"no empty character timeout without injection ({empty})")
        c.ok(idle == 0, f"no interrupt found nothing to do: isr_idle={idle} (a timeout left "
             "standing would re-enter the ISR)")
    return c.done()


if __name__ == "__main__":
    sys.exit(main())
