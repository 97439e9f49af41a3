# SPDX-License-Identifier: Apache-2.0
# Sourced by the gate scripts (scripts/gates/*.sh) right after their cd to the
# repo root:
#   . scripts/gates/summary.sh
#   gate_summary <label> <summary file>
#   gate_step "<what the script is doing now>"   (optional, any number)
#   gate_fail "<what failed>"   writes "<label>: <what failed>" to the summary
#                               and stdout, exit 1
# gate_summary removes the summary left by an earlier run (a gate that dies
# early must not leave a stale PASS on the screen) and sets an EXIT trap: when
# the script exits non-zero without having written its summary (set -e, set -u,
# an early `exit`), the trap writes
#   <label>: FAIL (exit <rc> while <step>; last failed command, line <n>: <cmd>)
# A summary the script wrote itself is never overwritten.
gate_summary() {
	GATE_LABEL=$1
	GATE_SUMMARY=$2
	GATE_STEP="starting"
	GATE_CMD=""
	GATE_LINE=""
	mkdir -p "$(dirname "$GATE_SUMMARY")"
	rm -f "$GATE_SUMMARY"
	set -o errtrace
	trap 'GATE_CMD=$BASH_COMMAND GATE_LINE=$LINENO' ERR
	trap gate_summary_exit EXIT
}

gate_step() {
	GATE_STEP=$1
}

gate_fail() {
	echo "$GATE_LABEL: $1" | tee "$GATE_SUMMARY"
	exit 1
}

gate_summary_exit() {
	local rc=$?
	local what

	if [ "$rc" -ne 0 ] && [ ! -s "$GATE_SUMMARY" ]; then
		what="exit $rc while $GATE_STEP"
		if [ -n "$GATE_CMD" ]; then
			what="$what; last failed command, line $GATE_LINE: $GATE_CMD"
		fi
		printf '%s: FAIL (%s)\n' "$GATE_LABEL" "$what" >"$GATE_SUMMARY"
		cat "$GATE_SUMMARY" >&2
	fi
}
