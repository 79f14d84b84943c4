#!/bin/sh
# t_truncate.sh — a segment truncated under the sampler (a load past the
# file's end raises SIGBUS) costs that one target, never the sampler: the
# program truncates its own segment to 0 bytes 0.3 s into its run while a
# child goes on; record must finish with the program's status, say once
# that it dropped the target, and keep measuring the child to its end.
SUB=truncate
. tests/lib.sh
W=build/workloads/hostile
need_built t_truncate "$W"
[ -d /dev/shm ] || skip t_truncate "no /dev/shm here"

"$LC" record --no-counters -o "$tmp/t.data" -- "$W" truncate 300 >"$tmp/err" 2>&1
st=$?
if [ "$st" -eq 0 ]; then
	ok "a truncated segment: record finished with the program's status"
else
	fail "a truncated segment: record exit status $st"; sed 's/^/      /' "$tmp/err"
fi
n=$(grep -c 'truncated while mapped' "$tmp/err")
if [ "$n" -eq 1 ]; then
	ok "one warning: $(grep 'truncated while mapped' "$tmp/err")"
else
	fail "$n warnings about the truncation, want 1:"; sed 's/^/      /' "$tmp/err"
fi
# the child ran 0.9 s: the profile goes on after the drop at 0.3 s
run report -f "$tmp/t.data"
wall=$(sed -n 's/.*wall time: \([0-9.]*\) s.*/\1/p' "$tmp/out")
check "the profile covers the child's 0.9 s (wall ${wall:-?} s) and both processes" \
	'awk -v w="${wall:-0}" "BEGIN { exit !(w >= 0.9) }" && grep -q " 2 processes" "$tmp/err"'
finish
