# SPDX-License-Identifier: Apache-2.0
"""bench/tools/d1lat_capture.py on a pseudo-terminal standing in for the board's
serial port: it stops after the report lines asked for, keeps everything
in the log, gives up after the silence allowed, and refuses a device it
cannot set up."""
import io
import os
import tempfile
import threading
import time
import unittest

import d1lat_capture

LINES = [b"boot banner\r\n", b'{"tool":"d1lat","format":3,"os":"nuttx"}\r\n',
         b"text report\r\n", b'{"tool":"d1lat-dump","format":2,"os":"baremetal"}\r\n',
         b"after\r\n"]


class Capture(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.log = os.path.join(self.dir.name, "board.log")

    def tearDown(self):
        os.close(self.master)
        os.close(self.slave)
        self.dir.cleanup()

    def feed(self, chunks, delay=0.3):
        def run():
            time.sleep(delay)
            for c in chunks:
                os.write(self.master, c)
                time.sleep(0.02)
        t = threading.Thread(target=run)
        t.start()
        return t

    def capture(self, reports, timeout):
        fd = d1lat_capture.open_port(self.path, 115200)
        try:
            with open(self.log, "wb") as out:
                return d1lat_capture.capture(fd, out, reports, timeout, echo=None)
        finally:
            os.close(fd)

    def test_stops_after_the_reports_and_keeps_everything(self):
        t = self.feed(LINES)
        got = self.capture(2, 5.0)
        t.join()
        self.assertEqual(got, 2)
        with open(self.log, "rb") as f:
            text = f.read()
        self.assertIn(b"boot banner", text)
        self.assertIn(b'"d1lat-dump"', text)

    def test_silence_ends_it_short(self):
        t = self.feed(LINES[:2])
        start = time.monotonic()
        got = self.capture(3, 1.0)
        t.join()
        self.assertEqual(got, 1)
        self.assertLess(time.monotonic() - start, 5.0)

    def test_bad_device_and_arguments(self):
        rc = d1lat_capture.main([os.path.join(self.dir.name, "no-such-tty"), "-o", self.log])
        self.assertEqual(rc, 2)
        rc = d1lat_capture.main([self.path, "-o", self.log, "--reports", "0"])
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
