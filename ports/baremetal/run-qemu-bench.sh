#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run the bare-metal latency bench built for QEMU virt and print its report.
# The image starts the way it starts on the board: an S-mode payload at
# 0x80200000 under the OpenSBI bundled with QEMU
# (qemu-system-riscv64 -M virt -nographic -kernel bm_bench.elf), PLIC
# context 1, exit through SBI system reset.
#
# Usage: ports/baremetal/run-qemu-bench.sh [--icount] [--image FILE]
#   --icount  run with -icount shift=0,sleep=off: virtual time follows the
#             instruction count, so the result does not depend on how busy
#             the host is (a wall-clock run on a loaded host misses periods
#             because the host wakes QEMU late; see docs/baremetal.md).
# Builds the qemu-virt preset first if needed. Exit status: QEMU's (0 = done).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build/qemu-virt
IMG=
ICOUNT=
while [ $# -gt 0 ]; do
	case "$1" in
	--icount) ICOUNT="-icount shift=0,sleep=off" ;;
	--image) IMG=$2; shift ;;
	-h | --help) sed -n '2,16p' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$IMG" ]; then
	if [ ! -f "$BUILD/CMakeCache.txt" ]; then
		(cd "$ROOT" && cmake --preset qemu-virt >/dev/null)
	fi
	cmake --build "$BUILD" -j2 --target bm_bench >/dev/null
	IMG=$BUILD/ports/baremetal/bm_bench.elf
fi
# shellcheck disable=SC2086 # ICOUNT is two words or none
exec timeout 600 qemu-system-riscv64 -M virt -smp 1 -m 128M -nographic $ICOUNT -kernel "$IMG" </dev/null
