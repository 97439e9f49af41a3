#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command: every test of the project, from a fresh clone.
#  1. host preset: cmocka tests on peripheral models (ASan+UBSan), SVD
#     cross-check, packaging, Doxygen with warnings as errors;
#  2. reliability gates (docs/reliability.md): bad-input table and bounded
#     waits, interrupt interleaving, coverage floors, analysers, fuzzing;
#  3. d1 preset: the cross build with -Werror, and its libc-symbol check;
#     then the docs' figures against the commands that print them;
#  4. qemu-virt preset: bare-metal images on QEMU's PLIC/16550/OpenSBI;
#  5. the D1 images on the emulated D1 (QEMU machine allwinner-d1 built from
#     Debian's qemu source + emu/qemu-d1, cached; docs/emulator.md);
#  6. the OS ports built against upstream NuttX and RT-Thread, Smart off and
#     on (the pinned trees of ../shared/os, or the user's: scripts/os/tree.sh)
#     and booted on the emulated D1 (scripts/os/nuttx.sh, scripts/os/rtthread.sh
#     [--smart]); without a tree the stage says what to set and is skipped;
#     Debian's Linux 6.1, PREEMPT and PREEMPT_RT (scripts/os/linux.sh);
#  7. the comparison: every OS's bench rows against the committed baseline
#     (bench/comparison.sh --check).
# Every stage runs even if an earlier one failed (except where it needs the
# earlier one's build); the run ends with one screen of figures (each stage
# writes its line to build/gates/<stage>.summary) and fails if any stage did.
set -uo pipefail
cd "$(dirname "$0")/.."
LIB_PREFIX=test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh # progress_run
# The Python drivers import modules of the tree (tests/emu, tests/qemu,
# tools): no __pycache__ written into the clone.
export PYTHONDONTWRITEBYTECODE=1
scripts/deps.sh || exit 1
jobs=$(nproc)
out=build/gates
rm -rf "$out"
mkdir -p "$out"
failed=()

# stage <name> <command...>: run it, time it, record the outcome.
stage() {
	local name=$1 t0 rc
	shift
	echo "== test.sh: $name =="
	t0=$(date +%s)
	"$@"
	rc=$?
	echo "$name $rc $(($(date +%s) - t0))" >>"$out/stages"
	[ "$rc" -eq 0 ] || failed+=("$name")
	return "$rc"
}

# ctest_stage <preset>: ctest, with its counts as the stage's summary line.
ctest_stage() {
	local preset=$1 log="$out/ctest-$1.log" rc skipped extra=""
	# A preset that finds no test fails (ctest's default passes it).
	ctest --preset "$preset" -j"${2:-$jobs}" --no-tests=error 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	# ctest counts a skipped test in "out of N"; its list says which.
	skipped=$(grep -cE '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$log")
	[ "$skipped" -eq 0 ] || extra=", $skipped skipped"
	# ctest's own line: "100% tests passed, 0 tests failed out of 30"
	sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\)$/\2 run, \1 failed/p' \
		"$log" | tail -1 | sed "s/^/ctest $preset: /; s/\$/$extra/" >"$out/ctest-$preset.summary"
	return "$rc"
}

host_build() {
	cmake --preset host >/dev/null && cmake --build --preset host -j"$jobs"
}
d1_build() {
	cmake --preset d1 >/dev/null && cmake --build --preset d1 -j"$jobs" &&
		scripts/check_freestanding.sh build/d1/src/libd1drivers.a &&
		scripts/check_freestanding.sh build/d1/src/libd1drivers.a \
			build/d1/src/libd1drivers_report.a &&
		tests/check_mmio_order.sh &&
		riscv64-unknown-elf-size -t build/d1/src/libd1drivers.a | tail -1 |
		awk '{print "d1 build: -Werror clean, core archive text " $1 " B"}' >"$out/d1-build.summary"
}
virt_build() {
	cmake --preset qemu-virt >/dev/null && cmake --build --preset qemu-virt -j"$jobs"
}
emulator() {
	echo "test.sh: emulator from emu/qemu-d1/build.sh (built on first use, 6-25 min, then cached)"
	# stdout (the binary's path) is captured, progress goes to the log and the terminal.
	D1_EMU_QEMU=$({ progress_run "building the emulator (or finding it cached)" emu/qemu-d1/build.sh 2>&1 >&3 |
		tee "$out/emulator.log" >&2; } 3>&1) ||
		return 1
	D1_EMU_QEMU=${D1_EMU_QEMU##*$'\n'} # its last line is the path
	[ -x "$D1_EMU_QEMU" ] || return 1
	export D1_EMU_QEMU
	if grep -q "^emu-build: cached binary for key" "$out/emulator.log"; then
		echo "emulator: cached ($D1_EMU_QEMU)" >"$out/emulator.summary"
	else
		echo "emulator: built from Debian's qemu source + emu/qemu-d1" >"$out/emulator.summary"
	fi
}

if stage host-build host_build; then
	stage host-tests ctest_stage host
	for g in badinput interleave coverage analyse fuzz; do
		if [ -x "scripts/gates/$g.sh" ]; then
			stage "$g" "scripts/gates/$g.sh"
		else
			echo "$g: scripts/gates/$g.sh missing" >"$out/$g.summary"
			echo "$g 1 0" >>"$out/stages"
			failed+=("$g")
		fi
	done
fi
stage d1-build d1_build
# The figures the pages state against the commands that print them, and the
# D1_/d1_ names they cite against the tree (tests/check_docs_figures.py,
# docs/figures.tsv); after both builds, whose binaries print the figures.
stage docs python3 tests/check_docs_figures.py --summary "$out/docs.summary"
if stage virt-build virt_build; then
	stage virt-tests ctest_stage qemu-virt 1
fi
# The emulator's tests run one QEMU at a time (tests/emu/CMakeLists.txt).
if stage emulator emulator && [ -f build/d1/CTestTestfile.cmake ]; then
	stage emu-d1-tests ctest_stage d1 1
fi
# The emulator's timing mode (docs/emulator.md "Timing mode"): its
# micro-programs against their documented C906 cycle counts, and the
# bare-metal bench in C906 time.
if [ -n "${D1_EMU_QEMU:-}" ] && [ -f build/d1/ports/baremetal/bm_bench.bin ]; then
	stage c906-time tests/emu/c906_time.sh --summary "$out/c906-time.summary"
else
	echo "c906-time: not run (no emulator or no d1 build)" >"$out/c906-time.summary"
	echo "c906-time 1 0" >>"$out/stages"
	failed+=("c906-time")
fi

# os_stage <name> <script> [args]: an OS port's script; its exit 3 means no
# tree here (skipped, its summary line says what to set), not a failure.
os_stage() {
	local name=$1 script=$2 rc
	shift 2
	"$script" "$@" --summary "$out/$name.summary" --logs "$out/$name"
	rc=$?
	[ "$rc" -eq 3 ] && return 0
	return "$rc"
}
if [ -n "${D1_EMU_QEMU:-}" ]; then
	stage nuttx os_stage nuttx scripts/os/nuttx.sh
	stage rtthread os_stage rtthread scripts/os/rtthread.sh
	stage rtsmart os_stage rtsmart scripts/os/rtthread.sh --smart
	stage linux os_stage linux scripts/os/linux.sh
	# The comparison from the benches those stages ran, against the
	# committed baseline (bench/comparison/baseline.txt).
	stage comparison bench/comparison.sh --from-logs "$out" --check \
		--out "$out/comparison" --summary "$out/comparison.summary"
else
	for o in nuttx rtthread rtsmart linux comparison; do
		echo "$o: not run (no emulator)" >"$out/$o.summary"
		echo "$o 1 0" >>"$out/stages"
		failed+=("$o")
	done
fi

scripts/gates/screen.sh "$out"
if [ ${#failed[@]} -ne 0 ]; then
	echo "test.sh: FAILED: ${failed[*]}"
	exit 1
fi
echo "test.sh: all test stages passed"
