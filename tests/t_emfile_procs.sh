#!/bin/sh
# t_emfile_procs.sh — running out of file descriptors never loses a process
# under a false reason: 200 live children (2 s each) recorded with every
# per-thread source on (scheduler, counters) under "ulimit -n 128" (the
# hard limit too, so record cannot raise it).  The per-thread sources take
# descriptors for every thread; when none is left to attach a segment, the
# registry gives up its pidfds and the sources open no more, so that every
# process is tracked.  No message calls a segment invalid, and a process
# that could not be tracked would be counted as such by record and by the
# profile (report).
SUB=emfile_procs
. tests/lib.sh
W=build/workloads/hostile
need_built t_emfile_procs "$W"
[ -d /dev/shm ] || skip t_emfile_procs "no /dev/shm here"

fd_limited 128 "$LC" record --force -o "$tmp/e.data" \
	-- "$W" children 200 2000 >"$tmp/out" 2>&1
status_ok "ulimit -n 128, 200 live children: record and every child succeeded" $? "$tmp/out"
if grep -qi 'invalid' "$tmp/out"; then
	fail "a segment was called invalid:"; grep -i invalid "$tmp/out" | head -3 | sed 's/^/      /'
else
	ok "no segment was called invalid"
fi
"$LC" report "$tmp/e.data" >"$tmp/rep" 2>&1
lost=$(sed -n 's/.*: \([0-9][0-9]*\) process.* could not be tracked for want of file descriptors.*/\1/p' \
	"$tmp/out" | head -n 1)
plost=$(sed -n 's/.*\*\* warning: \([0-9][0-9]*\) process.*could not be tracked for want of file descriptors.*/\1/p' \
	"$tmp/rep" | head -n 1)
if [ "${lost:-0}" != "${plost:-0}" ]; then
	fail "record says ${lost:-0} untracked processes, the profile ${plost:-0}"
else
	ok "record and the profile agree: ${lost:-0} processes untracked"
fi
# the parent and its 200 children
if grep -q ' 201 processes' "$tmp/out"; then
	ok "all 201 processes were tracked"
elif [ -n "$lost" ] && unjudged "all 201 processes tracked (${lost} named untracked)" "$tmp/out"; then
	:
else
	fail "not all 201 processes were tracked:"; sed 's/^/      /' "$tmp/out"
fi
"$LC" report --format json "$tmp/e.data" >"$tmp/j" 2>/dev/null
if grep -q "\"untracked_for_want_of_fds\": ${lost:-0}," "$tmp/j" && grep -q '"fds_ran_out": true' "$tmp/j"; then
	ok "the profile says descriptors ran out, and ${lost:-0} processes untracked"
else
	fail "the JSON report lacks the descriptors' fields:"; grep fds "$tmp/j" | sed 's/^/      /'
fi
finish
