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
# under -icount, never a C906 latency; then the bare-metal bench once more
# in the emulator's timing mode (modelled C906 cycles, docs/emulator.md).
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
echo "main.sh: step 2/3: the comparison (bench/comparison.sh; first run builds NuttX and RT-Thread)"
bench/comparison.sh --out build/comparison
echo "main.sh: step 3/3: the bare-metal bench in modelled C906 time beside instruction time (tests/emu/c906_time.py bench; a timing model from public facts, not the board: docs/emulator.md \"Timing mode\")"
progress_run "running the bare-metal bench in the timing mode" \
	python3 tests/emu/c906_time.py bench --out build/comparison/c906-time.md
echo "main.sh: table build/comparison/comparison.md, plot build/comparison/comparison.png, C906 time build/comparison/c906-time.md"
