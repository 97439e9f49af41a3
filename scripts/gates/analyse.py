#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The analysers gate (scripts/gates/analyse.sh): clang-tidy, gcc -fanalyzer
and cppcheck over src/, ports/, the C tools and the bare-metal test images, on
the compile commands the real builds use. Every finding counts; the gate
passes at zero.

usage: analyse.py REPO OUTDIR COMPILE_COMMANDS.json...

Scope: src/, ports/, the C tools (tests/bench_*.c, tests/lat_report_demo.c) and
the bare-metal test images (tests/qemu/*.c, tests/emu/**.c),
C sources only (start.S and the shims' assembly are not C), with the headers
they include (include/d1/, src/, ports/). An entry that differs from another
only in its output file is kept once; the same file with other defines
(D1_UART_DW_ONLY, D1_MMIO_HOOKED, the RT-Thread Kconfig variants, the d1 and
qemu-virt images) is analysed per variant.

Writes OUTDIR/db/{gcc,tidy}/compile_commands.json, the findings of each
analyser to OUTDIR/<analyser>.txt (printed when not empty) and one line
"<clang-tidy> <gcc -fanalyzer> <cppcheck> <files>" to stdout for the summary.
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import time

SCOPE = re.compile(r"^(src/[^/]+\.c|ports/.+\.c|bench/.+\.c|tests/bench_[^/]+\.c|tests/lat_report_demo\.c"
                   r"|tests/qemu/[^/]+\.c|tests/emu/.+\.c)$")
JOBS = 2  # the machine's two cores are shared (BRIEF)
# file:line:col: severity: message [id]: clang-tidy, gcc (id -Werror=...), and
# cppcheck through --template.
# clang-tidy's per-TU tallies, not findings.
NOISE = re.compile(r"^(\d+ warnings?( and \d+ errors?)? generated\.|Error while processing .*|"
                   r"Suppressed \d+ warnings.*|Use -header-filter=.*)$")
FINDING = re.compile(r"^([^:\s]+):(\d+):(\d+): (\w+): (.*?)\s*\[([^\]]+)\]$")


def args_of(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def without_output(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        else:
            out.append(a)
    return out


def for_clang(args):
    """The cross entries for clang: --target for the D1's ABI (lp64d); clang
    14 does not know gcc's zicsr/zifencei extension names (its rv64imafdc
    already includes them)."""
    if "riscv64" not in os.path.basename(args[0]):
        return args
    out = ["clang", "--target=riscv64-unknown-elf"]
    for a in args[1:]:
        out.append(re.sub(r"_zicsr|_zifencei", "", a) if a.startswith("-march=") else a)
    return out


def merge(repo, outdir, dbs):
    seen, entries = set(), []
    for db in dbs:
        with open(db, encoding="utf-8") as f:
            for e in json.load(f):
                path = os.path.realpath(os.path.join(e["directory"], e["file"]))
                if not SCOPE.match(os.path.relpath(path, repo)):
                    continue
                args = args_of(e)
                key = (path, tuple(without_output(args)))
                if key not in seen:
                    seen.add(key)
                    entries.append({"directory": e["directory"], "file": path, "arguments": args})
    for sub, conv in (("gcc", lambda a: a), ("tidy", for_clang)):
        os.makedirs(os.path.join(outdir, "db", sub), exist_ok=True)
        with open(os.path.join(outdir, "db", sub, "compile_commands.json"), "w",
                  encoding="utf-8") as f:
            json.dump([dict(e, arguments=conv(e["arguments"])) for e in entries], f, indent=1)
    return entries


def parallel(fn, items):
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        return list(ex.map(fn, items))


def collect_parallel(fn, items, repo):
    """Run FN over ITEMS in parallel and merge the findings of its outputs
    (the first report of a finding wins: headers are seen many times)."""
    found = {}
    for text in parallel(fn, items):
        for k, v in collect(text, repo).items():
            found.setdefault(k, v)
    return found


def collect(text, repo, keep_ids=None):
    """Distinct findings (file, line, col, id) in REPO-relative form, with the
    lines that explain each one."""
    found, block, key = {}, [], None
    for line in text.splitlines():
        m = FINDING.match(line)
        if m and m.group(4) != "note":
            key = None
            ident = m.group(6)
            if keep_ids is not None and not keep_ids(ident):
                continue
            rel = m.group(1)
            if os.path.isabs(rel):
                rel = os.path.relpath(os.path.realpath(rel), repo)
            key = (rel, int(m.group(2)), int(m.group(3)), ident)
            block = found.setdefault(key, [])
            if not block:
                block.append("%s:%s:%s: %s" % (rel, m.group(2), m.group(3), m.group(5)) +
                             " [%s]" % ident)
        elif key is not None and len(block) < 40 and not NOISE.match(line):
            block.append(line)
    return found


def run_clang_tidy(repo, outdir, files):
    db = os.path.join(outdir, "db", "tidy")

    def one(path):
        p = subprocess.run(["clang-tidy", "-p", db, "--quiet", path], capture_output=True,
                           text=True, check=False)
        text = p.stdout + p.stderr
        if p.returncode != 0 and not collect(text, repo):
            text = "%s:1:1: error: clang-tidy exit status %d [clang-tidy-failed]\n%s" % (
                path, p.returncode, text)
        return text

    return collect_parallel(one, files, repo)


def run_fanalyzer(repo, entries):
    def one(e):
        args = without_output(e["arguments"]) + ["-o", os.devnull, "-fanalyzer", "-Werror"]
        p = subprocess.run(args, cwd=e["directory"], capture_output=True, text=True,
                           check=False)
        text = p.stderr
        if (p.returncode != 0 or text.strip()) and not collect(text, repo):
            text = "%s:1:1: error: compiler exit status %d [compile-failed]\n%s" % (
                e["file"], p.returncode, text)
        return text

    # gcc: "file:line:col: error: message [-Werror=analyzer-...]"
    return collect_parallel(one, entries, repo)


def run_cppcheck(repo, outdir):
    cmd = [
        "cppcheck",
        "--project=" + os.path.join(outdir, "db", "gcc", "compile_commands.json"),
        "--enable=all", "--inconclusive",
        # A library's API and an OS's entry points have no caller in the
        # analysed code: unusedFunction would list every one of them.
        "--disable=unusedFunction",
        # The system headers are not given to cppcheck on purpose (its
        # manual: they slow it down and add nothing); its note that it did
        # not find them is not a finding. Missing project headers still are
        # (missingInclude).
        "--suppress=missingIncludeSystem",
        "--library=posix", "--platform=unix64",  # d1lat-linux; LP64 as riscv64 lp64d
        # One process: with -j, cppcheck 2.10 drops the missingIncludeSystem
        # note and then reports the option above as an unmatched suppression.
        "--inline-suppr", "--error-exitcode=1", "-q",
        "--template={file}:{line}:{column}: {severity}: {message} [{id}]",
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    text = p.stdout + p.stderr
    found = collect(text, repo)
    if p.returncode != 0 and not found:
        found[("cppcheck", 0, 0, "cppcheck-failed")] = [
            "cppcheck: exit status %d\n%s" % (p.returncode, text)]
    return found


def report(outdir, name, found):
    path = os.path.join(outdir, name + ".txt")
    with open(path, "w", encoding="utf-8") as f:
        for k in sorted(found):
            f.write("\n".join(found[k]) + "\n")
    if found:
        print("==== %s: %d finding(s) (%s)" % (name, len(found), path), file=sys.stderr)
        with open(path, encoding="utf-8") as f:
            sys.stderr.write(f.read())


def main():
    repo = os.path.realpath(sys.argv[1])
    outdir = os.path.realpath(sys.argv[2])
    entries = merge(repo, outdir, sys.argv[3:])
    files = sorted({e["file"] for e in entries})
    results = {}
    for name, fn in (("clang-tidy", lambda: run_clang_tidy(repo, outdir, files)),
                     ("gcc-fanalyzer", lambda: run_fanalyzer(repo, entries)),
                     ("cppcheck", lambda: run_cppcheck(repo, outdir))):
        t0 = time.monotonic()
        results[name] = fn()
        print("analyse: %s: %d finding(s), %.0f s" % (name, len(results[name]),
                                                      time.monotonic() - t0), file=sys.stderr)
        report(outdir, name, results[name])
    print(len(results["clang-tidy"]), len(results["gcc-fanalyzer"]), len(results["cppcheck"]),
          len(files), len(entries))


if __name__ == "__main__":
    main()
