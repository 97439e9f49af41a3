# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034 # LIB_* are the sourcing script's
# The shell helpers the project's scripts share. Sourced, never run:
#
#   LIB_PREFIX=nuttx                      # the prefix of every message (its own
#                                         # line: not "LIB_PREFIX=x . lib.sh")
#   . "$root/scripts/lib.sh"              # root: the clone's top directory
#
# Messages go to stderr, prefixed "<LIB_PREFIX>: " (default: the script's
# file name without .sh), so a script's stdout stays its result.
#
#   say MSG...          one line: "<prefix>: MSG" (LIB_SAY_CLOCK=1 adds the
#                       seconds since the script started: "<prefix>: [Ns] MSG")
#   step WHAT           a named step begins: "<prefix>: == WHAT"; die names it
#   step_of I N WHAT    a numbered step begins: "<prefix>: step I/N: WHAT"
#   die MSG...          the one line naming the failure, then exit 1:
#                       "<prefix>: FAIL at step '<step>': MSG" within a step,
#                       else "<prefix>: ERROR: MSG"; also written to
#                       LIB_SUMMARY when that is set (a stage's summary line)
#   ok MSG... / fail MSG...
#                       a check's verdict on stdout, "ok    MSG" / "FAIL  MSG";
#                       fail sets LIB_FAILED=1
#   usage               prints the script's header comment (after the SPDX
#                       line, up to the first line that is not a comment)
#                       without its "# ": the --help of every script
#   progress_run WHAT CMD...
#                       runs CMD (in the foreground: its input and output
#                       stay where they were) and, while it runs, says
#                       "still WHAT (N min)" every D1_HEARTBEAT_S seconds
#                       (default 60); returns CMD's exit status. The
#                       heartbeat goes to the script's stderr as it was when
#                       the library was sourced (fd LIB_ERR), not where a
#                       redirection of the call sends CMD's output: in
#                       `progress_run "building" make >log 2>&1` the log gets
#                       make's output, the terminal the heartbeat
# The file is bash (arrays, SECONDS, BASHPID); it sets no shell option.

LIB_PREFIX=${LIB_PREFIX:-$(basename "$0" .sh)}
LIB_STEP=""
LIB_SUMMARY=${LIB_SUMMARY:-}
LIB_FAILED=0
exec {LIB_ERR}>&2

say() {
	if [ "${LIB_SAY_CLOCK:-0}" = 1 ]; then
		echo "$LIB_PREFIX: [${SECONDS}s] $*" >&2
	else
		echo "$LIB_PREFIX: $*" >&2
	fi
}

step() {
	LIB_STEP=$1
	say "== $1"
}

step_of() {
	LIB_STEP="$1/$2: $3"
	say "step $1/$2: $3"
}

die() {
	local line
	if [ -n "$LIB_STEP" ]; then
		line="$LIB_PREFIX: FAIL at step '$LIB_STEP': $*"
	else
		line="$LIB_PREFIX: ERROR: $*"
	fi
	echo "$line" >&2
	[ -z "$LIB_SUMMARY" ] || echo "$line" >"$LIB_SUMMARY"
	exit 1
}

ok() { echo "ok    $*"; }
fail() {
	echo "FAIL  $*"
	LIB_FAILED=1
}

usage() {
	awk 'NR == 1 && /^#!/ { next }
	     /^# SPDX-License-Identifier:/ { next }
	     !/^#/ { exit }
	     { sub(/^# ?/, ""); if (started || $0 != "") { started = 1; print } }' "$0"
}

# lib_minutes SECONDS: "N s" under a minute, else "N min".
lib_minutes() {
	if [ "$1" -lt 60 ]; then echo "$1 s"; else echo "$(($1 / 60)) min"; fi
}

# The heartbeat beside progress_run's command: a line every interval until
# it is killed (TERM) or the shell that started it is gone.
lib_heartbeat() { # what interval caller-pid
	local what=$1 every=$2 caller=$3 t0=$SECONDS never
	trap - ERR
	set +e
	exec 2>&"$LIB_ERR"
	trap 'exit 0' TERM
	# The wait is read's timeout on a pipe no one writes (no child process
	# to leave behind holding a pipe of the caller's).
	exec {never}<> <(:)
	while :; do
		read -r -t "$every" -u "$never" _
		kill -0 "$caller" 2>/dev/null || exit 0
		say "still $what ($(lib_minutes $((SECONDS - t0))))"
	done
}

progress_run() {
	local what=$1 hb rc=0
	shift
	lib_heartbeat "$what" "${D1_HEARTBEAT_S:-60}" "$BASHPID" >/dev/null &
	hb=$!
	"$@" || rc=$?
	kill "$hb" 2>/dev/null || true
	wait "$hb" 2>/dev/null || true
	return "$rc"
}
