#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device-to-device ordering of the MMIO seam on the target
# (docs/design.md "MMIO ordering"). Cross-compiles three probes through
# include/d1/mmio.h and fails unless the disassembly has, between the two
# device accesses of each probe, a FENCE whose predecessor set holds the
# first access's class (o for a store, i for a load) and whose successor set
# holds the second's. Under RVWMO nothing else orders two device accesses
# when the region is not strongly ordered; `fence w,o` / `fence i,r` order
# device accesses only against memory accesses.
set -euo pipefail
cd "$(dirname "$0")/.."
cc=${CROSS_CC:-riscv64-unknown-elf-gcc}
objdump=${CROSS_OBJDUMP:-riscv64-unknown-elf-objdump}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'C'
#include "d1/mmio.h"
uint32_t probe_w_r(uintptr_t a, uintptr_t b) { d1_mmio_write32(a, 1u); return d1_mmio_read32(b); }
void probe_w_w(uintptr_t a, uintptr_t b) { d1_mmio_write32(a, 1u); d1_mmio_write32(b, 2u); }
void probe_r_w(uintptr_t a, uintptr_t b) { (void)d1_mmio_read32(a); d1_mmio_write32(b, 2u); }
C
"$cc" --specs=picolibc.specs -Os -march=rv64imafdc_zicsr_zifencei -mabi=lp64d -ffunction-sections -Iinclude \
  -c "$tmp/probe.c" -o "$tmp/probe.o"
fail=0
check() { # function, first access (sw|lw), needed pred class, second access, needed succ class
  local fn=$1 first=$2 pred=$3 second=$4 succ=$5
  if ! "$objdump" -d --no-show-raw-insn -j ".text.$fn" "$tmp/probe.o" |
     awk -v first="$first" -v second="$second" -v pred="$pred" -v succ="$succ" '
       $2 == first && !seen_first { seen_first = 1; next }
       seen_first && $2 == "fence" { split($3, s, ","); if (index(s[1], pred) && index(s[2], succ)) ok = 1; next }
       seen_first && $2 == second { exit ok ? 0 : 1 }
       END { if (!seen_first) exit 1 }'; then
    echo "check_mmio_order: $fn: no fence ${pred},${succ} between the device $first and the device $second" >&2
    fail=1
  else
    echo "check_mmio_order: $fn: ordered"
  fi
}
check probe_w_r sw o lw i
check probe_w_w sw o sw o
check probe_r_w lw i sw o
exit "$fail"
