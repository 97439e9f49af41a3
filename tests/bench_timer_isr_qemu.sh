#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Executed instructions of d1_timer_isr() per path (issue 12), counted by
# QEMU virt with -icount shift=0 through instret, on the d1 build's
# libd1drivers.a (-Os, fenced MMIO seam). Prints figures, asserts nothing
# about them. Usage: tests/bench_timer_isr_qemu.sh [d1-build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/d1}
[ -f "$build/src/libd1drivers.a" ] || { cmake --preset d1 >/dev/null && cmake --build --preset d1 -j2 >/dev/null; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/qemu_timer_isr
riscv64-unknown-elf-gcc -Os -march=rv64imafdc_zicsr_zifencei -mabi=lp64d -mcmodel=medany \
  -ffreestanding -nostdlib -nostartfiles -fno-builtin -Iinclude --specs=picolibc.specs \
  -Wall -Wextra -Werror -T "$src/link.ld" "$src/start.S" "$src/main.c" \
  -Wl,--no-warn-rwx-segments "$build/src/libd1drivers.a" -lgcc -o "$tmp/timer_isr.elf"
out=$(timeout 60 qemu-system-riscv64 -M virt -bios none -nographic -icount shift=0 \
  -kernel "$tmp/timer_isr.elf" </dev/null)
echo "$out" | tr -d '\r'
echo "$out" | grep -q '^PASS timer_isr_icount'
