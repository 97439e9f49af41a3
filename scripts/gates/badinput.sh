#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reliability gate (bad input and bounded waits; docs/reliability.md):
#  - bad input as one table: the table check (a build step) and
#    test_bad_input (every public function x every bad-input class);
#  - every wait bounded: test_bounded_waits (one test per wait), and every
#    wait it reports is in the docs/reliability.md table.
# Uses build/host (configures it if scripts/test.sh has not). Writes one
# line to build/gates/badinput.summary; exits non-zero on any finding.
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/gates/summary.sh
gate_summary "bad input" build/gates/badinput.summary
build=build/host
summary=build/gates/badinput.summary
mkdir -p build/gates
log=build/gates/badinput.log


if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake --preset host >/dev/null || gate_fail "FAIL (cmake --preset host)"
fi
# The table check runs as a dependency of test_bad_input: a public function
# without a row fails here.
if ! cmake --build "$build" -j2 --target test_bad_input test_bounded_waits >"$log" 2>&1; then
	grep -E '^check_bad_input_table:' "$log" >&2
	gate_fail "FAIL (build: $(grep -cE '^check_bad_input_table: [^F]' "$log" || true) table problem(s), see $log)"
fi

rc=0
ctest --test-dir "$build" -V -R '^(bad_input_table_complete|test_bad_input|test_bounded_waits)$' \
	>>"$log" 2>&1 || rc=1
out=$(sed -E 's/^[0-9]+: //' "$log")

bad=$(grep -E '^bad input: [0-9]+ functions, [0-9]+ cases, [0-9]+ failures' <<<"$out" | tail -1)
waits=$(grep -E '^bounded waits: [0-9]+ waits tested, [0-9]+ failures' <<<"$out" | tail -1)
[ -n "$bad" ] || gate_fail "FAIL (no summary from test_bad_input, see $log)"
[ -n "$waits" ] || gate_fail "FAIL (no summary from test_bounded_waits, see $log)"
nf=$(sed -E 's/^bad input: ([0-9]+) functions.*/\1/' <<<"$bad")
nc=$(sed -E 's/.* ([0-9]+) cases.*/\1/' <<<"$bad")
bf=$(sed -E 's/.* cases, ([0-9]+) failures.*/\1/' <<<"$bad")
nw=$(sed -E 's/^bounded waits: ([0-9]+) waits tested.*/\1/' <<<"$waits")
wf=$(sed -E 's/.* tested, ([0-9]+) failures.*/\1/' <<<"$waits")

# Every wait the test reports is in the documented table.
undoc=0
for w in $(grep -E '^WAIT ' <<<"$out" | awk '{print $2}' | sort -u); do
	if ! grep -q "\`$w\`" docs/reliability.md; then
		echo "badinput: wait $w is not in the docs/reliability.md table" >&2
		undoc=$((undoc + 1))
	fi
done

line="bad input: $nf functions, $nc cases, $bf failures; bounded waits: $nw waits tested, $wf failures"
[ "$undoc" -eq 0 ] || line="$line, $undoc undocumented"
echo "$line" | tee "$summary"
if [ "$rc" -ne 0 ] || [ "$bf" -ne 0 ] || [ "$wf" -ne 0 ] || [ "$undoc" -ne 0 ]; then
	exit 1
fi
