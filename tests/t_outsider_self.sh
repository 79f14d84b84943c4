#!/bin/sh
# t_outsider_self.sh — a process of the recording's own user that does not
# descend from the recorded command cannot join the recording either: the
# test starts one beside the recording with LOSTCYCLES_SESSION set to its
# name (read from /dev/shm); it is refused, the recording keeps 1 process
# and p = 2, and record says why.  (t_outsider.sh does the same as a
# second user.)
SUB=outsider_self
. tests/lib.sh
W=build/workloads/helpers
need_built t_outsider_self "$W"

"$LC" record --no-counters -o "$tmp/o.data" -- "$W" 2 0 1500 >"$tmp/rec.out" 2>"$tmp/rec.err" &
rpid=$!
await_session "$rpid" "$tmp/rec.err"
LOSTCYCLES_SESSION="$ses" "$W" 4 0 800 >"$tmp/in.out" 2>&1
wait "$rpid"
st=$?
if [ "$st" -eq 0 ] && grep -Eq ", 1 process, p = 2( |$)" "$tmp/rec.err"; then
	ok "a process outside the command's tree with the session's name: 1 process, p = 2"
else
	fail "a process outside the command's tree joined (exit status $st):"
	sed 's/^/      /' "$tmp/rec.err"
fi
if grep -q "^lostcycles record: 1 process refused: not started by the recorded command" "$tmp/rec.err"; then
	ok "record says it refused 1 process"
else
	fail "record does not say that it refused the process:"; sed 's/^/      /' "$tmp/rec.err"
fi
finish
