#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# d1lat-linux side by side with cyclictest (Debian rt-tests) on this machine:
# same interval, same loop count, same priority, one after the other (the
# order alternates between repeats). Prints both results, the comparison
# table and a verdict per repeat; exits 0 only if every repeat agrees.
#
#   bench/bench_linux.sh [-i interval_us] [-l loops] [-n repeats] [-p prio]
#                          [-H hist_us] [-o outdir] [--load DESC] [--cpu-load N]
#                          [--plot FILE]
#
# Defaults: -i 1000 -l 20000 -n 1 -p 80 -H 10000 -o build/bench-linux/out.
# --cpu-load N starts N busy shell loops (SCHED_OTHER) for the whole run and
# stops them at the end; the load description then says so.
# The tolerance of the verdict is explained in docs/latency.md.
set -euo pipefail

interval=1000 loops=20000 repeats=1 prio=80 hist=10000 load="none" plot="" cpuload=0
root=$(cd "$(dirname "$0")/.." && pwd)
LIB_PREFIX=bench_linux.sh
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh" # say, usage
out="$root/build/bench-linux/out"
while [ $# -gt 0 ]; do
	case "$1" in
	-i) interval=$2; shift 2 ;;
	-l) loops=$2; shift 2 ;;
	-n) repeats=$2; shift 2 ;;
	-p) prio=$2; shift 2 ;;
	-H) hist=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--load) load=$2; shift 2 ;;
	--cpu-load) cpuload=$2; shift 2 ;;
	--plot) plot=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) say "unknown argument $1"; exit 2 ;;
	esac
done

need_apt() { # package
	if [ "$(id -u)" -ne 0 ]; then
		say "$1 is missing and we are not root: apt-get install $1"
		exit 2
	fi
	apt-get update && apt-get install -y "$1"
}
command -v python3 >/dev/null || need_apt python3
command -v cyclictest >/dev/null || need_apt rt-tests
command -v cmake >/dev/null || need_apt cmake

# A build without sanitizers (the host preset's ASan would add latency and
# cannot mlockall).
bdir="$root/build/bench-linux"
cmake -S "$root" -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc \
	-DD1_PLATFORM=none -DD1_BUILD_TESTS=OFF -DD1_BUILD_DOCS=OFF >/dev/null
cmake --build "$bdir" --target d1lat-linux -j2 >/dev/null
d1lat="$bdir/bench/linux/d1lat-linux"
cmp="$root/bench/tools/d1lat_compare.py"
mkdir -p "$out"
board=$(uname -m)

run_d1lat() { # repeat
	"$d1lat" -i "$interval" -l "$loops" -p "$prio" --board "$board" --load "$load" \
		>"$out/d1lat-$1.txt"
	grep '^{' "$out/d1lat-$1.txt" >"$out/d1lat-$1.json"
}
run_cyclictest() { # repeat
	cyclictest -q -m -p "$prio" -i "$interval" -l "$loops" -h "$hist" >"$out/cyclictest-$1.txt"
	python3 "$cmp" --from-cyclictest "$out/cyclictest-$1.txt" --interval-us "$interval" \
		--board "$board" --load "$load" >"$out/cyclictest-$1.json"
}

loadpids=()
stop_load() {
	for p in "${loadpids[@]}"; do kill "$p" 2>/dev/null || true; done
	loadpids=()
}
trap stop_load EXIT
if [ "$cpuload" -gt 0 ]; then
	[ "$load" = "none" ] && load="$cpuload busy shell loops (SCHED_OTHER)"
	for _ in $(seq 1 "$cpuload"); do
		bash -c 'while :; do :; done' &
		loadpids+=("$!")
	done
fi

echo "# machine: $(uname -srm), $(nproc) CPUs; kernel preemption: $(uname -v | grep -o 'PREEMPT[A-Z_]*' || echo unknown)"
echo "# d1lat-linux -i $interval -l $loops -p $prio   vs   cyclictest -q -m -p $prio -i $interval -l $loops -h $hist"
all=0
for r in $(seq 1 "$repeats"); do
	if [ $((r % 2)) -eq 1 ]; then run_d1lat "$r"; run_cyclictest "$r";
	else run_cyclictest "$r"; run_d1lat "$r"; fi
	echo
	echo "## repeat $r: d1lat-linux report"
	cat "$out/d1lat-$r.txt"
	echo
	echo "## repeat $r: cyclictest summary"
	grep -E '^# (Total|Min|Avg|Max|Histogram Overflows)' "$out/cyclictest-$r.txt"
	cat "$out/cyclictest-$r.json"
	echo
	python3 "$cmp" --title "repeat $r" "$out/d1lat-$r.json" "$out/cyclictest-$r.json"
	if python3 "$cmp" --verdict "$out/d1lat-$r.json" "$out/cyclictest-$r.json"; then :; else all=1; fi
done
if [ -n "$plot" ]; then
	files=()
	for r in $(seq 1 "$repeats"); do files+=("$out/d1lat-$r.json" "$out/cyclictest-$r.json"); done
	python3 "$cmp" -o "$out/compare.md" --plot "$plot" --title "d1lat-linux vs cyclictest" "${files[@]}"
fi
echo
if [ "$all" -eq 0 ]; then echo "OVERALL: AGREE ($repeats repeat(s))"; else echo "OVERALL: DISAGREE"; fi
exit "$all"
