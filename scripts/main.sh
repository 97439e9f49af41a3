#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's main job, on a fresh Debian machine:
#  1. build the library and the bare-metal bench image for the D1 (preset d1)
#     and print their sizes and the hot-path figures (scripts/bench.sh);
#  2. run the same bench application built for QEMU virt (preset qemu-virt)
#     as an S-mode payload under QEMU's bundled OpenSBI, and print its report
#     (text + JSON line) and the side-by-side table of the comparison tool.
# Options: --wallclock  run QEMU in real time instead of -icount (latencies
#          then reflect host scheduling; missed periods are counted).
set -euo pipefail
cd "$(dirname "$0")/.."
icount=--icount
[ "${1:-}" = "--wallclock" ] && icount=
scripts/deps.sh
jobs=$(nproc)
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the clone (tools/, tests/emu/)
# The emulated D1 first: scripts/bench.sh counts the tick path on it (it
# skips that without a binary) and the last section runs the D1 image on it.
echo "(emulator from emu/qemu-d1/build.sh: built on first use, ~9 min, then cached)"
D1_EMU_QEMU=$(emu/qemu-d1/build.sh | tail -n 1)
export D1_EMU_QEMU

echo "== D1 build (preset d1) =="
cmake --preset d1 >/dev/null
cmake --build --preset d1 -j"$jobs" >/dev/null
img=build/d1/ports/baremetal/bm_bench.bin
riscv64-unknown-elf-size build/d1/ports/baremetal/bm_bench.elf
echo "D1 image: $img ($(stat -c %s "$img") bytes) - load at 0x40200000 in S-mode (docs/baremetal.md)"
echo
scripts/bench.sh

echo
echo "== bench on QEMU virt (preset qemu-virt${icount:+, -icount}) =="
cmake --preset qemu-virt >/dev/null
cmake --build --preset qemu-virt -j"$jobs" >/dev/null
mkdir -p build/main
ports/baremetal/run-qemu-bench.sh $icount | tee build/main/qemu-virt-bench.log |
  sed -n '/^d1drivers bare-metal bench/,$p'
echo
python3 tools/d1lat_compare.py --labels "bare metal on QEMU virt${icount:+ (-icount)}" \
  --title "Bench report as the comparison tool shows it" build/main/qemu-virt-bench.log

echo
echo "== the D1 image on the emulated D1 (QEMU -M allwinner-d1, -icount shift=0,sleep=off) =="
python3 tests/emu/bench_d1.py "$img" --log build/main/emu-d1-bench.log >/dev/null ||
  { echo "main.sh: the D1 image failed on the emulated D1 (see build/main/emu-d1-bench.log)"; exit 1; }
sed -n '/^d1drivers bare-metal bench/,$p' build/main/emu-d1-bench.log
echo
python3 tools/d1lat_compare.py \
  --labels "bare metal on QEMU virt${icount:+ (-icount)},D1 image on emulated D1 (-icount)" \
  --title "The same bench: QEMU virt build beside the D1 image on the emulated D1" \
  build/main/qemu-virt-bench.log build/main/emu-d1-bench.log
