#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Gate: coverage floors of the library (src/) under the host tests.
#  - build/coverage (preset "coverage"): the host tests with gcc --coverage,
#    no sanitizers; counters reset, then the whole ctest run (it must pass);
#  - gcovr over src/ only: at least 97 % of lines and 90 % of branches
#    (gcovr --fail-under-line / --fail-under-branch); the lines and the
#    branches not covered are printed, per file.
# Counters from every build of src/ in the tree are merged: the hooked
# library (the model tests), its D1_UART_DW_ONLY variant, the plain library
# (d1lat-linux, test_port_default) and src/time.c in the NuttX glue test.
# No gcovr exclusion option is used: --exclude-unreachable-branches changes
# nothing here (measured: same branch count) and C has no throw branches.
# Writes build/gates/coverage.summary; exits 1 below a floor or on a test
# failure. Usage: scripts/gates/coverage.sh (from anywhere).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/gates/summary.sh
gate_summary "coverage (src/)" build/gates/coverage.summary
gate_step "installing packages (scripts/deps.sh)"
scripts/deps.sh cmake gcc pkg-config libcmocka-dev python3 gcovr
start=$(date +%s)
mkdir -p build/gates
summary=build/gates/coverage.summary
LINE_FLOOR=97
BRANCH_FLOOR=90
cmake --preset coverage >/dev/null || gate_fail "cmake --preset coverage failed"
cmake --build --preset coverage -j2 >/dev/null || gate_fail "build failed"
gate_step "running ctest --preset coverage"
find build/coverage -name '*.gcda' -delete
ctest --preset coverage -j2 >build/gates/coverage-ctest.log 2>&1 || {
	cat build/gates/coverage-ctest.log
	gate_fail "ctest --preset coverage failed (build/gates/coverage-ctest.log)"
}
gate_step "running gcovr"
gcovr_src=(gcovr --root . --filter 'src/' build/coverage)
"${gcovr_src[@]}" --json-summary build/gates/coverage.json >/dev/null
echo "== lines not covered (src/)"
"${gcovr_src[@]}" --txt | sed -n '/^File/,$p'
echo "== branches not taken (src/; line numbers)"
"${gcovr_src[@]}" --txt --branches | sed -n '/^File/,$p'
read -r lc lt lp bc bt bp < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(s["line_covered"], s["line_total"], s["line_percent"],
      s["branch_covered"], s["branch_total"], s["branch_percent"])' build/gates/coverage.json)
secs=$(($(date +%s) - start))
line="coverage (src/): $lp % lines ($lc/$lt), $bp % branches ($bc/$bt), floors $LINE_FLOOR/$BRANCH_FLOOR, $secs s"
echo "$line" | tee "$summary"
# The floors, enforced by gcovr itself (exit status 2/4 below them).
"${gcovr_src[@]}" --fail-under-line "$LINE_FLOOR" --fail-under-branch "$BRANCH_FLOOR" >/dev/null ||
	gate_fail "below the floors: $lp % lines, $bp % branches (floors $LINE_FLOOR/$BRANCH_FLOOR)"
