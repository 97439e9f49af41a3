#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Gate: the analysers. clang-tidy (.clang-tidy), gcc -fanalyzer -Werror and
# cppcheck --enable=all over src/, ports/ and the C tools (tests/bench_*.c,
# tests/lat_report_demo.c), each on the compile commands of the real builds:
#   host       build/analyse/host      (the library, hooked and DW-only variants,
#                                       bench/linux, the NuttX and RT-Thread glue
#                                       on their stand-in headers, as the host
#                                       tests compile them)
#   d1         build/analyse/d1        (ports/baremetal for the D1, riscv64)
#   qemu-virt  build/analyse/qemu-virt (ports/baremetal for QEMU virt, riscv64)
# Only configured (CMAKE_EXPORT_COMPILE_COMMANDS), not built. tools/ is Python:
# no C analyser runs on it.
# Writes build/gates/analyse.summary; exits 1 on any finding (printed).
# Usage: scripts/gates/analyse.sh   (from anywhere; runs at the repo root)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/gates/summary.sh
gate_summary analysers build/gates/analyse.summary
gate_step "installing packages (scripts/deps.sh)"
scripts/deps.sh cmake gcc gcc-riscv64-unknown-elf clang-tidy cppcheck python3
start=$(date +%s)
mkdir -p build/gates
summary=build/gates/analyse.summary
gate_step "configuring the analyse presets"
for p in analyse analyse-d1 analyse-qemu-virt; do
	cmake --preset "$p" >/dev/null || gate_fail "cmake --preset $p failed"
done
gate_step "running scripts/gates/analyse.py"
res=$(python3 scripts/gates/analyse.py . build/analyse build/analyse/{host,d1,qemu-virt}/compile_commands.json) ||
	gate_fail "scripts/gates/analyse.py failed"
read -r tidy fan cpp files entries <<<"$res"
# An analyser run over nothing proves nothing: no file or no compile command
# (an empty or missing compile_commands.json, a filter that drops every
# entry) fails the gate.
for v in "$tidy" "$fan" "$cpp" "$files" "$entries"; do
	[[ $v =~ ^[0-9]+$ ]] || gate_fail "analyse.py printed no counts ('$res')"
done
[ "$files" -gt 0 ] || gate_fail "0 files analysed ($entries compile commands): nothing checked"
[ "$entries" -gt 0 ] || gate_fail "0 compile commands ($files files): nothing checked"
secs=$(($(date +%s) - start))
line="analysers: clang-tidy $tidy, gcc -fanalyzer $fan, cppcheck $cpp findings over $files files ($entries compile commands), $secs s"
echo "$line" | tee "$summary"
[ "$tidy" -eq 0 ] && [ "$fan" -eq 0 ] && [ "$cpp" -eq 0 ]
