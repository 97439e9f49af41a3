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

reports(text) reads the recorder's lines beside it, for every OS's
checker the same way: the JSON reports (tool "d1lat"), the dump lines
(tool "d1lat-dump") and any such line that does not parse.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bench", "tools"))
import d1lat_dump  # noqa: E402  (the one scanner of JSON tool lines)

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


def reports(text):
    """(reports, dumps, bad) of a transcript: every JSON report object
    (tool "d1lat") in order, the number of dump lines (tool "d1lat-dump"),
    and the start of each line that names either tool but does not parse
    (cut short). A line may carry a prompt or other text before the
    object."""
    found, dumps, bad = [], 0, []
    lines = text.splitlines()
    for lineno, obj in d1lat_dump.tool_objects(text, '{"tool":"d1lat'):
        if isinstance(obj, ValueError):
            line = lines[lineno - 1]
            bad.append(line[line.find('{"tool":'):][:60])
            continue
        if obj.get("tool") == "d1lat":
            found.append(obj)
        elif obj.get("tool") == "d1lat-dump":
            dumps += 1
    return found, dumps, bad
