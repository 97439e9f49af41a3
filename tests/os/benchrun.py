# SPDX-License-Identifier: Apache-2.0
"""The bench's run line, read once for every OS's checker.

One writer prints it: d1_bench_report_run() (include/d1/bench.h, the
library's report side), on bare metal, NuttX, RT-Thread and RT-Smart:

  run: B boundaries, irq S samples + M missed, wake S samples + M missed
  (L late, P spurious), spurious interrupts I, dropped D, U us of time CSR
  (ideal V us)

("wake none" for a bench without a task). parse(text) returns the last
such line of a transcript as a dict of ints (wake_* None without a task),
or None when there is none.
"""
import re

RUN = re.compile(
    r"^run: (?P<boundaries>\d+) boundaries, "
    r"irq (?P<irq_samples>\d+) samples \+ (?P<irq_missed>\d+) missed, "
    r"wake (?:none|(?P<wake_samples>\d+) samples \+ (?P<wake_missed>\d+) missed "
    r"\((?P<late>\d+) late, (?P<spurious_wake>\d+) spurious\)), "
    r"spurious interrupts (?P<spurious_irq>\d+), dropped (?P<dropped>\d+), "
    r"(?P<us>\d+) us of time CSR \(ideal (?P<ideal_us>\d+) us\)\s*$", re.M)


def parse(text):
    """The last run line of text as a dict, or None."""
    found = None
    for m in RUN.finditer(text):
        found = m
    if found is None:
        return None
    d = {k: (int(v) if v is not None else None) for k, v in found.groupdict().items()}
    d["line"] = found.group(0).strip()
    return d


def clean(run, periods, wake=True):
    """True for a run of `periods` boundaries, every one a sample of the
    interrupt (and of the wake-up, with a task), none missed or dropped."""
    if run is None:
        return False
    ok = (run["boundaries"] == periods and run["irq_samples"] == periods
          and run["irq_missed"] == 0 and run["dropped"] == 0)
    if wake:
        ok = ok and run["wake_samples"] == periods and run["wake_missed"] == 0
    return ok
