#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages the project's scripts use, only those missing.
# Usage: scripts/deps.sh [package...]   (default: everything the tests need)
set -euo pipefail
LIB_PREFIX=deps
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh" # say, usage, progress_run
case "${1:-}" in
-h | --help) usage; exit 0 ;;
-*) say "unknown option $1 (usage: scripts/deps.sh [package...])"; exit 2 ;;
esac
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(cmake make gcc pkg-config libcmocka-dev doxygen python3 clang-format cppcheck
        gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
        qemu-system-misc qemu-system-data gnuplot-nox rt-tests)
  pkgs+=(opensbi) # the emulated D1 boots Debian's OpenSBI fw_dynamic (emu/qemu-d1)
  pkgs+=(clang-tidy gcovr) # the reliability gates (scripts/gates/analyse.sh, coverage.sh)
  pkgs+=(clang libclang-rt-14-dev) # libFuzzer (scripts/gates/fuzz.sh)
  pkgs+=(libc6-dev) # gcc only recommends it, and recommends are not installed below
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
say "installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# On a new VM, unattended-upgrades or cloud-init may hold apt's locks: wait
# for the dpkg lock; apt-get update does not wait for the lists lock, so it
# is retried. sudo drops DEBIAN_FRONTEND from the environment: env sets it.
lock=(-o DPkg::Lock::Timeout=900)
for try in 1 2 3 4 5; do
  $SUDO apt-get "${lock[@]}" update -qq && break
  [ "$try" -lt 5 ] || exit 1
  say "apt-get update failed (try $try of 5), retrying in 30 s"
  sleep 30
done
progress_run "installing ${#missing[@]} packages" \
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq \
  --no-install-recommends "${missing[@]}" >/dev/null
