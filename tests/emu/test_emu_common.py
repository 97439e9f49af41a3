#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/emu/emu_common.py's machine argument: D1_EMU_TIMING selects
instruction time, the timing mode, or one of its corners; the corners'
values are the ends of the ranges in the emulator's own parameter table,
and any other value is refused."""
import os
import re
import unittest
from unittest import mock

import emu_common


class Machine(unittest.TestCase):
    def machine(self, value):
        with mock.patch.dict(os.environ, {"D1_EMU_TIMING": value}):
            return emu_common.d1_machine(), emu_common.time_unit()

    def test_modes(self):
        self.assertEqual(self.machine(""), ("allwinner-d1", "instruction time"))
        self.assertEqual(self.machine("c906"),
                         ("allwinner-d1,timing=c906", "modelled C906 time"))
        with mock.patch.dict(os.environ, {"D1_EMU_TIMING": "c907"}), \
                self.assertRaises(SystemExit) as e:
            emu_common.d1_machine()
        self.assertIn("c907", str(e.exception))

    def test_corners_from_the_model_table(self):
        table = dict((m[0], (int(m[2]), int(m[3]))) for m in re.findall(
            r'\{\s*"([a-z0-9-]+)",\s*(\d+),\s*(\d+),\s*(\d+)',
            emu_common.C906_SOURCE.read_text()))
        for corner, fast in (("c906-fast", True), ("c906-slow", False)):
            m, unit = self.machine(corner)
            self.assertEqual(unit, "modelled C906 time")
            self.assertTrue(m.startswith("allwinner-d1,timing=c906,"), m)
            got = dict(kv.split("=") for kv in m.split(",")[2:])
            self.assertEqual(sorted(got), sorted("c906-" + p for p in emu_common.C906_ESTIMATES))
            for p in emu_common.C906_ESTIMATES:
                lo, hi = table[p]
                small = fast != (p == "jtlb-entries")
                self.assertEqual(int(got["c906-" + p]), lo if small else hi, (corner, p))
        # the table read is the model's (two rows as docs/emulator.md gives them)
        self.assertEqual(table["dram-ns"], (60, 300))
        self.assertEqual(table["jtlb-entries"], (64, 512))


if __name__ == "__main__":
    unittest.main()
