#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the NuttX port against upstream NuttX and boot it on the emulated D1.
#
# Usage: scripts/os/nuttx.sh [--summary FILE] [--logs DIR] [IMAGE...]
#
# Images (default: all of them, in this order):
#   stock        upstream lichee-rv-86-panel:nsh from the same tree
#   default      the library board's defconfig + ostest, examples/timer,
#                examples/watchdog
#   bench        d1bench idle and under the comparison's load (Timer0 to
#                the bench: D1LIB_TIMER0 off), then nuttx-apps' osperf on
#                the board's performance counter (D1LIB_PERF)
#   tickless     D1LIB_ONESHOT + SCHED_TICKLESS, ostest (RR_INTERVAL=0) + d1bench
#   plic         D1LIB_PLIC, ostest + d1bench
#   probe        the tick path counted by instret, the chip's and the library's
#   uart         d1uart rx/tx 4096 through the console, with the bulk UART path
#                (D1LIB_UART0_BULK) and without: instructions and UART register
#                accesses per byte, side by side (instret; the emulator's trace)
#   combos       TIMER, WATCHDOG, SERIAL, SCHED_TICKLESS: 5 builds covering
#                every pair of options in all four states (ctest
#                nuttx_combos_pairwise), each warning-free in the port's
#                files, each booted
#   cmake        the board's CMake build (with the chip CMakeLists.txt the
#                upstream proposal adds, from ports/nuttx/patches), booted
#   nxstyle      NuttX's tools/nxstyle on every port file
#   sizes        stock vs the shipped defconfig by component, from the maps
#
# Trees: scripts/os/tree.sh (D1_NUTTX_DIR, D1_NUTTX_APPS_DIR, or the pinned
# tarballs in ../shared/os); without them the script says what to set and
# exits 3 (skipped). Toolchain: Debian's riscv64-unknown-elf-gcc and
# kconfig-frontends (installed by scripts/deps.sh). Everything built lives
# under ${D1_CACHE:-~/.cache/d1drivers}: the build tree (nuttx-build/), ccache
# (ccache/) and each image with its map and build log, kept by a key over
# its recipe and every input (nuttx-images/), so a second run rebuilds only
# what changed. The emulator: $D1_EMU_QEMU, else emu/qemu-d1/build.sh.
# Logs (build logs, serial transcripts): --logs DIR, default
# build/gates/nuttx. Exit status: 0 all passed, 1 a failure, 3 skipped.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
LIB_PREFIX=nuttx
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, usage, progress_run
cache=${D1_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
logs=$root/build/gates/nuttx
summary=""
images=()
while [ $# -gt 0 ]; do
	case $1 in
	--summary) summary=$2; shift 2 ;;
	--logs) logs=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) say "unknown option $1 (see --help)"; exit 2 ;;
	*) images+=("$1"); shift ;;
	esac
done
all=(stock default bench tickless plic probe uart combos cmake nxstyle sizes)
[ ${#images[@]} -gt 0 ] || images=("${all[@]}")
for i in "${images[@]}"; do
	case " ${all[*]} " in *" $i "*) ;; *) say "unknown image '$i' (expected: ${all[*]})"; exit 2 ;; esac
done
mkdir -p "$logs"
logs=$(cd "$logs" && pwd) # the builds run in the NuttX tree
results=()
failed=0
result() { # verdict text: one entry of the summary line
	results+=("$1")
	case $1 in *FAIL*) failed=1 ;; esac
	say "$1"
}
finish() {
	local line r
	line="nuttx:"
	for r in "${results[@]:-nothing run}"; do line+=" ${r//$'\n'/ };"; done
	line=${line%;}
	[ -z "$summary" ] || echo "$line" >"$summary"
	echo "$line"
	exit "${1:-$failed}"
}

# ------------------------------------------------------------------ inputs
"$root/scripts/deps.sh" gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf \
	kconfig-frontends ccache python3 gcc make || { result "deps FAIL"; finish 1; }
trees() {
	local n out rc
	for n in nuttx nuttx-apps; do
		out=$("$root/scripts/os/tree.sh" "$n")
		rc=$?
		if [ "$rc" -eq 3 ]; then
			results+=("skipped: no $n tree (set D1_NUTTX_DIR and D1_NUTTX_APPS_DIR, or D1_OS_TARBALLS)")
			finish 3
		fi
		[ "$rc" -eq 0 ] || { result "$n tree FAIL (scripts/os/tree.sh $n)"; finish 1; }
		eval "${n//-/_}_src=\${out##*\$'\\n'}"
	done
}
trees
if [ -z "${D1_EMU_QEMU:-}" ]; then
	D1_EMU_QEMU=$("$root/emu/qemu-d1/build.sh" | tail -1) || { result "emulator FAIL"; finish 1; }
fi
export D1_EMU_QEMU
export CCACHE_DIR=$cache/ccache CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
if [ -z "$(ls -A "$CCACHE_DIR" 2>/dev/null)" ]; then
	say "first run (empty ccache): every image is built from scratch, about 25-30 min on 2 cores"
fi

# One run at a time: the build trees below are shared.
mkdir -p "$cache"
exec 9>"$cache/nuttx-build.lock"
if ! flock -n 9; then
	say "waiting for another scripts/os/nuttx.sh (lock $cache/nuttx-build.lock)"
	flock 9
fi

# The build tree: copies of the pristine trees (builds write into NuttX's),
# the library beside them as ../d1drivers (the defconfig's relative board
# path), the port's apps as apps/external. Re-copied when a tree changes.
B=$cache/nuttx-build
stamp="$nuttx_src $(cat "$nuttx_src/.d1-unpacked" 2>/dev/null) $nuttx_apps_src $(cat "$nuttx_apps_src/.d1-unpacked" 2>/dev/null)"
if [ "$(cat "$B/.stamp" 2>/dev/null)" != "$stamp" ]; then
	say "copying the NuttX and apps trees into $B"
	rm -rf "$B"
	mkdir -p "$B"
	cp -a "$nuttx_src" "$B/nuttx" && cp -a "$nuttx_apps_src" "$B/apps" ||
		{ result "tree copy FAIL"; finish 1; }
	echo "$stamp" >"$B/.stamp"
fi
ln -sfn "$root" "$B/d1drivers"
ln -sfn "$B/d1drivers/bench/nuttx/apps" "$B/apps/external"

# The key of an image: its recipe (the configure argument and tweaks, and
# build_rev, raised when build() itself changes) and the inputs it is
# built from.
build_rev=1
inputs_hash() {
	{
		echo "$stamp $build_rev"
		riscv64-unknown-elf-gcc --version | head -1
		# The build writes into ports/nuttx and bench/nuttx (libboard and
		# the apps are built in place): its outputs (the .gitignore files
		# there) are not inputs.
		(cd "$root" && find ports/nuttx bench/nuttx src include -type f \
			! -name '*.o' ! -name '*.a' ! -name '*.ddc' ! -name .depend ! -name Make.dep \
			! -name .built ! -name .kconfig ! -name .d1lib-srcs ! -path bench/nuttx/apps/Kconfig \
			-print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
	} | sha256sum | cut -c1-16
}
inputs=$(inputs_hash)

# build NAME CONFIGURE-ARG TWEAKS...: build one image with make; its ELF,
# map, .config and build log go to $cache/nuttx-images/NAME-KEY/. Prints
# that directory. Fails with one line naming the step.
build() {
	local name=$1 cfg=$2 key dir log
	shift 2
	key=$(echo "$inputs $cfg $*" | sha256sum | cut -c1-16)
	dir=$cache/nuttx-images/$name-$key
	log=$logs/build-$name.log
	if [ -f "$dir/nuttx" ]; then
		cp "$dir/build.log" "$log"
		echo "$dir"
		return 0
	fi
	say "building $name"
	# The tree of the last build is cleaned; one that cannot be (a run cut
	# short mid-configure) is copied again from the pristine tree.
	if [ -e "$B/nuttx/.config" ] &&
		! { (cd "$B/nuttx" && make distclean >/dev/null 2>&1) && [ ! -e "$B/nuttx/.config" ]; }; then
		say "the build tree cannot be cleaned: copying it again"
		rm -rf "$B/nuttx" "$B/apps" && cp -a "$nuttx_src" "$B/nuttx" &&
			cp -a "$nuttx_apps_src" "$B/apps" &&
			ln -sfn "$B/d1drivers/bench/nuttx/apps" "$B/apps/external" ||
			{ say "ERROR: $name: copying the trees into $B failed"; return 1; }
	fi
	# One && chain: set -e does not act in a subshell tested by ||.
	(
		cd "$B/nuttx" &&
			./tools/configure.sh "$cfg" >"$log" 2>&1 &&
			kconfig-tweak --enable CONFIG_CCACHE --enable CONFIG_DEBUG_LINK_MAP "$@" &&
			make olddefconfig >>"$log" 2>&1 &&
			progress_run "building $name" make -j"$(nproc)" >>"$log" 2>&1
	) || { say "ERROR: $name: configure or make failed ($log)"; tail -20 "$log" >&2; return 1; }
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	cp "$B/nuttx/nuttx" "$B/nuttx/nuttx.map" "$B/nuttx/.config" "$dir.tmp/" &&
		cp "$log" "$dir.tmp/build.log" && rm -rf "$dir" && mv "$dir.tmp" "$dir" || return 1
	echo "$dir"
}

# The UART path per byte, bulk (recvbuf/sendbuf) against per-byte calls,
# measured in the same run (docs/nuttx.md "UART cost per byte").
uart_cost() {
	local db dy vb vy
	db=$(build uart-bulk "$board" --enable CONFIG_D1LIB_UART_COST) &&
		dy=$(build uart-byte "$board" --enable CONFIG_D1LIB_UART_COST --disable CONFIG_D1LIB_UART0_BULK) ||
		{ result "uart build FAIL"; return; }
	vb=$(boot uart "$db" uart-bulk) || { result "uart FAIL (bulk: ${vb//$'\n'/ })"; return; }
	vy=$(boot uart "$dy" uart-byte) || { result "uart FAIL (per-byte: ${vy//$'\n'/ })"; return; }
	result "uart ok (bulk: $vb; per-byte calls: $vy; instruction counts under -icount)"
}

# port_warnings LOG: the compiler warnings from the port's and library's
# files (paths through ../d1drivers or the clone), one per line.
port_warnings() {
	grep -E '(d1drivers|ports/nuttx|bench/nuttx|/src/[a-z_]+\.c|/include/d1/).*warning:' "$1" || true
}

boot() { # kind dir [args]: run the checks, echo the verdict line
	local kind=$1 dir=$2 tag=$3
	shift 3
	progress_run "booting $tag" python3 "$root/tests/os/nuttx_boot.py" "$kind" "$dir/nuttx" \
		--log "$logs/serial-$tag.txt" "$@" >"$logs/check-$tag.txt" 2>&1
	local rc=$?
	grep -E '^  (ok|FAIL) ' "$logs/check-$tag.txt" >&2
	grep '^VERDICT: ' "$logs/check-$tag.txt" | sed 's/^VERDICT: [a-z]* [A-Za-z]*: //' | tail -1
	[ "$rc" -eq 0 ] || echo "(see $logs/check-$tag.txt)"
	return "$rc"
}

board=../d1drivers/ports/nuttx/board/d1-lib-panel/configs/nsh
apps_on="--enable CONFIG_TESTING_OSTEST"
bench_on="--disable CONFIG_D1LIB_TIMER0 --enable CONFIG_D1LIB_BENCH"

image() { # tag kind configure tweaks...
	local tag=$1 kind=$2 cfg=$3 dir v w
	shift 3
	if ! dir=$(build "$tag" "$cfg" "$@"); then
		result "$tag build FAIL"
		return
	fi
	w=$(port_warnings "$dir/build.log")
	if [ -n "$w" ]; then
		echo "$w" >&2
		result "$tag build FAIL ($(echo "$w" | wc -l) warnings in port files)"
		return
	fi
	if v=$(boot "$kind" "$dir" "$tag"); then
		result "$tag ok ($v)"
	else
		result "$tag FAIL (${v//$'\n'/ })"
	fi
}

probe() {
	local lib stock dl ds
	dl=$(build probe-lib "$board" --enable CONFIG_D1LIB_TICK_PROBE) &&
		ds=$(build probe-chip "$board" --disable CONFIG_D1LIB_TICK --enable CONFIG_D1LIB_TICK_PROBE) ||
		{ result "probe build FAIL"; return; }
	lib=$(boot probe "$dl" probe-lib) || { result "probe FAIL (library: $lib)"; return; }
	stock=$(boot probe "$ds" probe-chip) || { result "probe FAIL (chip: $stock)"; return; }
	lib=${lib##*tick path }; lib=${lib%% instructions*}
	stock=${stock##*tick path }; stock=${stock%% instructions*}
	result "probe ok (tick path __trap_vec -> nxsched_process_timer by instret: chip $stock, library $lib instructions, difference $((lib - stock)))"
}

combo_args() { # TIMER WATCHDOG SERIAL TICKLESS as y/n -> kconfig-tweak arguments
	local v i=0 names=(TIMER WATCHDOG SERIAL SCHED_TICKLESS)
	for v in "$@"; do
		if [ "$v" = y ]; then echo "--enable CONFIG_${names[$i]}"; else echo "--disable CONFIG_${names[$i]}"; fi
		i=$((i + 1))
	done
	if [ "$4" = y ]; then echo "--enable CONFIG_D1LIB_ONESHOT"; else echo "--disable CONFIG_D1LIB_ONESHOT"; fi
}

combos() {
	local t w s k n=0 bad=0 v tag dir names=() row
	# A pairwise covering set: every pair of the four options is built in
	# all four of its states (yy, yn, ny, nn) by these five rows, against
	# the sixteen of the full product; y,y,y,n is the sizes' and cmake's.
	for row in yyyn ynny nyny nnyy nnnn; do
		t=${row:0:1} w=${row:1:1} s=${row:2:1} k=${row:3:1}
		tag="combo-T$t-W$w-S$s-K$k"
		n=$((n + 1))
		# shellcheck disable=SC2046 # one word per tweak argument
		if ! dir=$(build "$tag" "$board" $(combo_args $t $w $s $k)); then
			bad=$((bad + 1)); names+=("$tag:build"); continue
		fi
		if [ -n "$(port_warnings "$dir/build.log")" ]; then
			port_warnings "$dir/build.log" >&2
			bad=$((bad + 1)); names+=("$tag:warnings"); continue
		fi
		v=$(boot combo "$dir" "$tag" --options "$t,$w,$s,$k") || { bad=$((bad + 1)); names+=("$tag:boot"); }
	done
	if [ "$bad" -eq 0 ]; then
		result "combos ok ($n combinations covering every pair of TIMER, WATCHDOG, SERIAL, TICKLESS in all four states, built without a port warning and booted)"
	else
		result "combos FAIL ($bad of $n: ${names[*]})"
	fi
}

# The CMake build: its own copy of the trees (NuttX's CMake refuses a tree
# configured by make), the chip CMakeLists.txt from ports/nuttx/patches,
# kconfiglib's commands from Debian's python3-kconfiglib (which installs
# the modules without their command wrappers).
cmake_image() {
	local C=$cache/nuttx-build-cmake kb=$cache/toolchains/kconfiglib-bin key dir log v cmd
	local patches=("$root"/ports/nuttx/patches/*.patch)
	"$root/scripts/deps.sh" cmake ninja-build python3-kconfiglib || { result "cmake FAIL (deps)"; return; }
	mkdir -p "$kb"
	for cmd in olddefconfig savedefconfig setconfig menuconfig genconfig; do
		printf '#!/bin/sh\nexec python3 /usr/lib/python3/dist-packages/%s.py "$@"\n' "$cmd" >"$kb/$cmd"
		chmod +x "$kb/$cmd"
	done
	key=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
	if [ "$(cat "$C/.stamp" 2>/dev/null)" != "$stamp $key" ]; then
		say "copying the trees into $C and applying ports/nuttx/patches"
		rm -rf "$C" && mkdir -p "$C" &&
			cp -a "$nuttx_src" "$C/nuttx" && cp -a "$nuttx_apps_src" "$C/apps" ||
			{ result "cmake FAIL (tree copy)"; return; }
		for p in "${patches[@]}"; do
			patch -d "$C/nuttx" -p1 --forward --quiet <"$p" ||
				{ result "cmake FAIL (patch $(basename "$p") does not apply to $nuttx_src)"; rm -rf "$C"; return; }
		done
		echo "$stamp $key" >"$C/.stamp"
	fi
	ln -sfn "$root" "$C/d1drivers"
	ln -sfn "$C/d1drivers/bench/nuttx/apps" "$C/apps/external"
	key=$(echo "$inputs cmake $key" | sha256sum | cut -c1-16)
	dir=$cache/nuttx-images/cmake-$key
	log=$logs/build-cmake.log
	if [ ! -f "$dir/nuttx" ]; then
		say "building cmake"
		(
			export PATH="$kb:$PATH"
			cd "$C/nuttx" && rm -rf build &&
				cmake -B build -GNinja -DCMAKE_C_COMPILER_LAUNCHER=ccache \
					-DBOARD_CONFIG="$C/d1drivers/ports/nuttx/board/d1-lib-panel/configs/nsh" >"$log" 2>&1 &&
				progress_run "building cmake" cmake --build build -j"$(nproc)" >>"$log" 2>&1
		) || { say "ERROR: cmake: configure or build failed ($log)"; tail -20 "$log" >&2; result "cmake build FAIL"; return; }
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" &&
			cp "$C/nuttx/build/nuttx" "$dir.tmp/" && cp "$log" "$dir.tmp/build.log" &&
			rm -rf "$dir" && mv "$dir.tmp" "$dir" || { result "cmake FAIL (saving the image)"; return; }
	else
		cp "$dir/build.log" "$log"
	fi
	if [ -n "$(port_warnings "$log")" ]; then
		port_warnings "$log" >&2
		result "cmake build FAIL (warnings in port files)"
		return
	fi
	if v=$(boot combo "$dir" cmake --options y,y,y,n); then
		result "cmake ok ($v)"
	else
		result "cmake FAIL (${v//$'\n'/ })"
	fi
}

nxstyle() {
	local tool=$cache/nuttx-build/nxstyle f bad=0 n=0
	gcc -O1 -o "$tool" "$B/nuttx/tools/nxstyle.c" 2>"$logs/nxstyle-build.log" ||
		{ result "nxstyle FAIL (tools/nxstyle.c did not build)"; return; }
	: >"$logs/nxstyle.txt"
	while IFS= read -r f; do
		n=$((n + 1))
		"$tool" "$root/$f" >>"$logs/nxstyle.txt" 2>&1 || bad=$((bad + 1))
	done < <(cd "$root" && git ls-files 'ports/nuttx/*.c' 'ports/nuttx/*.h' 'bench/nuttx/*.c' 'bench/nuttx/*.h')
	if [ "$bad" -eq 0 ] && [ ! -s "$logs/nxstyle.txt" ]; then
		result "nxstyle ok ($n files, no finding)"
	else
		cat "$logs/nxstyle.txt" >&2
		result "nxstyle FAIL ($bad of $n files, $logs/nxstyle.txt)"
	fi
}

sizes() { # stock against the shipped defconfig (no extra apps), same tree
	local s d
	s=$(build stock "lichee-rv-86-panel:nsh" --enable CONFIG_LIBM --disable CONFIG_LIBM_TOOLCHAIN) &&
		d=$(build combo-Ty-Wy-Sy-Kn "$board" $(combo_args y y y n)) ||
		{ result "sizes FAIL (build)"; return; }
	python3 "$root/tests/os/mapsize.py" "stock=$s/nuttx.map" "library=$d/nuttx.map" \
		>"$logs/sizes.txt" 2>&1 || { result "sizes FAIL ($logs/sizes.txt)"; return; }
	cat "$logs/sizes.txt" >&2
	result "sizes ($(tail -1 "$logs/sizes.txt"))"
}

for i in "${images[@]}"; do
	case $i in
	stock) image stock stock "lichee-rv-86-panel:nsh" --enable CONFIG_LIBM --disable CONFIG_LIBM_TOOLCHAIN ;;
	default) image default default "$board" $apps_on --enable CONFIG_EXAMPLES_TIMER \
		--set-val CONFIG_EXAMPLES_TIMER_INTERVAL 250000 --enable CONFIG_EXAMPLES_WATCHDOG ;;
	bench) image bench bench "$board" $bench_on --enable CONFIG_PIPES --enable CONFIG_SCHED_HPWORK \
		--enable CONFIG_BENCHMARK_OSPERF ;;
	tickless) image tickless tickless "$board" $bench_on $apps_on --enable CONFIG_D1LIB_ONESHOT \
		--enable CONFIG_SCHED_TICKLESS --set-val CONFIG_RR_INTERVAL 0 ;;
	plic) image plic plic "$board" $bench_on $apps_on --enable CONFIG_D1LIB_PLIC ;;
	probe) probe ;;
	uart) uart_cost ;;
	combos) combos ;;
	cmake) cmake_image ;;
	nxstyle) nxstyle ;;
	sizes) sizes ;;
	esac
done
finish
