#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""d1lat_range.py: three baseline texts, one table of p50s in ns."""
import contextlib
import io
import os
import tempfile
import unittest

import d1lat_range

FAST = ("nuttx allwinner-d1 idle timer-irq samples=20000 missed=0 p50=6 p99=6 p99.9=6 (counts)\n"
        "nuttx allwinner-d1 idle clock-read (clock_gettime) samples=20000 missed=0 p50=150 "
        "p99=151 p99.9=152 (counts of 3072000000 Hz)\n")
DEFAULT = FAST.replace("p50=6 ", "p50=13 ").replace("p50=150 ", "p50=195 ")
SLOW = FAST.replace("p50=6 ", "p50=44 ").replace("p50=150 ", "p50=300 ").replace(
    "missed=0 p50=44", "missed=3 p50=44")


class Range(unittest.TestCase):
    def run_tool(self, *texts):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, t in enumerate(texts):
                p = os.path.join(d, f"{i}.txt")
                with open(p, "w") as f:
                    f.write(t)
                paths.append(p)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = d1lat_range.main(paths)
            return rc, out.getvalue() + err.getvalue()

    def test_rows_in_ns_and_the_spread(self):
        rc, out = self.run_tool(FAST, DEFAULT, SLOW)
        self.assertEqual(rc, 0, out)
        # 6, 13, 44 counts of 24 MHz; 150, 195, 300 counts of 3.072 GHz
        self.assertIn("| nuttx allwinner-d1 idle timer-irq | 250.0 | 541.7 | 1,833.3 (3 missed) "
                      "| 7.33 |", out)
        self.assertIn("| nuttx allwinner-d1 idle clock-read (clock_gettime) | 48.8 | 63.5 | "
                      "97.7 | 2.00 |", out)
        self.assertIn("not the board", out)

    def test_a_row_missing_from_a_run_is_said(self):
        rc, out = self.run_tool(FAST, DEFAULT, SLOW.splitlines(True)[0])
        self.assertEqual(rc, 1)
        self.assertIn("Not in every run: nuttx allwinner-d1 idle clock-read (clock_gettime).", out)

    def test_an_empty_run_fails(self):
        rc, out = self.run_tool(FAST, "", SLOW)
        self.assertEqual(rc, 1)
        self.assertIn("no rows in", out)


if __name__ == "__main__":
    unittest.main()
