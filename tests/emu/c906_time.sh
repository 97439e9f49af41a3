#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stage c906-time of scripts/test.sh: the emulated D1's timing mode
# (-M allwinner-d1,timing=c906; docs/emulator.md "Timing mode"). Runs
# tests/emu/c906_time.py check: the micro-programs against the C906 cycle
# counts the documentation fixes, determinism, the bare-metal bench in C906
# time with both modes' wall time, and the refused bad options.
# Needs the d1 build (build/d1, stage d1-build) and the emulator
# ($D1_EMU_QEMU, else emu/qemu-d1/build.sh).
# Usage: tests/emu/c906_time.sh [--summary FILE]
set -uo pipefail
cd "$(dirname "$0")/../.."
summary=""
while [ $# -gt 0 ]; do
	case $1 in
	--summary) summary=${2:?--summary needs a file}; shift 2 ;;
	*) echo "c906_time.sh: unknown option $1 (usage: --summary FILE)" >&2; exit 2 ;;
	esac
done
export PYTHONDONTWRITEBYTECODE=1
if [ ! -f build/d1/ports/baremetal/bm_bench.bin ]; then
	echo "c906-time: no build/d1/ports/baremetal/bm_bench.bin (cmake --build --preset d1)" >&2
	[ -z "$summary" ] || echo "c906-time: not run (no d1 build)" >"$summary"
	exit 1
fi
if [ -n "$summary" ]; then
	exec python3 tests/emu/c906_time.py check --summary "$summary"
fi
exec python3 tests/emu/c906_time.py check
