#!/bin/sh
# t_limits.sh — what a recording cannot keep apart is said, not lost:
#
# threads beyond the slots: threads1k starts 1000 threads that all live at
# once, each computing 2 ms of its own CPU time; its segment has the
# default 256 slots, so exactly 744 are refused one.  record warns with
# the count, the profile keeps it (report's warning, JSON
# threads_not_profiled), and the CPU time of the threads seen without a
# slot is at least half of the refused threads' 744 x 2 ms and at most the
# process's CPU time.  With --slots 1024 every thread is profiled and
# nothing is said.
#
# fragment tags beyond the cap: tagflood opens a new tag every 100 us for
# 1.5 s (thousands of distinct tags); the profile keeps at most 1024 of
# them and one row of "other tags", and record and report say so.
SUB=limits
. tests/lib.sh
need_built t_limits build/workloads/threads1k build/workloads/tagflood
T1K=build/workloads/threads1k

"$LC" record --force --no-counters -o "$tmp/t.data" -- "$T1K" 1000 2 >"$tmp/t.out" 2>"$tmp/t.err"
status_ok "1000 threads, 256 slots: recorded" $? "$tmp/t.err"
has_lines "record says 744 threads were not profiled" "$tmp/t.err" \
	'744 threads were not profiled: their process.s flag slots were full (give record --slots N'
"$LC" report -f "$tmp/t.data" >"$tmp/t.rep" 2>&1
has_lines "report says it too" "$tmp/t.rep" '^\*\* warning: 744 thread(s) were not profiled'
"$LC" report --format json -f "$tmp/t.data" >"$tmp/t.json" 2>&1
has_lines "JSON: threads_not_profiled 744" "$tmp/t.json" '"threads_not_profiled": 744,'
cpu=$(sed -n 's/.*"threads_without_slot_cpu": \([0-9.]*\),.*/\1/p' "$tmp/t.json")
total=$(sed -n 's/^cpu_ns //p' "$tmp/t.out")
if awk -v c="${cpu:-0}" -v t="${total:-0}" 'BEGIN { exit !(c >= 0.5 * 744 * 0.002 && c <= t / 1e9 + 0.01) }'; then
	ok "their CPU time ${cpu} s: at least half of 744 x 2 ms, at most the process's $((total / 1000000)) ms"
else
	unjudged "their CPU time ${cpu:-none} s against 744 x 2 ms (the process: ${total:-?} ns)" ||
		fail "their CPU time ${cpu:-none} s: not within [0.744 s, the process's ${total:-?} ns]"
fi

"$LC" record --force --no-counters --slots 1024 -o "$tmp/s.data" -- "$T1K" 1000 2 \
	>"$tmp/s.out" 2>"$tmp/s.err"
status_ok "--slots 1024: recorded" $? "$tmp/s.err"
if grep -q 'not profiled' "$tmp/s.err"; then
	fail "--slots 1024: a thread was not profiled:"; sed 's/^/      /' "$tmp/s.err"
else
	ok "--slots 1024: every thread profiled"
fi
"$LC" report --format json -f "$tmp/s.data" >"$tmp/s.json" 2>&1
has_lines "--slots 1024: JSON threads_not_profiled 0" "$tmp/s.json" '"threads_not_profiled": 0,'

"$LC" record --force --no-counters -i 100us -o "$tmp/g.data" -- build/workloads/tagflood 1500 100 \
	>"$tmp/g.out" 2>"$tmp/g.err"
status_ok "a new tag every 100 us: recorded" $? "$tmp/g.err"
"$LC" report --tags -f "$tmp/g.data" >"$tmp/g.tags" 2>&1
n=$(wc -l <"$tmp/g.tags")
if [ "$n" -le 1025 ] && grep -q '^-9223372036854775808 other tags$' "$tmp/g.tags"; then
	ok "report --tags: $n rows, 'other tags' among them ($(sed -n 's/^tags //p' "$tmp/g.out") tags opened)"
else
	fail "report --tags: $n rows (at most 1025 wanted, with 'other tags'):"; tail -3 "$tmp/g.tags"
fi
has_lines "record says tags went to 'other tags'" "$tmp/g.err" \
	'fragment tags beyond the first 1024 distinct ones were open at [0-9]* tick'
"$LC" report -f "$tmp/g.data" >"$tmp/g.rep" 2>&1
has_lines "report says so" "$tmp/g.rep" \
	"^\*\* note: fragment tags beyond the first 1024 distinct ones were open at [0-9]* tick(s): their time is in the row of 'other tags'"
finish
