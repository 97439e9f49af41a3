#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cross-built library may need only the port contract (d1/port.h; the
# optional d1_port_probe32 has a weak default in the archive) and what GCC itself
# emits (memset/memcpy for struct initialisation and copies): no libc.
set -euo pipefail
# Several archives (the core and libd1drivers_report.a) are checked as one
# link: a symbol one of them defines is not undefined.
[ $# -gt 0 ] || set -- build/d1/src/libd1drivers.a
allowed='^(d1_port_delay_us|d1_port_critical_enter|d1_port_critical_exit|d1_port_probe32|memset|memcpy)$'
defined=$(riscv64-unknown-elf-nm --defined-only "$@" | awk 'NF==3 {print $3}' | sort -u)
undef=$(riscv64-unknown-elf-nm -u "$@" | awk 'NF==2 {print $2}' | sort -u |
  comm -23 - <(echo "$defined"))
bad=$(echo "$undef" | grep -Ev "$allowed" | grep -v '^$' || true)
echo "undefined symbols in $(basename -a "$@" | tr '\n' ' ')(together): $(echo $undef)"
if [ -n "$bad" ]; then
  echo "FAIL: unexpected undefined symbols: $bad" >&2
  exit 1
fi
echo "freestanding check: OK (only the port contract and compiler-emitted memset/memcpy)"
