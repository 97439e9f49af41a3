#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages the project's scripts use, only those missing.
# Usage: scripts/deps.sh [package...]   (default: everything the tests need)
set -euo pipefail
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(cmake make gcc pkg-config libcmocka-dev doxygen python3 clang-format cppcheck
        gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
        qemu-system-misc qemu-system-data gnuplot-nox rt-tests)
  pkgs+=(opensbi) # the emulated D1 boots Debian's OpenSBI fw_dynamic (emu/qemu-d1)
  pkgs+=(clang-tidy gcovr) # the reliability gates (scripts/gates/analyse.sh, coverage.sh)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
