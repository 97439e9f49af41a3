#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of d1lat_compare.py on sample inputs in testdata/.

Run: python3 -m unittest -v test_d1lat_compare   (from tools/)
The picture tests are skipped when gnuplot is not installed; the test that
gnuplot's absence is reported clearly always runs (it hides gnuplot).
"""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import d1lat_compare as dc  # noqa: E402

TOOL = os.path.join(HERE, "d1lat_compare.py")
DATA = os.path.join(HERE, "testdata")
SERIAL = os.path.join(DATA, "serial_log.txt")
CT = os.path.join(DATA, "cyclictest_h50.txt")
NOT_COMPARED = os.path.join(DATA, "not_compared.txt")
HAVE_GNUPLOT = shutil.which("gnuplot") is not None


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def run_tool(*args, env=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True,
                          text=True, env=e)


def ct_text(hist, overflows, mn, avg, mx):
    lines = ["# /dev/cpu_dma_latency set to 0us", "# Histogram"]
    for b in range(max(hist) + 3):
        lines.append("%06d %06d" % (b, hist.get(b, 0)))
    lines += ["# Total: %09d" % sum(hist.values()), "# Min Latencies: %05d" % mn,
              "# Avg Latencies: %05d" % avg, "# Max Latencies: %05d" % mx,
              "# Histogram Overflows: %05d" % overflows]
    return "\n".join(lines) + "\n"


class Reading(unittest.TestCase):
    def test_reports_found_in_a_serial_log(self):
        runs = dc.parse_reports(read(SERIAL), SERIAL)
        self.assertEqual([r["os"] for r in runs], ["baremetal", "nuttx", "linux"])
        self.assertEqual(runs[1]["approx_fields"], ["p999_ns", "mean_ns"])
        self.assertEqual([(r["measurement"], r["wake"]) for r in runs],
                         [("timer-irq", "none"), ("task-wakeup", "semaphore"),
                          ("task-wakeup", "clock_nanosleep")])

    def test_report_and_its_dump_are_one_run(self):
        # A device that prints both (the bare-metal bench, lat_report_demo:
        # testdata/report_and_dump.txt is that program's two lines) ran once.
        pair = read(os.path.join(HERE, "testdata", "report_and_dump.txt"))
        self.assertEqual(len(dc.parse_reports(pair)), 1)
        rep, dump = [ln for ln in pair.splitlines() if ln.startswith('{"tool"')]
        self.assertEqual(len(dc.parse_reports(dump + "\n" + rep + "\n")), 1)
        # Two runs that differ stay two, whatever their lines.
        other = dump.replace('"missed":2', '"missed":3')
        self.assertEqual(len(dc.parse_reports(rep + "\n" + other + "\n")), 2)
        self.assertEqual(len(dc.parse_reports(rep + "\n" + rep + "\n")), 2)
        self.assertEqual(len(dc.parse_reports(rep + "\n" + dump + "\n" + dump + "\n")), 2)
        # ... and so do two that differ only in what was measured.
        other = dump.replace('"measurement":"timer-irq"', '"measurement":"task-wakeup"')
        self.assertNotEqual(other, dump)
        self.assertEqual(len(dc.parse_reports(rep + "\n" + other + "\n")), 2)

    def test_bad_report_line_is_an_error(self):
        with self.assertRaises(dc.UsageError):
            dc.parse_reports('{"tool":"d1lat","os":"x", oops}\n')
        with self.assertRaises(dc.UsageError):
            dc.parse_reports('{"tool":"d1lat","format":3,"os":"x","samples":1}\n')  # fields

    def test_no_reports_exit_2(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("nothing here\n")
            f.flush()
            p = run_tool(f.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no d1lat report lines", p.stderr)


class Cyclictest(unittest.TestCase):
    def test_percentiles_from_histogram(self):
        rep = dc.from_cyclictest(read(CT), interval_us=1000, board="b", load="l")
        # 99 in the histogram + 1 overflow = 100 samples; nearest rank.
        self.assertEqual(rep["samples"], 100)
        self.assertEqual(rep["p50_ns"], 10000.0)   # rank 50: cum 50 at 10 us
        self.assertEqual(rep["p90_ns"], 12000.0)   # rank 90: cum 95 at 12 us
        self.assertEqual(rep["p99_ns"], 40000.0)   # rank 99: cum 99 at 40 us
        self.assertEqual(rep["p999_ns"], 250000.0)  # rank 100 = the max: exact
        self.assertEqual(rep["overflow_fields"], [])
        self.assertEqual(rep["min_ns"], 10000.0)
        self.assertEqual(rep["max_ns"], 250000.0)
        self.assertEqual(rep["mean_ns"], 14000.0)
        self.assertIsNone(rep["missed"])
        self.assertEqual(rep["period_ns"], 1000000)
        self.assertEqual(rep["above_range"], 1)
        # format 3, a task woken by clock_nanosleep() (cyclictest's own way)
        self.assertEqual((rep["format"], rep["measurement"], rep["wake"]),
                         (3, "task-wakeup", "clock_nanosleep"))

    def test_percentile_beyond_histogram_is_flagged(self):
        text = ct_text({5: 90, 6: 5}, overflows=5, mn=5, avg=9, mx=900)
        rep = dc.from_cyclictest(text)
        self.assertEqual(rep["samples"], 100)
        self.assertEqual(rep["p90_ns"], 5000.0)
        self.assertEqual(rep["p99_ns"], 900000.0)
        self.assertEqual(rep["overflow_fields"], ["p99_ns"])  # p99.9: rank 100 = max
        self.assertTrue(rep["overflow"])

    def test_threads_are_summed(self):
        text = ("000001 000003 000001\n000002 000000 000004\n# Total: 000000008\n"
                "# Min Latencies: 00001 00001\n# Avg Latencies: 00001 00002\n"
                "# Max Latencies: 00001 00002\n# Histogram Overflows: 00000 00000\n")
        rep = dc.from_cyclictest(text)
        self.assertEqual(rep["samples"], 8)
        self.assertEqual(rep["p50_ns"], 1000.0)  # rank 4 of 4 x 1 us, 4 x 2 us
        self.assertEqual(rep["max_ns"], 2000.0)
        self.assertEqual(rep["mean_ns"], 1500.0)

    def test_not_cyclictest_output(self):
        with self.assertRaises(dc.UsageError):
            dc.from_cyclictest("T: 0 ( 1) P:80 I:1000 C: 10 Min: 1 Act: 2 Avg: 3 Max: 4\n")

    def test_cli_line_parses_back(self):
        p = run_tool("--from-cyclictest", CT, "--interval-us", "1000", "--board", "vm")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 1)
        self.assertIn('"p50_ns":10000.000', p.stdout)
        self.assertIn('"format":3,', p.stdout)
        self.assertIn('"load":"none","measurement":"task-wakeup","wake":"clock_nanosleep",',
                      p.stdout)
        runs = dc.parse_reports(p.stdout)
        self.assertEqual(runs[0]["tool"], "cyclictest")
        self.assertEqual(runs[0]["board"], "vm")
        self.assertEqual(dc.label_of(runs[0]),
                         "linux cyclictest (vm, task-wakeup/clock_nanosleep, load none)")

    def test_line_reads_back_whatever_the_meta_text(self):
        # The line was written with ensure_ascii=False: U+2028, U+2029 and
        # U+0085 stayed raw, and parse_reports() (str.splitlines()) broke
        # the tool's own line there ("Unterminated string").
        for load in ("a\u2028b", "a\u2029b", "a\x85b", "caf\u00e9"):
            line = dc.dump_line(dc.from_cyclictest(read(CT), 1000, "b", load))
            runs = dc.parse_reports(line + "\n")
            self.assertEqual(runs[0]["load"], load)
            self.assertTrue(line.isascii(), line)  # as the C recorder's line


class Table(unittest.TestCase):
    def runs(self):
        rs = dc.parse_reports(read(SERIAL))
        rs.append(dc.from_cyclictest(read(CT), 1000))
        return rs

    def test_markdown_side_by_side(self):
        md = dc.markdown(self.runs(), "t")
        lines = md.splitlines()
        self.assertEqual(lines[0], "## t")
        header = [c.strip() for c in lines[2].strip("|").split("|")]
        self.assertEqual(header, ["", "baremetal d1lat (lichee-rv-86, timer-irq, load none)",
                                  "nuttx d1lat (lichee-rv-86, task-wakeup/semaphore, "
                                  "load hackbench)",
                                  "linux d1lat (x86_64, task-wakeup/clock_nanosleep, load none)",
                                  "linux cyclictest (task-wakeup/clock_nanosleep, load none)"])
        rows = {l.split("|")[1].strip(): [c.strip() for c in l.strip("|").split("|")[1:]]
                for l in lines[4:] if l.startswith("|")}
        self.assertEqual(rows["p50 (us)"], ["1.708", "3.000", "~40.000", "10.000"])
        self.assertEqual(rows["p99.9 (us)"], ["2.542", "~180.000", "90.000", "250.000"])
        self.assertEqual(rows["missed"], ["0", "2", "0", "n/a"])
        self.assertEqual(rows["resolution (us)"], ["0.042", "0.042", "0.001", "1.000"])
        self.assertEqual(rows["load"][1], "hackbench")
        self.assertEqual(rows["measurement"],
                         ["timer-irq", "task-wakeup", "task-wakeup", "task-wakeup"])
        self.assertEqual(rows["wake"], ["none", "semaphore", "clock_nanosleep",
                                        "clock_nanosleep"])
        self.assertNotIn("Not compared", md)

    def test_repeated_labels_are_numbered(self):
        rs = dc.parse_reports(read(SERIAL))
        labels = dc.unique_labels([rs[2], rs[0], rs[2]])
        lx = "linux d1lat (x86_64, task-wakeup/clock_nanosleep, load none)"
        self.assertEqual(labels, [lx + " #1", "baremetal d1lat (lichee-rv-86, timer-irq, "
                                  "load none)", lx + " #2"])

    def test_measurement_and_wake_in_labels(self):
        base = {"tool": "d1lat", "os": "nuttx", "board": "lichee-rv-86", "load": "idle"}
        irq = dict(base, measurement="timer-irq", wake="none")
        sem = dict(base, measurement="task-wakeup", wake="semaphore")
        sig = dict(base, measurement="task-wakeup", wake="signal")
        self.assertEqual(dc.label_of(irq), "nuttx d1lat (lichee-rv-86, timer-irq, load idle)")
        self.assertEqual(dc.label_of(sem),
                         "nuttx d1lat (lichee-rv-86, task-wakeup/semaphore, load idle)")
        # Runs that differ only in the measurement or the wake-up are told
        # apart by their labels, not numbered as one.
        self.assertEqual(dc.unique_labels([irq, sem, sig]),
                         [dc.label_of(irq), dc.label_of(sem), dc.label_of(sig)])
        self.assertEqual(len(set(dc.unique_labels([irq, sem, sig]))), 3)
        # What is unknown is left out.
        unk = dict(base, board="unknown", measurement="unknown", wake="unknown")
        self.assertEqual(dc.label_of(unk), "nuttx d1lat (load idle)")
        self.assertEqual(dc.label_of(dict(base, measurement="unknown", wake="event")),
                         "nuttx d1lat (lichee-rv-86, wake event, load idle)")



class Labels(unittest.TestCase):
    def test_labels_option(self):
        p = run_tool("--labels", "bm,nx,lx", SERIAL)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("| | bm | nx | lx |", p.stdout)
        p = run_tool("--labels", "one", SERIAL)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--labels has 1 names for 3 runs", p.stderr)


class Verdict(unittest.TestCase):
    def pair(self, a_us, b_us):
        a = {"tool": "d1lat", "p50_ns": a_us * 1000.0}
        b = {"tool": "cyclictest", "p50_ns": b_us * 1000.0}
        return [a, b]

    def test_agree_and_disagree(self):
        self.assertTrue(dc.verdict(self.pair(40, 55), 20, 0.5, 1000)[0])    # 15 <= 20
        self.assertTrue(dc.verdict(self.pair(100, 140), 20, 0.5, 1000)[0])  # 40 <= 70
        self.assertFalse(dc.verdict(self.pair(40, 85), 20, 0.5, 1000)[0])   # 45 > 42.5
        self.assertFalse(dc.verdict(self.pair(1500, 1600), 20, 0.5, 1000)[0])  # bound
        ok, text = dc.verdict(self.pair(40, 41), 20, 0.5, 1000)
        self.assertIn("VERDICT: AGREE", text)

    def test_cli_exit_codes(self):
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.json")
            with open(a, "w") as f:
                f.write(read(SERIAL))
            ct = run_tool("--from-cyclictest", CT).stdout
            b = os.path.join(d, "b.json")
            with open(b, "w") as f:
                f.write(ct)
            # baremetal d1lat p50 1.708 us vs cyclictest 10 us: within 20 us.
            p = run_tool("--verdict", a, b)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("VERDICT: AGREE", p.stdout)
            p = run_tool("--verdict", "--tol-abs-us", "1", "--tol-rel", "0.1", a, b)
            self.assertEqual(p.returncode, 1)
            self.assertIn("VERDICT: DISAGREE", p.stdout)
            p = run_tool("--verdict", a)
            self.assertEqual(p.returncode, 2)


class NotCompared(unittest.TestCase):
    """A line of another format, a line cut short and a run that printed
    nothing are named (file, line, the format found and the one expected),
    never dropped silently nor compared; they fail the verdict."""

    WANT = ["line 6: d1lat format 2, expected 3",
            "line 7: d1lat-dump format 1, expected 2: re-run with a current image",
            "line 8: cyclictest format 1, expected 3",
            "line 9: bad JSON report line (cut short?)"]

    def test_each_line_is_named(self):
        problems = []
        runs = dc.parse_reports(read(NOT_COMPARED), "nc.txt", problems)
        self.assertEqual(runs, [])
        self.assertEqual(len(problems), len(self.WANT), problems)
        for got, want in zip(problems, self.WANT):
            self.assertTrue(got.startswith("nc.txt: " + want), got)
        # Without a list to collect them: the first one is an error.
        with self.assertRaises(dc.UsageError) as cm:
            dc.parse_reports(read(NOT_COMPARED), "nc.txt")
        self.assertEqual(str(cm.exception), "nc.txt: " + self.WANT[0])

    def test_format_2_line_fails_the_verdict(self):
        old = [ln for ln in read(NOT_COMPARED).splitlines() if '"format":2' in ln][0]
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.txt")
            with open(a, "w") as f:
                f.write(read(SERIAL) + old + "\n")
            b = CT_JSON(d)
            p = run_tool("--verdict", a, b)
            # The medians agree (as in Verdict.test_cli_exit_codes) but a
            # line was not compared: the verdict fails, naming it.
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("%s: line 7: d1lat format 2, expected 3" % a, p.stdout)
            self.assertIn("VERDICT: FAIL (1 input(s) not compared)", p.stdout)
            self.assertNotIn("VERDICT: AGREE", p.stdout)
        agree, text = dc.verdict(dc.parse_reports(read(SERIAL)) +
                                 [dc.from_cyclictest(read(CT), 1000)],
                                 problems=["x: line 1: d1lat format 2, expected 3"])
        self.assertFalse(agree)
        self.assertIn("x: line 1: d1lat format 2, expected 3", text)

    def test_table_lists_what_was_not_compared(self):
        with tempfile.TemporaryDirectory() as d:
            empty = os.path.join(d, "empty.log")
            with open(empty, "w") as f:
                f.write("boot\nno report: the run printed nothing\n")
            md = os.path.join(d, "t.md")
            p = run_tool("-o", md, SERIAL, NOT_COMPARED, empty)
            self.assertEqual(p.returncode, dc.EXIT_NOT_COMPARED, p.stderr)
            text = read(md)
        lines = text.splitlines()
        # The three format 3 runs of the serial log only: nothing averaged in.
        self.assertEqual(lines[0].count(" d1lat ("), 3)
        self.assertNotIn("cyclictest", lines[0])
        self.assertIn("\nNot compared (5):\n", text)
        for want in self.WANT:
            self.assertIn("- %s: %s" % (NOT_COMPARED, want), text)
            self.assertIn("not compared: %s: %s" % (NOT_COMPARED, want), p.stderr)
        self.assertIn("- %s: no d1lat report line (the run printed nothing?)" % empty, text)

    def test_only_lines_not_compared(self):
        p = run_tool(NOT_COMPARED)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no d1lat report lines found in the input that could be compared",
                      p.stderr)
        self.assertIn("line 6: d1lat format 2, expected 3", p.stderr)


class Picture(unittest.TestCase):
    def test_missing_gnuplot_fails_clearly(self):
        with tempfile.TemporaryDirectory() as d:
            md = os.path.join(d, "t.md")
            png = os.path.join(d, "p.png")
            p = run_tool("-o", md, "--plot", png, SERIAL,
                         env={"D1LAT_GNUPLOT": os.path.join(d, "no-gnuplot")})
            self.assertEqual(p.returncode, dc.EXIT_NO_GNUPLOT)
            self.assertIn("gnuplot not found", p.stderr)
            self.assertIn("gnuplot-nox", p.stderr)
            self.assertTrue(os.path.exists(md))  # the table is still written
            self.assertFalse(os.path.exists(png))

    def test_bad_picture_name(self):
        p = run_tool("--plot", "x.gif", SERIAL)
        self.assertEqual(p.returncode, 2)

    def test_key_below_the_curves_for_many_runs(self):
        """26 runs on this tool's one axis: the key sits below the plot, not
        over the curves, the picture grows to hold one line per run, and runs
        that share a colour differ in dash type. (The comparison's table is
        drawn in panels by d1lat_comparison.py: test_d1lat_comparison.Plot.)"""
        runs = [dict(min_ns=100.0 * (i + 1), p50_ns=200.0, p90_ns=300.0, p99_ns=400.0,
                     p999_ns=500.0, p9999_ns=600.0, max_ns=700.0, os="os%d" % i,
                     label="run %d" % i) for i in range(26)]
        script = dc.plot_script(runs, "x.png", "t")
        key = [ln for ln in script.splitlines() if ln.startswith("set key")]
        self.assertEqual(len(key), 1, key)
        self.assertIn("below", key[0])
        self.assertNotIn("inside", key[0])
        m = re.search(r"size (\d+),(\d+)", script.splitlines()[0])
        self.assertIsNotNone(m)
        self.assertGreaterEqual(int(m.group(2)), 400 + 26 * 16, script.splitlines()[0])
        styles = re.findall(r"with linespoints lt (\d+) dt (\d+)", script)
        self.assertEqual(len(styles), 26)
        self.assertEqual(len(set(styles)), 26, styles)

    @unittest.skipUnless(HAVE_GNUPLOT, "gnuplot not installed (apt-get install gnuplot-nox)")
    def test_png(self):
        with tempfile.TemporaryDirectory() as d:
            png = os.path.join(d, "p.png")
            p = run_tool("-o", os.path.join(d, "t.md"), "--plot", png, SERIAL, CT_JSON(d))
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertGreater(os.path.getsize(png), 5000)

    @unittest.skipUnless(HAVE_GNUPLOT, "gnuplot not installed (apt-get install gnuplot-nox)")
    def test_svg_names_every_run(self):
        with tempfile.TemporaryDirectory() as d:
            svg = os.path.join(d, "p.svg")
            p = run_tool("-o", os.path.join(d, "t.md"), "--plot", svg, SERIAL)
            self.assertEqual(p.returncode, 0, p.stderr)
            text = read(svg)
            self.assertIn("<svg", text)
            for name in ("baremetal d1lat", "nuttx d1lat", "linux d1lat", "p99.99"):
                self.assertIn(name, text)

    @unittest.skipUnless(HAVE_GNUPLOT, "gnuplot not installed (apt-get install gnuplot-nox)")
    def test_non_ascii_path_title_and_labels(self):
        # Strings went to gnuplot as JSON (json.dumps): gnuplot does not know
        # \uXXXX, so "café.svg" was written as "cafu00e9.svg" (exit 1,
        # "gnuplot failed") and "µs" was drawn as "u00b5s".
        with tempfile.TemporaryDirectory() as d:
            svg = os.path.join(d, "caf\u00e9.svg")
            p = run_tool("-o", os.path.join(d, "t.md"), "--plot", svg, "--title",
                         "latency in \u00b5s, 'quoted' \"too\"", "--labels",
                         "bare m\u00e9tal,nuttx,linux \\ x86", SERIAL)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(os.path.exists(svg), os.listdir(d))
            text = read(svg)
            for name in ("latency in \u00b5s", "bare m\u00e9tal", "linux \\ x86"):
                self.assertIn(name, text)
            self.assertNotIn("u00", text)



def CT_JSON(d):
    path = os.path.join(d, "ct.json")
    with open(path, "w") as f:
        f.write(dc.dump_line(dc.from_cyclictest(read(CT), 1000)) + "\n")
    return path



import d1lat_dump as dd  # noqa: E402

DUMP_TOOL = os.path.join(HERE, "d1lat_dump.py")


def dump_line(bins, mx, lost=0, missed=0, hz=24000000, os_name="baremetal"):
    flat = []
    for i in sorted(bins):
        flat += [i, bins[i]]
    return json.dumps({"tool": "d1lat-dump", "format": 2, "os": os_name, "board": "b",
                       "load": "l", "measurement": "task-wakeup", "wake": "event",
                       "period_ns": 1000000, "clock_hz": hz,
                       "layout": [10, 6, 15], "lost": lost, "missed": missed, "max": mx,
                       "bins": flat}, separators=(",", ":"))


class Dump(unittest.TestCase):
    def test_layout_tiles(self):
        L = dd.Layout(10, 6, 15)
        nxt = 0
        for i in range(L.nbins + 1):
            lo, hi = L.bounds(i)
            self.assertEqual(lo, nxt)
            self.assertEqual(L.index(lo), i)
            self.assertEqual(L.index(hi), i)
            nxt = hi + 1
        self.assertEqual(nxt, 2**32)
        self.assertEqual(L.index(5000), 1166)  # the C test's figure

    def test_report_values(self):
        # 100 samples of 10 counts, one of 5000 (bucket [4992, 5055]), one above the top.
        L = dd.Layout(10, 6, 15)
        bins = {10: 100, L.index(5000): 1, L.overflow: 1}
        rep = dd.report(json.loads(dump_line(bins, 2**26, lost=2, missed=3)))
        self.assertEqual(rep["samples"], 104)  # held + lost
        self.assertEqual(rep["missed"], 3)
        self.assertEqual(rep["saturated"], 2)
        self.assertEqual(rep["p50_ns"], 416.667)  # 10 counts, exact
        self.assertEqual(rep["max_ns"], round(2**26 * 1e9 / 24e6, 3))
        self.assertEqual(rep["above_exact"], 2)
        self.assertEqual(rep["above_top"], 1)
        self.assertIn("mean_ns", rep["approx_fields"])
        self.assertNotIn("p50_ns", rep["approx_fields"])

    def test_serial_log_dump_becomes_a_report(self):
        text = "boot...\n[  1.0] " + dump_line({40: 3, 41: 1}, 41) + "\nBENCH DONE\n"
        runs = dc.parse_reports(text)
        self.assertEqual(len(runs), 1)
        self.assertEqual(runs[0]["tool"], "d1lat")
        self.assertEqual(runs[0]["samples"], 4)
        self.assertEqual(runs[0]["p50_ns"], 1666.667)
        self.assertEqual(runs[0]["max_ns"], 1708.333)
        self.assertEqual((runs[0]["format"], runs[0]["measurement"], runs[0]["wake"]),
                         (3, "task-wakeup", "event"))
        # Bucket estimates are marked "~" in the table.
        L = dd.Layout(10, 6, 15)
        runs = dc.parse_reports(dump_line({L.index(5000): 3}, 5003) + "\n")
        self.assertIn("p50_ns", runs[0]["approx_fields"])
        self.assertIn("| p50 (us) | ~", dc.markdown(runs))

    def test_bad_dumps(self):
        good = json.loads(dump_line({1: 1}, 1))
        for k, v in (("layout", [10, 6]), ("bins", [1]), ("bins", [5000, 1]),
                     ("bins", [1, 0]), ("clock_hz", 10), ("max", -1), ("format", 1),
                     ("format", 3), ("format", "2"), ("measurement", 5), ("wake", None)):
            bad = dict(good)
            bad[k] = v
            with self.assertRaises(dd.DumpError):
                dd.report_line(bad)
        with self.assertRaises(dc.UsageError):
            dc.parse_reports('{"tool":"d1lat-dump","format":2}\n')

    def test_other_dump_format_names_both(self):
        old = json.loads(dump_line({1: 1}, 1))
        old["format"] = 1
        with self.assertRaises(dd.DumpError) as cm:
            dd.decode(old)
        self.assertEqual(str(cm.exception),
                         "dump format 1, expected 2: re-run with a current image")
        line = json.dumps(old, separators=(",", ":")) + "\n"
        p = subprocess.run([sys.executable, DUMP_TOOL, "-"], input=line, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("dump format 1, expected 2", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_cli(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("x " + dump_line({7: 2}, 7) + "\n")
            f.flush()
            p = subprocess.run([sys.executable, DUMP_TOOL, f.name], capture_output=True,
                               text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        rep = json.loads(p.stdout)
        self.assertEqual((rep["tool"], rep["format"], rep["samples"]), ("d1lat", 3, 2))
        self.assertEqual(list(rep)[8:11], ["load", "measurement", "wake"])
        p = subprocess.run([sys.executable, DUMP_TOOL, "-"], input="nothing\n",
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


class DumpBadInput(unittest.TestCase):
    """Dumps that d1_lat_dump() cannot write must be refused with DumpError
    (the CLI: exit 2 and a one-line message), not decoded into a report or
    crashing with a Python traceback."""

    def test_bad_layout_is_a_dump_error(self):
        # [3, 6, 2]: exact_log2 < sub_log2 -> a negative shift in Layout.bounds().
        for lay in ([3, 6, 2], [-1, 6, 15], [10, 6, 16]):
            bad = json.loads(dump_line({1: 1}, 1))
            bad["layout"] = lay
            with self.assertRaises(dd.DumpError, msg="layout %r" % (lay,)):
                dd.report_line(bad)

    def test_non_string_meta_is_a_dump_error(self):
        for v in (5, None, ["x"]):
            bad = json.loads(dump_line({1: 1}, 1))
            bad["os"] = v
            with self.assertRaises(dd.DumpError, msg="os %r" % (v,)):
                dd.report_line(bad)

    def test_max_inconsistent_with_bins_is_a_dump_error(self):
        L = dd.Layout(10, 6, 15)
        # A sample in bucket [4992, 5055] but max 5 (a digit lost on the
        # serial line, or a dump read while the ISR records): the decoder
        # reports p9999 = max = 5 counts, unflagged, as if exact.
        for mx in (5, 2**32, True):
            bad = json.loads(dump_line({1: 1, L.index(5000): 1}, 5000))
            bad["max"] = mx
            with self.assertRaises(dd.DumpError, msg="max %r" % (mx,)):
                dd.report_line(bad)

    def test_cli_bad_layout_exits_2(self):
        bad = json.loads(dump_line({10: 1}, 10))  # bin 10 is above [3, 6, 2]'s exact bins
        bad["layout"] = [3, 6, 2]
        line = json.dumps(bad, separators=(",", ":")) + "\n"
        p = subprocess.run([sys.executable, DUMP_TOOL, "-"], input=line, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn("Traceback", p.stderr)


if __name__ == "__main__":
    unittest.main()
