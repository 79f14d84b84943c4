#!/bin/sh
# t_record_spawn.sh — record starts its command without calling setenv or
# malloc in the child of its threaded process (the environment is built
# before the fork), and a record whose command never started can be ended:
#   - 50 records of /bin/true with three software counters in roles (the
#     command that once deadlocked its child at start-up) all end, each
#     under a 60 s watchdog;
#   - a child stopped before its exec (LOSTCYCLES_TEST_STALL_CHILD=1, as a
#     deadlocked one would be) is ended with record by SIGTERM (exit 143)
#     and SIGINT (130), within a second (a longer wait on a machine
#     measured too busy is not judged), and leaves no process behind.
SUB=record
. tests/lib.sh
set -u

n=0 hung=0 bad=0
while [ "$n" -lt 50 ]; do
	timeout -s KILL 60 "$LC" record -q -e task-clock=cycles,context-switches=stall,cpu-migrations=miss \
		-o "$tmp/t.data" --force -- /bin/true >"$tmp/out" 2>&1
	st=$?
	n=$((n + 1))
	[ "$st" -eq 137 ] && hung=$((hung + 1))
	[ "$st" -ne 0 ] && [ "$st" -ne 137 ] && { bad=$((bad + 1)); cp "$tmp/out" "$tmp/bad.out"; }
done
if [ "$hung" -eq 0 ] && [ "$bad" -eq 0 ]; then
	ok "50 records of /bin/true with counters in roles: all ended, exit 0"
else
	fail "50 records of /bin/true: $hung hung (killed after 60 s), $bad failed"
	[ -f "$tmp/bad.out" ] && sed 's/^/      /' "$tmp/bad.out"
fi

# stalled SIG WANT: a record whose child is stuck before its exec, sent SIG
stalled() {
	LOSTCYCLES_TEST_STALL_CHILD=1 "$LC" record -o "$tmp/stall-$1.data" -- /bin/true \
		>"$tmp/out" 2>&1 &
	pid=$!
	sleep 0.5
	t0=$(date +%s%N)
	kill -"$1" "$pid"
	# a watchdog: a record that ignores the signal is killed after 20 s
	( sleep 20; kill -KILL "$pid" 2>/dev/null ) &
	dog=$!
	wait "$pid"
	st=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	# (the holder of record's perf events dies with record: give the
	# kernel up to a second to deliver its death signal)
	for _i in $(seq 1 20); do
		left=$(ps -eo args | grep -c "[s]tall-$1.data")
		[ "$left" -eq 0 ] && break
		sleep 0.05
	done
	if [ "$st" -ne "$2" ] || [ "$left" -ne 0 ]; then
		fail "a child stuck before its exec, SIG$1: exit $st (want $2), $left processes left"
		sed 's/^/      /' "$tmp/out"
	elif [ "$ms" -le 1000 ]; then
		ok "a child stuck before its exec, SIG$1: record ended in $ms ms, exit $st, nothing left"
	else
		unjudged "a child stuck before its exec, SIG$1: record ended after $ms ms (want <= 1000)" ||
			fail "a child stuck before its exec, SIG$1: record ended after $ms ms (want <= 1000)"
	fi
}
stalled TERM 143
stalled INT 130
SUB=record_spawn
finish
