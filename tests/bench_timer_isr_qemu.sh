#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Executed instructions of d1_timer_isr() and d1_lat_record() per path,
# counted with -icount shift=0 through instret, on the d1
# build's libd1drivers.a (-Os, fenced MMIO seam): on QEMU virt (-bios none,
# M-mode), and on the emulated D1 (-M allwinner-d1, S-mode under its
# OpenSBI) when its cached binary is there ($D1_EMU_QEMU, or the one that
# emu/qemu-d1/build.sh cached for this checkout's overlay key; this script
# never builds QEMU). Prints figures, asserts nothing
# about them. Usage: tests/bench_timer_isr_qemu.sh [d1-build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/d1}
[ -f "$build/src/libd1drivers.a" ] || { cmake --preset d1 >/dev/null && cmake --build --preset d1 -j2 >/dev/null; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/qemu_timer_isr
cc() {
  riscv64-unknown-elf-gcc -Os -march=rv64imafdc_zicsr_zifencei -mabi=lp64d -mcmodel=medany \
    -ffreestanding -nostdlib -nostartfiles -fno-builtin -Iinclude --specs=picolibc.specs \
    -Wall -Wextra -Werror -T "$src/link.ld" "$src/start.S" "$src/main.c" \
    -Wl,--no-warn-rwx-segments "$build/src/libd1drivers.a" -lgcc "$@"
}
cc -o "$tmp/timer_isr.elf"
echo "-- QEMU virt ($(qemu-system-riscv64 --version | head -1)), -icount shift=0"
out=$(timeout 60 qemu-system-riscv64 -M virt -bios none -nographic -icount shift=0 \
  -kernel "$tmp/timer_isr.elf" </dev/null)
echo "$out" | tr -d '\r'
echo "$out" | grep -q '^PASS timer_isr_icount'

# The binary of the overlay as it is in this checkout (its key), not the
# newest cached one: an older key is another emulator.
if [ -z "${D1_EMU_QEMU:-}" ]; then
  key=$(emu/qemu-d1/build.sh --print-key 2>/dev/null || true)
  cache=${D1_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
  [ -n "$key" ] && D1_EMU_QEMU=$cache/qemu-d1/bin/$key/qemu-system-riscv64
fi
d1q=${D1_EMU_QEMU:-}
if [ -n "$d1q" ] && [ -x "$d1q" ]; then
  cc -DHARNESS_D1 -Wl,--defsym=HARNESS_ORIGIN=0x40200000 -o "$tmp/timer_isr_d1.elf"
  riscv64-unknown-elf-objcopy -O binary "$tmp/timer_isr_d1.elf" "$tmp/timer_isr_d1.bin"
  echo "-- emulated D1 ($d1q -M allwinner-d1), -icount shift=0"
  # No finisher on this machine by default: stop QEMU once PASS is printed.
  timeout 60 "$d1q" -M allwinner-d1 -display none -monitor none -no-reboot \
    -icount shift=0 -serial stdio -kernel "$tmp/timer_isr_d1.bin" </dev/null >"$tmp/d1.log" 2>&1 &
  qpid=$!
  for _ in $(seq 600); do
    grep -q '^PASS timer_isr_icount' "$tmp/d1.log" && break
    kill -0 "$qpid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$qpid" 2>/dev/null || true
  wait "$qpid" 2>/dev/null || true
  # The guest's last line has no newline: QEMU's message on the kill follows it.
  out=$(tr -d '\r' <"$tmp/d1.log" | sed -n '/^calibration/,/^PASS/{s/qemu-system-riscv64: terminating.*//;p}')
  echo "$out"
else
  echo "-- emulated D1: no cached emulator binary (emu/qemu-d1/build.sh), skipped"
fi
