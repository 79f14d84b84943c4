#!/bin/sh
# t_sigterm.sh — SIGTERM to record: the command gets the signal and record
# waits for it (bounded) before it ends the session, so that no segment name
# of the session stays in /dev/shm.  The command takes 0.5 s to die of the
# signal and no exit handler of its runs (the library cannot unlink its own
# name): record must reap the name.
SUB=sigterm
. tests/lib.sh
W=build/workloads/hostile
need_built t_sigterm "$W"
[ -d /dev/shm ] || skip t_sigterm "no /dev/shm here"

env --default-signal=TERM "$LC" record -q -o "$tmp/t.data" -- "$W" sigterm 500 2>"$tmp/err" &
rec=$!
# the session is named lc<record's pid>-<hex>: wait (up to 30 s) until the
# command's segment is there
n=0
while ! ls /dev/shm | grep -q "^lostcycles\.lc$rec-" && [ "$n" -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
ls /dev/shm | grep -q "^lostcycles\.lc$rec-" || { fail "no segment appeared"; kill $rec; finish; exit 1; }
kill -TERM "$rec"
wait "$rec"
st=$?
left=$(ls /dev/shm | grep -c "^lostcycles\.lc$rec-")
if [ "$left" -eq 0 ]; then
	ok "SIGTERM to record: no segment name of the session is left"
else
	fail "SIGTERM to record: $left segment names left in /dev/shm"
	ls /dev/shm | grep "^lostcycles\.lc$rec-" | sed 's|^|      /dev/shm/|'
	ls /dev/shm | grep "^lostcycles\.lc$rec-" | sed 's|^|/dev/shm/|' | xargs rm -f
fi
if [ "$st" -eq 143 ]; then
	ok "SIGTERM to record: exit status 143, the command's"
else
	fail "SIGTERM to record: exit status $st, want 143"; cat "$tmp/err"
fi
# the profile goes on until the command died, 0.5 s after the signal
run report -f "$tmp/t.data"
wall=$(sed -n 's/.*wall time: \([0-9.]*\) s.*/\1/p' "$tmp/out")
check "SIGTERM to record: the profile covers the command's last 0.5 s (wall ${wall:-?} s)" \
	'awk -v w="${wall:-0}" "BEGIN { exit !(w >= 0.5) }"'
finish
