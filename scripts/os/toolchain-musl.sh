#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the musl toolchain the RT-Thread D1 BSP's Smart configuration
# needs (docs/rtsmart.md "The musl toolchain") from Debian packages only:
# musl from Debian's source package (apt-get source musl), compiled by
# Debian's gcc-riscv64-linux-gnu, with the soft-float (lp64) libgcc of
# gcc-riscv64-unknown-elf's rv64imac/lp64 multilib.
#
# Usage: scripts/os/toolchain-musl.sh
#
# Prints the toolchain's bin directory as the last line of stdout; progress
# ("toolchain-musl: step i/n: ...", and "still ..." every minute of a long
# step) and errors go to stderr. Exit 0 = ready, 1 = a step failed (one
# line, "toolchain-musl: FAIL at step 'i/n: ...': ...", naming the step and
# what was expected).
#
# What it makes, under $D1_CACHE/toolchains/musl-<key>/ (D1_CACHE defaults
# to ~/.cache/d1drivers; key = hash of this script, the musl source
# version, the GCC and binutils package versions):
#   bin/riscv64-unknown-linux-musl-gcc, -g++, -cpp
#                       wrappers of riscv64-linux-gnu-gcc with a specs file
#                       in the manner of musl's own musl-gcc.specs (musl's
#                       headers and libraries instead of glibc's, static
#                       links); -march=rv64* gets _zicsr_zifencei appended
#                       (binutils >= 2.38); libgcc and crtbegin/crtend from
#                       the rv64imac/lp64 multilib (Debian's Linux GCC has
#                       only lp64d)
#   bin/riscv64-unknown-linux-musl-<tool>   binutils, as symlinks
#   riscv64-unknown-linux-musl/include, lib
#                       musl for rv64imafdc/lp64 -mcmodel=medany -O2 -g
#                       (static only), headers fixed up: struct sigevent's
#                       sigev_notify_function/_attributes as direct members
#                       (anonymous union, same layout)
#   riscv64-unknown-linux-musl/lib/kernel/libc.a
#                       the kernel flavour: the same musl, but every system
#                       call goes to __d1_kernel_syscall() (lib/kernel/
#                       ksyscall.c), which calls RT-Thread's own POSIX
#                       functions (read, write, open, close, lseek, ioctl)
#                       instead of executing ecall in the kernel; musl's
#                       own read/write/open/close/lseek/ioctl/malloc objects
#                       are left out, so the kernel's definitions are the
#                       only ones (a missing one is a link error, never a
#                       recursion)
#   riscv64-unknown-linux-musl/lib/kernel.specs
#                       what RT-Thread's components/libc/compilers/musl
#                       links with (--specs=kernel.specs): lib/kernel first
#                       on the library path, so -lc is the kernel flavour
# Built in a temporary directory and renamed into place only when every
# step passed: nothing half-built is ever reused. D1_JOBS sets make's -j
# (default 2). D1_MUSL_VERSIONS: the source versions tried, first that
# apt-get source can download wins (default "1.2.3-1", then the newest
# 1.2.x apt-cache showsrc lists).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
self="$root/scripts/os/toolchain-musl.sh"
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
jobs=${D1_JOBS:-2}
N=7
G=riscv64-linux-gnu
E=riscv64-unknown-elf
P=riscv64-unknown-linux-musl
FLAGS="-march=rv64imafdc_zicsr_zifencei -mabi=lp64 -mcmodel=medany"

# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, die, usage, progress_run (prefix toolchain-musl)

case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) say "unknown argument '$1' (usage: scripts/os/toolchain-musl.sh)"; exit 1 ;;
esac

step_of 1 "$N" "Debian packages (gcc-$G, gcc-$E, binutils, dpkg-dev)"
"$root/scripts/deps.sh" gcc-$G binutils-$G gcc-$E binutils-$E dpkg-dev make >&2 ||
	die "scripts/deps.sh could not install gcc-$G binutils-$G gcc-$E binutils-$E dpkg-dev make"
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
gccver=$(pkgver gcc-$G)
elfver=$(pkgver gcc-$E)
binver=$(pkgver binutils-$G)
{ [ -n "$gccver" ] && [ -n "$elfver" ] && [ -n "$binver" ]; } ||
	die "expected gcc-$G, gcc-$E and binutils-$G installed (dpkg-query found '$gccver' '$elfver' '$binver')"

step_of 2 "$N" "musl source version and cache key"
listed=$(apt-cache showsrc musl 2>/dev/null | awk '/^Version: 1\.2\./ {print $2}' | sort -V | tr '\n' ' ' || true)
if [ -z "$listed" ]; then
	apt-get -o DPkg::Lock::Timeout=900 update -qq >&2 || true
	listed=$(apt-cache showsrc musl 2>/dev/null | awk '/^Version: 1\.2\./ {print $2}' | sort -V | tr '\n' ' ' || true)
fi
[ -n "$listed" ] || die "apt-cache showsrc musl lists no 1.2.x source (expected a deb-src entry; emu/qemu-d1/build.sh adds one)"
candidates=()
for v in ${D1_MUSL_VERSIONS:-1.2.3-1} $(echo "$listed" | tr ' ' '\n' | sort -rV); do
	case " $listed " in *" $v "*) ;; *) continue ;; esac
	case " ${candidates[*]:-} " in *" $v "*) ;; *) candidates+=("$v") ;; esac
done
[ ${#candidates[@]} -gt 0 ] || die "none of '${D1_MUSL_VERSIONS:-1.2.3-1}' is listed by apt-cache showsrc musl (listed: $listed)"
ver=${candidates[0]}
key=$( { sha256sum <"$self"; echo "musl $ver"; echo "gcc-$G $gccver"; echo "gcc-$E $elfver"; echo "binutils-$G $binver"; } |
	sha256sum | cut -c1-16)
dest=$cache/toolchains/musl-$key
if [ -f "$dest/.complete" ] && [ -x "$dest/bin/$P-gcc" ]; then
	say "cached: $dest (musl $ver, gcc-$G $gccver)"
	echo "$dest/bin"
	exit 0
fi
say "first run: building the musl toolchain (musl from Debian's source, twice), a few minutes on 2 cores"
mkdir -p "$cache/toolchains" || die "could not create $cache/toolchains (D1_CACHE)"
tmp=$(mktemp -d "$cache/toolchains/.musl-$key.XXXXXX") || die "could not create a temporary directory in $cache/toolchains"
trap 'rm -rf "$tmp"' EXIT

step_of 3 "$N" "apt-get source musl (${candidates[*]})"
got=""
for v in "${candidates[@]}"; do
	mkdir -p "$tmp/dl"
	if (cd "$tmp/dl" && apt-get source -qq --download-only "musl=$v") >"$tmp/dl.log" 2>&1; then
		got=$v
		break
	fi
	say "musl=$v did not download ($(tail -1 "$tmp/dl.log")); trying the next"
	rm -rf "$tmp/dl"
done
[ -n "$got" ] || die "apt-get source could not download any of ${candidates[*]} (expected a deb-src entry and network)"
[ "$got" = "$ver" ] || die "musl=$ver did not download but $got did: rerun to key the cache on $got (D1_MUSL_VERSIONS=$got)"
dsc=("$tmp"/dl/musl_*.dsc)
(cd "$tmp" && dpkg-source -x --no-check "${dsc[0]}" src) >"$tmp/unpack.log" 2>&1 ||
	die "dpkg-source -x ${dsc[0]} failed (expected musl's source tree)"
{ [ -x "$tmp/src/configure" ] && [ -f "$tmp/src/arch/riscv64/syscall_arch.h" ]; } ||
	die "expected configure and arch/riscv64/syscall_arch.h in musl $ver's source"
say "musl $ver, gcc-$G $gccver, gcc-$E $elfver, binutils-$G $binver"

tc=$tmp/tc
sys=$tc/$P
build_musl() { # flavour srcdir prefix
	local fl=$1 src=$2 prefix=$3 obj=$tmp/obj-$1
	mkdir -p "$obj"
	(cd "$obj" && "$src/configure" --target=riscv64 --prefix="$prefix" --disable-shared \
		CC=$G-gcc CROSS_COMPILE=$G- CFLAGS="$FLAGS -O2 -g") >"$tmp/configure-$fl.log" 2>&1 ||
		{ tail -20 "$tmp/configure-$fl.log" >&2; die "musl's configure ($fl) failed"; }
	grep -q 'riscv64-sf' "$tmp/configure-$fl.log" ||
		die "musl's configure ($fl) did not select the soft-float variant riscv64-sf (log $tmp/configure-$fl.log)"
	progress_run "making musl ($fl)" make -C "$obj" -j"$jobs" >"$tmp/make-$fl.log" 2>&1 ||
		{ grep -E 'error' "$tmp/make-$fl.log" | head -20 >&2; die "make of musl ($fl) failed"; }
}

step_of 4 "$N" "musl ($FLAGS -O2 -g, static)"
build_musl user "$tmp/src" "$sys"
make -C "$tmp/obj-user" install >>"$tmp/make-user.log" 2>&1 || die "make install of musl failed"
{ [ -f "$sys/lib/libc.a" ] && [ -f "$sys/lib/crt1.o" ] && [ -f "$sys/include/stdio.h" ]; } ||
	die "expected lib/libc.a, lib/crt1.o and include/stdio.h in musl's install"
# Header fix-up: RT-Thread's kernel (ctime.c) has its own struct member
# named sigev_notify_function, which musl's macros of that name
# (sigev_notify_function -> __sev_fields.__sev_thread....) rewrite. The
# union and struct are made anonymous (C11; same layout) so that the
# names are direct members, and the macros go.
grep -q '} __sev_fields;' "$sys/include/signal.h" || die "expected struct sigevent's __sev_fields union in musl's signal.h"
sed -i -e '/^struct sigevent {/,/^};/ { s/^\t\t} __sev_thread;$/\t\t};/; s/^\t} __sev_fields;$/\t};/ }' \
	-e '/^#define sigev_notify_[a-z_]* __sev_fields\./d' "$sys/include/signal.h"
grep -q '__sev_fields\|__sev_thread' "$sys/include/signal.h" && die "the struct sigevent fix-up did not apply to signal.h"

step_of 5 "$N" "kernel flavour of libc.a (system calls to RT-Thread's POSIX functions)"
cp -a "$tmp/src" "$tmp/ksrc"
cat >"$tmp/ksrc/arch/riscv64/syscall_arch.h" <<'EOF'
/* d1drivers scripts/os/toolchain-musl.sh: the RT-Smart kernel flavour.
 * A system call inside the kernel is a function call (no ecall). */
#define __SYSCALL_LL_E(x) (x)
#define __SYSCALL_LL_O(x) (x)
long __d1_kernel_syscall(long, long, long, long, long, long, long);
static inline long __syscall0(long n) { return __d1_kernel_syscall(n, 0, 0, 0, 0, 0, 0); }
static inline long __syscall1(long n, long a) { return __d1_kernel_syscall(n, a, 0, 0, 0, 0, 0); }
static inline long __syscall2(long n, long a, long b) { return __d1_kernel_syscall(n, a, b, 0, 0, 0, 0); }
static inline long __syscall3(long n, long a, long b, long c)
{ return __d1_kernel_syscall(n, a, b, c, 0, 0, 0); }
static inline long __syscall4(long n, long a, long b, long c, long d)
{ return __d1_kernel_syscall(n, a, b, c, d, 0, 0); }
static inline long __syscall5(long n, long a, long b, long c, long d, long e)
{ return __d1_kernel_syscall(n, a, b, c, d, e, 0); }
static inline long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{ return __d1_kernel_syscall(n, a, b, c, d, e, f); }
#define IPC_64 0
EOF
build_musl kernel "$tmp/ksrc" "$tmp/kout"
mkdir -p "$sys/lib/kernel"
cp "$tmp/obj-kernel/lib/libc.a" "$sys/lib/kernel/libc.a"
cat >"$sys/lib/kernel/ksyscall.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* d1drivers scripts/os/toolchain-musl.sh: musl's system calls inside the
 * RT-Smart kernel, served by RT-Thread's own POSIX functions. Anything
 * else is -ENOSYS. Returns -errno on failure, as a Linux system call. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* RT-Thread's (dfs) definitions; musl's are not in this libc.a. */
int open(const char *path, int flags, ...);
int close(int fd);
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
off_t lseek(int fd, off_t off, int whence);
int ioctl(int fd, int req, ...);

static long ret(long r)
{
	return r < 0 ? -(long)errno : r;
}

static long rw_vec(int fd, const struct iovec *v, int cnt, int wr)
{
	long done = 0;
	for (int i = 0; i < cnt; i++) {
		long r;
		if (v[i].iov_len == 0)
			continue;
		r = wr ? (long)write(fd, v[i].iov_base, v[i].iov_len)
		       : (long)read(fd, v[i].iov_base, v[i].iov_len);
		if (r < 0)
			return done ? done : -(long)errno;
		done += r;
		if ((size_t)r < v[i].iov_len)
			break;
	}
	return done;
}

long __d1_kernel_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	(void)d;
	(void)e;
	(void)f;
	switch (n) {
	case SYS_read:
		return ret(read((int)a, (void *)b, (size_t)c));
	case SYS_write:
		return ret(write((int)a, (const void *)b, (size_t)c));
	case SYS_readv:
		return rw_vec((int)a, (const struct iovec *)b, (int)c, 0);
	case SYS_writev:
		return rw_vec((int)a, (const struct iovec *)b, (int)c, 1);
	case SYS_openat:
		if ((int)a != AT_FDCWD)
			return -ENOSYS;
		return ret(open((const char *)b, (int)c & ~O_LARGEFILE, (int)d));
	case SYS_close:
		return ret(close((int)a));
	case SYS_lseek:
		return ret((long)lseek((int)a, (off_t)b, (int)c));
	case SYS_ioctl:
		return ret(ioctl((int)a, (int)b, (void *)c));
	default:
		return -ENOSYS;
	}
}
EOF
# shellcheck disable=SC2086 # FLAGS is a list of options
"$G-gcc" $FLAGS -O2 -g -nostdinc -isystem "$sys/include" -isystem "$($G-gcc -print-file-name=include)" \
	-Wall -Werror -c "$sys/lib/kernel/ksyscall.c" -o "$tmp/ksyscall.o" 2>"$tmp/ksyscall.log" ||
	{ cat "$tmp/ksyscall.log" >&2; die "ksyscall.c did not compile against musl's headers"; }
# musl's own objects of what the dispatcher calls, errno and its allocator (the
# kernel's malloc is RT-Thread's: ports/rtsmart/patches/0003): removed.
# (lseek.lo stays: its lseek is weak, and stdio calls its hidden __lseek.)
# errno is the kernel's too (RT-Thread's __errno_location).
for o in read.lo write.lo open.lo close.lo ioctl.lo __errno_location.lo malloc.lo free.lo calloc.lo \
	realloc.lo lite_malloc.lo libc_calloc.lo aligned_alloc.lo memalign.lo posix_memalign.lo \
	donate.lo malloc_usable_size.lo replaced.lo; do
	"$G-ar" t "$sys/lib/kernel/libc.a" | grep -qx "$o" || continue
	"$G-ar" d "$sys/lib/kernel/libc.a" "$o" || die "ar could not remove $o from the kernel libc.a"
done
"$G-ar" rs "$sys/lib/kernel/libc.a" "$tmp/ksyscall.o" || die "ar could not add ksyscall.o to the kernel libc.a"
# No ecall left but in musl's assembly entry points of threads, signals
# and vfork (objects the kernel never pulls in: a kernel link is checked
# for ecall in step 7).
left=$("$G-objdump" -d "$sys/lib/kernel/libc.a" 2>/dev/null |
	awk '/file format/ {obj = $1} /\tecall/ {print obj}' | sort -u |
	grep -vE '^(syscall_cp|__unmapself|clone|restore|vfork|__set_thread_area)\.lo:$' || true)
[ -z "$left" ] || die "ecall left in the kernel libc.a in $(echo "$left" | tr '\n' ' ')"

step_of 6 "$N" "wrappers and specs"
mkdir -p "$tc/bin"
# The BSP's link line names -lsupc++ (no C++ in the image): an empty one.
"$G-ar" rc "$sys/lib/libsupc++.a" || die "ar could not create an empty libsupc++.a"
libgcc=$($E-gcc -march=rv64imac -mabi=lp64 -print-libgcc-file-name)
gdir=$(dirname "$libgcc")
{ [ -f "$libgcc" ] && [ -f "$gdir/crtbegin.o" ] && [ -f "$gdir/crtend.o" ] &&
	[ "$gdir" != "$(dirname "$($E-gcc -print-libgcc-file-name)")" ]; } ||
	die "expected gcc-$E's rv64imac/lp64 multilib libgcc.a, crtbegin.o, crtend.o (got $libgcc)"
ginc=$($G-gcc -print-file-name=include)
[ -f "$ginc/stddef.h" ] || die "expected GCC's own stddef.h in $ginc"
# musl-gcc.specs (musl's tools/musl-gcc.specs.sh), static only, with the
# lp64 crtbegin/crtend and libgcc.
cat >"$sys/lib/musl-gcc.specs" <<EOF
%rename cpp_options old_cpp_options

*cpp_options:
-nostdinc -isystem $dest/$P/include -isystem $ginc %(old_cpp_options)

*cc1:
%(cc1_cpu) -nostdinc -isystem $dest/$P/include -isystem $ginc

*link_libgcc:
-L$dest/$P/lib -L$gdir

*libgcc:
$gdir/libgcc.a

*startfile:
%{!shared: $dest/$P/lib/crt1.o} $dest/$P/lib/crti.o $gdir/crtbegin.o

*endfile:
$gdir/crtend.o $dest/$P/lib/crtn.o

*link:
-nostdlib -static %{rdynamic:-export-dynamic}

EOF
cat >"$sys/lib/kernel.specs" <<EOF
%rename link_libgcc kernel_old_link_libgcc

*link_libgcc:
-L$dest/$P/lib/kernel %(kernel_old_link_libgcc)

EOF
for cc in gcc g++ cpp; do
	cat >"$tc/bin/$P-$cc" <<EOF
#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generated by d1drivers scripts/os/toolchain-musl.sh: $G-$cc with musl
# (specs in the manner of musl-gcc.specs). -march=rv64*/rv32* without
# _zicsr gets _zicsr_zifencei (binutils >= 2.38); -B lets
# --specs=kernel.specs find the kernel flavour's specs; static, not PIE
# (Debian's GCC defaults to PIE; a later -fPIC/-fPIE still wins).
set -euo pipefail
args=()
for a in "\$@"; do
	case \$a in
	-march=rv*_zicsr*) args+=("\$a") ;;
	-march=rv*) args+=("\$a"_zicsr_zifencei) ;;
	*) args+=("\$a") ;;
	esac
done
exec $G-$cc -specs "$dest/$P/lib/musl-gcc.specs" -B"$dest/$P/lib/" -fno-pie -no-pie -static "\${args[@]}"
EOF
	chmod +x "$tc/bin/$P-$cc"
done
for t in ar as ld nm objcopy objdump ranlib readelf size strip addr2line strings; do
	p=$(command -v "$G-$t" || true)
	[ -n "$p" ] && ln -s "$p" "$tc/bin/$P-$t"
done
{ [ -e "$tc/bin/$P-size" ] && [ -e "$tc/bin/$P-objcopy" ]; } || die "expected $G-size and $G-objcopy from binutils-$G"

step_of 7 "$N" "smoke test (user program and a kernel-flavour link)"
# The wrappers name $dest: test them from there, moved back on failure.
rm -rf "$dest"
mv "$tc" "$dest"
restore() { rm -rf "$dest"; }
trap 'restore; rm -rf "$tmp"' EXIT
cat >"$tmp/u.c" <<'EOF'
#include <stdio.h>
#include <signal.h>
#include <fcntl.h>
int main(void) { struct sigevent ev; ev.sigev_notify_function = 0; printf("%d\n", O_DIRECTORY); return ev.sigev_notify_function != 0; }
EOF
cat >"$tmp/k.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <sys/types.h>
static int e;
int *__errno_location(void) { return &e; }
int *___errno_location(void) { return &e; }
int open(const char *p, int f, ...) { (void)p; (void)f; return -1; }
int close(int fd) { (void)fd; return 0; }
ssize_t read(int fd, void *b, size_t n) { (void)fd; (void)b; (void)n; return 0; }
ssize_t write(int fd, const void *b, size_t n) { (void)fd; (void)b; return (ssize_t)n; }
off_t lseek(int fd, off_t o, int w) { (void)fd; (void)o; (void)w; return 0; }
int ioctl(int fd, int r, ...) { (void)fd; (void)r; return -1; }
void *malloc(size_t n) { (void)n; return 0; }
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) { (void)a; (void)b; return 0; }
void *realloc(void *p, size_t n) { (void)p; (void)n; return 0; }
void _start(void) { char b[32]; snprintf(b, sizeof b, "%d", 42); fputs(b, stdout); fflush(stdout); for (;;) ; }
EOF
(cd "$tmp" && "$dest/bin/$P-gcc" -march=rv64imafdc -mabi=lp64 -mcmodel=medany -O2 -Wall -Werror u.c -o u.elf) \
	>"$tmp/smoke.log" 2>&1 || { tail -20 "$tmp/smoke.log" >&2; die "the wrapper could not build a static musl program"; }
"$dest/bin/$P-readelf" -h "$tmp/u.elf" | grep -q 'Flags:.*soft-float ABI' || die "expected a soft-float-ABI (lp64) user ELF"
"$dest/bin/$P-readelf" -l "$tmp/u.elf" | grep -q INTERP && die "expected a static user ELF (no PT_INTERP)"
(cd "$tmp" && "$dest/bin/$P-gcc" -march=rv64imafdc -mabi=lp64 -mcmodel=medany -O2 -Wall -Werror -ffreestanding \
	-nostartfiles --specs=kernel.specs k.c -lc -lgcc -o k.elf) >>"$tmp/smoke.log" 2>&1 ||
	{ tail -20 "$tmp/smoke.log" >&2; die "a kernel-flavour link (--specs=kernel.specs -lc) failed"; }
"$dest/bin/$P-nm" "$tmp/k.elf" | grep -q ' __d1_kernel_syscall$' ||
	die "the kernel-flavour link did not take lib/kernel/libc.a (no __d1_kernel_syscall)"
"$dest/bin/$P-objdump" -d "$tmp/k.elf" | grep -qw ecall && die "the kernel-flavour link still contains ecall"
date -u +%FT%TZ >"$dest/.complete"
echo "musl $got; gcc-$G $gccver; gcc-$E $elfver (rv64imac/lp64 libgcc); binutils-$G $binver; $FLAGS" >>"$dest/.complete"
trap 'rm -rf "$tmp"' EXIT
say "ready: $dest"
echo "$dest/bin"
