#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build Linux for the emulated D1 from Debian packages and boot it there.
#
# Usage: scripts/os/linux.sh [--summary FILE] [--logs DIR] [--build-only]
#                         [--no-bench] [--flavour preempt|rt] [CHECK...]
#
# Builds (each cached by a key over its inputs under
# ${D1_CACHE:-~/.cache/d1drivers}/linux/, built in a temporary directory
# that is renamed on success, so an interrupted build leaves nothing that
# looks finished):
#   kernel-preempt  Debian's linux 6.1 source (a pinned version, with a
#                   fallback list), allnoconfig + the D1 fragment below,
#                   CONFIG_PREEMPT
#   kernel-rt       the same source with Debian's debian/patches-rt and one
#                   line selecting ARCH_SUPPORTS_RT on riscv, CONFIG_PREEMPT_RT
#   busybox         Debian's busybox source, Debian's static config
#   initrd-*        per kernel: busybox, /init, d1lat-linux, d1load and d1svc (static), the
#                   d1timer module (bench/linux/module) built against it
# Then tests/os/linux_boot.py boots each kernel on the emulated D1 and runs
# its checks (default: all of them, the latency rows included; --no-bench
# leaves out the two boots of the rows, about 1.5 min per flavour). The
# rows (d1lat JSON lines: the latency rows and d1svc's service
# measurements) are collected in LOGS/linux-rows.jsonl. CHECK
# names: boot probe uart grid module wdog nplus1 bench nodev (the
# docstring of tests/os/linux_boot.py says what each asserts).
# Progress goes to stderr; a failure ends with one line naming the step.
# Toolchain: Debian's gcc-riscv64-linux-gnu (installed by scripts/deps.sh).
# The emulator: $D1_EMU_QEMU, else emu/qemu-d1/build.sh.
# Exit status: 0 all passed, 1 a failure.
set -eEuo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
LIB_PREFIX=linux
LIB_SAY_CLOCK=1 # "linux: [Ns] ..."
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, step, die, usage, progress_run
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}/linux
logs=$root/build/gates/linux
summary=""
build_only=0
bench=1
flavours=(preempt rt)
checks=()
while [ $# -gt 0 ]; do
	case $1 in
	--summary) summary=$2; shift 2 ;;
	--logs) logs=$2; shift 2 ;;
	--build-only) build_only=1; shift ;;
	--bench) bench=1; shift ;;
	--no-bench) bench=0; shift ;;
	--flavour) flavours=("$2"); shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "linux: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) checks+=("$1"); shift ;;
	esac
done
for fl in "${flavours[@]}"; do
	case $fl in preempt | rt) ;; *) echo "linux: unknown flavour '$fl' (preempt, rt)" >&2; exit 2 ;; esac
done
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
jobs=$(nproc)
[ "$jobs" -gt 2 ] && jobs=2
LIB_SUMMARY=$summary # die: "linux: FAIL at step '<step>': ..." here too
trap 'die "command failed (line $LINENO; logs in $logs)"' ERR

# Pinned: apt-get source picks the newest version listed, and the newest
# ones listed are not always served (404). The first that downloads wins.
linux_versions=(6.1.187-1 6.1.180-1 6.1.177-1 6.1.176-1)
cross=riscv64-linux-gnu-
kmake=(make -s ARCH=riscv CROSS_COMPILE=$cross -j"$jobs")

# ------------------------------------------------------------------ config
# allnoconfig + this fragment. CONFIG_COMPILE_TEST makes the D1 drivers
# selectable (6.1 has no ARCH_SUNXI on riscv). EXPERT is on in both
# flavours (PREEMPT_RT depends on it), so what EXPERT would drop is listed.
fragment_common() {
	cat <<-'EOF'
	CONFIG_EXPERT=y
	CONFIG_COMPILE_TEST=y
	CONFIG_MMU=y
	CONFIG_FPU=y
	CONFIG_LOCALVERSION="-d1"
	CONFIG_PRINTK=y
	CONFIG_PRINTK_TIME=y
	CONFIG_BUG=y
	CONFIG_MULTIUSER=y
	CONFIG_FUTEX=y
	CONFIG_EPOLL=y
	CONFIG_SIGNALFD=y
	CONFIG_TIMERFD=y
	CONFIG_EVENTFD=y
	CONFIG_SHMEM=y
	CONFIG_POSIX_TIMERS=y
	CONFIG_FILE_LOCKING=y
	CONFIG_BLK_DEV_INITRD=y
	CONFIG_RD_GZIP=y
	CONFIG_BINFMT_ELF=y
	CONFIG_BINFMT_SCRIPT=y
	CONFIG_PROC_FS=y
	CONFIG_SYSFS=y
	CONFIG_TMPFS=y
	CONFIG_DEVTMPFS=y
	CONFIG_DEVTMPFS_MOUNT=y
	CONFIG_TTY=y
	CONFIG_UNIX98_PTYS=y
	CONFIG_SERIAL_8250=y
	CONFIG_SERIAL_8250_CONSOLE=y
	CONFIG_SERIAL_8250_DW=y
	CONFIG_SERIAL_EARLYCON=y
	CONFIG_SIFIVE_PLIC=y
	CONFIG_SUN4I_TIMER=y
	CONFIG_COMMON_CLK=y
	CONFIG_SUNXI_CCU=y
	CONFIG_SUN20I_D1_CCU=y
	CONFIG_RESET_CONTROLLER=y
	CONFIG_WATCHDOG=y
	CONFIG_WATCHDOG_CORE=y
	CONFIG_SUNXI_WATCHDOG=y
	CONFIG_HIGH_RES_TIMERS=y
	CONFIG_NO_HZ_IDLE=y
	CONFIG_HZ_1000=y
	CONFIG_MODULES=y
	CONFIG_MODULE_UNLOAD=y
	CONFIG_FTRACE=y
	CONFIG_TIMERLAT_TRACER=y
	CONFIG_KALLSYMS=y
	EOF
}
fragment() { # flavour
	fragment_common
	case $1 in
	preempt) echo "CONFIG_PREEMPT=y" ;;
	rt) echo "CONFIG_PREEMPT_RT=y" ;;
	esac
}

key_of() { sha256sum | cut -c1-16; }

# ------------------------------------------------------------------ steps
packages() {
	step "packages"
	"$root/scripts/deps.sh" gcc-riscv64-linux-gnu libc6-dev-riscv64-cross \
		bc flex bison libssl-dev libelf-dev cpio kmod dpkg-dev make gcc \
		python3 opensbi device-tree-compiler >"$logs/deps.log" 2>&1 ||
		die "scripts/deps.sh (log: $logs/deps.log)"
	gccver=$(${cross}gcc -dumpfullversion)
}

# Source package $1 at version $2 into $cache/src; echoes the .dsc.
fetch_source() {
	local pkg=$1 ver=$2 up=${2#*:}
	mkdir -p "$cache/src"
	if [ ! -f "$cache/src/.ok-${pkg}_$up" ]; then
		(cd "$cache/src" && apt-get source -qq --download-only "$pkg=$ver") \
			>"$logs/source-$pkg.log" 2>&1 || return 1
		touch "$cache/src/.ok-${pkg}_$up"
	fi
	echo "$cache/src/${pkg}_${up%-*}-${up##*-}.dsc"
}

ensure_deb_src() {
	if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list \
		/etc/apt/sources.list.d/ 2>/dev/null; then
		# emu/qemu-d1/build.sh adds the entries (same suites as deb)
		say "no deb-src entry: emu/qemu-d1/build.sh adds them"
		die "no deb-src entry in apt's sources; run emu/qemu-d1/build.sh once (it adds them)"
	fi
}

linux_source() {
	step "linux source (apt-get source linux, pinned)"
	local v dsc=""
	for v in "${linux_versions[@]}"; do
		[ -f "$cache/src/.ok-linux_$v" ] || ensure_deb_src
		if dsc=$(fetch_source linux "$v"); then
			linux_ver=$v
			break
		fi
		say "linux $v not downloadable (see $logs/source-linux.log); trying the next"
		dsc=""
	done
	[ -n "$dsc" ] || die "none of linux ${linux_versions[*]} could be downloaded"
	linux_tree=$cache/tree/linux-$linux_ver
	if [ ! -d "$linux_tree" ]; then
		say "unpacking $dsc (dpkg-source -x)"
		rm -rf "$linux_tree.tmp"
		mkdir -p "$cache/tree"
		progress_run "unpacking linux" dpkg-source -x --no-check "$dsc" "$linux_tree.tmp" \
			>"$logs/unpack-linux.log" 2>&1
		mv "$linux_tree.tmp" "$linux_tree"
	fi
	rt_tree=$linux_tree-rt
	if [ ! -d "$rt_tree" ]; then
		say "PREEMPT_RT tree: Debian's debian/patches-rt + ARCH_SUPPORTS_RT on riscv"
		rm -rf "$rt_tree.tmp"
		cp -a "$linux_tree" "$rt_tree.tmp"
		local p
		while read -r p; do
			case $p in '' | '#'*) continue ;; esac
			patch -d "$rt_tree.tmp" -p1 -s --batch --forward \
				<"$rt_tree.tmp/debian/patches-rt/$p" >>"$logs/patch-rt.log" 2>&1 ||
				die "debian/patches-rt/$p does not apply (log: $logs/patch-rt.log)"
		done <"$rt_tree.tmp/debian/patches-rt/series"
		# 6.1 upstream has no RT on riscv: the one line that allows it.
		sed -i 's/^\tselect ARCH_SUPPORTS_ATOMIC_RMW$/&\n\tselect ARCH_SUPPORTS_RT/' \
			"$rt_tree.tmp/arch/riscv/Kconfig"
		grep -q 'select ARCH_SUPPORTS_RT' "$rt_tree.tmp/arch/riscv/Kconfig" ||
			die "could not add ARCH_SUPPORTS_RT to arch/riscv/Kconfig"
		mv "$rt_tree.tmp" "$rt_tree"
	fi
}

# Verify that every option of the fragment ended up as asked.
check_config() { # fragment-file .config
	local line sym val bad=()
	while IFS= read -r line; do
		sym=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$2" && bad+=("$sym")
		else
			grep -qxF "$sym=$val" "$2" || bad+=("$sym")
		fi
	done <"$1"
	[ ${#bad[@]} -eq 0 ] || die "kernel config lacks ${bad[*]} (dependencies not met)"
}

kernel() { # flavour
	local fl=$1 tree key dir t0
	tree=$linux_tree
	[ "$fl" = rt ] && tree=$rt_tree
	step "kernel $fl"
	key=$( { echo "linux $linux_ver $fl gcc $gccver"; fragment "$fl"
		 if [ "$fl" = rt ]; then cat "$tree/debian/patches-rt/series"; fi; } | key_of)
	dir=$cache/kernel-$fl-$key
	eval "kdir_$fl=\$dir"
	if [ -f "$dir/arch/riscv/boot/Image" ]; then
		say "cached: $dir"
		return 0
	fi
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	fragment "$fl" >"$dir.tmp/d1.fragment"
	t0=$SECONDS
	"${kmake[@]}" -C "$tree" O="$dir.tmp" allnoconfig >"$logs/kernel-$fl.log" 2>&1
	(cd "$dir.tmp" && "$tree/scripts/kconfig/merge_config.sh" -m -O . .config d1.fragment \
		>>"$logs/kernel-$fl.log" 2>&1)
	"${kmake[@]}" -C "$tree" O="$dir.tmp" olddefconfig >>"$logs/kernel-$fl.log" 2>&1
	check_config "$dir.tmp/d1.fragment" "$dir.tmp/.config"
	say "make Image modules (-j$jobs; 5-8 min on 2 cores)"
	progress_run "building kernel $fl" "${kmake[@]}" -C "$tree" O="$dir.tmp" Image modules \
		>>"$logs/kernel-$fl.log" 2>&1 ||
		{ grep -E 'error|Error' "$logs/kernel-$fl.log" | head -20 >&2
		  die "kernel $fl build (log: $logs/kernel-$fl.log)"; }
	echo "$((SECONDS - t0))" >"$dir.tmp/build-seconds"
	mv "$dir.tmp" "$dir"
	say "kernel $fl built in $(cat "$dir/build-seconds") s: $dir/arch/riscv/boot/Image"
}

busybox() {
	step "busybox (static)"
	local ver dsc key dir src
	ver=$(apt-cache showsrc busybox 2>/dev/null | awk '/^Version:/ {print $2}' | sort -V | tail -1)
	if [ -z "$ver" ]; then # no deb-src entry: the version already downloaded, if any
		ver=$(find "$cache/src" -name '.ok-busybox_*' 2>/dev/null | sed 's/.*\.ok-busybox_//' | sort -V | tail -1)
		[ -n "$ver" ] || ensure_deb_src
		ver=${ver:-$(apt-cache showsrc busybox | awk '/^Version:/ {print $2}' | sort -V | tail -1)}
	fi
	[ -n "$ver" ] || die "apt-cache showsrc busybox finds no source package"
	key=$( { echo "busybox ${ver#*:} gcc $gccver"; busybox_tweaks; } | key_of)
	dir=$cache/busybox-$key
	busybox_bin=$dir/busybox
	[ -x "$busybox_bin" ] && { say "cached: $busybox_bin"; return 0; }
	[ -f "$cache/src/.ok-busybox_${ver#*:}" ] || ensure_deb_src
	dsc=$(fetch_source busybox "$ver") || die "apt-get source busybox=$ver (log: $logs/source-busybox.log)"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	src=$dir.tmp/src
	dpkg-source -x --no-check "$dsc" "$src" >"$logs/busybox.log" 2>&1
	cp "$src/debian/config/pkg/static" "$src/.config"
	busybox_tweaks >>"$src/.config"
	# busybox 1.35's kconfig has no olddefconfig: new symbols take their default
	make -C "$src" -s CROSS_COMPILE=$cross oldconfig >>"$logs/busybox.log" 2>&1 < <(yes "")
	progress_run "building busybox" make -C "$src" -s CROSS_COMPILE=$cross -j"$jobs" busybox \
		>>"$logs/busybox.log" 2>&1 ||
		die "busybox build (log: $logs/busybox.log)"
	cp "$src/busybox" "$dir.tmp/busybox"
	rm -rf "$src"
	mv "$dir.tmp" "$dir"
}
busybox_tweaks() { # appended to Debian's static config (the last one wins)
	printf '%s\n' CONFIG_CHRT=y CONFIG_NICE=y CONFIG_WATCHDOG=y CONFIG_TASKSET=y
}

d1lat() {
	step "d1lat-linux, d1load and d1svc (static)"
	local key dir srcs=(bench/linux/d1lat_linux.c src/latency.c src/latency_report.c src/error.c
		src/bench.c)
	local svc=(bench/linux/d1svc.c src/bench_svc.c src/latency.c src/latency_report.c src/error.c)
	local all=("${srcs[@]}" bench/linux/d1load.c "${svc[@]}")
	key=$( { echo "gcc $gccver"; (cd "$root" && cat "${all[@]}" include/d1/*.h src/*.h); } | key_of)
	dir=$cache/d1lat-$key
	d1lat_bin=$dir/d1lat-linux
	[ -x "$d1lat_bin" ] && { say "cached: $d1lat_bin"; return 0; }
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	(cd "$root" && ${cross}gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -Iinclude \
		-ffunction-sections -Wl,--gc-sections -pthread \
		-o "$dir.tmp/d1lat-linux" "${srcs[@]}") >"$logs/d1lat.log" 2>&1 ||
		{ cat "$logs/d1lat.log" >&2; die "d1lat-linux build"; }
	# d1load: the comparison's defined load (memcpy+uart) beside the benches
	(cd "$root" && ${cross}gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -Iinclude -pthread \
		-o "$dir.tmp/d1load" bench/linux/d1load.c) >>"$logs/d1lat.log" 2>&1 ||
		{ cat "$logs/d1lat.log" >&2; die "d1load build"; }
	# d1svc: the OS-service measurements (d1/bench_svc.h) through POSIX
	(cd "$root" && ${cross}gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -Iinclude \
		-ffunction-sections -Wl,--gc-sections -pthread \
		-o "$dir.tmp/d1svc" "${svc[@]}") >>"$logs/d1lat.log" 2>&1 ||
		{ cat "$logs/d1lat.log" >&2; die "d1svc build"; }
	mv "$dir.tmp" "$dir"
}

module() { # flavour: bench/linux/module against that kernel
	local fl=$1 kdir key dir
	eval "kdir=\$kdir_$fl"
	step "module d1timer ($fl)"
	key=$( { echo "$kdir"; (cd "$root" && find bench/linux/module src include -type f | LC_ALL=C sort |
		 xargs cat); } | key_of)
	dir=$cache/module-$fl-$key
	eval "mod_$fl=\$dir/d1timer.ko"
	[ -f "$dir/d1timer.ko" ] && { say "cached: $dir/d1timer.ko"; return 0; }
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	# Kbuild builds in the module's directory: a copy, with the library.
	cp -a "$root/bench/linux/module/." "$dir.tmp/"
	mkdir -p "$dir.tmp/lib"
	cp -a "$root/src" "$root/include" "$dir.tmp/lib/"
	"${kmake[@]}" -C "$kdir" M="$dir.tmp" W=1 modules >"$logs/module-$fl.log" 2>&1 ||
		{ cat "$logs/module-$fl.log" >&2; die "module build against kernel $fl"; }
	if grep -q 'warning:' "$logs/module-$fl.log"; then
		grep 'warning:' "$logs/module-$fl.log" >&2
		die "warnings in the module build (log: $logs/module-$fl.log)"
	fi
	mv "$dir.tmp" "$dir"
}


initrd() { # flavour
	local fl=$1 mod key dir r
	eval "mod=\${mod_$fl:-}"
	step "initrd ($fl)"
	key=$( { cat "$busybox_bin" "$d1lat_bin" "$(dirname "$d1lat_bin")/d1load" \
		 "$(dirname "$d1lat_bin")/d1svc" "$root/scripts/os/linux-init.sh"
		 if [ -n "$mod" ]; then cat "$mod"; fi; } | key_of)
	dir=$cache/initrd-$fl-$key
	eval "initrd_$fl=\$dir/initrd.cpio.gz"
	[ -f "$dir/initrd.cpio.gz" ] && { say "cached: $dir/initrd.cpio.gz"; return 0; }
	rm -rf "$dir.tmp"
	r=$dir.tmp/root
	mkdir -p "$r"/{bin,sbin,dev,proc,sys,tmp,root,lib/modules,usr/bin,usr/sbin}
	cp "$busybox_bin" "$r/bin/busybox"
	cp "$d1lat_bin" "$r/bin/d1lat-linux"
	cp "$(dirname "$d1lat_bin")/d1load" "$r/bin/d1load"
	cp "$(dirname "$d1lat_bin")/d1svc" "$r/bin/d1svc"
	[ -z "$mod" ] || cp "$mod" "$r/lib/modules/d1timer.ko"
	cp "$root/scripts/os/linux-init.sh" "$r/init"
	chmod 755 "$r/init"
	(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -9n) \
		>"$dir.tmp/initrd.cpio.gz"
	rm -rf "$r"
	mv "$dir.tmp" "$dir"
}

# ------------------------------------------------------------------ main
t_all=$SECONDS
packages
linux_source
if ! compgen -G "$cache/kernel-*/arch/riscv/boot/Image" >/dev/null; then
	say "first run (no kernel in $cache): building ${#flavours[@]} Linux kernel(s), about 15-25 min on 2 cores"
fi
for fl in "${flavours[@]}"; do
	kernel "$fl"
done
busybox
d1lat
for fl in "${flavours[@]}"; do
	module "$fl"
	initrd "$fl"
done
say "builds ready in $((SECONDS - t_all)) s"
for fl in "${flavours[@]}"; do
	eval "echo \"KERNEL_$fl=\$kdir_$fl/arch/riscv/boot/Image\"; echo \"INITRD_$fl=\$initrd_$fl\""
done >"$logs/artifacts.env"
if [ "$build_only" = 1 ]; then
	cat "$logs/artifacts.env"
	[ -z "$summary" ] || echo "linux: built (kernels, busybox, initrds)" >"$summary"
	exit 0
fi

step "emulator"
qemu=${D1_EMU_QEMU:-}
if [ -z "$qemu" ]; then
	qemu=$("$root/emu/qemu-d1/build.sh" | tail -1) || die "emu/qemu-d1/build.sh"
fi
step "boot checks (tests/os/linux_boot.py)"
trap - ERR
args=(--qemu "$qemu" --logs "$logs")
[ "$bench" = 1 ] && args+=(--bench)
rc=0
line=""
: >"$logs/linux-rows.jsonl"
for fl in "${flavours[@]}"; do
	eval "k=\$kdir_$fl/arch/riscv/boot/Image i=\$initrd_$fl"
	# shellcheck disable=SC2154 # set by the eval above
	out=$(progress_run "booting and checking $fl" python3 "$root/tests/os/linux_boot.py" "${args[@]}" \
		--flavour "$fl" --kernel "$k" --initrd "$i" "${checks[@]}" | tee "$logs/boot-$fl.txt") || rc=1
	v=$(grep '^VERDICT:' <<<"$out" | sed 's/^VERDICT: //' || true)
	[ -n "$v" ] || { v="$fl FAIL (no verdict: $logs/boot-$fl.txt)"; rc=1; }
	line+=" $v;"
	grep '^{"tool"' <<<"$out" >>"$logs/linux-rows.jsonl" || true
done
line="linux:${line%;}"
[ -z "$summary" ] || echo "$line" >"$summary"
echo "$line"
exit "$rc"
