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

fd_limited 48 "$LC" record --no-counters --sched=none -o "$tmp/e.data" \
	-- "$W" children 100 1500 >"$tmp/out" 2>&1
status_ok "ulimit -n 48, 100 live children: every child kept its segment name" $? "$tmp/out"
# the parent and its 100 children
has_lines "all 101 processes were tracked" "$tmp/out" ' 101 processes'
finish
