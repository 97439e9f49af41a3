#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Locate a verified upstream OS tree for the port builds.
#
# Usage: scripts/os/tree.sh nuttx|nuttx-apps|rt-thread
#
# Prints the tree's root directory as the last line of stdout; messages go
# to stderr, each one line naming the file or step and what was expected.
# Exit status: 0 found, 3 no tree available (skip: the message says what to
# set), 1 bad input (missing checksum entry, truncated or wrong tarball, a
# tree at another commit, a failed unpack).
#
# Where the tree comes from, first match wins:
#   1. the user's own tree: D1_NUTTX_DIR, D1_NUTTX_APPS_DIR or D1_RTT_DIR;
#      it is used in place, after the commit check below;
#   2. a pinned tarball in D1_OS_TARBALLS (default: ../shared/os beside the
#      clone), checked against its SHA256SUMS and unpacked once into
#      $D1_CACHE/os/<name>-<commit> (default cache ~/.cache/d1drivers).
# Nothing is downloaded.  The unpack goes to a temporary directory that is
# renamed into place only when tar succeeded, so a half-unpacked tree is
# never reused.
#
# The commit check: the pins below name each tree's commit and a
# fingerprint, the SHA-256 over the sorted file list and contents of the
# directories the ports build against (scripts/os/tree.sh --fingerprint
# DIR NAME prints it). A git checkout is checked by its HEAD, any other
# tree by the fingerprint. A tree at another commit is refused unless
# D1_OS_ANY_COMMIT=1 (then a warning says the port was verified at the
# pinned commit only).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
tarballs=${D1_OS_TARBALLS:-$root/../shared/os}
LIB_PREFIX=os-tree
. "$root/scripts/lib.sh" # say, die (os-tree: ERROR: ...), usage

# name -> commit, tarball, top directory in the tarball, user variable,
# directories fingerprinted, fingerprint.
pin() {
	case $1 in
	nuttx)
		commit=4ebc8a7291df955dece09073b8798db2dfd6490b
		tarball=nuttx-4ebc8a7291df.tar.xz top=nuttx var=D1_NUTTX_DIR
		fpdirs="arch/risc-v/src/allwinner-d1 arch/risc-v/src/common sched/sched"
		fp=05acd9a643234f13ca3561d95ce32d0b9d2214f77e7a36f4a345ef63076101a9
		;;
	nuttx-apps)
		commit=a71c329cfb0d40c853ddff6c943aed22e34b71a6
		tarball=nuttx-apps-a71c329cfb0d.tar.xz top=apps var=D1_NUTTX_APPS_DIR
		fpdirs="nshlib testing/ostest"
		fp=b9937e5081e691d2ad1048a67cbaf597a3da7405f0d0d9e307557a0d8b3a3dd4
		;;
	rt-thread)
		commit=825cdefe70d0b96c726f748fed28ded45fba8e84
		tarball=rt-thread-825cdefe70d0.tar.xz top=rt-thread var=D1_RTT_DIR
		fpdirs="libcpu/risc-v/t-head/c906 bsp/allwinner/d1s/board src"
		fp=d4e2a4041913add12997cdbdfd6678b9ed8164063e90901f049c7b73780cfa8a
		;;
	*) die "unknown tree '$1' (expected nuttx, nuttx-apps or rt-thread)" ;;
	esac
}

fingerprint() { # dir: sha256 over "path\0sha256" of every file in $fpdirs
	local d=$1 sub
	for sub in $fpdirs; do
		[ -d "$d/$sub" ] || { echo "missing-$sub"; return; }
	done
	(cd "$d" && find $fpdirs -type f -print0 | LC_ALL=C sort -z |
		xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

check_commit() { # dir origin
	local d=$1 origin=$2 head got
	if git -C "$d" rev-parse --git-dir >/dev/null 2>&1; then
		head=$(git -C "$d" rev-parse HEAD)
		[ "$head" = "$commit" ] && return 0
		got="git HEAD $head"
	else
		got=$(fingerprint "$d")
		[ "$got" = "$fp" ] && return 0
		got="fingerprint $got"
	fi
	if [ "${D1_OS_ANY_COMMIT:-0}" = 1 ]; then
		say "WARNING: $origin is not at $name $commit ($got); D1_OS_ANY_COMMIT=1, building anyway (the port is verified at $commit only)"
		return 0
	fi
	die "$origin is not at $name commit $commit ($got; expected fingerprint $fp); point $var at a tree of that commit, or set D1_OS_ANY_COMMIT=1 to build against it anyway"
}

if [ "${1:-}" = --fingerprint ]; then
	[ $# -eq 3 ] || die "usage: scripts/os/tree.sh --fingerprint DIR NAME"
	name=$3
	pin "$name"
	fingerprint "$2"
	exit 0
fi
case ${1:-} in
-h | --help) usage; exit 0 ;;
"") die "usage: scripts/os/tree.sh nuttx|nuttx-apps|rt-thread" ;;
esac
name=$1
pin "$name"

# 1. The user's tree.
user=${!var:-}
if [ -n "$user" ]; then
	[ -d "$user" ] || die "$var=$user is not a directory"
	check_commit "$user" "$var=$user"
	cd "$user" && pwd
	exit 0
fi

# 2. The pinned tarball.
tb=$tarballs/$tarball
if [ ! -f "$tb" ]; then
	say "SKIP: no $name tree: $tb not found; set $var to a $name tree at commit $commit, or D1_OS_TARBALLS to a directory holding $tarball and its SHA256SUMS"
	exit 3
fi
[ -f "$tarballs/SHA256SUMS" ] || die "$tarballs/SHA256SUMS not found (expected the checksum of $tarball there)"
want=$(grep -E "[ *]$tarball\$" "$tarballs/SHA256SUMS" | cut -d' ' -f1 || true)
[ -n "$want" ] || die "$tarballs/SHA256SUMS has no line for $tarball"
# Checked on every run (a fraction of a second), cached tree or not.
got=$(sha256sum "$tb" | cut -d' ' -f1)
[ "$got" = "$want" ] || die "$tb: SHA-256 $got, expected $want (SHA256SUMS): truncated or not the pinned tarball"
dest=$cache/os/$name-${commit:0:12}
# A cached tree is reused only if it came from this very tarball.
if [ "$(cat "$dest/.d1-unpacked" 2>/dev/null)" = "$want" ]; then
	echo "$dest"
	exit 0
fi
mkdir -p "$cache/os"
tmp=$(mktemp -d "$cache/os/.$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "unpacking $tarball into $dest"
tar -xJf "$tb" -C "$tmp" || die "$tb: tar failed (expected an xz tarball with $top/ at its top)"
[ -d "$tmp/$top" ] || die "$tb: no $top/ at the top of the tarball"
check_commit "$tmp/$top" "$tb"
echo "$want" >"$tmp/$top/.d1-unpacked"
rm -rf "$dest"
mv "$tmp/$top" "$dest"
echo "$dest"
