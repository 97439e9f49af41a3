#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The one-shot deadline on the emulated D1: the Timer one-shot API measured
against the `time` CSR (tests/emu/d1test/oneshot.c prints, this file
asserts). Runs under -icount shift=0,sleep=off (deterministic instruction
time).

- exact128_N: at prescaler /128 one input clock is 128 time ticks, so an
  interval off by one is 128 ticks. The expiry must come at the Nth
  prescaler edge after the store: t1 - ((t0 // 128 + N) * 128) in 0..SLACK
  (the machine's prescaler divides a count from time 0, as the time CSR
  does), and the board-valid bound (N - 1) * 128 < t1 - t0b, t1 - t0 <=
  N * 128 + SLACK; remaining() never 0 before the expiry, 0 after it, 1 the
  last value before it (expiry distinguishable from "1 clock left").
- direct_N at /1: N <= t1 - t0 and t1 - t0b <= N + SLACK.
- past_0, close_1: armed as D1_TIMER_ONESHOT_MIN_LEAD (counted as clamped),
  fire within the lead, never one wrap later; rearm_close: re-arm while
  counting to 3 clocks (closer than the disable's sync wait): fires at once,
  not at the old 100 ms deadline.
- irq_fires / irq_cancel / irq_cancel_late: the deadline reaches
  d1_timer_isr() through the PLIC; cancel prevents it (remaining then
  D1_ESTATE); a cancel after the expiry latched delivers no expiry (at
  most one spurious, counted, handler call).
- chain_absolute: 500 re-arms from the ISR to absolute deadlines: the
  lateness at the last is that of the first (no drift). chain_relative,
  the control: re-arming "period from now" drifts by the handler latency
  each time, and the test sees it.
"""
import argparse
import sys

from d1test_common import Checks, Run, d1_errors, fields

SLACK = 4          # time ticks: one poll iteration plus the final CSR read
IRQ_LATENCY = 200  # time ticks (8.3 us) from the expiry to the handler
NONE = 2**64 - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=240)
    a = ap.parse_args()
    E = d1_errors()

    r = Run(a.image)
    r.wait_for(r"^ONESHOT end.*\n|^FAIL.*\n|^FATAL.*\n", a.timeout)
    r.close()
    out = r.text
    f = fields(out, "ONESHOT")
    c = Checks("emu_d1test_oneshot")
    c.ok("start" in f and "end" in f, "the image ran to its end")
    lead = f.get("start", {}).get("min_lead", 2)

    for n in (2, 3, 5, 64, 1000):
        d = f.get(f"exact128_{n}")
        if not c.ok(d is not None and d["err"] == 0 and d["t1"] != NONE,
                    f"/128 deadline {n}: armed and expired"):
            continue
        t0, t0b, t1 = d["t0"], d["t0b"], d["t1"]
        c.ok(t0 // 128 == t0b // 128, f"  the arm call fell in one prescaler window ({t0}..{t0b})")
        exp = (t0 // 128 + n) * 128
        c.ok(0 <= t1 - exp <= SLACK,
             f"  expired at the {n}th prescaler edge after the store: t1 - expected = {t1 - exp}")
        c.ok((n - 1) * 128 < t1 - t0b and t1 - t0 <= n * 128 + SLACK,
             f"  {n} input clocks, not {n - 1} or {n + 1}: {t1 - t0} time ticks")
        c.ok(d["last_nonzero"] == 1 and d["after"] == 0 and d["bad"] == 0,
             f"  remaining(): 1 just before the expiry, 0 after it, never 0 before ({d['bad']} bad)")

    for n in (24, 2400, 24000, 2400000):
        d = f.get(f"direct_{n}")
        if not c.ok(d is not None and d["err"] == 0 and d["t1"] != NONE,
                    f"/1 deadline {n}: armed and expired"):
            continue
        c.ok(n <= d["t1"] - d["t0"] and d["t1"] - d["t0b"] <= n + SLACK and d["clamped"] == 0,
             f"  {d['t1'] - d['t0']} time ticks from before the call, "
             f"{d['t1'] - d['t0b']} from after it (deadline {n})")

    for name, clamp in (("past_0", 1), ("close_1", 1), ("lead_min", 0), ("rearm_close", 1)):
        d = f.get(name)
        if not c.ok(d is not None and d["err"] == 0 and d.get("err2", 0) == 0 and d["t1"] != NONE,
                    f"{name}: armed and expired"):
            continue
        c.ok(d["t1"] - d["t0b"] <= lead + SLACK,
             f"  fired at once: {d['t1'] - d['t0b']} ticks after the call (lead {lead})")
        if name != "rearm_close":
            c.ok(d["t1"] - d["t0"] >= max(d["n"], lead), "  not before the lead")
        c.ok(d["clamped"] == clamp, f"  counted as clamped: {d['clamped']} (expected {clamp})")

    d = f.get("irq_fires", {})
    c.ok(d.get("fired") == 1 and 24000 <= d.get("clocks", 0) <= 24000 + IRQ_LATENCY,
         f"IRQ: one expiry through the PLIC, {d.get('clocks')} ticks for 24000")
    d = f.get("irq_cancel", {})
    c.ok(d.get("fired") == 0 and d.get("cancel") == 0, "cancel before the deadline: no expiry")
    c.ok(d.get("remaining_err") == E["D1_ESTATE"], "remaining() after cancel: D1_ESTATE")
    d = f.get("irq_cancel_late", {})
    c.ok(d.get("latched") == 1 and d.get("pending_after") == 0 and d.get("fired") == 0,
         "cancel after the expiry latched (IRQs masked): IRQ_STA cleared, no expiry delivered")
    c.ok(d.get("spurious", 9) <= 1, f"  at most one handler call, counted spurious ({d.get('spurious')})")

    ab, rel = f.get("chain_absolute", {}), f.get("chain_relative", {})
    c.ok(ab.get("fired") == 500 and ab.get("done") == 1, "absolute chain: 500 expiries, none lost")
    c.ok(0 <= ab.get("late_min", -1) and ab.get("late_max", 10**9) <= IRQ_LATENCY,
         f"  every expiry within {IRQ_LATENCY} ticks of its deadline "
         f"({ab.get('late_min')}..{ab.get('late_max')})")
    c.ok(abs(ab.get("mean_last100", 10**9) - ab.get("mean_first100", 0)) <= 2,
         f"  no drift: mean lateness first 100 {ab.get('mean_first100')}, "
         f"last 100 {ab.get('mean_last100')}")
    c.ok(rel.get("fired") == 500 and rel.get("late_last", 0) > ab.get("late_last", 0) + 500,
         f"control: relative re-arm drifts ({rel.get('late_first')} -> {rel.get('late_last')} "
         "ticks): the measurement sees drift")
    print(f"  runtime {r.seconds:.1f} s")
    return c.done(("output", out))


if __name__ == "__main__":
    sys.exit(main())
