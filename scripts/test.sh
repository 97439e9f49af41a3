#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command: every test of the project, from a fresh clone.
#  1. host preset: cmocka tests on peripheral models (ASan+UBSan), SVD
#     cross-check, packaging, Doxygen with warnings as errors;
#  2. d1 preset: the cross build with -Werror, and its libc-symbol check;
#  3. qemu-virt preset: bare-metal images on QEMU's PLIC/16550/OpenSBI.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

cmake --preset host >/dev/null
cmake --build --preset host -j"$jobs"
ctest --preset host -j"$jobs"

cmake --preset d1 >/dev/null
cmake --build --preset d1 -j"$jobs"
scripts/check_freestanding.sh build/d1/src/libd1drivers.a
tests/check_mmio_order.sh

if [ -f ports/baremetal/CMakeLists.txt ]; then
  cmake --preset qemu-virt >/dev/null
  cmake --build --preset qemu-virt -j"$jobs"
  ctest --preset qemu-virt
fi
# 4. the D1 images of stage 2 on the emulated D1 (QEMU machine allwinner-d1
#    built from Debian's qemu source + emu/qemu-d1; docs/emulator.md).
echo "test.sh: emulated D1: emulator from emu/qemu-d1/build.sh (built on first use, ~9 min, then cached)"
D1_EMU_QEMU=$(emu/qemu-d1/build.sh)
export D1_EMU_QEMU
ctest --preset d1
echo "test.sh: all test stages passed"
