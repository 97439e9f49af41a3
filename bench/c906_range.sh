#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# How far the comparison's figures move across the timing model's
# estimated ranges: the whole comparison three times in the emulator's
# timing mode, every estimated parameter at the end of its range that makes
# the model fastest (c906-fast), at its default (c906) and at its slowest
# end (c906-slow), then one table of every row's p50 at the three
# (bench/tools/d1lat_range.py). A model, not the board (docs/emulator.md
# "Timing mode").
#
# Usage: bench/c906_range.sh [--out DIR]
#   --out DIR   the three comparisons go to DIR/fast, DIR/default,
#               DIR/slow, the table to DIR/range.md (default
#               build/comparison-c906-range)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
LIB_PREFIX=c906_range
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, usage
out=$root/build/comparison-c906-range
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) say "unknown argument $1 (see --help)"; exit 2 ;;
	esac
done
mkdir -p "$out"
rc=0
for run in "fast c906-fast" "default c906" "slow c906-slow"; do
	read -r dir mode <<<"$run"
	say "the comparison with --timing $mode (its output: $out/$dir.txt)"
	"$root/bench/comparison.sh" --timing "$mode" --out "$out/$dir" >"$out/$dir.txt" 2>&1 || {
		say "--timing $mode: some rows were not compared ($out/$dir/comparison.md)"
		rc=1
	}
done
python3 "$root/bench/tools/d1lat_range.py" "$out/fast/baseline.txt" "$out/default/baseline.txt" \
	"$out/slow/baseline.txt" -o "$out/range.md" || rc=1
exit "$rc"
