# SPDX-License-Identifier: Apache-2.0
"""C source as the tree's checkers read it (tests/check_bench_core.py,
tests/check_ports_glue.py): comments removed, line numbers kept."""
import re


def strip_c_comments(text):
    """@text without /* */ and // comments; a block comment keeps its line
    breaks, so that offsets still give the right line numbers."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)
