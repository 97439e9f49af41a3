#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the RT-Thread D1 images with the d1drivers port and boot them on
# the emulated D1 (docs/rtsmart.md "Build and run").
#
# Usage: scripts/os/rtthread.sh [--smart] [--summary FILE] [--logs DIR]
#
# --smart: the Smart images instead (RT_USING_SMART, RT-Smart's user
# processes): smart-stock, smart-A, smart-B, built with the musl toolchain
# (scripts/os/toolchain-musl.sh); the summary line starts "rtsmart: ".
#
# 1. the RT-Thread tree: scripts/os/tree.sh rt-thread (D1_RTT_DIR, or the
#    pinned tarball in D1_OS_TARBALLS); none -> skip, exit 3;
# 2. the newlib toolchain: scripts/os/toolchain-newlib.sh (cached; with
#    --smart the musl one, scripts/os/toolchain-musl.sh);
# 3. RT-Thread's tools/file_check.py on every ports/rtsmart/*.c|*.h and
#    bench/rtsmart/*.c|*.h (run by Debian's /usr/bin/python3 with
#    python3-yaml, -chardet, -click);
# 4. per image (stock, A, A-bytes, B) a copy of the tree under
#    $D1_CACHE/rtthread-build/<image>/ (re-copied only when the tree, the
#    patch or this script changed; scons's products are kept, so a second
#    run only relinks what changed), the patches in ports/rtsmart/patches
#    applied to the copy, the port added as packages/d1drivers and the bench
#    wing as packages/d1bench, the
#    .config written by RT-Thread's kconfiglib (scripts/os/rtthread_kconfig.py)
#    and turned into rtconfig.h by `scons --useconfig=.config`, then
#    `scons -j2`. The BSP's POST_ACTION loses ./mksdimg.sh (its prebuilt
#    mkimage needs libssl1.1) through scripts/os/rtthread_site/site_init.py
#    (scons --site-dir), so no RT-Thread file is edited;
# 5. image sizes, stock vs port, from the link maps;
# 6. each image booted on the emulated D1 under -icount shift=0,sleep=off
#    by tests/os/rtthread_boot.py (what it asserts: its header).
# Every check prints "ok ..." or "FAIL ..."; --summary FILE gets one line
# starting "rtthread: ". Exit 0 all passed, 1 a failure (a failed step is
# named in one line), 3 skipped (no RT-Thread tree).
# Environment: D1_RTT_DIR, D1_OS_TARBALLS (tree.sh), D1_CACHE (default
# ~/.cache/d1drivers), D1_EMU_QEMU (the emulator; default: what
# emu/qemu-d1/build.sh prints), D1_JOBS (scons -j, default 2). Logs: --logs
# DIR, else build/gates/rtthread/ (rtsmart/ with --smart) if build/gates
# exists, else build/rtthread-logs/ (rtsmart-logs/).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
LIB_PREFIX=rtthread # rtsmart with --smart, below
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, ok, fail (LIB_FAILED), usage, progress_run
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
jobs=${D1_JOBS:-2}
summary_file=""
logs=""
images=(stock A A-bytes B)
smart=0
stage=rtthread
while [ $# -gt 0 ]; do
	case $1 in
	--smart) smart=1; stage=rtsmart; images=(smart-stock smart-A smart-B); shift ;;
	--summary) [ $# -ge 2 ] || { say "--summary needs a file"; exit 1; }
		summary_file=$2; shift 2 ;;
	--logs) [ $# -ge 2 ] || { say "--logs needs a directory"; exit 1; }
		logs=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) say "unknown argument '$1' (usage: scripts/os/rtthread.sh [--smart] [--summary FILE] [--logs DIR])"; exit 1 ;;
	esac
done
LIB_PREFIX=$stage
if [ -z "$logs" ]; then
	if [ -d "$root/build/gates" ]; then logs=$root/build/gates/$stage; else logs=$root/build/$stage-logs; fi
fi
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
t_start=$(date +%s)

parts=() # the boots first, then late: file check and sizes
late=()
finish() { # exit code; writes the summary line
	local line
	local joined
	joined=$(printf '%s; ' "${parts[@]}" "${late[@]}")
	line="$stage: ${joined%; } ($(($(date +%s) - t_start)) s)"
	echo "$line"
	[ -z "$summary_file" ] || echo "$line" >"$summary_file"
	exit "$1"
}
die_step() { # step message: a failed step, one line, then the summary
	fail "$1: $2"
	parts+=("FAIL $1: $2")
	finish 1
}

# ---- 1. the tree ----
set +e
tree_out=$("$root/scripts/os/tree.sh" rt-thread 2>"$logs/tree.err")
rc=$?
set -e
cat "$logs/tree.err" >&2
if [ $rc -eq 3 ]; then
	parts+=("skipped: $(grep -m1 SKIP "$logs/tree.err" | sed 's/^os-tree: SKIP: //')")
	finish 3
fi
[ $rc -eq 0 ] || die_step "tree" "scripts/os/tree.sh rt-thread failed (exit $rc): $(tail -1 "$logs/tree.err")"
tree=$(echo "$tree_out" | tail -1)
[ -d "$tree/bsp/allwinner/d1s" ] || die_step "tree" "$tree has no bsp/allwinner/d1s"
ok "RT-Thread tree $tree"

# ---- 2. the toolchain ----
if [ $smart -eq 1 ]; then
	tcname=musl
	prefix=riscv64-unknown-linux-musl-
else
	tcname=newlib
	prefix=riscv64-nl-
fi
tc=$("$root/scripts/os/toolchain-$tcname.sh" 2> >(tee "$logs/toolchain.log" >&2) | tail -1) ||
	die_step "toolchain" "scripts/os/toolchain-$tcname.sh failed: $(tail -1 "$logs/toolchain.log")"
[ -x "$tc/${prefix}gcc" ] || die_step "toolchain" "expected ${prefix}gcc in '$tc'"
ok "$tcname toolchain $tc"
"$root/scripts/deps.sh" python3-yaml python3-chardet python3-click scons patch >&2 ||
	die_step "deps" "scripts/deps.sh could not install python3-yaml python3-chardet python3-click scons patch"

# ---- 3. RT-Thread's file check on the port ----
fc_log=$logs/file_check.log
if (cd "$root" && /usr/bin/python3 - "$tree/tools" >"$fc_log" 2>&1 <<'EOF'
import glob, sys
sys.path.insert(0, sys.argv[1])
import file_check as f
files = sorted(glob.glob('ports/rtsmart/*.[ch]') + glob.glob('bench/rtsmart/*.[ch]') +
               glob.glob('bench/rtsmart/user/*.[ch]'))
f.init_logger()
fmt, lic = f.FormatCheck(files).check(), f.LicenseCheck(files).check()
print(f"file_check: {len(files)} files, format {fmt}, license {lic}")
sys.exit(0 if fmt and lic else 1)
EOF
); then
	ok "$(tail -1 "$fc_log")"
	late+=("file_check ok ($(grep -o '[0-9]* files' "$fc_log" | tail -1))")
else
	grep -E 'ERROR|error|Traceback|file_check:' "$fc_log" | head -20
	fail "RT-Thread tools/file_check.py on ports/rtsmart and bench/rtsmart (log $fc_log)"
	late+=("file_check FAIL")
fi

# ---- 4. the builds ----
patches=("$root"/ports/rtsmart/patches/*.patch)
tree_id=$(cat "$tree/.d1-unpacked" 2>/dev/null || "$root/scripts/os/tree.sh" --fingerprint "$tree" rt-thread)
stamp=$( { echo "$tree $tree_id"; cat "${patches[@]}"; sha256sum <"$0"; } | sha256sum | cut -c1-16)

export RTT_EXEC_PATH=$tc RTT_CC_PREFIX=$prefix RTT_CC=gcc
build_image() { # image -> sets elf; returns non-zero on failure
	local img=$1
	local bdir=$cache/rtthread-build/$img log=$logs/build-$img.log t0
	local rtt=$bdir/rt-thread bsp
	bsp=$rtt/bsp/allwinner/d1s
	t0=$(date +%s)
	if [ "$(cat "$bdir/.d1-stamp" 2>/dev/null)" != "$stamp" ]; then
		say "$img: fresh copy of the tree into $bdir"
		rm -rf "$bdir"
		mkdir -p "$bdir"
		{ cp -a "$tree" "$bdir/.copy" && mv "$bdir/.copy" "$rtt"; } ||
			{ echo "cp -a $tree failed" >"$log"; return 1; }
		for p in "${patches[@]}"; do
			patch -p1 -d "$rtt" --forward --quiet <"$p" >>"$log" 2>&1 ||
				{ echo "patch $(basename "$p") does not apply to $rtt" >>"$log"; return 1; }
		done
		mkdir -p "$bsp/packages"
		# shellcheck disable=SC2016 # $PKGS_DIR is Kconfig's
		printf '%s\n' 'source "$PKGS_DIR/d1drivers/Kconfig"' 'source "$PKGS_DIR/d1bench/Kconfig"' \
			>"$bsp/packages/Kconfig"
		cat >"$bsp/packages/SConscript" <<'EOF'
import os
from building import *
objs = []
cwd = GetCurrentDir()
for d in os.listdir(cwd):
    if os.path.isfile(os.path.join(cwd, d, 'SConscript')):
        objs = objs + SConscript(os.path.join(d, 'SConscript'))
Return('objs')
EOF
		cp "$bsp/.config" "$bdir/shipped.config"
		echo "$stamp" >"$bdir/.d1-stamp"
	fi
	# The port as a package (docs/rtsmart.md "Adding it to the BSP") and the
	# bench wing beside it, from this tree: linked anew on every run, since
	# the copy outlives the clone that made it (SCons rebuilds by content,
	# so the same sources from another clone rebuild nothing).
	ln -sfn "$root/ports/rtsmart" "$bsp/packages/d1drivers" &&
		ln -sfn "$root/bench/rtsmart" "$bsp/packages/d1bench" ||
		{ echo "cannot link the port into $bsp/packages" >>"$log"; return 1; }
	if [ "$img" = smart-B ]; then
		user_romfs "$rtt" "$bdir" "$log" || return 1
	fi
	(
		cd "$bsp"
		export RTT_ROOT=$rtt
		python3 "$root/scripts/os/rtthread_kconfig.py" "$rtt" "$bdir/shipped.config" .config.new "$img" &&
			{ cmp -s .config.new .config || cp .config.new .config; } &&
			scons --site-dir="$root/scripts/os/rtthread_site" --useconfig=.config &&
			progress_run "building $img" scons --site-dir="$root/scripts/os/rtthread_site" -j"$jobs"
	) >>"$log" 2>&1 || { tail -25 "$log"; return 1; }
	elf=$bsp/rtthread.elf
	{ [ -f "$elf" ] && [ -f "$bsp/rtthread.map" ]; } || { echo "no rtthread.elf/rtthread.map in $bsp" >>"$log"; return 1; }
	say "$img: built in $(($(date +%s) - t0)) s ($elf)"
}

# The user programs' romfs of smart-B (docs/rtsmart.md "The user-process
# bench"): d1ubench compiled static and libc-free, checked for what RT-Smart's
# loader accepts, and RT-Thread's tools/mkromfs.py writing romfs_root into
# the BSP's applications/ (rewritten only when it changes). One line in the
# log and a non-zero return on any failed step.
user_romfs() { # rtt bdir log
	local rtt=$1 bdir=$2 log=$3
	local rdir=$bdir/romfs-root bsp=$1/bsp/allwinner/d1s elf entry size max=$((4 * 1024 * 1024))
	local out=$bsp/applications/d1_romfs.c
	elf=$rdir/bin/d1ubench
	rm -rf "$rdir"
	mkdir -p "$rdir/bin"
	if ! "$tc/${prefix}gcc" -march=rv64imac -mabi=lp64 -mcmodel=medany -O2 -Wall -Wextra -Werror \
		-ffreestanding -fno-pic -no-pie -nostdlib -nostartfiles -static -Wl,--build-id=none \
		-T "$root/bench/rtsmart/user/user.ld" -o "$elf" "$root/bench/rtsmart/user/d1ubench.c" >>"$log" 2>&1; then
		echo "user program: bench/rtsmart/user/d1ubench.c did not compile" | tee -a "$log"
		return 1
	fi
	# RT-Smart 5.0's loader (components/lwp/lwp.c load_elf) takes a static
	# ELF whose entry is USER_LOAD_VADDR; anything else fails only at exec.
	entry=$("$tc/${prefix}readelf" -h "$elf" | awk '/Entry point/ {print $4}')
	if [ "$entry" != 0x200000000 ] || "$tc/${prefix}readelf" -l "$elf" | grep -q DYNAMIC; then
		echo "user program: $elf has entry ${entry:-none} or a dynamic segment; RT-Smart's loader takes a static ELF entered at 0x200000000 (USER_LOAD_VADDR)" | tee -a "$log"
		return 1
	fi
	size=$(du -sb "$rdir" | cut -f1)
	if [ "$size" -gt "$max" ]; then
		echo "romfs: $size bytes in $rdir do not fit: it is linked into the kernel image, whose 60 MiB region also holds the 16 MiB heap and the pages user processes run in; at most $max bytes" | tee -a "$log"
		return 1
	fi
	if ! python3 "$rtt/tools/mkromfs.py" "$rdir" "$out.new" >>"$log" 2>&1; then
		echo "romfs: RT-Thread's tools/mkromfs.py failed on $rdir" | tee -a "$log"
		return 1
	fi
	if cmp -s "$out.new" "$out"; then rm -f "$out.new"; else mv "$out.new" "$out"; fi
	say "smart-B: romfs with /bin/d1ubench ($size bytes)"
}

declare -A elfs
mkdir -p "$cache/rtthread-build"
exec 9>"$cache/rtthread-build/.lock"
flock 9 # one run at a time builds in the cache
for img in "${images[@]}"; do
	: >"$logs/build-$img.log"
	if build_image "$img"; then
		elfs[$img]=$elf
		ok "build $img: $elf"
		# The startup patch took: boot_hartid is data, not a label in .text.
		sym=$("$tc/${prefix}nm" "$elf" | grep ' boot_hartid$' || true)
		if [[ $sym =~ \ [dD]\ boot_hartid$ ]]; then
			ok "$img: boot_hartid is a data symbol (startup patch applied)"
		else
			fail "$img: boot_hartid is not a data symbol: ${sym:-missing}"
			parts+=("$img boot_hartid FAIL")
		fi
	else
		fail "build $img: scons did not produce rtthread.elf (log $logs/build-$img.log)"
		parts+=("$img build FAIL")
	fi
done

# ---- 5. sizes ----
if [ -n "${elfs[${images[0]}]:-}" ] && [ -n "${elfs[${images[1]}]:-}" ]; then
	args=()
	for img in "${images[@]}"; do
		[ -z "${elfs[$img]:-}" ] || args+=("$img=${elfs[$img]}")
	done
	if sizes=$(python3 "$root/tests/os/rtthread_boot.py" sizes --size "$tc/${prefix}size" "${args[@]}" 2>&1); then
		echo "$sizes" | tee "$logs/sizes.txt"
		late+=("sizes $(echo "$sizes" | grep '^summary:' | sed 's/^summary: //')")
	else
		echo "$sizes"
		fail "image sizes from the link maps"
		late+=("sizes FAIL")
	fi
fi

# ---- 6. boots ----
if [ -z "${D1_EMU_QEMU:-}" ]; then
	D1_EMU_QEMU=$("$root/emu/qemu-d1/build.sh" 2>"$logs/emu-build.log" | tail -1) ||
		die_step "emulator" "emu/qemu-d1/build.sh failed (log $logs/emu-build.log)"
fi
export D1_EMU_QEMU
for img in "${images[@]}"; do
	[ -n "${elfs[$img]:-}" ] || continue
	out=$logs/boot-$img.out
	if progress_run "booting $img" python3 "$root/tests/os/rtthread_boot.py" boot "$img" "${elfs[$img]}" \
		--logdir "$logs" >"$out" 2>&1; then
		grep -E '^(ok|FAIL)' "$out" || true
		parts+=("$(grep '^RESULT: ' "$out" | tail -1 | sed 's/^RESULT: //')")
	else
		grep -E '^(ok|FAIL)|Traceback|Error' "$out" || true
		LIB_FAILED=1
		r=$(grep '^RESULT: ' "$out" | tail -1 | sed 's/^RESULT: //')
		parts+=("${r:-$img boot FAIL (log $out)}")
	fi
done

finish "$LIB_FAILED"
