#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions per received byte in the UART RX interrupt path on rv64,
# counted by QEMU: the bm_uart_rx image reads the instret CSR around
# d1_uart_isr() (and around the whole d1_plic_isr()) while 128 KiB are
# fed into the virt ns16550a; under `-icount shift=0` instret counts guest
# instructions exactly. Prints the figures and the static sizes from the
# disassembly. Also prints the D1 (DW APB) RX path counted against a RAM
# stand-in register file (MEAS dw_probe_*). Usage: bench/bench_qemu_uart.sh [build-dir]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build/qemu-virt}
cd "$ROOT"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	cmake --preset qemu-virt >/dev/null
fi
cmake --build "$BUILD" -j2 --target bm_uart_rx >/dev/null
IMG=$BUILD/ports/baremetal/bm_uart_rx.elf
OUT=$(python3 tests/qemu/uart_rx.py "$IMG" --icount shift=0 --timeout 120)
echo "$OUT" | grep -E '^(STATS|WAKEUPS|MEAS|PASS|FAIL|driver)'
echo "--- static sizes (disassembly of $IMG, $(riscv64-unknown-elf-gcc -dumpversion), build type $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD/CMakeCache.txt")):"
riscv64-unknown-elf-nm -S "$IMG" | while read -r addr size kind name; do
	case "$name" in
	d1_uart_isr | d1_uartp_isr_w8 | d1_uartp_isr_w32 | d1_uartp_rx_ring_slow_w8 | d1_uartp_rx_ring_slow_w32 | d1_uartp_isr_other | d1_plic_isr | d1_plic_claim | d1_plic_complete | bm_trap | bm_trap_entry)
		printf '  %-26s %4d bytes\n' "$name" "$((0x$size))" ;;
	esac
done
echo "$OUT" | grep -q '^PASS uart_rx$'
