#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the newlib toolchain the RT-Thread D1 BSP needs (docs/rtsmart.md
# "Building the D1 BSP, and what the toolchain lacks") from Debian packages
# only: Debian's riscv64-unknown-elf GCC and binutils, and newlib from
# Debian's newlib-source package (/usr/src/newlib/newlib-*.tar.xz).
#
# Usage: scripts/os/toolchain-newlib.sh
#
# Prints the toolchain's bin directory as the last line of stdout; progress
# ("toolchain-newlib: step i/n: ...", and "still ..." every minute of a long
# step) and errors go to stderr. Exit 0 = ready, 1 = a step failed (one
# line, "toolchain-newlib: FAIL at step 'i/n: ...': ...", naming the step and
# what was expected).
#
# What it makes, under $D1_CACHE/toolchains/newlib-<key>/ (D1_CACHE defaults
# to ~/.cache/d1drivers; key = hash of this script, the newlib-source, GCC
# and binutils package versions):
#   bin/riscv64-nl-gcc, -g++   wrappers of riscv64-unknown-elf-gcc/-g++:
#                              -march=rv64...  gets _zicsr_zifencei appended
#                              (binutils >= 2.38 needs it for CSR and
#                              fence.i); newlib's headers after GCC's own;
#                              newlib's libraries and the rv64imac/lp64
#                              multilib's libgcc (Debian has no
#                              rv64imafdc/lp64 multilib) on the link path
#   bin/riscv64-nl-<tool>      the other binutils, as symlinks
#   riscv64-nl/include, lib    newlib for rv64imafdc_zicsr_zifencei/lp64
#                              -mcmodel=medany (-O2 -g, no multilib, no
#                              supplied syscalls, no libgloss), plus empty
#                              libsupc++.a and libgloss.a (named by the
#                              BSP's link line and GCC's specs)
# riscv64-nl/include/_newlib_version.h is where RT-Thread's tools/gcc.py
# looks for it (bin/../<prefix>/include). Built in a temporary directory and
# renamed into place only when every step passed: nothing half-built is
# ever reused. D1_JOBS sets make's -j (default 2).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
self="$root/scripts/os/toolchain-newlib.sh"
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
jobs=${D1_JOBS:-2}
N=6
T=riscv64-unknown-elf
ARCH=rv64imafdc_zicsr_zifencei
ABI=lp64

# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, die, usage, progress_run (prefix toolchain-newlib)

case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) say "unknown argument '$1' (usage: scripts/os/toolchain-newlib.sh)"; exit 1 ;;
esac

step_of 1 "$N" "Debian packages ($T gcc, binutils, newlib-source)"
"$root/scripts/deps.sh" gcc-$T binutils-$T newlib-source make xz-utils >&2 ||
	die "scripts/deps.sh could not install gcc-$T binutils-$T newlib-source make xz-utils"
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
nlver=$(pkgver newlib-source)
gccver=$(pkgver gcc-$T)
binver=$(pkgver binutils-$T)
{ [ -n "$nlver" ] && [ -n "$gccver" ] && [ -n "$binver" ]; } ||
	die "expected newlib-source, gcc-$T and binutils-$T installed (dpkg-query found '$nlver' '$gccver' '$binver')"
shopt -s nullglob
tarballs=(/usr/src/newlib/newlib-*.tar.*)
shopt -u nullglob
[ ${#tarballs[@]} -eq 1 ] || die "expected one newlib tarball in /usr/src/newlib (newlib-source), found ${#tarballs[@]}"
tarball=${tarballs[0]}

step_of 2 "$N" "cache key"
key=$( { sha256sum <"$self"; echo "newlib-source $nlver"; echo "gcc-$T $gccver"; echo "binutils-$T $binver"; } |
	sha256sum | cut -c1-16)
dest=$cache/toolchains/newlib-$key
if [ -f "$dest/.complete" ] && [ -x "$dest/bin/riscv64-nl-gcc" ]; then
	say "cached: $dest (newlib-source $nlver, gcc-$T $gccver)"
	echo "$dest/bin"
	exit 0
fi
mkdir -p "$cache/toolchains"
tmp=$(mktemp -d "$cache/toolchains/.newlib-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "first run: building the newlib toolchain (newlib from Debian's source), a few minutes on 2 cores"
say "building into $tmp (newlib-source $nlver, gcc-$T $gccver, binutils-$T $binver)"

step_of 3 "$N" "unpack $(basename "$tarball")"
mkdir -p "$tmp/src" "$tmp/obj" "$tmp/out"
tar -xf "$tarball" -C "$tmp/src" || die "tar could not unpack $tarball"
srcs=("$tmp"/src/newlib-*)
[ -x "${srcs[0]}/configure" ] || die "expected newlib-*/configure at the top of $tarball"

step_of 4 "$N" "configure newlib for $ARCH/$ABI -mcmodel=medany"
cflags="-march=$ARCH -mabi=$ABI -mcmodel=medany -O2 -g"
(cd "$tmp/obj" && "${srcs[0]}/configure" --target=$T --prefix="$tmp/out" \
	--disable-multilib --disable-newlib-supplied-syscalls --disable-libgloss \
	--disable-nls CFLAGS_FOR_TARGET="$cflags" MAKEINFO=true) >"$tmp/configure.log" 2>&1 ||
	{ tail -20 "$tmp/configure.log" >&2; die "newlib's configure failed (expected a Makefile in $tmp/obj)"; }

step_of 5 "$N" "make newlib (-j$jobs)"
progress_run "making newlib" make -C "$tmp/obj" -j"$jobs" MAKEINFO=true all-target-newlib >"$tmp/make.log" 2>&1 ||
	{ tail -30 "$tmp/make.log" >&2; die "make all-target-newlib failed (expected libc.a and libm.a)"; }
make -C "$tmp/obj" MAKEINFO=true install-target-newlib >>"$tmp/make.log" 2>&1 ||
	{ tail -30 "$tmp/make.log" >&2; die "make install-target-newlib failed"; }

step_of 6 "$N" "wrappers, empty libsupc++/libgloss, smoke test"
tc=$tmp/tc
mkdir -p "$tc/bin"
mv "$tmp/out/$T" "$tc/riscv64-nl"
nl=$tc/riscv64-nl
{ [ -f "$nl/include/_newlib_version.h" ] && [ -f "$nl/lib/libc.a" ] && [ -f "$nl/lib/libm.a" ]; } ||
	die "expected include/_newlib_version.h, lib/libc.a and lib/libm.a in newlib's install"
libgcc=$($T-gcc -march=rv64imac -mabi=lp64 -print-libgcc-file-name)
{ [ -f "$libgcc" ] && [ "$(dirname "$libgcc")" != "$(dirname "$($T-gcc -print-libgcc-file-name)")" ]; } ||
	die "expected gcc-$T's rv64imac/lp64 multilib libgcc.a (got $libgcc)"
for lib in supc++ gloss; do
	$T-ar rc "$nl/lib/lib$lib.a" || die "ar could not create an empty lib$lib.a"
done
for cc in gcc g++; do
	cat >"$tc/bin/riscv64-nl-$cc" <<EOF
#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generated by d1drivers scripts/os/toolchain-newlib.sh: $T-$cc with newlib.
# -march=rv64*/rv32* without _zicsr gets _zicsr_zifencei (binutils >= 2.38);
# newlib's headers after GCC's; newlib's libraries and the rv64imac/lp64
# multilib's libgcc first on the link path (soft-float ABI, lp64).
set -euo pipefail
nl=\$(cd "\$(dirname "\$(readlink -f "\$0")")/../riscv64-nl" && pwd)
args=()
for a in "\$@"; do
	case \$a in
	-march=rv*_zicsr*) args+=("\$a") ;;
	-march=rv*) args+=("\$a"_zicsr_zifencei) ;;
	*) args+=("\$a") ;;
	esac
done
exec $T-$cc -idirafter "\$nl/include" -L"\$nl/lib" -L"$(dirname "$libgcc")" "\${args[@]}"
EOF
	chmod +x "$tc/bin/riscv64-nl-$cc"
done
for t in ar as ld nm objcopy objdump ranlib readelf size strip addr2line gdb; do
	p=$(command -v "$T-$t" || true)
	[ -n "$p" ] && ln -s "$p" "$tc/bin/riscv64-nl-$t"
done
{ [ -e "$tc/bin/riscv64-nl-size" ] && [ -e "$tc/bin/riscv64-nl-objcopy" ]; } ||
	die "expected $T-size and $T-objcopy from binutils-$T"
# Smoke test: what the BSP does (its flags, -nostartfiles, its libraries).
cat >"$tmp/t.c" <<'EOF'
#include <string.h>
#include <stdio.h>
#include <_newlib_version.h>
char buf[64];
void _start(void) { memset(buf, 1, sizeof buf); snprintf(buf, sizeof buf, "%d", 42); for (;;) ; }
void *_sbrk(int n) { (void)n; return 0; }
EOF
(cd "$tmp" && "$tc/bin/riscv64-nl-gcc" -mcmodel=medany -march=rv64imafdc -mabi=lp64 -O0 -c t.c -o t.o &&
	"$tc/bin/riscv64-nl-gcc" -mcmodel=medany -march=rv64imafdc -mabi=lp64 -nostartfiles \
		-Wl,--gc-sections,--noinhibit-exec t.o -lsupc++ -lgcc -static -o t.elf) >"$tmp/smoke.log" 2>&1 ||
	{ tail -20 "$tmp/smoke.log" >&2; die "the wrapper could not compile and link a newlib program for $ARCH/$ABI"; }
grep -q 'undefined reference to .memset\|undefined reference to .snprintf\|double-float' "$tmp/smoke.log" &&
	{ cat "$tmp/smoke.log" >&2; die "expected memset and snprintf from newlib, soft-float ABI"; }
$T-readelf -h "$tmp/t.elf" | grep -q 'Flags:.*RVC, soft-float ABI' ||
	die "expected a soft-float-ABI (lp64) ELF from the wrapper"
date -u +%FT%TZ >"$tc/.complete"
echo "newlib-source $nlver; gcc-$T $gccver; binutils-$T $binver; $ARCH/$ABI $cflags" >>"$tc/.complete"
rm -rf "$dest"
mv "$tc" "$dest"
say "ready: $dest"
echo "$dest/bin"
