#!/bin/sh
# t_dropped.sh — a segment dropped as invalid vouches for no count it gave:
# a program whose slot's count of LC_TASK_WASTED calls jumps by 3 x 2^30
# and whose header then holds garbage at every tick is dropped, and
# neither record nor report says that billions of calls were missed
# (before: "3221225468 LC_TASK_WASTED call(s) missed by the sampler").
SUB=dropped
. tests/lib.sh
W=build/workloads/hostile
[ -x "$W" ] || { echo "t_dropped: $W is missing (run make workloads)" >&2; exit 1; }
[ -d /dev/shm ] || skip t_dropped "no /dev/shm here"

run record --force -o "$tmp/w.data" -- "$W" wastejump 400
check "record a program whose segment turns to garbage" \
	'grep -q "values in its segment that no library writes: dropped" "$tmp/out"'
run report "$tmp/w.data"
check "report does not count the dropped segment's missed LC_TASK_WASTED calls" \
	'! grep -q "LC_TASK_WASTED call(s) missed" "$tmp/out"'
"$LC" report --format json "$tmp/w.data" >"$tmp/out" 2>&1
st=$?
check "the JSON report says 0 missed" 'grep -q "\"wasted_lost\": 0," "$tmp/out"'
finish
