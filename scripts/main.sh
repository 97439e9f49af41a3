#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's main job, on a fresh Debian machine: the same-board
# comparison on the emulated D1 (bench/comparison.sh). It builds every
# image it can (the bare-metal bench always; NuttX and RT-Thread from the
# trees scripts/os/tree.sh finds: ../shared/os beside the clone, or
# D1_NUTTX_DIR, D1_NUTTX_APPS_DIR, D1_RTT_DIR), runs each bench under the
# same -icount setting, and prints one table (OS x load x measurement) and
# writes one plot, build/comparison/comparison.png. An OS whose tree or
# toolchain is missing is a row that says so. Figures are instruction time
# under -icount, never a C906 latency; then the whole comparison once more
# in the emulator's timing mode (modelled C906 cycles, docs/emulator.md),
# each row beside its published board figure with the ratio.
# Sizes and hot-path instruction counts: bench/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
LIB_PREFIX=main.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh # usage, progress_run
case "${1:-}" in
-h | --help) usage; exit 0 ;;
"") ;;
*) echo "main.sh: no options (see --help)" >&2; exit 2 ;;
esac
scripts/deps.sh
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the clone
echo "main.sh: step 1/3: the emulated D1 (emu/qemu-d1/build.sh: built on first use, 6-25 min, then cached)"
D1_EMU_QEMU=$(progress_run "building the emulator (or finding it cached)" emu/qemu-d1/build.sh | tail -n 1)
export D1_EMU_QEMU
rc=0
echo "main.sh: step 2/3: the comparison in instruction time (bench/comparison.sh; first run builds NuttX, RT-Thread and Linux)"
t0=$SECONDS
bench/comparison.sh --out build/comparison || rc=1
wall_i=$((SECONDS - t0))
echo "main.sh: step 3/3: the comparison in modelled C906 time (bench/comparison.sh --timing c906: the same images in the emulator's timing mode; a model from public facts, not the board: docs/emulator.md \"Timing mode\")"
t0=$SECONDS
bench/comparison.sh --timing c906 --out build/comparison-c906 || rc=1
wall_c=$((SECONDS - t0))
echo "main.sh: wall time: instruction time ${wall_i} s (with any first build), C906 time ${wall_c} s:" \
	"$(awk -v a="$wall_c" -v b="$wall_i" 'BEGIN { printf "%.2fx", b > 0 ? a / b : 0 }') (the timing mode's budget: at most 5x)"
echo "main.sh: tables build/comparison/comparison.md (instruction time) and build/comparison-c906/comparison.md (modelled C906 time, with the ratios to the published figures); plots comparison.png beside each"
exit "$rc"
