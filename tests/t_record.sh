#!/bin/sh
# t_record.sh — end-to-end behaviour of "lostcycles record" (and of
# "report -l" on what it wrote): the command's exit status is propagated, a
# command that cannot start gives 127 and a message, a target killed by a
# signal leaves a readable profile and gives 128+sig, SIGINT/SIGTERM to
# record write the profile and give 130/143, bad options are refused with a
# message.  Run from the top of the tree with sh; exits non-zero on failure.
. tests/lib.sh
skip_under_tsan t_record
set -u

LC=./lostcycles
WL=build/workloads/control	# 0.4 s, LC_TEAM(2), both threads busy

for f in "$LC" "$WL"; do
	if [ ! -x "$f" ]; then
		echo "t_record: $f is missing (run 'make all workloads' at the top of the tree)" >&2
		exit 1
	fi
done

lc_tmpdir
nfail=0
ntest=0

ok() {
	ntest=$((ntest + 1))
	echo "ok    $*"
}

fail() {
	ntest=$((ntest + 1))
	nfail=$((nfail + 1))
	echo "FAIL  $*"
	if [ -s "$tmp/err" ]; then
		sed 's/^/      stderr: /' "$tmp/err"
	fi
}

# expect_status WHAT WANT GOT
expect_status() {
	if [ "$3" -eq "$2" ]; then
		ok "$1: exit status $3"
	else
		fail "$1: exit status $3, expected $2"
	fi
}

# readable WHAT FILE: "report -f FILE" works and -l shows some pure computation.
readable() {
	if ! "$LC" report -f "$2" >"$tmp/report" 2>"$tmp/err"; then
		fail "$1: report -f $2 failed"
		return
	fi
	if ! "$LC" report -f "$2" -l >"$tmp/line" 2>"$tmp/err"; then
		fail "$1: report -f $2 -l failed"
		return
	fi
	rt=$(sed -n 's/.* rt=\([0-9.]*\).*/\1/p' "$tmp/line")
	if [ -z "$rt" ] || ! awk -v v="$rt" 'BEGIN { exit !(v > 0.05) }'; then
		# a busy machine may give the workload less than 0.05 s of CPU
		# before the signal
		unjudged "$1: pure computation '$rt' s (want > 0.05 s)" ||
			fail "$1: the profile has no pure computation: $(cat "$tmp/line")"
		return
	fi
	ok "$1: profile readable, rt=$rt"
}

# ---- the command's exit status ---------------------------------------------
for code in 0 3 42; do
	"$LC" record --force -o "$tmp/exit.data" -- sh -c "exit $code" 2>"$tmp/err"
	expect_status "sh -c 'exit $code'" "$code" $?
done

"$LC" record -o "$tmp/wl.data" -- "$WL" 2>"$tmp/err"
expect_status "workload" 0 $?
readable "workload" "$tmp/wl.data"

# ---- a command that cannot be started -------------------------------------
"$LC" record -o "$tmp/none.data" -- "$tmp/no-such-command" 2>"$tmp/err"
st=$?
expect_status "missing command" 127 "$st"
if grep -q "no-such-command" "$tmp/err"; then
	ok "missing command: the message names it"
else
	fail "missing command: no message naming the command"
fi

# ---- a target killed by a signal --------------------------------------------
# The subshell's $$ is the shell that then execs the workload: the workload is
# killed 0.2 s into its run.
for sig in KILL:137 SEGV:139; do
	name=${sig%%:*}
	want=${sig##*:}
	"$LC" record --force -o "$tmp/$name.data" -- \
		sh -c "ulimit -c 0; (sleep 0.2; kill -$name \$\$) & exec $WL" 2>"$tmp/err"
	got=$?
	# a sanitized workload (make check SAN=...) reports a SIGSEGV itself and
	# exits with the sanitizer's status (ASan 1, TSan 66): that is the
	# target's status then
	[ -n "${LC_SAN:-}" ] && [ "$name" = SEGV ] && { [ "$got" -eq 1 ] || [ "$got" -eq 66 ]; } &&
		grep -q "Sanitizer.*SEGV" "$tmp/err" && got=$want
	expect_status "target killed by SIG$name" "$want" "$got"
	readable "target killed by SIG$name" "$tmp/$name.data"
done

# ---- SIGINT / SIGTERM to record itself ---------------------------------------
# Background jobs of a non-interactive shell ignore SIGINT: env restores it.
for sig in INT:130 TERM:143; do
	name=${sig%%:*}
	want=${sig##*:}
	env --default-signal=INT,TERM "$LC" record --force -o "$tmp/$name.data" -- "$WL" 2>"$tmp/err" &
	pid=$!
	# Signal only once record has opened its profile (so it is sampling),
	# whatever the machine's speed; give up after 10 s.
	n=0
	while [ ! -s "$tmp/$name.data" ] && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.1
	kill -"$name" "$pid"
	wait "$pid"
	expect_status "SIG$name to record" "$want" $?
	readable "SIG$name to record" "$tmp/$name.data"
	sleep 0.3	# let the orphaned workload finish
done

# ---- trace mode from the environment -----------------------------------------
LOSTCYCLES_TRACE=1 "$LC" record -o "$tmp/trace.data" -- "$WL" 2>"$tmp/err"
expect_status "LOSTCYCLES_TRACE=1" 0 $?
if "$LC" report -f "$tmp/trace.data" --source trace >"$tmp/report" 2>"$tmp/err"; then
	ok "LOSTCYCLES_TRACE=1: the profile has a trace source"
else
	fail "LOSTCYCLES_TRACE=1: report --source trace failed"
fi

# ---- bad options ------------------------------------------------------------
for bad in 0 abc 10xs -5 "" 500ns 11s 1e999 "100 us"; do
	rm -f "$tmp/ran"
	"$LC" record -i "$bad" -o "$tmp/bad.data" -- sh -c ": > $tmp/ran" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] || [ ! -s "$tmp/err" ] || [ -e "$tmp/ran" ]; then
		fail "-i '$bad': exit status $st, message '$(head -n 1 "$tmp/err")', command ran: $([ -e "$tmp/ran" ] && echo yes || echo no)"
	else
		ok "-i '$bad' refused: $(head -n 1 "$tmp/err")"
	fi
done

for args in "--bogus -- true" "-Z -- true" "-i" "-o"; do
	# shellcheck disable=SC2086 # split on purpose
	"$LC" record $args 2>"$tmp/err" >/dev/null
	st=$?
	if [ "$st" -eq 0 ] || [ ! -s "$tmp/err" ]; then
		fail "record $args: exit status $st, expected an error message"
	else
		ok "record $args refused: $(head -n 1 "$tmp/err")"
	fi
done

"$LC" record -o "$tmp/nocmd.data" 2>"$tmp/err" >/dev/null
st=$?
if [ "$st" -eq 0 ] || [ ! -s "$tmp/err" ]; then
	fail "record without a command: exit status $st, expected an error message"
else
	ok "record without a command refused: $(head -n 1 "$tmp/err")"
fi

# ---- report -l -----------------------------------------------------------------
if "$LC" report -f "$tmp/wl.data" -l "n=1 size=big" >"$tmp/line" 2>"$tmp/err"; then
	line=$(cat "$tmp/line")
	missing=""
	case "$line" in
	"n=1 size=big "*) ;;
	*) missing="$missing (note first)" ;;
	esac
	for key in p li ip sl cl rc ml bl wc rt tt; do
		echo " $line " | grep -Eq " $key=[^ ]+ " || missing="$missing $key"
	done
	echo " $line " | grep -Eq " rc=(na|[0-9][0-9.e-]*) " || missing="$missing rc=number"
	echo " $line " | grep -q " ml=na " || missing="$missing ml=na"
	echo " $line " | grep -q " p=2 " || missing="$missing p=2"
	if [ "$(wc -l <"$tmp/line")" -ne 1 ]; then
		missing="$missing (one line)"
	fi
	if [ -z "$missing" ]; then
		ok "report -l: $line"
	else
		fail "report -l: missing$missing in: $line"
	fi
else
	fail "report -l failed"
fi

# ---- nothing left behind -----------------------------------------------------
if ls /dev/shm 2>/dev/null | grep -q '^lostcycles\.'; then
	ls /dev/shm | grep '^lostcycles\.' >"$tmp/err"
	# Other test runs may be profiling now; only warn.
	echo "note  shared-memory segments present in /dev/shm (another run?)"
fi
if ls -a . | grep -q '^lostcycles-trace\.'; then
	fail "trace files left in $(pwd)"
fi

echo "t_record: $((ntest - nfail - nbusy)) of $ntest passed"
end_unjudged t_record
[ "$nfail" -eq 0 ]
