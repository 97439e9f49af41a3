#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The recipe of docs/architecture.md "Adding a block" cannot rot:

  - every path its table names (a backticked word with a '/', or a file
    name at the top of the repository) exists; a word with '*' must match a
    file; words with '<' are placeholders and are skipped;
  - every committed file under include/, src/, tests/, scripts/, tools/,
    cmake/ and emu/ whose path or text names the example block (`wdt`) is
    named in the table: itself, by a directory ending in '/' or by a '*'
    pattern (this checker, which names it as the example, aside).

Usage: check_recipe.py [REPO]   (exit 0 clean, 1 with findings; ctest recipe_paths)
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys

SECTION = "## Adding a block"
EXAMPLE = re.compile(r"(?<![a-z])wdt", re.I)
SCANNED = ("include/", "src/", "tests/", "scripts/", "tools/", "cmake/", "emu/")
TOP_FILE = re.compile(r"^[\w.-]+\.(md|txt|py|sh|cmake|json)$")


def section(text):
    start = text.find("\n" + SECTION + "\n")
    if start < 0:
        return None
    end = text.find("\n## ", start + len(SECTION) + 2)
    return text[start:end if end >= 0 else len(text)]


def main(argv):
    repo = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with open(os.path.join(repo, "docs", "architecture.md"), encoding="utf-8") as f:
        body = section(f.read())
    if body is None:
        print(f'docs/architecture.md: no "{SECTION}" section')
        return 1
    findings = 0
    named = set()
    rows = "\n".join(line for line in body.split("\n") if line.startswith("|"))
    for word in re.findall(r"`([^`\s]+)`", rows):
        if "<" in word or not ("/" in word or TOP_FILE.match(word)):
            continue
        named.add(word)
        path = os.path.join(repo, word)
        if "*" in word:
            ok = bool(glob.glob(path))
        else:
            ok = os.path.isdir(path) if word.endswith("/") else os.path.isfile(path)
        if not ok:
            print(f"recipe names {word}, which does not exist")
            findings += 1
    dirs = tuple(w for w in named if w.endswith("/"))
    files = subprocess.run(["git", "-C", repo, "ls-files", *SCANNED], check=True,
                           capture_output=True, text=True).stdout.split("\n")
    wired = 0
    for rel in filter(None, files):
        full = os.path.join(repo, rel)
        if rel == "tests/check_recipe.py" or not os.path.isfile(full):
            continue
        with open(full, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        if not (EXAMPLE.search(rel) or EXAMPLE.search(text)):
            continue
        wired += 1
        if rel not in named and not rel.startswith(dirs) and not any(
                fnmatch.fnmatchcase(rel, w) for w in named if "*" in w):
            print(f"{rel} names wdt but is not in the recipe")
            findings += 1
    print(f"check_recipe: {len(named)} paths named, {wired} files wired to wdt, "
          f"{findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
