#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# scripts/os/tree.sh on bad input, with synthetic tarballs (no OS tree
# needed): each case must end with the exit status and the one line that
# names the file or step, and leave nothing half-unpacked behind.
# Prints "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tree=$root/scripts/os/tree.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

# check NAME WANT_RC WANT_REGEX -- env...: run tree.sh nuttx with the env.
check() {
	local name=$1 want=$2 rx=$3 out rc
	shift 3
	out=$(env -u D1_NUTTX_DIR D1_CACHE="$work/cache" "$@" "$tree" nuttx 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE "$rx" <<<"$out"; then
		pass=$((pass + 1))
		echo "ok    $name"
	else
		fail=$((fail + 1))
		echo "FAIL  $name: exit $rc (want $want), output:"
		echo "$out" | sed 's/^/        /'
	fi
}

# A fake nuttx tarball: not the pinned tree, so its fingerprint differs.
mk() { # dir [content]
	mkdir -p "$1/src/nuttx/arch/risc-v/src/allwinner-d1" "$1/src/nuttx/arch/risc-v/src/common" \
		"$1/src/nuttx/sched/sched"
	echo "${2:-x}" >"$1/src/nuttx/sched/sched/sched.h"
	tar -cJf "$1/nuttx-4ebc8a7291df.tar.xz" -C "$1/src" nuttx
	(cd "$1" && sha256sum nuttx-4ebc8a7291df.tar.xz >SHA256SUMS)
	rm -rf "$1/src"
}

check "no tarball: skipped, names the variable and the file" 3 \
	"SKIP: no nuttx tree: .*/none/nuttx-4ebc8a7291df.tar.xz not found; set D1_NUTTX_DIR" \
	D1_OS_TARBALLS="$work/none"

mk "$work/ok"
check "a tarball of another tree: refused, names the commit expected" 1 \
	"nuttx-4ebc8a7291df.tar.xz is not at nuttx commit 4ebc8a7291df955dece09073b8798db2dfd6490b \(fingerprint [0-9a-f]{64}" \
	D1_OS_TARBALLS="$work/ok"
[ ! -e "$work/cache/os/nuttx-4ebc8a7291df" ] && [ -z "$(ls -A "$work/cache/os" 2>/dev/null)" ] &&
	{ pass=$((pass + 1)); echo "ok    refused tree left nothing in the cache"; } ||
	{ fail=$((fail + 1)); echo "FAIL  refused tree left $(ls -A "$work/cache/os")"; }

check "another tree with D1_OS_ANY_COMMIT=1: a warning, then used" 0 \
	"WARNING: .* D1_OS_ANY_COMMIT=1, building anyway" \
	D1_OS_TARBALLS="$work/ok" D1_OS_ANY_COMMIT=1
[ -f "$work/cache/os/nuttx-4ebc8a7291df/sched/sched/sched.h" ] &&
	{ pass=$((pass + 1)); echo "ok    unpacked into the cache"; } ||
	{ fail=$((fail + 1)); echo "FAIL  not unpacked into the cache"; }

mkdir -p "$work/trunc" && cp "$work/ok/SHA256SUMS" "$work/trunc/" &&
	head -c 100 "$work/ok/nuttx-4ebc8a7291df.tar.xz" >"$work/trunc/nuttx-4ebc8a7291df.tar.xz"
check "truncated tarball: names the file, the checksum found and expected" 1 \
	"trunc/nuttx-4ebc8a7291df.tar.xz: SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64} \(SHA256SUMS\): truncated" \
	D1_OS_TARBALLS="$work/trunc" D1_OS_ANY_COMMIT=1

mkdir -p "$work/nosum" && cp "$work/ok/nuttx-4ebc8a7291df.tar.xz" "$work/nosum/"
check "no SHA256SUMS: names it" 1 "nosum/SHA256SUMS not found" D1_OS_TARBALLS="$work/nosum"
echo "0000  other.tar.xz" >"$work/nosum/SHA256SUMS"
check "no line for the tarball in SHA256SUMS" 1 "SHA256SUMS has no line for nuttx-4ebc8a7291df.tar.xz" \
	D1_OS_TARBALLS="$work/nosum"

mkdir -p "$work/notxz" && echo "not a tarball" >"$work/notxz/nuttx-4ebc8a7291df.tar.xz" &&
	(cd "$work/notxz" && sha256sum nuttx-4ebc8a7291df.tar.xz >SHA256SUMS)
rm -rf "$work/cache"
check "checksum right but not an xz tarball: tar failed" 1 \
	"notxz/nuttx-4ebc8a7291df.tar.xz: tar failed" D1_OS_TARBALLS="$work/notxz"
[ -z "$(ls -A "$work/cache/os" 2>/dev/null)" ] &&
	{ pass=$((pass + 1)); echo "ok    failed unpack left nothing in the cache"; } ||
	{ fail=$((fail + 1)); echo "FAIL  failed unpack left $(ls -A "$work/cache/os")"; }

# A cached tree without its stamp (an unpack cut short) is unpacked again.
mkdir -p "$work/cache/os/nuttx-4ebc8a7291df" && echo half >"$work/cache/os/nuttx-4ebc8a7291df/half"
check "a half-unpacked cache entry is replaced" 0 "unpacking" D1_OS_TARBALLS="$work/ok" D1_OS_ANY_COMMIT=1
[ ! -e "$work/cache/os/nuttx-4ebc8a7291df/half" ] &&
	{ pass=$((pass + 1)); echo "ok    the half-unpacked files are gone"; } ||
	{ fail=$((fail + 1)); echo "FAIL  the half-unpacked files were reused"; }

# The user's own tree: at another commit (git HEAD), refused; not a dir.
git -C "$work" init -q usertree && git -C "$work/usertree" -c user.email=t@t -c user.name=t \
	commit -q --allow-empty -m x
check "the user's git tree at another commit: names its HEAD and the commit expected" 1 \
	"D1_NUTTX_DIR=.*usertree is not at nuttx commit 4ebc8a7291df955dece09073b8798db2dfd6490b \(git HEAD [0-9a-f]{40}" \
	D1_NUTTX_DIR="$work/usertree"
check "D1_NUTTX_DIR not a directory" 1 "D1_NUTTX_DIR=.*/nope is not a directory" D1_NUTTX_DIR="$work/nope"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
