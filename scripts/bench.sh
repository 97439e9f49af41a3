#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark figures (printed, not asserted): code size of the d1 build per
# object, MMIO accesses of hot paths counted by the models, and static
# instruction counts of the cross-compiled hot functions (from objdump).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh cmake gcc pkg-config libcmocka-dev gcc-riscv64-unknown-elf \
  picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
cmake --preset d1 >/dev/null && cmake --build --preset d1 -j"$(nproc)" >/dev/null
cmake --preset host >/dev/null && cmake --build --preset host -j"$(nproc)" >/dev/null

lib=build/d1/src/libd1drivers.a
echo "== size of the d1 build ($(riscv64-unknown-elf-gcc -dumpversion), MinSizeRel: -Os) =="
riscv64-unknown-elf-size -t "$lib" | sed 's/ (ex [^)]*)//'

echo
echo "== MMIO accesses per call, counted by the peripheral models =="
for b in build/host/tests/bench_*_mmio; do
  [ -x "$b" ] && "$b"
done

echo
echo "== static instruction count of hot functions (rv64imafdc, -Os; whole function body, not one path) =="
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && riscv64-unknown-elf-ar x "$OLDPWD/$lib")
for fn in d1_timer_isr d1_timer_elapsed d1_timer_irq_ack d1_uart_isr d1_plic_isr \
          d1_plic_claim d1_plic_complete d1_lat_record; do
  for o in "$tmp"/*.obj; do
    # -ffunction-sections: the function is its section (local labels included);
    # static callees keep their own sections and are not counted here.
    n=$(riscv64-unknown-elf-objdump -d --no-show-raw-insn -j ".text.$fn" "$o" 2>/dev/null |
        grep -cE '^ *[0-9a-f]+:' || true)
    if [ "$n" -gt 0 ]; then
      printf '%-22s %4d instructions (%s)\n' "$fn" "$n" "$(basename "$o" .c.obj)"
    fi
  done
done

echo
echo "== d1_timer_isr executed instructions per path (QEMU virt -icount shift=0, instret) =="
tests/bench_timer_isr_qemu.sh build/d1
