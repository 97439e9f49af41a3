# SPDX-License-Identifier: Apache-2.0
"""bench/tools/d1lat_comparison.py: rows per OS x load x measurement, every bad
input named (never dropped or averaged in), hardware rows apart, and the
baseline check's diff. Inputs: bench/tools/testdata (report lines of format 3)
and lines made here."""
import contextlib
import io
import json
import os
import tempfile
import unittest

import d1lat_comparison

HERE = os.path.dirname(os.path.abspath(__file__))
SERIAL = os.path.join(HERE, "testdata", "serial_log.txt")


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


class Comparison(unittest.TestCase):
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
        rc, out = self.run_tool("nuttx=!scripts/nuttx.sh failed before its bench",
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


if __name__ == "__main__":
    unittest.main()
