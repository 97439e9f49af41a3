#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark figures (printed, not asserted; docs/benchmarks.md): code size
# of the d1 build per object and per use profile, the bench image, MMIO
# accesses of hot paths counted by the models, static instruction counts of
# the hot functions, and the instructions the hot paths execute (the tick,
# d1_lat_record, the PLIC dispatch, the UART RX path per byte), counted
# with -icount shift=0 through instret on QEMU virt and, when its cached
# binary exists, on the emulated D1 (-M allwinner-d1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh cmake gcc pkg-config libcmocka-dev gcc-riscv64-unknown-elf \
  picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf qemu-system-misc \
  qemu-system-data
cmake --preset d1 >/dev/null && cmake --build --preset d1 -j"$(nproc)" >/dev/null
cmake --preset host >/dev/null && cmake --build --preset host -j"$(nproc)" >/dev/null

lib=build/d1/src/libd1drivers.a
echo "== size of the d1 build ($(riscv64-unknown-elf-gcc -dumpversion), MinSizeRel: -Os) =="
echo "-- core, what a device links ($lib):"
riscv64-unknown-elf-size -t "$lib" | sed 's/ (ex [^)]*)//'
echo "-- optional read side (build/d1/src/libd1drivers_report.a, target d1drivers_report):"
riscv64-unknown-elf-size -t build/d1/src/libd1drivers_report.a | sed 's/ (ex [^)]*)//'

echo
echo "== D1 bench image (build/d1/ports/baremetal/bm_bench.elf) =="
riscv64-unknown-elf-size build/d1/ports/baremetal/bm_bench.elf
riscv64-unknown-elf-size -A build/d1/ports/baremetal/bm_bench.elf | grep -E '^\.(text|rodata|data|bss|stack) '

echo
echo "== library code linked per use profile (--gc-sections link, sections from the two archives only) =="
python3 scripts/size_profiles.py build/d1 include

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
echo "== d1_lat_record: instructions executed per path (every CFG path of the d1 object; bench/tools/count_paths.py) =="
python3 bench/tools/count_paths.py build/d1/src/CMakeFiles/d1drivers.dir/latency.c.obj d1_lat_record |
  sed -n '1p;$p'

echo
echo "== d1_timer_isr and d1_lat_record executed instructions per path (-icount shift=0, instret) =="
tests/bench_timer_isr_qemu.sh build/d1

echo
echo "== d1_plic_isr executed instructions, one level interrupt (QEMU virt -icount shift=0, bm_plic_test) =="
cmake --preset qemu-virt >/dev/null && cmake --build --preset qemu-virt -j2 --target bm_plic_test >/dev/null
# Only the count line: the image's other checks are ctest's (qemu_plic runs
# it without -icount).
plic_out=$(timeout 60 qemu-system-riscv64 -M virt -smp 1 -m 128M -nographic \
  -icount shift=0,sleep=off -kernel build/qemu-virt/ports/baremetal/bm_plic_test.elf \
  </dev/null | tr -d '\r' || true)
line=$(echo "$plic_out" | grep 'plic_isr instret' || true)
echo "${line:-   (no count line)}"
call=$(echo "$line" | sed -n 's/.*call \([0-9]*\),.*/\1/p')
# From the image's disassembly (docs/benchmarks.md): the first rdinstret
# bracket adds 7 instructions (rdinstret, 4 argument moves, jal, sext.w),
# the RTC handler is 6.
[ -n "$call" ] && echo "   d1_plic_isr alone: $((call - 13)) executed (call - 7 bracket - 6 handler)"
lean=$(echo "$plic_out" | grep 'plic lean instret' || true)
echo "${lean:-   (no lean count line)}"

echo
echo "== UART RX path per byte (QEMU virt -icount shift=0, bm_uart_rx; bench/bench_qemu_uart.sh) =="
bench/bench_qemu_uart.sh build/qemu-virt
