#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# scripts/lib.sh, the scripts' shared helpers (ctest script_lib): the
# heartbeat of progress_run (a 2 s command with a 1 s interval says at least
# once that it is still running, and the command's exit status comes back,
# a failing one included), its output left where it went, no wait for the
# heartbeat's sleep after a quick command in $(...); die, step, ok/fail and
# usage as documented. Prints one line per case and "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/scripts/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
failed=0

check() { # name condition-result(0/1) detail
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok    $1"
	else
		failed=$((failed + 1))
		echo "FAIL  $1: $3"
	fi
}

# run SCRIPT-BODY: a bash script sourcing the library, its stdout, stderr
# and exit status in $work/out, $work/err, $rc. In it, "$nap" is a command
# that takes 2 s, and longer until a heartbeat is in $work/err (at most
# 20 s): on a loaded machine a 1 s heartbeat may come late, not never.
run() {
	printf '%s\n' '#!/usr/bin/env bash' '# SPDX-License-Identifier: Apache-2.0' \
		'# The fixture'"'"'s usage line.' '#' '# Its second paragraph.' 'set -euo pipefail' \
		'LIB_PREFIX=t' ". '$lib'" "nap='$work/nap.sh'" "$1" >"$work/s.sh"
	D1_HEARTBEAT_S=1 bash "$work/s.sh" >"$work/out" 2>"$work/err"
	rc=$?
}

printf '%s\n' 'sleep 2' "for _ in \$(seq 180); do grep -q still '$work/err' && exit 0; sleep 0.1; done" >"$work/nap.sh"

# shellcheck disable=SC2016 # expanded in the fixture
run 'progress_run "waiting" bash -c "bash $nap; echo done"'
check "progress_run: a 2 s command with a 1 s heartbeat says it is still running" \
	"$(grep -cE '^t: still waiting \([0-9]+ s\)$' "$work/err" | awk '{print ($1 >= 1) ? 0 : 1}')" \
	"stderr: $(cat "$work/err")"
check "progress_run: the command's exit status 0 and its stdout kept" \
	"$([ "$rc" -eq 0 ] && [ "$(cat "$work/out")" = "done" ]; echo $?)" "exit $rc, stdout '$(cat "$work/out")'"

# shellcheck disable=SC2016 # expanded in the fixture
run 'progress_run "failing" bash -c "bash $nap; echo err >&2; exit 7" || echo "rc=$?"'
check "progress_run: a failing command's exit status (7) comes back" \
	"$(grep -qx 'rc=7' "$work/out"; echo $?)" "stdout: $(cat "$work/out")"
check "progress_run: the failing command's stderr kept beside the heartbeat" \
	"$(grep -qx err "$work/err" && grep -q '^t: still failing' "$work/err"; echo $?)" "stderr: $(cat "$work/err")"

run 'progress_run "failing" false'
check "progress_run: under set -e a failure ends the script with it" \
	"$([ "$rc" -eq 1 ]; echo $?)" "exit $rc"

start=$SECONDS
# shellcheck disable=SC2016 # expanded in the fixture
run 'x=$(D1_HEARTBEAT_S=30 progress_run "quick" echo hi); echo "x=$x"'
check "progress_run: a quick command in \$(...) does not wait for the heartbeat" \
	"$([ $((SECONDS - start)) -lt 10 ] && grep -qx 'x=hi' "$work/out"; echo $?)" \
	"$((SECONDS - start)) s, stdout: $(cat "$work/out")"

# shellcheck disable=SC2016 # expanded in the fixture
run 'progress_run "logging" bash -c "bash $nap; echo to-log; echo err-to-log >&2" >"$0.log" 2>&1'
check "progress_run: a redirected command's output in its file, the heartbeat on the script's stderr" \
	"$(grep -q '^t: still logging' "$work/err" && [ "$(cat "$work/s.sh.log")" = "to-log
err-to-log" ]; echo $?)" "stderr: $(cat "$work/err"), log: $(cat "$work/s.sh.log")"

run 'echo yes | progress_run "reading" cat'
check "progress_run: the command's stdin kept" "$(grep -qx yes "$work/out"; echo $?)" "stdout: $(cat "$work/out")"

run "LIB_SUMMARY='$work/sum'; step \"kernel rt\"; die \"make failed\""
check "die within a step: exit 1, one line naming the step, also the summary" \
	"$([ "$rc" -eq 1 ] && grep -qx "t: FAIL at step 'kernel rt': make failed" "$work/err" &&
		grep -qx "t: FAIL at step 'kernel rt': make failed" "$work/sum"; echo $?)" \
	"exit $rc, stderr: $(cat "$work/err")"

run 'step_of 2 7 "cache key"; say "hello"; die "no key"'
check "step_of, say and die: the documented lines" \
	"$([ "$rc" -eq 1 ] && [ "$(cat "$work/err")" = "t: step 2/7: cache key
t: hello
t: FAIL at step '2/7: cache key': no key" ]; echo $?)" "stderr: $(cat "$work/err")"

run 'die "bad input"'
check "die outside a step: ERROR line, exit 1" \
	"$([ "$rc" -eq 1 ] && grep -qx 't: ERROR: bad input' "$work/err"; echo $?)" "exit $rc, stderr: $(cat "$work/err")"

# shellcheck disable=SC2016 # expanded in the fixture
run 'ok "a"; fail "b"; echo "failed=$LIB_FAILED"'
check "ok and fail: verdict lines on stdout, fail sets LIB_FAILED" \
	"$([ "$(cat "$work/out")" = "ok    a
FAIL  b
failed=1" ]; echo $?)" "stdout: $(cat "$work/out")"

run 'usage'
check "usage: the header comment without SPDX and '# '" \
	"$([ "$(cat "$work/out")" = "The fixture's usage line.

Its second paragraph." ]; echo $?)" "stdout: $(cat "$work/out")"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
