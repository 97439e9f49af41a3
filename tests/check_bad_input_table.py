#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bad-input table is complete and agrees with the headers.

Checks (each failure is printed; any failure exits 1):
  1. every function declared in include/d1/*.h (static inline ones included)
     has at least one row in tests/bad_input_table.h, RUN or LIST;
  2. every row names a function that is declared (no stale rows);
  3. every RUN row that expects a D1_E* code names a code the function's
     Doxygen comment documents (its own, plus the comment of any function
     its text refers to as "As d1_...()");
  4. row ids are unique and LIST rows give a reason.

Built as a step of the default build (tests/CMakeLists.txt): the build, and
so test_bad_input, fails when a public function is added without a row.

Usage: check_bad_input_table.py <include/d1 dir> <table> [--stamp FILE]
"""
import argparse
import os
import re
import sys

# A declaration: optional "static inline", a return type, the d1_ name, "(".
DECL = re.compile(r"^(?:static\s+inline\s+)?[A-Za-z_][\w \*]*?\b(d1_[a-z0-9_]+)\s*\(", re.M)
DOC = re.compile(r"/\*\*(.*?)\*/", re.S)
ERR = re.compile(r"\bD1_E[A-Z]+\b")
REF = re.compile(r"\bAs (d1_[a-z0-9_]+)\(\)")


def declarations(inc):
    """{name: (header, doc text)} for every function the headers declare."""
    funcs = {}
    for h in sorted(f for f in os.listdir(inc) if f.endswith(".h")):
        with open(os.path.join(inc, h), encoding="utf-8") as f:
            text = f.read()
        # Blank out comments and preprocessor lines (keeping offsets), so
        # that only code is matched; remember where each doc comment ends.
        code = list(text)
        docs = []
        for m in re.finditer(r"/\*.*?\*/", text, re.S):
            for i in range(m.start(), m.end()):
                if code[i] != "\n":
                    code[i] = " "
            if text.startswith("/**", m.start()):
                docs.append((m.end(), m.group(0)))
        code = "".join(code)
        code = re.sub(r"^[ \t]*#.*$", lambda m: " " * len(m.group(0)), code, flags=re.M)
        for m in DECL.finditer(code):
            name = m.group(1)
            # The doc comment is the last /** ... */ that ends before the
            # declaration with only blanks in between.
            doc = ""
            for end, body in docs:
                if end <= m.start() and code[end:m.start()].strip() == "":
                    doc = body
            prev = funcs.get(name)
            if prev is None:
                funcs[name] = (h, doc)
            else:  # declared twice (e.g. the hooked and the plain mmio.h inline)
                funcs[name] = (prev[0], prev[1] + "\n" + doc)
    return funcs


def split_args(s):
    """Split a macro argument list at top-level commas."""
    args, depth, cur, quote = [], 0, [], None
    for ch in s:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    args.append("".join(cur).strip())
    return args


def rows(table):
    """[(kind, line number, args)] of the table's RUN and LIST lines."""
    out = []
    with open(table, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^(RUN|LIST)\((.*)\)\s*$", line)
            if m:
                out.append((m.group(1), n, split_args(m.group(2))))
    return out


def documented(funcs, name, seen=None):
    """D1_E* codes the doc of @name names, following "As d1_x()" references."""
    seen = seen or set()
    if name in seen or name not in funcs:
        return set()
    seen.add(name)
    doc = funcs[name][1]
    codes = set(ERR.findall(doc))
    for ref in REF.findall(doc):
        codes |= documented(funcs, ref, seen)
    return codes


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("include")
    ap.add_argument("table")
    ap.add_argument("--stamp")
    a = ap.parse_args()

    funcs = declarations(a.include)
    table = rows(a.table)
    tname = os.path.relpath(a.table)
    errors = []
    named = set()
    ids = {}
    nrun = nlist = 0
    for kind, n, args in table:
        where = f"{tname}:{n}"
        if kind == "RUN":
            if len(args) < 6:
                errors.append(f"{where}: RUN needs (id, function, class, prep, result, call)")
                continue
            rid, fn, _cls, _prep, expect = args[:5]
            nrun += 1
            if rid in ids:
                errors.append(f"{where}: row id {rid} already used at line {ids[rid]}")
            ids[rid] = n
        else:
            if len(args) != 3:
                errors.append(f"{where}: LIST needs (function, class, reason)")
                continue
            fn, _cls, reason = args
            expect = None
            nlist += 1
            if not reason.strip('"').strip():
                errors.append(f"{where}: LIST row for {fn} gives no reason")
        named.add(fn)
        if fn not in funcs:
            errors.append(f"{where}: {fn} is not declared in {a.include} (stale row?)")
            continue
        if expect is not None and ERR.fullmatch(expect):
            docs = documented(funcs, fn)
            if expect not in docs:
                have = ", ".join(sorted(docs)) or "none"
                errors.append(f"{where}: row {rid} expects {expect} from {fn}, which its "
                              f"Doxygen ({funcs[fn][0]}) does not document (documented: {have})")
    for fn, (h, _doc) in sorted(funcs.items()):
        if fn not in named:
            errors.append(f"{fn} (include/d1/{h}) has no row in {tname}: add RUN rows for its "
                          "bad inputs, or a LIST row saying why it has none")
    if errors:
        for e in errors:
            print("check_bad_input_table: " + e, file=sys.stderr)
        print(f"check_bad_input_table: FAIL ({len(errors)} problem(s))", file=sys.stderr)
        return 1
    print(f"check_bad_input_table: {len(funcs)} public functions, all in the table "
          f"({nrun} RUN rows, {nlist} LIST rows); every expected error code is documented")
    if a.stamp:
        with open(a.stamp, "w", encoding="utf-8") as f:
            f.write(f"{len(funcs)} {nrun} {nlist}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
