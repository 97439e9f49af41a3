#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The same-board comparison on the emulated D1: every OS's bench (one bench
# core, d1/bench.h), the same -icount setting, one table and one plot.
#
# Usage: bench/comparison.sh [--out DIR] [--summary FILE] [--from-logs DIR]
#                              [--check | --update-baseline] [--timing c906]
#
#   --out DIR          where the logs, comparison.md, comparison.png and
#                      baseline.txt go (default build/comparison)
#   --from-logs DIR    reuse the bench transcripts the test command's OS
#                      stages left in DIR (DIR/nuttx, DIR/rtthread,
#                      DIR/rtsmart, DIR/linux) instead of running those
#                      OSes again
#   --check            compare the rows with bench/comparison/baseline.txt
#                      (exit 1 with a diff when any figure differs)
#   --update-baseline  write this run's rows to bench/comparison/baseline.txt
#   --timing MODE      c906: run every image in the emulator's timing mode
#                      (-M allwinner-d1,timing=c906: modelled C906 cycles at
#                      1.008 GHz, docs/emulator.md "Timing mode"; the same
#                      images, D1_EMU_TIMING=c906 for every stage): the table
#                      in modelled C906 time, each row beside its published
#                      figure with the ratio; not with --check (the baseline
#                      is instruction time); c906-fast, c906-slow: the same
#                      with every estimated parameter of the model at the
#                      end of its range that is fastest / slowest
#                      (bench/c906_range.sh runs all three)
#   --board OS=LOG     add a console log saved from a real board (see
#                      docs/comparison.md): its rows go to a hardware table
#                      of their own (repeatable)
#
# Rows (each OS x load x measurement; an OS whose tree or toolchain is
# missing is a row that says so):
#   baremetal  the D1 bench images (preset d1) on the emulated D1: timer-IRQ,
#              idle (bm_bench) and under the defined load (bm_bench_load)
#   nuttx      d1bench and d1bench load in the NuttX bench image
#              (scripts/os/nuttx.sh bench)
#   rtthread   d1bench 20000, idle and with load, in the RT-Thread bench
#              image (scripts/os/rtthread.sh)
#   rtsmart    the same in the RT-Smart bench image, and the task wake-up
#              of a user process, /bin/d1ubench, idle and loaded
#              (scripts/os/rtthread.sh --smart)
#   linux      d1timer.ko's timer-IRQ rows and d1lat-linux's wake-up rows,
#              PREEMPT and PREEMPT_RT (scripts/os/linux.sh), idle and beside
#              d1load (the defined load); in the table and the plot, not
#              in the baseline: two runs of the same kernels differ at
#              p50 and p99
# All under -icount shift=0,sleep=off: instruction time, not a C906 latency
# (with --timing c906: modelled C906 time, a model, not the board).
# The published board figures (docs/comparison-reference.json) stand in
# a table of their own and as marked points in the plot (one panel per
# measurement and load, one colour per OS).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
LIB_PREFIX=comparison
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, step_of, die, usage, progress_run
out=$root/build/comparison
summary=""
from=""
mode=""
timing=""
boards=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--summary) summary=$2; shift 2 ;;
	--from-logs) from=$2; shift 2 ;;
	--check) mode=check; shift ;;
	--update-baseline) mode=update; shift ;;
	--board) boards+=("hw:$2"); shift 2 ;;
	--timing)
		case ${2:-} in
		c906 | c906-fast | c906-slow) ;;
		*) say "--timing: want c906, c906-fast or c906-slow, not '${2:-}'"; exit 2 ;;
		esac
		timing=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) say "unknown argument $1 (see --help)"; exit 2 ;;
	esac
done
if [ -n "$timing" ] && [ -n "$mode" ]; then
	say "--timing c906 runs no baseline check or update (the baseline is instruction time)"
	exit 2
fi
export D1_EMU_TIMING=$timing # tests/emu/emu_common.py d1_machine()
start=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -z "$from" ] || from=$(cd "$from" && pwd)
export PYTHONDONTWRITEBYTECODE=1
baseline=$root/bench/comparison/baseline.txt

if [ -z "${D1_EMU_QEMU:-}" ]; then
	D1_EMU_QEMU=$(progress_run "building the emulator (or finding it cached)" "$root/emu/qemu-d1/build.sh" |
		tail -1) || die "no emulator"
fi
export D1_EMU_QEMU
sources=()

# Bare metal: the D1 bench image, run by the emulator test's driver.
step_of 1 6 "bare metal (preset d1, bm_bench.bin idle, bm_bench_load.bin memcpy+uart)"
if (cd "$root" && cmake --preset d1 >/dev/null && cmake --build --preset d1 -j"$(nproc)" >"$out/baremetal-build.log" 2>&1); then
	for run in "bm_bench idle baremetal" "bm_bench_load memcpy+uart baremetal-load"; do
		read -r img load name <<<"$run"
		if progress_run "running $img ($load)" python3 "$root/tests/emu/bench_d1.py" \
			"$root/build/d1/ports/baremetal/$img.bin" \
			--load "$load" --log "$out/$name.log" >"$out/$name-check.txt" 2>&1; then
			sources+=("baremetal=$out/$name.log")
		else
			sources+=("baremetal=!the bare-metal bench ($load) failed ($out/$name-check.txt)")
		fi
	done
else
	sources+=("baremetal=!the bare-metal build failed ($out/baremetal-build.log)")
fi

# os_run NAME LOG SCRIPT [ARGS]: the OS's bench transcript LOG, from the
# test command's stage (--from-logs) or from a run of its script.
os_run() { # name log script [args]
	local name=$1 log=$2 script=$3
	shift 3
	local dir=$out/$name rc
	if [ -n "$from" ] && [ -f "$from/$name/$log" ]; then
		sources+=("$name=$from/$name/$log")
		return
	fi
	say "running $script $*"
	progress_run "running $script (its output: $out/$name.txt)" \
		"$root/$script" --logs "$dir" --summary "$dir.summary" "$@" >"$out/$name.txt" 2>&1
	rc=$?
	if [ "$rc" -eq 3 ]; then
		sources+=("$name=!skipped: $(sed 's/^[a-z]*: //; s/^skipped: //' "$dir.summary" 2>/dev/null | head -c 200)")
	elif [ -f "$dir/$log" ]; then
		sources+=("$name=$dir/$log")
	else
		sources+=("$name=!$script failed before its bench ($out/$name.txt)")
	fi
}
step_of 2 6 "NuttX (scripts/os/nuttx.sh bench)"
os_run nuttx serial-bench.txt scripts/os/nuttx.sh bench
step_of 3 6 "RT-Thread (scripts/os/rtthread.sh)"
os_run rtthread console-B.log scripts/os/rtthread.sh

step_of 4 6 "RT-Smart (scripts/os/rtthread.sh --smart)"
os_run rtsmart console-smart-B.log scripts/os/rtthread.sh --smart

step_of 5 6 "Linux (scripts/os/linux.sh: d1timer.ko and d1lat-linux rows)"
os_run linux linux-rows.jsonl scripts/os/linux.sh

step_of 6 6 "table and plot"
args=("${sources[@]}" "${boards[@]}" -o "$out/comparison.md" --plot "$out/comparison.png"
	--reference "$root/docs/comparison-reference.json" --baseline-out "$out/baseline.txt"
	--unchecked linux)
[ "$mode" = check ] && args+=(--check "$baseline")
[ -z "$timing" ] || args+=(--timing "$timing")
python3 "$root/bench/tools/d1lat_comparison.py" "${args[@]}"
rc=$?
if [ "$mode" = update ]; then
	if [ "$rc" -ne 0 ]; then
		say "baseline NOT written: this run has rows that were not compared (see $out/comparison.md)"
	else
		mkdir -p "$(dirname "$baseline")"
		cp "$out/baseline.txt" "$baseline"
		say "baseline written: $baseline"
	fi
fi
if [ -n "$summary" ]; then
	rows=$(grep -c ' (counts[^)]*)$' "$out/baseline.txt" 2>/dev/null || true)
	notrun=$(grep -c ' not run$' "$out/baseline.txt" 2>/dev/null || true)
	verdict="identical to the baseline"
	[ "$mode" = check ] || verdict="table in $out/comparison.md"
	[ "$rc" -eq 0 ] || verdict="FAIL (see $out/comparison.md)"
	echo "comparison: $rows rows, $notrun OS not run; $verdict" >"$summary"
fi
say "wall time $(($(date +%s) - start)) s ($([ -n "$timing" ] && echo "timing=$timing" || echo "-icount"))"
exit "$rc"
