#!/bin/sh
# t_emfile.sh — a sampler short of file descriptors never takes a live
# process for gone: 100 live children under "ulimit -n 48" (the hard limit
# too, so record cannot raise it) are all tracked (watched by kill(pid, 0)
# beyond the descriptors it may hold), and no child's segment name is
# unlinked while it lives (each child checks its own before it exits).
SUB=emfile
. tests/lib.sh
W=build/workloads/hostile
need_built t_emfile "$W"
[ -d /dev/shm ] || skip t_emfile "no /dev/shm here"

sh -c 'ulimit -n 48 && exec "$@"' sh "$LC" record --no-counters --sched=none -o "$tmp/e.data" \
	-- "$W" children 100 1500 >"$tmp/out" 2>&1
st=$?
if [ "$st" -eq 0 ]; then
	ok "ulimit -n 48, 100 live children: every child kept its segment name"
else
	fail "ulimit -n 48, 100 live children: exit status $st"; sed 's/^/      /' "$tmp/out"
fi
# the parent and its 100 children
if grep -q ' 101 processes' "$tmp/out"; then
	ok "all 101 processes were tracked"
else
	fail "not all 101 processes were tracked:"; sed 's/^/      /' "$tmp/out"
fi
finish
