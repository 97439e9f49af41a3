#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Decode the latency recorder's dump line into its report.

The device prints one line (d1_lat_dump(), docs/latency.md):

  {"tool":"d1lat-dump","format":2,"os":..,"board":..,"load":..,"measurement":..,
   "wake":..,["bench_instr_min":..,"bench_instr_max":..,]"period_ns":..,"clock_hz":..,
   "layout":[10,6,15],"lost":..,"missed":..,"max":..,"bins":[i,c,...]}

(the bench's own cost only where the bench measured it).

This tool finds such lines anywhere in its input (serial logs with
prefixes work) and prints, for each, the recorder's JSON report line
("tool":"d1lat","format":3) computed with the same integer arithmetic as
src/latency_report.c, so it is byte for byte what d1_lat_report_json()
prints on the device (tests/check_latency_json.py checks that). Only dump
format 2 is read: a line of another format (format 1 had no measurement
and wake) is an error that names both formats.

  d1lat_dump.py [FILE...]        FILE "-" or none: standard input

Python 3 standard library only. Exit 0; 2 for bad input or no dump line.
"""
import json
import sys

PPM = 1000000
PS_PER_S = 10**12
PCTS = [("p50_ns", 500000), ("p90_ns", 900000), ("p99_ns", 990000), ("p999_ns", 999000),
        ("p9999_ns", 999900)]


class DumpError(Exception):
    pass


class Layout:
    """The log-linear layout: 2^e exact bins, 2^s buckets per octave, o octaves."""

    def __init__(self, exact_log2, sub_log2, octaves):
        self.e, self.s, self.o = exact_log2, sub_log2, octaves
        self.exact = 1 << exact_log2
        self.sub = 1 << sub_log2
        self.nbins = self.exact + octaves * self.sub
        self.top = (1 << (exact_log2 + octaves)) - 1
        self.overflow = self.nbins

    def index(self, v):
        if v < self.exact:
            return v
        if v > self.top:
            return self.overflow
        k = v.bit_length() - 1
        return self.exact + (k - self.e) * self.sub + ((v >> (k - self.s)) - self.sub)

    def bounds(self, i):
        if i < self.exact:
            return i, i
        if i >= self.nbins:
            return self.top + 1, 2**32 - 1
        j = i - self.exact
        sh = j // self.sub + (self.e - self.s)
        lo = (self.sub + j % self.sub) << sh
        return lo, lo + (1 << sh) - 1


def divround(num, den):
    """round(num / den), halves up, saturating at 2^64 - 1."""
    return min((num + den // 2) // den, 2**64 - 1)


def ns3(ps):
    return "%d.%03d" % (ps // 1000, ps % 1000)


def jstr(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif c < 0x20 or c >= 0x80:
            if c > 0xFF:
                raise DumpError("meta string holds U+%04X: not from a device dump" % c)
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# The dump format d1_lat_dump() writes and the report format made from it.
DUMP_FORMAT = 2
REPORT_FORMAT = 3
# The meta strings of a dump, in the order of the line.
META = ("os", "board", "load", "measurement", "wake")
# The bench's own cost per sample, instructions (optional, after the wake).
BENCH_COST = ("bench_instr_min", "bench_instr_max")
# The one layout d1_lat_dump() writes (latency_layout.h asserts it).
LAYOUT = [10, 6, 15]
# Largest value of each number d1_lat_dump() writes (uint32_t or uint64_t).
LIMITS = {"clock_hz": 2**32 - 1, "lost": 2**64 - 1, "missed": 2**64 - 1, "max": 2**32 - 1,
          "period_ns": 2**64 - 1}


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def decode(obj):
    """Check a parsed dump object; return (layout, bins dict, obj)."""
    if obj.get("tool") != "d1lat-dump":
        raise DumpError("not a d1lat-dump object (tool %r)" % (obj.get("tool"),))
    if not is_int(obj.get("format")) or obj["format"] != DUMP_FORMAT:
        raise DumpError("dump format %s, expected %d: re-run with a current image"
                        % (json.dumps(obj.get("format")), DUMP_FORMAT))
    lay = obj.get("layout")
    if not (isinstance(lay, list) and all(is_int(x) for x in lay) and lay == LAYOUT):
        raise DumpError("bad layout %r (the device writes %r)" % (lay, LAYOUT))
    L = Layout(*lay)
    for k in META:
        if k in obj and not isinstance(obj[k], str):
            raise DumpError("bad %s %r" % (k, obj[k]))
    flat = obj.get("bins")
    if not isinstance(flat, list) or len(flat) % 2:
        raise DumpError("bins must be a list of index, count pairs")
    bins = {}
    for i, c in zip(flat[0::2], flat[1::2]):
        if not (is_int(i) and is_int(c)) or not 0 <= i <= L.nbins \
                or not 0 < c < 2**32 or i in bins:
            raise DumpError("bad bin %r: %r" % (i, c))
        bins[i] = c
    for k, top in LIMITS.items():
        if not is_int(obj.get(k)) or not 0 <= obj[k] <= top:
            raise DumpError("bad %s %r" % (k, obj.get(k)))
    if obj["clock_hz"] < 1000:
        raise DumpError("clock_hz below 1000")
    # the bench's own cost: both or neither, 1 .. 2^32 - 1, min <= max
    cost = [obj.get(k) for k in BENCH_COST]
    if cost != [None, None] and not (all(is_int(c) and 0 <= c < 2**32 for c in cost)
                                     and 0 < cost[1] and cost[0] <= cost[1]):
        raise DumpError("bad bench cost %r" % dict(zip(BENCH_COST, cost)))
    # max is the largest sample fed, so it lies in the highest nonzero bin
    # (0 when no bin is: nothing was recorded).
    if (L.index(obj["max"]) != max(bins)) if bins else obj["max"] != 0:
        raise DumpError("max %d does not match the bins" % obj["max"])
    return L, bins, obj


def estimate(L, bins_max, i):
    lo, hi = L.bounds(i)
    hi = min(hi, bins_max)
    lo = min(lo, hi)
    if i == L.overflow:
        return hi, lo != hi
    return lo + (hi - lo) // 2, lo != hi


def at_rank(L, bins, mx, rank):
    cum = 0
    for i in sorted(bins):
        if cum + bins[i] >= rank:
            break
        cum += bins[i]
    if i < L.exact:
        return i, False
    if rank == cum + bins[i] and L.index(mx) == i:
        return mx, False
    return estimate(L, mx, i)


def percentile(L, bins, mx, n, q):
    if n == 0:
        return 0, False
    q = min(q, PPM)
    rank = max(1, -(-q * n // PPM))
    return at_rank(L, bins, mx, rank)


def report_line(obj):
    """The d1lat format 3 JSON line (with its newline) for a dump object."""
    L, bins, obj = decode(obj)
    hz = obj["clock_hz"]
    mx = obj["max"]
    n = sum(bins.values())

    def ps(c):
        return divround(c * PS_PER_S, hz)

    total = 0
    above = 0
    for i, c in bins.items():
        total += (i if i < L.exact else estimate(L, mx, i)[0]) * c
        if i >= L.exact:
            above += c
    mn, mn_approx = percentile(L, bins, mx, n, 0)
    pct = [percentile(L, bins, mx, n, q) for _, q in PCTS]
    mean_ps = 0 if n == 0 else divround(total * PS_PER_S, n * hz)
    mean_approx = above > 0
    approx_fields = (["min_ns"] if mn_approx else []) + \
        [k for (k, _), (_, a) in zip(PCTS, pct) if a] + (["mean_ns"] if mean_approx else [])
    f = ['{"tool":"d1lat","format":%d' % REPORT_FORMAT,
         '"os":' + jstr(obj.get("os", "unknown")),
         '"board":' + jstr(obj.get("board", "unknown")),
         '"clock_hz":%d' % hz, '"period_ns":%d' % obj["period_ns"],
         '"samples":%d' % min(n + obj["lost"], 2**64 - 1), '"missed":%d' % obj["missed"],
         '"load":' + jstr(obj.get("load", "unknown")),
         '"measurement":' + jstr(obj.get("measurement", "unknown")),
         '"wake":' + jstr(obj.get("wake", "unknown"))]
    f += ['"%s":%d' % (k, obj[k]) for k in BENCH_COST if k in obj]
    f += ['"resolution_ns":' + ns3(ps(1)), '"exact_max_ns":' + ns3(ps(L.exact - 1)),
         '"top_ns":' + ns3(ps(L.top)), '"min_ns":' + ns3(ps(mn))]
    f += ['"%s":%s' % (k, ns3(ps(v))) for (k, _), (v, _) in zip(PCTS, pct)]
    f += ['"max_ns":' + ns3(ps(mx if n else 0)), '"mean_ns":' + ns3(mean_ps),
          '"approx":' + ("true" if approx_fields else "false"),
          '"approx_fields":[' + ",".join('"%s"' % k for k in approx_fields) + "]",
          '"above_exact":%d' % above, '"above_top":%d' % bins.get(L.overflow, 0),
          '"saturated":%d' % obj["lost"]]
    return ",".join(f) + "}\n"


def tool_objects(text, prefix='{"tool":'):
    """(line number, object) of every JSON object in text that starts with
    @prefix, in order, wherever it starts on its line (after a prompt, say);
    a line whose object does not parse (cut short) gives its ValueError in
    place of the object. The one scanner of the tools and the checkers
    (d1lat_compare.py, tests/os/benchrun.py)."""
    dec = json.JSONDecoder()
    for lineno, line in enumerate(text.splitlines(), 1):
        at = line.find(prefix)
        if at < 0:
            continue
        try:
            obj, _ = dec.raw_decode(line[at:])
        except ValueError as e:
            yield lineno, e
            continue
        yield lineno, obj


def find_dumps(text, source="input"):
    """Every dump object in text, in order."""
    out = []
    for lineno, obj in tool_objects(text, '{"tool":"d1lat-dump"'):
        if isinstance(obj, ValueError):
            raise DumpError("%s:%d: bad dump line: %s" % (source, lineno, obj))
        out.append(obj)
    return out


def report(obj):
    """The report as a dict (what d1lat_compare.py reads)."""
    return json.loads(report_line(obj))


def main(argv):
    paths = argv or ["-"]
    found = 0
    try:
        for p in paths:
            if p == "-":
                text = sys.stdin.read()
            else:
                with open(p, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            for obj in find_dumps(text, p):
                sys.stdout.write(report_line(obj))
                found += 1
    except (DumpError, OSError) as e:
        print("d1lat_dump: %s" % e, file=sys.stderr)
        return 2
    if found == 0:
        print("d1lat_dump: no d1lat-dump lines found", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
