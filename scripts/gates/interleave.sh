#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reliability gate: interrupt interleaving (method and
# cases: docs/reliability.md "Interrupt interleaving"). Runs the
# test_interleave ctest of build/host (configured and built here if
# scripts/test.sh has not done it yet) and writes one line to
# build/gates/interleave.summary, e.g.
#   interleaving: 44 cases, 2420 injection points, 0 lost/duplicated/corrupted, 2 s
# Exit status non-zero on any lost/duplicated/corrupted interleaving or when
# the test did not run to its total. Full output: build/gates/interleave.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/gates/summary.sh
gate_summary interleaving build/gates/interleave.summary

build=build/host
out=build/gates
mkdir -p "$out"
log=$out/interleave.log
summary_file=$out/interleave.summary

gate_step "configuring and building test_interleave"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset host >/dev/null
fi
cmake --build "$build" -j2 --target test_interleave >/dev/null

gate_step "running test_interleave"
start=$(date +%s)
rc=0
ctest --test-dir "$build" -R '^test_interleave$' -V >"$log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))

# The test's own total line (computed by the test, not here):
#   interleave: total: C cases, M injection points, V lost/duplicated/corrupted
total=$(sed -n 's/^.*interleave: total: \(.*\)$/\1/p' "$log" | tail -n 1)
if ! grep -q '100% tests passed' "$log"; then
  rc=1 # failed, or ctest found no such test
fi
if [ -z "$total" ]; then
  line="interleaving: no result (test_interleave did not run to its total; see $log)"
  rc=1
else
  line="interleaving: $total, $secs s"
  bad=$(printf '%s\n' "$total" | sed -n 's/.* \([0-9][0-9]*\) lost\/duplicated\/corrupted.*/\1/p')
  if [ "${bad:-1}" != 0 ]; then
    rc=1
  fi
fi
if [ "$rc" -ne 0 ]; then
  grep -E 'interleave: .*(line [0-9]+|[1-9][0-9]* lost)' "$log" | head -n 20 >&2 || true
fi
printf '%s\n' "$line" >"$summary_file"
printf '%s\n' "$line"
exit "$rc"
