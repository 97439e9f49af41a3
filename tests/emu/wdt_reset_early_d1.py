#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reset record when the watchdog expires before the run's first feed.

Image: bm_bench built with -DD1_BENCH_WDT=feed -DD1_BENCH_WDT_TIMEOUT_MS=4000
-DD1_BENCH_WDT_STARVE_AFTER=300: feeding stops after 300 samples, before the
main loop's first feed (1 s after the takeover), so the last restart of the
watchdog is the takeover itself, made before the run started. The next
boot's "reset record:" must still put the reset where it happened: due_us
(us from the run's start) = expiry - t_start, within 10 us, as
tests/emu/wdt_reset_d1.py requires of the 5,000-sample case."""
import argparse
import re
import sys

from d1test_common import Checks, Run, line_kv as kv

TIME_HZ = 24_000_000
EXPIRY = r"riscv-wdt: (\d+) ms timeout expired at (\d+) ns virtual: system reset"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("image")
    ap.add_argument("--timeout", type=float, default=200)
    a = ap.parse_args()
    c = Checks("emu_wdt_reset_before_first_feed")
    r = Run(a.image, reboot=True, log="cpu_reset,guest_errors")
    got = r.wait_for(r"(?m)^reset record: [^\n]*\n", a.timeout) is not None
    r.close()
    out, qlog = r.text, r.qlog
    exp = [(int(x), int(y)) for x, y in re.findall(EXPIRY, qlog)]
    c.ok(got and exp, f"a reset and the next boot's record ({exp[:1]})")
    if not (got and exp):
        return c.done(out + "\n---- qemu log ----\n" + qlog)
    m = re.search(r"feeding stopped after (\d+) samples; last feed at time CSR (\d+)", out)
    c.ok(m is not None, "boot 1: " + (m.group(0) if m else "no starve line"))
    rec = kv(re.search(r"(?m)^reset record: .*$", out).group(0))
    e1 = exp[0][1]
    t_start_ns = rec["t_start"] * 1e9 / TIME_HZ
    t_feed = rec["t_feed"]
    c.ok(m is not None and t_feed == int(m.group(2)),
         f"record t_feed {t_feed} = the last feed boot 1 printed")
    c.ok(t_feed < rec["t_start"], f"that feed (the takeover) is before the run's start "
         f"{rec['t_start']}")
    actual_us = (e1 - t_start_ns) / 1e3
    c.ok(abs(rec["due_us"] - actual_us) <= 10,
         f"due_us {rec['due_us']} vs the expiry {actual_us:.1f} us after the run's start")
    return c.done(out + "\n---- qemu log ----\n" + qlog if c.failed else None)


if __name__ == "__main__":
    sys.exit(main())
