# SPDX-License-Identifier: Apache-2.0
"""bench/tools/d1lat_comparison.py: rows per OS x load x measurement, every bad
input named (never dropped or averaged in), hardware rows apart, and the
baseline check's diff. Inputs: bench/tools/testdata (report lines of format 3)
and lines made here."""
import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import unittest

import d1lat_comparison

HERE = os.path.dirname(os.path.abspath(__file__))
SERIAL = os.path.join(HERE, "testdata", "serial_log.txt")
REFERENCE = os.path.join(HERE, "..", "..", "docs", "comparison-reference.json")
SERVICES = ["clock-read", "mutex-handoff", "semaphore-handoff", "thread-create"]


def line_of(osname, **over):
    """A format-3 report line of @osname, taken from the test log."""
    with open(SERIAL) as f:
        for line in f:
            at = line.find('{"tool":"d1lat"')
            if at >= 0:
                obj = json.loads(line[at:])
                obj["os"] = osname
                obj.update(over)
                return json.dumps(obj, separators=(",", ":"))
    raise AssertionError("no report line in " + SERIAL)


class ToolCase(unittest.TestCase):
    """A temporary directory for inputs, and the tool run in-process."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        p = os.path.join(self.dir.name, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def run_tool(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = d1lat_comparison.main(list(args))
        return rc, out.getvalue()


class Comparison(ToolCase):
    def test_rows_and_a_not_run_os(self):
        nx = self.write("nx.log", "boot\n" + line_of("nuttx") + "\n"
                        + line_of("nuttx", measurement="task-wakeup", wake="semaphore") + "\n")
        rc, out = self.run_tool("nuttx=" + nx, "rtthread=!no RT-Thread tree here")
        self.assertEqual(rc, 0, out)
        self.assertIn("| nuttx | lichee-rv-86 | none | timer-irq |", out)
        self.assertIn("| nuttx | lichee-rv-86 | none | task-wakeup (semaphore) |", out)
        self.assertIn("| rtthread | - | - | not run: no RT-Thread tree here |", out)
        self.assertIn("instruction time", out)

    def test_bad_input_is_named_and_fails(self):
        old = line_of("nuttx").replace('"format":3', '"format":2')
        cut = line_of("nuttx")[:80]
        nx = self.write("nx.log", old + "\n" + cut + "\n")
        empty = self.write("rt.log", "msh />\n")
        many = self.write("bm.log", line_of("baremetal", missed=5, samples=19995) + "\n")
        other = self.write("lx.log", line_of("linux") + "\n")
        rc, out = self.run_tool("nuttx=" + nx, "rtthread=" + empty, "baremetal=" + many,
                                "rtsmart=" + other)
        self.assertEqual(rc, 1)
        self.assertIn("d1lat format 2, expected 3", out)
        self.assertIn("cut short", out)
        self.assertIn("rt.log: no report line (the bench printed nothing)", out)
        self.assertIn("5 missed periods (threshold 0)", out)
        self.assertIn("**missed above threshold**", out)
        self.assertIn("a report of os 'linux' where 'rtsmart' was expected", out)
        self.assertNotIn("| rtsmart | lichee", out)

    def test_hardware_rows_apart(self):
        emu = self.write("nx.log", line_of("nuttx") + "\n")
        hw = self.write("board.log", line_of("nuttx", p50_ns=542.0) + "\n")
        rc, out = self.run_tool("nuttx=" + emu, "hw:nuttx=" + hw)
        self.assertEqual(rc, 0, out)
        head, _, tail = out.partition("Hardware (logs saved from a board")
        self.assertTrue(tail, out)
        self.assertEqual(head.count("| nuttx |"), 1)
        self.assertIn("| 0.542 |", tail)

    def test_two_wake_ups_of_one_os_are_two_baseline_rows(self):
        """A kernel thread's and a user process's task wake-up on the same OS
        and load: each its own row and baseline line, by its wake mechanism."""
        rs = self.write("rs.log", line_of("rtsmart", measurement="task-wakeup",
                                          wake="semaphore", p50_ns=2000.0) + "\n"
                        + line_of("rtsmart", measurement="task-wakeup",
                                  wake="read, user process", p50_ns=4500.0) + "\n")
        base = os.path.join(self.dir.name, "base.txt")
        rc, out = self.run_tool("rtsmart=" + rs, "--baseline-out", base)
        self.assertEqual(rc, 0, out)
        self.assertIn("| task-wakeup (semaphore) |", out)
        self.assertIn("| task-wakeup (read, user process) |", out)
        with open(base) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 2, lines)
        self.assertTrue(lines[0].startswith("rtsmart lichee-rv-86 none task-wakeup (read, user "
                                            "process) samples="), lines)
        self.assertTrue(lines[1].startswith("rtsmart lichee-rv-86 none task-wakeup (semaphore) "
                                            "samples="), lines)

    def test_bench_cost_column(self):
        """The bench's own cost is a column of its own: min..max, one figure
        when they agree, "-" where the bench did not measure it."""
        rs = self.write("rs.log", line_of("rtsmart", bench_instr_min=131, bench_instr_max=140)
                        + "\n" + line_of("rtsmart", measurement="task-wakeup", wake="semaphore",
                                          bench_instr_min=131, bench_instr_max=131) + "\n")
        nx = self.write("nx.log", line_of("nuttx") + "\n")
        rc, out = self.run_tool("rtsmart=" + rs, "nuttx=" + nx)
        self.assertEqual(rc, 0, out)
        self.assertIn("| bench instr |", out)
        rows = [ln for ln in out.splitlines() if ln.startswith("| rtsmart") or
                ln.startswith("| nuttx")]
        self.assertTrue(any(ln.endswith("| 131..140 |") for ln in rows), rows)
        self.assertTrue(any(ln.endswith("| 131 |") for ln in rows), rows)
        self.assertTrue(any(ln.startswith("| nuttx") and ln.endswith("| - |") for ln in rows),
                        rows)

    def test_baseline_check_shows_a_diff(self):
        nx = self.write("nx.log", line_of("nuttx") + "\n")
        base = os.path.join(self.dir.name, "base.txt")
        rc, _ = self.run_tool("nuttx=" + nx, "--baseline-out", base)
        self.assertEqual(rc, 0)
        rc, out = self.run_tool("nuttx=" + nx, "--check", base)
        self.assertEqual(rc, 0, out)
        self.assertIn("identical to", out)
        nx2 = self.write("nx2.log", line_of("nuttx", p50_ns=float(json.loads(line_of("nuttx"))
                                                                   ["p50_ns"]) + 41.667) + "\n")
        rc, out = self.run_tool("nuttx=" + nx2, "--check", base)
        self.assertEqual(rc, 1)
        self.assertIn("-nuttx", out)
        self.assertIn("+nuttx", out)

    def test_skipped_os_left_out_of_the_baseline_failed_one_not(self):
        nx = self.write("nx.log", line_of("nuttx") + "\n")
        bm = self.write("bm.log", line_of("baremetal") + "\n")
        base = os.path.join(self.dir.name, "base.txt")
        rc, _ = self.run_tool("nuttx=" + nx, "baremetal=" + bm, "--baseline-out", base)
        self.assertEqual(rc, 0)
        rc, out = self.run_tool("nuttx=!skipped: no nuttx tree", "baremetal=" + bm,
                                "--check", base)
        self.assertEqual(rc, 0, out)
        self.assertIn("not compared with the baseline (skipped here): nuttx", out)
        rc, out = self.run_tool("nuttx=!scripts/os/nuttx.sh failed before its bench",
                                "baremetal=" + bm, "--check", base)
        self.assertEqual(rc, 1, out)

    def test_unchecked_os_in_the_table_not_the_baseline(self):
        nx = self.write("nx.log", line_of("nuttx") + "\n")
        lx = self.write("lx.log", line_of("linux") + "\n")
        base = os.path.join(self.dir.name, "base.txt")
        rc, out = self.run_tool("nuttx=" + nx, "linux=" + lx, "--unchecked", "linux",
                                "--baseline-out", base)
        self.assertEqual(rc, 0, out)
        self.assertIn("| linux |", out)
        self.assertIn("Not in the baseline", out)
        with open(base) as f:
            text = f.read()
        self.assertIn("nuttx", text)
        self.assertNotIn("linux", text)
        lx2 = self.write("lx2.log", line_of("linux", p50_ns=99999.0) + "\n")
        rc, out = self.run_tool("nuttx=" + nx, "linux=" + lx2, "--unchecked", "linux",
                                "--check", base)
        self.assertEqual(rc, 0, out)
        rc, out = self.run_tool("nuttx=" + nx, "linux=" + lx2, "--check", base)
        self.assertEqual(rc, 1, out)


def reference():
    with open(REFERENCE) as f:
        return json.load(f)


def ref_table(out):
    """{(os, measurement, scheduler): cells} of the published table in @out."""
    _, _, tail = out.partition("Published board figures (hardware")
    tail = tail.partition("Modelled C906 time against the board")[0]
    lines = [ln for ln in tail.splitlines() if ln.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for ln in lines[1:]:
        cells = dict(zip(head, [c.strip() for c in re.split(r"(?<!\\)\|", ln.strip("|"))]))
        rows[(cells["OS"], cells["measurement"], cells["scheduler"])] = cells
    return head, rows


class Reference(ToolCase):
    """docs/comparison-reference.json: the published board figures, every
    row with its conditions, and their table beside the emulated one."""

    def test_the_json_holds_every_published_row(self):
        ref = reference()
        self.assertEqual(ref["SPDX-License-Identifier"], "Apache-2.0")
        self.assertIn("methodology", ref["source"])
        self.assertIn("not available here", ref["source"])
        rows = ref["rows"]
        for r in rows:
            for k in ("os", "measurement", "scheduler", "load", "conditions"):
                self.assertIsInstance(r.get(k), str, (k, r))
            self.assertIn(r["measurement"], d1lat_comparison.MEASURED + SERVICES, r)
        by = {(r["os"], r["measurement"], r["scheduler"]): r for r in rows}
        # every service on every OS: 3 x 4 rows, clock-read a per-call cost
        for o in ("linux", "rtsmart", "nuttx"):
            for m in SERVICES:
                got = [r for r in rows if (r["os"], r["measurement"]) == (o, m)]
                self.assertEqual(len(got), 1, (o, m))
                self.assertIn("per_call_ns" if m == "clock-read" else "p50_us", got[0])
        self.assertEqual(by[("linux", "clock-read", "not stated")]["per_call_ns"], 121.28)
        self.assertEqual(by[("nuttx", "clock-read", "not stated")]["per_call_ns"], 51.606)
        self.assertTrue(by[("rtsmart", "clock-read", "not stated")]["approximate"])
        self.assertEqual(by[("rtsmart", "thread-create", "not stated")]["p50_us"], 1063.958)
        # the periodic wake-up: a task's, not the timer interrupt's
        self.assertFalse([r for r in rows if r["measurement"] == "timer-irq"])
        nx = by[("nuttx", "task-wakeup", "FIFO 120 periodic task")]
        self.assertEqual((nx["samples"], nx["missed"], nx["p50_us"], nx["p99_us"], nx["p999_us"],
                          nx["max_us"]), (20000, 0, 0.542, 0.583, 0.708, 0.708))
        self.assertIn("FIFO 90", nx["load"])
        lx = by[("linux", "task-wakeup", "SCHED_FIFO 80")]
        self.assertEqual((lx["missed"], lx["p50_us"], lx["p99_us"], lx["p999_us"], lx["max_us"]),
                         (0, 64.09, 76.51, 94.22, 228.72))
        self.assertEqual(by[("linux", "task-wakeup", "SCHED_OTHER (CFS)")]["missed_percent"], 6.42)
        rs = [r for r in rows if (r["os"], r["measurement"]) == ("rtsmart", "task-wakeup")]
        self.assertEqual(len(rs), 1)
        self.assertIn("100 Hz", rs[0]["note"])
        self.assertFalse([k for k in rs[0] if k.endswith("_us") and k != "period_us"])

    def test_time_csr_figures_are_whole_24mhz_counts(self):
        """Figures said to be read from the time CSR are whole counts (to the
        published 3 decimals); Linux's wake-up figures are not."""
        marked = 0
        for r in reference()["rows"]:
            figs = [r[k] for k in ("p50_us", "p99_us", "p999_us", "max_us") if k in r]
            # published to 0.001 us, rounded or cut (21.666 us = 520 counts)
            whole = [abs(v * 24 - round(v * 24)) <= 0.001 * 24 + 1e-9 for v in figs]
            if r.get("time_csr_counts"):
                marked += 1
                self.assertTrue(figs and all(whole), r)
            elif r["os"] == "linux" and figs:
                self.assertFalse(all(whole), r)
        self.assertEqual(marked, 10)  # NuttX's wake-up and the nine medians

    def run_with_reference(self, *extra):
        nx = self.write("nx.log", line_of("nuttx", load="idle") + "\n"
                        + line_of("nuttx", measurement="task-wakeup", wake="semaphore",
                                  load="memcpy+uart") + "\n")
        return self.run_tool("nuttx=" + nx, *extra, "--reference", REFERENCE)

    def test_reference_table_beside_the_emulated_one(self):
        rc, out = self.run_with_reference("linux=!skipped: no kernel here")
        self.assertEqual(rc, 0, out)
        emu, _, pub = out.partition("Published board figures")
        self.assertTrue(pub, out)
        self.assertIn("| nuttx | lichee-rv-86 | idle | timer-irq |", emu)
        self.assertNotIn("| nuttx | lichee-rv-86", pub)
        head, rows = ref_table(out)
        self.assertIn("emulated rows here", head)
        self.assertIn("conditions", head)
        self.assertEqual(len(rows), len(reference()["rows"]))
        nx = rows[("nuttx", "task-wakeup", "FIFO 120 periodic task")]
        self.assertEqual(nx["emulated rows here"], "nuttx task-wakeup (semaphore): memcpy+uart")
        self.assertEqual((nx["p50 us"], nx["p99 us"], nx["p99.9 us"], nx["max us"]),
                         ("0.542", "0.583", "0.708", "0.708"))
        self.assertEqual(rows[("linux", "task-wakeup", "SCHED_FIFO 80")]["emulated rows here"],
                         "none in this run (linux not run)")
        self.assertEqual(rows[("linux", "task-wakeup", "SCHED_OTHER (CFS)")]["missed"],
                         "6.42 % of periods")
        self.assertIn("100 Hz", rows[("rtsmart", "task-wakeup", "not stated")]["conditions"])
        self.assertEqual(rows[("rtsmart", "task-wakeup", "not stated")]["p50 us"], "-")
        for (o, m, _), cells in rows.items():
            if m in SERVICES:
                want = {"linux": "none in this run (linux not run)",
                        "rtsmart": 'none in this run: no user-process row (docs/comparison.md '
                                   '"Not yet")'}.get(o, "none in this run")
                self.assertEqual(cells["emulated rows here"], want, (o, m))
        self.assertEqual(rows[("linux", "clock-read", "not stated")]["per call"], "121.28 ns")
        self.assertEqual(rows[("rtsmart", "clock-read", "not stated")]["per call"],
                         "about 10.7 us")
        self.assertEqual(rows[("nuttx", "mutex-handoff", "not stated")]["p50 us"], "1.042")
        self.assertNotIn(("nuttx", "timer-irq"), {(o, m) for o, m, _ in rows})

    def test_services_beside_their_published_figures(self):
        """Service rows go to a table of their own, in ns, each beside the
        published figure of its OS and measurement (p50, or clock-read's
        per-call cost); clock-read's baseline counts name their clock."""
        nx = self.write("nx.log", "\n".join([
            line_of("nuttx", measurement="clock-read", wake="clock_gettime", load="idle",
                    clock_hz=3072000000, p50_ns=58.919, p99_ns=59.2, p999_ns=60.9,
                    max_ns=65.8, period_ns=0),
            line_of("nuttx", measurement="mutex-handoff", wake="pthread_mutex", load="idle",
                    p50_ns=416.667, period_ns=0),
            line_of("nuttx", measurement="thread-create-join", wake="pthread_create",
                    load="idle", p50_ns=10166.667, period_ns=0)]) + "\n")
        base = os.path.join(self.dir.name, "base.txt")
        rc, out = self.run_tool("nuttx=" + nx, "--reference", REFERENCE, "--baseline-out", base)
        self.assertEqual(rc, 0, out)
        lat, _, svc = out.partition("OS services")
        self.assertNotIn("clock-read", lat)
        svc = svc.partition("Published board figures")[0]
        rows = {ln.split("|")[3].strip(): [c.strip() for c in ln.strip("|").split("|")]
                for ln in svc.splitlines() if ln.startswith("| nuttx")}
        self.assertEqual(rows["clock-read (clock_gettime)"][5], "58.9")
        self.assertEqual(rows["clock-read (clock_gettime)"][-1], "51.606")
        self.assertEqual(rows["mutex-handoff (pthread_mutex)"][-1], "1042")
        self.assertEqual(rows["thread-create-join (pthread_create)"][-1], "-")
        with open(base) as f:
            text = f.read()
        self.assertIn("clock-read (clock_gettime) samples=1000 missed=0 p50=181 p99=182 "
                      "p99.9=187 (counts of 3072000000 Hz)", text)
        self.assertIn("mutex-handoff (pthread_mutex) samples=1000 missed=0 p50=10 ", text)

    def test_timing_mode_ratios(self):
        """--timing c906: the C906 caveat once (never "instruction time"),
        cycles instead of instructions, and every row with a published
        counterpart beside it with modelled / published."""
        nx = self.write("nx.log", "\n".join([
            line_of("nuttx", measurement="task-wakeup", wake="semaphore", load="memcpy+uart",
                    p50_ns=1291.667),
            line_of("nuttx", measurement="mutex-handoff", wake="pthread_mutex", load="idle",
                    p50_ns=500.0, period_ns=0)]) + "\n")
        rc, out = self.run_tool("nuttx=" + nx, "--reference", REFERENCE, "--timing", "c906")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.count("modelled C906 time"), 1, out)
        self.assertNotIn("instruction time", out)
        self.assertIn("p50 cycles", out)
        _, _, ratios = out.partition("Modelled C906 time against the board")
        self.assertIn("| nuttx | lichee-rv-86 | task-wakeup (semaphore) | memcpy+uart | 1,291.7 | "
                      "542 (p50, FIFO 120 periodic task) | 2.38 |", ratios)
        self.assertIn("| nuttx | lichee-rv-86 | mutex-handoff (pthread_mutex) | idle | 500.0 | "
                      "1042 (p50, not stated) | 0.48 |", ratios)
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            d1lat_comparison.main(["nuttx=" + nx, "--timing", "c906", "--check", nx])
        d1lat_comparison.TIMING["mode"] = ""

    def test_linux_policies_apart_and_missed_percent(self):
        """Linux's SCHED_FIFO and SCHED_OTHER rows each correspond to the
        published row of their policy only; a periodic row's missed
        periods are also a percentage of its periods."""
        lx = self.write("lx.log", "\n".join([
            line_of("linux", measurement="task-wakeup", load="memcpy+uart",
                    wake="clock_nanosleep, SCHED_FIFO 80", samples=20000, missed=0,
                    period_ns=1000000),
            line_of("linux", measurement="task-wakeup", load="memcpy+uart",
                    wake="clock_nanosleep, SCHED_OTHER", samples=18716, missed=1284,
                    period_ns=1000000)]) + "\n")
        rc, out = self.run_tool("linux=" + lx, "--reference", REFERENCE, "--missed-max", "2000")
        self.assertEqual(rc, 0, out)
        self.assertIn("| 18716 | 1284 (6.42 %) |", out)
        self.assertIn("| 20000 | 0 (0.00 %) |", out)
        _, rows = ref_table(out)
        self.assertEqual(rows[("linux", "task-wakeup", "SCHED_FIFO 80")]["emulated rows here"],
                         "linux task-wakeup (clock_nanosleep, SCHED_FIFO 80): memcpy+uart")
        self.assertEqual(rows[("linux", "task-wakeup", "SCHED_OTHER (CFS)")]["emulated rows here"],
                         "linux task-wakeup (clock_nanosleep, SCHED_OTHER): memcpy+uart")

    def test_a_user_process_figure_against_user_process_rows_only(self):
        """RT-Smart's published services were taken in a user process: a
        kernel thread's row is not held against them."""
        rs = self.write("rs.log", line_of("rtsmart", measurement="mutex-handoff", wake="rt_mutex",
                                          load="idle", p50_ns=708.333, period_ns=0) + "\n")
        rc, out = self.run_tool("rtsmart=" + rs, "--reference", REFERENCE, "--timing", "c906")
        d1lat_comparison.TIMING["mode"] = ""
        self.assertEqual(rc, 0, out)
        _, rows = ref_table(out)
        cells = rows[("rtsmart", "mutex-handoff", "not stated")]
        self.assertIn("no user-process row", cells["emulated rows here"])
        self.assertTrue(cells["conditions"].startswith("user process"), cells)
        svc = out.partition("OS services")[2].partition("Published board figures")[0]
        self.assertIn("| rtsmart | idle | mutex-handoff (rt_mutex) |", svc)
        self.assertTrue(svc.rstrip().endswith("| - |"), svc)
        ratios = out.partition("Modelled C906 time against the board")[2]
        self.assertNotIn("| rtsmart |", ratios)

    def test_the_caveat_once(self):
        rc, out = self.run_with_reference()
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.count("instruction time"), 1, out)
        self.assertEqual(out.count("not C906 time"), 1, out)
        self.assertEqual(out.count("C906 latency"), 0, out)


ROW = dict(min_ns=100.0, p50_ns=200.0, p90_ns=300.0, p99_ns=400.0, p999_ns=500.0,
           p9999_ns=600.0, max_ns=700.0, tool="d1lat")


def panel_of(script):
    """[(title, [plot clause, ...])] of a multiplot script."""
    out, title = [], None
    text = script.replace("\\\n", "")
    for ln in text.splitlines():
        if ln.startswith("set title "):
            title = ln[len("set title "):]
        elif ln.startswith("plot "):
            out.append((title, re.split(r",\s+(?=\$d)", ln[5:])))
    return out


class Plot(unittest.TestCase):
    def rows(self):
        rows = []
        for o in d1lat_comparison.OS_ORDER:
            for load in ("idle", "memcpy+uart"):
                rows.append(dict(ROW, os=o, board="b", load=load, measurement="timer-irq",
                                 wake="none"))
                if o != "baremetal":
                    rows.append(dict(ROW, os=o, board="b", load=load, measurement="task-wakeup",
                                     wake="semaphore"))
        rows.append(dict(ROW, os="rtsmart", board="b", load="idle", measurement="task-wakeup",
                         wake="read, user process"))
        return rows

    def test_a_panel_per_measurement_and_load(self):
        script = d1lat_comparison.plot_script(self.rows(), [], reference(), "x.png", "t")
        panels = panel_of(script)
        self.assertEqual([t for t, _ in panels],
                         ["'timer-irq, load idle' noenhanced",
                          "'timer-irq, load memcpy+uart' noenhanced",
                          "'task-wakeup, load idle' noenhanced",
                          "'task-wakeup, load memcpy+uart' noenhanced"])
        self.assertEqual(len(re.findall(r"^set multiplot", script, re.M)), 1)
        # each curve in the panel of its measurement and load, once
        curves = [c for _, cs in panels for c in cs if "linespoints" in c]
        self.assertEqual(len(curves), len(self.rows()))

    def test_one_colour_per_os_in_every_panel(self):
        script = d1lat_comparison.plot_script(self.rows(), [], reference(), "x.png", "t")
        colours = {}
        for _, clauses in panel_of(script):
            for c in clauses:
                m = re.search(r"lc rgb '(#[0-9A-Fa-f]{6})'.* title '(published board: )?(\w+)", c)
                if m:
                    colours.setdefault(m.group(3), set()).add(m.group(1))
        self.assertEqual(set(colours), set(d1lat_comparison.OS_ORDER))
        for o, cs in colours.items():
            self.assertEqual(len(cs), 1, (o, cs))
        self.assertEqual(len({next(iter(cs)) for cs in colours.values()}), len(colours))
        # two rows of one OS in one panel: the same colour, another dash type
        idle_wake = dict(panel_of(script))["'task-wakeup, load idle' noenhanced"]
        rs = [c for c in idle_wake if "title 'rtsmart" in c]
        self.assertEqual(len(rs), 2)
        self.assertEqual(len({re.search(r"dt (\d+)", c).group(1) for c in rs}), 2)

    def test_published_points_in_the_matching_panel(self):
        script = d1lat_comparison.plot_script(self.rows(), [], reference(), "x.png", "t")
        panels = dict(panel_of(script))
        for title, clauses in panels.items():
            pub = [c for c in clauses if "published board" in c]
            if title == "'task-wakeup, load memcpy+uart' noenhanced":
                self.assertEqual(len(pub), 2, clauses)  # Linux FIFO 80, NuttX FIFO 120
                self.assertTrue(any("nuttx, FIFO 120" in c for c in pub))
                self.assertTrue(any("linux, SCHED_FIFO 80" in c for c in pub))
                self.assertTrue(all(d1lat_comparison.REF_POINT in c for c in pub))
            else:
                self.assertEqual(pub, [], title)
        # the NuttX points: p50, p99, p99.9, max at their x positions
        block = re.search(r"\$d(\d+) using 1:2 with points lc rgb '[^']+' %s title "
                          r"'published board: nuttx" % re.escape(d1lat_comparison.REF_POINT),
                          script)
        data = script.split("$d%s << EOD\n" % block.group(1))[1].split("EOD")[0].split()
        self.assertEqual(data, ["1", "0.542000", "3", "0.583000", "4", "0.708000",
                                "6", "0.708000"])

    def test_caveat_once_in_the_plot(self):
        script = d1lat_comparison.plot_script(self.rows(), [], reference(), "x.png", "t")
        self.assertEqual(script.count("not C906 time"), 1)
        # drawn with the first panel, then unset
        first_plot = script.index("\nplot ")
        self.assertLess(script.index("set label 2"), first_plot)
        self.assertGreater(script.index("unset label 2"), first_plot)

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot not installed (apt-get install "
                         "gnuplot-nox)")
    def test_png_from_the_tool(self):
        with tempfile.TemporaryDirectory() as d:
            logs = []
            for o in ("nuttx", "linux"):
                p = os.path.join(d, o + ".log")
                with open(p, "w") as f:
                    f.write(line_of(o, load="idle") + "\n"
                            + line_of(o, measurement="task-wakeup", wake="semaphore",
                                      load="memcpy+uart") + "\n")
                logs.append(f"{o}={p}")
            png = os.path.join(d, "c.png")
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                rc = d1lat_comparison.main(logs + ["--reference", REFERENCE, "--plot", png])
            self.assertEqual(rc, 0, out.getvalue())
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
