#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""UART line errors on the emulated D1: injected framing,
parity, break and overrun errors, counted by the library's UART stats,
nothing lost beyond what is counted (image tests/emu/d1test/
uart_err.c).

The machine's DW UART injects a framing error on every 7th and a parity
error on every 11th character received from the line (-global
dw-apb-uart.inject-fe-every=7, inject-pe-every=11; the image runs 8E1), and
receives a break (one NUL with LSR.BI) for each C-a b of the chardev mux.
Errors are per character as on a 16550 in FIFO mode, so the library's
counts must match exactly and the delivered bytes must be the sent ones
minus exactly the errored characters (byte-exact, FNV-1a). Overrun: a
burst arrives while the image's interrupts are off; the delivered bytes
must be the burst minus one contiguous run (the characters that met a full
64-byte FIFO), reported as one overrun.

--no-inject is the negative control: the same stream without injection
must fail the counting checks (the test can see the difference).

--rtscts: the image built with UERR_RTSCTS=1 (d1_uart_config::rtscts, the
DW UART's auto flow control): the UART deasserts RTS at its RX trigger
level and the far end waits, so the burst arrives whole (its good
characters, the injected bad ones counted) with no overrun.
-icount shift=0,sleep=on, as the emulator's own UART test."""
import argparse
import sys

from d1test_common import Checks, Run, fields

K = 3000
BREAKS = 3
FE_EVERY, PE_EVERY = 7, 11
BURST = 300
FIFO = 64


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
    return h


def stream(n, salt):
    # printable bytes only: 0x01 is the mux's escape
    return bytes(0x20 + (i * 37 + i // 95 + salt) % 95 for i in range(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--no-inject", action="store_true")
    ap.add_argument("--rtscts", action="store_true",
                    help="image with auto RTS/CTS: the burst must not overrun")
    ap.add_argument("--timeout", type=float, default=150)
    a = ap.parse_args()

    # A mux chardev of its own on stdio: C-a b in the stream is a break.
    extra = ["-chardev", "stdio,id=s0,mux=on,signal=off"]
    extra += [] if a.no_inject else [
        "-global", f"dw-apb-uart.inject-fe-every={FE_EVERY}",
        "-global", f"dw-apb-uart.inject-pe-every={PE_EVERY}"]
    r = Run(a.image, icount="shift=0,sleep=on", serial="chardev:s0", extra=extra)
    data = stream(K, 0)
    burst = stream(BURST, 17)
    c = Checks("emu_d1test_uart_err" + ("_no_inject" if a.no_inject else "") +
               ("_rtscts" if a.rtscts else ""))
    if c.ok(r.wait_for(r"^UERR ready errors\r?$", a.timeout) is not None, "phase errors: ready"):
        third = K // BREAKS
        for k in range(BREAKS):
            r.send(data[k * third:(k + 1) * third])
            r.send(b"\x01b")        # mux: send a break
        if c.ok(r.wait_for(r"^UERR ready overrun\r?$", a.timeout) is not None,
                "phase overrun: ready"):
            r.send(burst)
            r.wait_for(r"^UERR end.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "UERR")

    kept = bytes(b for i, b in enumerate(data, 1) if i % FE_EVERY and i % PE_EVERY)
    n_fe, n_pe = K // FE_EVERY, K // PE_EVERY
    rx, st = f.get("rx_errors", {}), f.get("stats_errors", {})
    c.ok(st.get("framing") == n_fe, f"framing errors counted: {st.get('framing')} (injected {n_fe})")
    c.ok(st.get("parity") == n_pe, f"parity errors counted: {st.get('parity')} (injected {n_pe})")
    c.ok(st.get("brk") == BREAKS, f"breaks counted: {st.get('brk')} (sent {BREAKS})")
    c.ok(st.get("overrun") == 0 and st.get("rx_dropped") == 0,
         "no overrun, nothing dropped in the error phase")
    c.ok(rx.get("count") == len(kept) and rx.get("fnv") == fnv1a(kept),
         f"delivered byte-exact: the {K} sent minus the {K - len(kept)} errored "
         f"({rx.get('count')} bytes, hash {'matches' if rx.get('fnv') == fnv1a(kept) else 'differs'})")
    c.ok(st.get("rx_bytes") == rx.get("count"), "rx_bytes equals what the reader got")
    lost = K - (rx.get("count") or 0)
    c.ok(lost == (st.get("framing") or 0) + (st.get("parity") or 0) - K // (FE_EVERY * PE_EVERY),
         f"every missing byte is a counted bad character ({lost} missing)")

    # The burst: the line's character count goes on from K (the injection
    # with it). The FIFO holds the first 64 characters that arrive, good
    # and bad; what arrives at a full FIFO is lost (one OE); then, once the
    # image drains, the rest of the burst, if any, arrives normally.
    so = f.get("stats_overrun", {})
    hx = f.get("hex_overrun", {}).get("data", "")
    got = bytes.fromhex(hx) if isinstance(hx, str) else b""
    ov = (so.get("overrun") or 0) - (st.get("overrun") or 0)
    c.ok(ov == (0 if a.rtscts else 1),
         f"{'no overrun (auto RTS held the far end)' if a.rtscts else 'one overrun'} "
         f"counted for the burst ({ov})")

    def good(j):            # burst index j is line character K + j + 1
        g = K + j + 1
        return a.no_inject or (g % FE_EVERY and g % PE_EVERY)

    in_fifo = bytes(burst[j] for j in range(FIFO) if good(j))
    # Every lost run [FIFO, FIFO + gap) that explains the delivered bytes
    # (a bad character next to the run could be either lost or received
    # and dropped: the bytes alone cannot tell).
    gaps = [g for g in ([0] if a.rtscts else range(1, BURST - FIFO + 1))
            if got == in_fifo + bytes(burst[j] for j in range(FIFO + g, BURST) if good(j))]
    ok_burst = bool(gaps)
    if a.rtscts:
        c.ok(ok_burst, f"burst delivered whole: its good bytes in order ({len(got)} bytes "
             f"delivered of {BURST})")
    else:
        c.ok(ok_burst, f"burst delivered as the FIFO's {len(in_fifo)} good bytes then the tail "
             f"after one lost run of {'/'.join(map(str, gaps)) or '?'} characters ({len(got)} "
             f"bytes delivered of {BURST})")

    # Exactly the bad characters that were received (the FIFO's 64 and the
    # tail; those lost at the full FIFO carry no error of their own) are
    # counted, each under its own error, and none of the lost run is.
    def bad(j, every):
        return not a.no_inject and (K + j + 1) % every == 0

    def expected(g):
        idx = list(range(FIFO)) + list(range(FIFO + g, BURST))
        return (sum(1 for j in idx if bad(j, FE_EVERY)), sum(1 for j in idx if bad(j, PE_EVERY)))

    fe_got = (so.get("framing") or 0) - (st.get("framing") or 0)
    pe_got = (so.get("parity") or 0) - (st.get("parity") or 0)
    match = [g for g in gaps if expected(g) == (fe_got, pe_got)]
    c.ok(bool(match), f"the burst's received bad characters counted exactly: framing {fe_got}, "
         f"parity {pe_got} (expected {' or '.join(str(expected(g)) for g in gaps) or '?'}"
         f"{f', lost run {match[0]}' if match else ''})")
    c.ok((so.get("rx_bytes") or 0) - (st.get("rx_bytes") or 0) == len(got) and
         so.get("rx_dropped") == 0 and so.get("brk") == st.get("brk"),
         "burst: rx_bytes grew by what the reader got, nothing dropped, no break")
    c.ok("UERR end" in out and f.get("end", {}).get("traps_spurious") == 0,
         "the image ran to its end, no stray trap")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out), ("qemu log", r.qlog))


if __name__ == "__main__":
    sys.exit(main())
