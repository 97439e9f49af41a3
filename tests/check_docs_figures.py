#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every figure a reference page states is printed by a command, now.

Two checks, one problem per line on stderr, exit 1 on any problem:

1. Figures (registry docs/figures.tsv). Each row: the page, a regular
   expression that finds the figure in the page (its groups are the
   figures), the command that prints them (run from the repository root
   with /bin/sh, each distinct command once) and a regular expression whose
   groups pick the same figures out of the command's output. A figure that
   differs (thousands separators ignored), a page phrase or output line no
   longer found, or a command that fails, is a problem.
2. Names. Every `code` span of docs/*.md and README.md that names a D1_* or
   d1_* identifier names one that exists in the tree (include/, src/,
   ports/, bench/, tests/, scripts/, cmake/, emu/, the CMake files). A
   name followed by `*` or `<` is a prefix: some identifier must start
   with it.

Usage: check_docs_figures.py [--root DIR] [--pages DIR] [--only PAGE]
                             [--names-only] [--summary FILE] [--self-test]
--pages reads the pages from another copy (the self-test's doctored one);
the commands still run in --root.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REGISTRY = "docs/figures.tsv"
NAME_DIRS = ["include", "src", "ports", "bench", "tests", "scripts", "cmake", "emu", ".ci"]
NAME_FILES = ["CMakeLists.txt", "CMakePresets.json"]
CODE_SPAN = re.compile(r"`([^`\n]+)`")
NAME = re.compile(r"(?<![A-Za-z0-9_])([dD]1_[A-Za-z0-9_]*)([*<]?)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
TIMEOUT_S = 120


def read_registry(root):
    rows = []
    path = os.path.join(root, REGISTRY)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                raise SystemExit("%s:%d: %d columns, want 4 (page, page regex, command, output regex)"
                                 % (REGISTRY, n, len(cols)))
            page, pre, cmd, ore = cols
            rows.append({"line": n, "page": page, "page_re": re.compile(pre, re.M),
                         "cmd": cmd, "out_re": re.compile(ore, re.M)})
    return rows


def norm(v):
    return v.replace(",", "").strip()


def check_figures(root, pages, only, problems):
    rows = read_registry(root)
    if only:
        rows = [r for r in rows if r["page"] == only]
    outputs = {}
    figures = 0
    for r in rows:
        where = "%s (%s:%d)" % (r["page"], REGISTRY, r["line"])
        try:
            with open(os.path.join(pages, r["page"]), encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            problems.append("%s: cannot read the page: %s" % (where, e.strerror))
            continue
        m = r["page_re"].search(text)
        if not m:
            problems.append("%s: phrase /%s/ no longer found in the page"
                            % (where, r["page_re"].pattern))
            continue
        if r["cmd"] not in outputs:
            try:
                p = subprocess.run(r["cmd"], shell=True, cwd=root, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=TIMEOUT_S,
                                   universal_newlines=True)
                outputs[r["cmd"]] = (p.returncode, p.stdout)
            except subprocess.TimeoutExpired:
                outputs[r["cmd"]] = (-1, "timed out after %d s" % TIMEOUT_S)
        rc, out = outputs[r["cmd"]]
        if rc != 0:
            last = out.strip().splitlines()[-1:] or [""]
            problems.append("%s: `%s` exited %d: %s" % (where, r["cmd"], rc, last[0]))
            continue
        o = r["out_re"].search(out)
        if not o:
            problems.append("%s: `%s` printed nothing matching /%s/"
                            % (where, r["cmd"], r["out_re"].pattern))
            continue
        # Named groups pair by name (the output may print them in another
        # order); unnamed ones by position.
        if m.groupdict():
            keys = sorted(m.groupdict())
            pairs = [(m.group(k), o.groupdict().get(k)) for k in keys]
        else:
            pairs = list(zip(m.groups(), o.groups()))
        if len(m.groups()) != len(o.groups()):
            problems.append("%s: the page regex has %d groups, the output regex %d"
                            % (where, len(m.groups()), len(o.groups())))
            continue
        for i, (said, printed) in enumerate(pairs, 1):
            figures += 1
            if said is None or printed is None or norm(said) != norm(printed):
                problems.append("%s: the page says %s, `%s` prints %s (figure %d of /%s/)"
                                % (where, said, r["cmd"], printed, i, r["page_re"].pattern))
    return len(rows), len(outputs), figures


def tree_words(root):
    words = set()
    files = [os.path.join(root, f) for f in NAME_FILES]
    for d in NAME_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if n not in ("__pycache__", ".git")]
            files.extend(os.path.join(dirpath, n) for n in filenames)
    for path in files:
        words.update(WORD.findall(os.path.relpath(path, root)))
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                words.update(WORD.findall(f.read()))
        except OSError:
            pass
    return words


def page_list(pages):
    docs = os.path.join(pages, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md"))
    return ["README.md"] + ["docs/" + n for n in names]


def check_names(root, pages, only, problems):
    words = tree_words(root)
    prefixes = None
    seen = 0
    for page in page_list(pages):
        if only and page != only:
            continue
        with open(os.path.join(pages, page), encoding="utf-8") as f:
            lines = f.read().split("\n")
        for n, line in enumerate(lines, 1):
            for span in CODE_SPAN.findall(line):
                for name, tail in NAME.findall(span):
                    seen += 1
                    if tail or name.endswith("_"):
                        if prefixes is None:
                            prefixes = sorted(words)
                        if not any(w.startswith(name) for w in prefixes):
                            problems.append("%s:%d: `%s` names the prefix %s, which no identifier "
                                            "of the tree starts with" % (page, n, span, name))
                    elif name not in words:
                        problems.append("%s:%d: `%s` names %s, which is nowhere in the tree"
                                        % (page, n, span, name))
    return seen


def run(root, pages, only, names_only):
    problems = []
    rows = cmds = figures = 0
    if not names_only:
        rows, cmds, figures = check_figures(root, pages, only, problems)
    names = check_names(root, pages, only, problems)
    return problems, rows, cmds, figures, names


def self_test(root):
    """The check fails on a doctored copy of the pages: a changed figure, a
    phrase removed, a name that does not exist."""
    rows = read_registry(root)
    # The first row whose command needs no build, so the self-test runs
    # anywhere the sources are.
    row = next(r for r in rows if "build/" not in r["cmd"])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def fresh():
            shutil.rmtree(tmp)
            shutil.copytree(os.path.join(root, "docs"), os.path.join(tmp, "docs"))
            shutil.copy(os.path.join(root, "README.md"), os.path.join(tmp, "README.md"))

        def page_text():
            with open(os.path.join(tmp, row["page"]), encoding="utf-8") as f:
                return f.read()

        def write(text):
            with open(os.path.join(tmp, row["page"]), "w", encoding="utf-8") as f:
                f.write(text)

        fresh()
        problems = run(root, tmp, row["page"], False)[0]
        if problems:
            failures.append("the untouched copy of %s fails: %s" % (row["page"], problems[0]))
        # 1. a figure one higher than printed
        fresh()
        text = page_text()
        m = row["page_re"].search(text)
        a, b = m.span(1)
        digits = re.sub(r"\D", "", m.group(1))
        write(text[:a] + str(int(digits) + 1) + text[b:])
        problems = run(root, tmp, row["page"], False)[0]
        if not any("the page says" in p for p in problems):
            failures.append("a figure changed in %s was not reported" % row["page"])
        # 2. the phrase gone
        fresh()
        write(row["page_re"].sub("", page_text()))
        problems = run(root, tmp, row["page"], False)[0]
        if not any("no longer found" in p for p in problems):
            failures.append("a phrase removed from %s was not reported" % row["page"])
        # 3. a name that is nowhere in the tree (built here, so that this
        #    file does not hold it)
        fresh()
        stale = "d1_timer_" + "no_such_function"
        write(page_text() + "\n`%s()`\n" % stale)
        problems = run(root, tmp, row["page"], True)[0]
        if not any(stale in p for p in problems):
            failures.append("a stale name in %s was not reported" % row["page"])
    for f in failures:
        print("check_docs_figures self-test: " + f, file=sys.stderr)
    if not failures:
        print("check_docs_figures self-test: a changed figure, a removed phrase and a stale name "
              "in %s each fail the check" % row["page"])
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--pages")
    ap.add_argument("--only")
    ap.add_argument("--names-only", action="store_true")
    ap.add_argument("--summary")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    if a.self_test:
        return self_test(root)
    problems, rows, cmds, figures, names = run(root, os.path.abspath(a.pages or root), a.only,
                                               a.names_only)
    for p in problems:
        print("check_docs_figures: " + p, file=sys.stderr)
    if a.names_only:
        line = "docs: %d D1_/d1_ names in code spans, %d problem(s)" % (names, len(problems))
    else:
        line = ("docs: %d figures of %d registry rows from %d commands, %d D1_/d1_ names, "
                "%d problem(s)" % (figures, rows, cmds, names, len(problems)))
    print(line)
    if a.summary:
        with open(a.summary, "w", encoding="utf-8") as f:
            f.write(line + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
