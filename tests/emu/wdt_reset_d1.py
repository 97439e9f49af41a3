#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Watchdog reset recovery on the emulated D1: a watchdog reset in
the middle of a bench run, counted and reported by the next boot.

Image: build/d1/ports/baremetal/bm_bench_wdt_starve.bin, the bench (20,000
samples at 1 kHz) with riscv_wdt kept armed at 4 s and fed once a second,
feeding stopped after 5,000 samples (D1_BENCH_WDT_STARVE_AFTER), except on
the boot right after a watchdog reset that interrupted a run. The reset
cause rests on a marker in RTC gp_data7 (kept by a system reset) and the
counts on a DRAM record outside the image (ports/baremetal/resetrec.h;
docs/reliability.md "On the emulated D1").

--case reset (one QEMU, reboots allowed, -icount shift=0,sleep=off):
  boot 1  cold: "reset cause: power-on"; feeding stops; the machine is
          reset by riscv_wdt exactly 4 s after the last feed (QEMU's log
          against the feed time the image printed);
  boot 2  "reset cause: watchdog (riscv_wdt, 4000 ms)", the interrupted
          run's record: the same last feed, samples = the periods between
          its start and the expiry, 0 missed, consistent; this boot feeds
          throughout: 20,000 samples, no reset during its run (the
          negative control: the same run fed), then it parks;
  boot 3  "reset cause: watchdog" of run 2, finished and parked: 20,000
          samples, the feed count boot 2 printed, reset 4 s after its
          last feed.
--case power-cycle: the same first boot with -no-reboot (QEMU exits at the
  expiry), then a new QEMU (power cycle: RTC and DRAM lost): the second
  boot must say power-on, not watchdog, and starve again.
--case rtc-only: a new QEMU whose RTC keeps a run marker (as a coin cell
  would, -global allwinner-d1-rtc-gpr.gp-data7=...) with no DRAM record:
  "watchdog or power loss ... counts lost", no invented counts.
Prints one "EMU-SUMMARY: ..." line."""
import argparse
import os
import re
import sys

from d1test_common import Checks, Run, line_kv as kv

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "os"))
import benchrun  # noqa: E402

TIMEOUT_MS = 4000
STARVE_AFTER = 5000
PERIODS = 20000
TIME_HZ = 24_000_000
EXPIRY = r"riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset"
CAUSE = r"^reset cause: .*$"
RECORD = r"^reset record: .*$"


def ns(counts):
    """time CSR counts (24 MHz) -> ns"""
    return counts * 1_000_000_000 / TIME_HZ


def boots(text):
    """The output split at each bench banner: one chunk per boot."""
    parts = re.split(r"(?m)^(?=d1drivers bare-metal bench on d1:)", text)
    return [p for p in parts if p.startswith("d1drivers bare-metal bench")]


def first(pattern, text):
    m = re.search(pattern, text, re.M)
    return m.group(0) if m else ""


def expiries(qlog):
    return [(int(a), int(b)) for a, b in re.findall(EXPIRY, qlog)]


def check_reset(c, a):
    r = Run(a.image, reboot=True, log="cpu_reset,guest_errors")
    # boot 3's record line (the second one: boot 1 has none) is the last thing needed
    n3 = r.wait_for(r"(?s)reset record: .*?reset record: [^\n]*\n", a.timeout) is not None
    r.close()
    out, qlog = r.text, r.qlog
    b = boots(out)
    exp = expiries(qlog)
    c.ok(n3 and len(b) >= 3, f"three boots seen ({len(b)}), QEMU ran {r.seconds:.1f} s")
    c.ok(len(exp) >= 2 and all(ms == TIMEOUT_MS for ms, _ in exp[:2]),
         f"QEMU logged the riscv_wdt expiries, {TIMEOUT_MS} ms each ({exp[:3]})")
    if len(b) < 3 or len(exp) < 2:
        return out, qlog, None
    b1, b2, b3 = b[:3]
    e1, e2 = exp[0][1], exp[1][1]

    # ---- boot 1: cold, starved, reset 4 s after the last feed ----
    c.ok("reset cause: power-on" in first(CAUSE, b1), "boot 1 (cold): " + first(CAUSE, b1))
    m = re.search(r"feeding stopped after (\d+) samples; last feed at time CSR (\d+)", b1)
    c.ok(m is not None, "boot 1: feeding stopped mid-run")
    if m is None:
        return out, qlog, None
    n0, tf1 = int(m.group(1)), int(m.group(2))
    c.ok(STARVE_AFTER <= n0 <= STARVE_AFTER + 1, f"  after {n0} samples (option {STARVE_AFTER})")
    d1 = e1 - ns(tf1)
    c.ok(TIMEOUT_MS * 1e6 <= d1 <= TIMEOUT_MS * 1e6 + 10e3,
         f"  reset {d1 / 1e9:.9f} s after the last feed (timeout {TIMEOUT_MS} ms, +10 us allowed)")
    c.ok("BENCH DONE" not in b1, "  the starved run did not finish")

    # ---- boot 2: the cause and the interrupted run's counts ----
    cause2, rec2 = first(CAUSE, b2), kv(first(RECORD, b2))
    c.ok(re.search(r"reset cause: watchdog \(riscv_wdt, 4000 ms\): run 1 interrupted", cause2)
         is not None, "boot 2: " + cause2)
    c.ok(rec2.get("state") == "running" and rec2.get("consistent") == "yes" and
         rec2.get("torn") == 0, "  record of run 1: running, consistent, not torn")
    c.ok(rec2.get("t_feed") == tf1, f"  its last feed is the one boot 1 printed ({rec2.get('t_feed')})")
    t0 = ns(rec2.get("t_start", 0))
    ts = ns(rec2.get("t_sample", 0))
    want = int((e1 - t0) // 1e6)      # period boundaries from the run's start to the expiry
    c.ok(rec2.get("boundaries") == want and rec2.get("samples") == want and
         rec2.get("missed") == 0,
         f"  samples {rec2.get('samples')} + missed {rec2.get('missed')} = boundaries "
         f"{rec2.get('boundaries')}: the {want} periods before the expiry, none lost")
    c.ok(ts <= e1 < ts + 1e6, "  the last sample recorded is the last one before the expiry")
    c.ok(rec2.get("samples", 0) >= n0, "  the run kept counting after the feeding stopped")
    c.ok(rec2.get("due_us") == rec2.get("last_feed_us", -1) + TIMEOUT_MS * 1000 and
         abs(t0 / 1e3 + rec2.get("due_us", 0) - e1 / 1e3) <= 10,
         f"  the reset is where the record says it was due ({rec2.get('due_us')} us of the run)")
    c.ok(1 <= rec2.get("feeds", 0) <= n0 // 1000, f"  {rec2.get('feeds')} feeds before it")
    c.ok("skipped, this boot follows a watchdog reset" in b2, "  boot 2 feeds throughout")
    r = benchrun.parse(b2)
    c.ok(benchrun.clean(r, PERIODS, wake=False),
         f"  and completes its run: {r['line'] if r else 'no run line'}")
    m = re.search(r"watchdog: fed (\d+) times; parking now", b2)
    fed2 = int(m.group(1)) if m else -1
    c.ok("BENCH DONE" in b2 and fed2 > 0, f"  parks after BENCH DONE, fed {fed2} times")
    c.ok(e2 - e1 > PERIODS * 1e6, f"  no reset during the fed run (next expiry "
         f"{(e2 - e1) / 1e9:.3f} s after the first)")

    # ---- boot 3: the finished run ----
    cause3, rec3 = first(CAUSE, b3), kv(first(RECORD, b3))
    c.ok(re.search(r"reset cause: watchdog \(riscv_wdt, 4000 ms\): run 2 had finished", cause3)
         is not None, "boot 3: " + cause3)
    c.ok(rec3.get("state") == "done" and rec3.get("samples") == PERIODS and
         rec3.get("missed") == 0 and rec3.get("boundaries") == PERIODS and
         rec3.get("consistent") == "yes",
         f"  record of run 2: done, {rec3.get('samples')} samples, {rec3.get('missed')} missed")
    c.ok(rec3.get("feeds") == fed2, f"  {rec3.get('feeds')} feeds, as boot 2 printed")
    # boot 2's time CSR started at the first reset
    d2 = e2 - (e1 + ns(rec3.get("t_feed", 0)))
    c.ok(TIMEOUT_MS * 1e6 - 100 <= d2 <= TIMEOUT_MS * 1e6 + 10e3,
         f"  reset {d2 / 1e9:.9f} s after boot 2's last feed")
    summary = (f"wdt-reset: reset {d1 / 1e9:.6f} s after the last feed (timeout "
               f"{TIMEOUT_MS / 1e3:.0f} s), at sample {rec2.get('samples')} of {PERIODS}; next "
               f"boot: watchdog (riscv_wdt), {rec2.get('samples')} samples + "
               f"{rec2.get('missed')} missed carried over; fed run: {PERIODS} samples, no reset; "
               f"cold boot: power-on")
    return out, qlog, summary


def check_power_cycle(c, a):
    r1 = Run(a.image, reboot=False, log="cpu_reset,guest_errors")
    r1.wait_for(r"^NEVER$", a.timeout)          # runs until QEMU exits at the expiry
    rc = r1.close()
    exp = expiries(r1.qlog)
    c.ok("reset cause: power-on" in first(CAUSE, r1.text), "run 1 (cold): power-on")
    c.ok(rc == 0 and len(exp) == 1, f"run 1 ended at the riscv_wdt expiry (-no-reboot), rc={rc}")
    r2 = Run(a.image, reboot=False, log="guest_errors")
    r2.wait_for(r"^watchdog: starve after.*\n", a.timeout)
    r2.close()
    cause = first(CAUSE, r2.text)
    c.ok("reset cause: power-on" in cause, "run 2, a new QEMU (power cycle): " + cause)
    c.ok(first(RECORD, r2.text) == "", "  no record reported")
    c.ok(re.search(r"^watchdog: starve after \d+ samples \(D1_BENCH_WDT_STARVE_AFTER\)$",
                   r2.text, re.M) is not None, "  it starves again (not taken for a watchdog reset)")
    return (r1.text + r2.text, r1.qlog + r2.qlog,
            "wdt-reset power cycle: next boot power-on (RTC and DRAM lost)")


def check_rtc_only(c, a):
    marker = 0xD1A51005           # run 5, running (resetrec.c's layout)
    r = Run(a.image, reboot=False, log="guest_errors",
            extra=["-global", f"allwinner-d1-rtc-gpr.gp-data7=0x{marker:08x}"])
    r.wait_for(r"^watchdog: starve after.*\n", a.timeout)
    r.close()
    cause = first(CAUSE, r.text)
    c.ok(re.search(r"reset cause: watchdog or power loss: run 5 marker 0xd1a51005 .*counts lost",
                   cause) is not None, "RTC marker kept, DRAM empty: " + cause)
    c.ok(first(RECORD, r.text) == "", "  no counts invented")
    return r.text, r.qlog, "wdt-reset RTC-only: watchdog or power loss, counts lost"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("image")
    ap.add_argument("--case", choices=["reset", "power-cycle", "rtc-only"], default="reset")
    ap.add_argument("--timeout", type=float, default=200)
    a = ap.parse_args()
    c = Checks(f"emu_wdt_reset_{a.case}")
    out, qlog, summary = {"reset": check_reset, "power-cycle": check_power_cycle,
                          "rtc-only": check_rtc_only}[a.case](c, a)
    if not c.failed and summary:
        print("EMU-SUMMARY: " + summary)
    q = "\n".join(line for line in qlog.splitlines() if "expired" in line or "guest" in line)
    return c.done(("output", out), ("qemu log (expiries)", q))


if __name__ == "__main__":
    sys.exit(main())
