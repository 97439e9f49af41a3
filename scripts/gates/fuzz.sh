#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzing gate (docs/reliability.md "Fuzzing"): builds the libFuzzer
# harnesses (cmake --preset fuzz: clang, ASan + UBSan), replays every input
# of every committed corpus (tests/fuzz/corpus/<target>/), then fuzzes each
# target for a fixed number of runs with a fixed seed. Any finding fails
# the gate and leaves its reproducer in build/fuzz/findings/.
# Writes build/gates/fuzz.summary:
#   fuzz: T targets, E executions (corpus replay C inputs), F findings, S s
# Usage: scripts/gates/fuzz.sh            (from the repo root or anywhere)
#   FUZZ_SEED=n      seed of target k is n + k (default 1301)
#   FUZZ_SCALE=x     multiply every run count (e.g. 0.1 for a quick look)
#   FUZZ_TARGETS="uart plic"   only these targets
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
. scripts/gates/summary.sh
gate_summary fuzz build/gates/fuzz.summary
gate_step "installing packages (scripts/deps.sh)"
start=$(date +%s)

# libFuzzer and the sanitizer runtimes of clang 14 (Debian bookworm):
# clang + libclang-rt-14-dev (libclang_rt.fuzzer-x86_64.a).
scripts/deps.sh clang libclang-rt-14-dev cmake make >&2 || exit 2

BUILD=build/fuzz
LOGS=$BUILD/logs
FINDINGS=$BUILD/findings
WORK=$BUILD/work
mkdir -p build/gates
rm -rf "$LOGS" "$FINDINGS" "$WORK"
mkdir -p "$LOGS" "$FINDINGS" "$WORK"

gate_step "building the harnesses (cmake --preset fuzz)"
if ! cmake --preset fuzz >"$LOGS/configure.log" 2>&1 ||
   ! cmake --build --preset fuzz -j2 >"$LOGS/build.log" 2>&1; then
  tail -30 "$LOGS/configure.log" "$LOGS/build.log" >&2
  echo "fuzz: build failed (see $LOGS)" >build/gates/fuzz.summary
  cat build/gates/fuzz.summary
  exit 2
fi

# Runs per target: >= 10^6 executions in total, ~2-3 minutes on 2 shared
# cores (figures: docs/reliability.md). max_len: the input sizes that keep
# each target's executions short.
declare -A RUNS=([timer]=500000 [wdt]=400000 [ccu]=200000 [uart]=200000 [plic]=120000
                 [time]=300000 [latency]=20000 [report]=30000)
declare -A MAXLEN=([timer]=512 [wdt]=512 [ccu]=512 [uart]=512 [plic]=512
                   [time]=256 [latency]=128 [report]=1024)
scale=${FUZZ_SCALE:-1}
seed0=${FUZZ_SEED:-1301}
targets=${FUZZ_TARGETS:-$(cat "$BUILD/tests/fuzz/fuzz_targets.txt")}

gate_step "fuzzing"
ntargets=0
execs=0
replayed=0
findings=0
k=0
for t in $targets; do
  bin=$BUILD/tests/fuzz/fuzz_$t
  corpus=tests/fuzz/corpus/$t
  k=$((k + 1))
  if [ ! -x "$bin" ]; then
    echo "fuzz: no target $t" >&2
    findings=$((findings + 1))
    continue
  fi
  ntargets=$((ntargets + 1))
  # 1. Replay: every committed input once (one process each, so that every
  #    failing input is reported and kept).
  for f in "$corpus"/*; do
    [ -f "$f" ] || continue
    replayed=$((replayed + 1))
    # (artifact_prefix: a crashing input's copy goes to the logs, not to the clone's root)
    if ! "$bin" -runs=1 -artifact_prefix="$LOGS/replay-$t-" "$f" >"$LOGS/replay-$t-$(basename "$f").log" 2>&1; then
      cp "$f" "$FINDINGS/$t-replay-$(basename "$f")"
      echo "fuzz: $t: corpus input $f fails (log: $LOGS/replay-$t-$(basename "$f").log)" >&2
      grep -m3 -E "FUZZ INVARIANT|runtime error|ERROR: " "$LOGS/replay-$t-$(basename "$f").log" >&2
      findings=$((findings + 1))
    fi
  done
  # 2. Fuzz: fixed runs and seed, on a scratch copy of the corpus (new
  #    inputs stay in the build tree).
  runs=$(awk -v r="${RUNS[$t]:-100000}" -v s="$scale" 'BEGIN { printf "%d", r * s }')
  if [ "$runs" -lt 1 ]; then # -runs=0 would run nothing and pass
    echo "fuzz: $t: FUZZ_SCALE=$scale gives $runs runs" >&2
    findings=$((findings + 1))
    continue
  fi
  seed=$((seed0 + k))
  mkdir -p "$WORK/$t"
  cp "$corpus"/* "$WORK/$t/" 2>/dev/null
  t1=$(date +%s)
  "$bin" -runs="$runs" -seed="$seed" -max_len="${MAXLEN[$t]:-512}" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$FINDINGS/$t-" \
    "$WORK/$t" >"$LOGS/fuzz-$t.log" 2>&1
  rc=$?
  n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$LOGS/fuzz-$t.log" | tail -1)
  if [ -z "$n" ]; then # stopped early: the last status line's count
    n=$(grep -o '^#[0-9]*' "$LOGS/fuzz-$t.log" | tail -1 | tr -d '#')
  fi
  n=${n:-0}
  execs=$((execs + n))
  t2=$(date +%s)
  echo "fuzz: $t: $n runs, seed $seed, $((t2 - t1)) s, exit $rc" >&2
  if [ "$rc" -eq 0 ] && [ "$n" -lt "$runs" ]; then
    # libFuzzer stopped early without a crash (or its log changed form):
    # fewer executions than asked is a failed run, not a pass.
    echo "fuzz: $t: $n executions, fewer than the $runs asked (log: $LOGS/fuzz-$t.log)" >&2
    findings=$((findings + 1))
  fi
  if [ "$rc" -ne 0 ]; then
    findings=$((findings + 1))
    grep -m3 -E "FUZZ INVARIANT|runtime error|ERROR: |Test unit written" "$LOGS/fuzz-$t.log" >&2
  fi
done
# Artifacts libFuzzer left (crash-, timeout-, oom-, leak-, slow-unit-) count too
# (each failed run above left one; do not count it twice).
left=$(find "$FINDINGS" -type f ! -name '*-replay-*' | wc -l)
fuzzfail=$((findings - $(find "$FINDINGS" -type f -name '*-replay-*' | wc -l)))
if [ "$left" -gt "$fuzzfail" ]; then
  findings=$((findings + left - fuzzfail))
fi
if [ "$ntargets" -eq 0 ] || [ "$execs" -eq 0 ]; then
  echo "fuzz: $ntargets targets ran, $execs executions in total: nothing fuzzed" >&2
  findings=$((findings + 1))
fi
secs=$(($(date +%s) - start))
echo "fuzz: $ntargets targets, $execs executions (corpus replay $replayed inputs), $findings findings, $secs s" \
  >build/gates/fuzz.summary
cat build/gates/fuzz.summary
if [ "$findings" -ne 0 ]; then
  echo "fuzz: reproducers in $ROOT/$FINDINGS (run one: $BUILD/tests/fuzz/fuzz_<target> <file>)" >&2
  exit 1
fi
exit 0
