#!/bin/sh
# t_events.sh — "lostcycles events": the generic list holds software events
# that open here, on this process and on another (task-clock,
# context-switches), and hardware events whose status agrees with the
# kernel (no CPU PMU in sysfs: unavailable, ENOENT, with the reason);
# naming events checks them with exit status 1 when one does not open or is
# unknown; a pattern filters the list; --json gives the same as one array;
# -d describes an event with its encoding.  Run from the top.
. tests/lib.sh
set -u
LC=./lostcycles
[ -x "$LC" ] || { echo "t_events: $LC missing (make all)" >&2; exit 1; }
lc_tmpdir

if ! "$LC" events >"$tmp/list" 2>"$tmp/err"; then
	fail "events exits non-zero: $(cat "$tmp/err")"
fi
for ev in TASK-CLOCK CONTEXT-SWITCHES; do
	if grep -q "^perf::$ev  *software  *opens  *opens *\$" "$tmp/list"; then
		ok "$ev: software, opens"
	else
		fail "$ev not listed as an opening software event"
	fi
done
pmu=no
[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] && pmu=yes
if [ $pmu = no ]; then
	if grep -q '^perf::CYCLES  *hardware  *unavailable (ENOENT)  *unavailable (ENOENT)  *no such event here: no hardware PMU' "$tmp/list" &&
	   ! grep -q 'hardware  *opens ' "$tmp/list"; then
		ok "no CPU PMU here: hardware events unavailable (ENOENT)"
	else
		fail "hardware events not marked unavailable"; grep hardware "$tmp/list" | head -3
	fi
else
	grep -q '^perf::CYCLES  *hardware' "$tmp/list" && ok "CYCLES listed" || fail "CYCLES missing"
fi
n=$(sed -n 's/^\([0-9]*\) events, \([0-9]*\) open here$/\2/p' "$tmp/list")
o=$(grep -c '^perf::[^ ]*  *[a-z]*  *opens ' "$tmp/list")
[ -n "$n" ] && [ "$n" = "$o" ] && ok "summary counts $n opening events" ||
	fail "summary '$n' != $o lines that open"

"$LC" events task-clock >"$tmp/out" 2>&1
[ $? -eq 0 ] && ok "events task-clock: exit 0" || fail "events task-clock: $(cat "$tmp/out")"
"$LC" events task-clock no-such-event >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^no-such-event .*event not found' "$tmp/out"; then
	ok "unknown event: exit 1, 'event not found'"
else
	fail "unknown event: exit $rc: $(cat "$tmp/out")"
fi
if [ $pmu = no ]; then
	"$LC" events cycles >"$tmp/out" 2>&1
	[ $? -eq 1 ] && ok "events cycles: exit 1 without a PMU" || fail "events cycles should exit 1"
fi
"$LC" events -d context-switches >"$tmp/out" 2>&1
if [ $? -eq 0 ] && grep -q '^encoding: *perf_event_attr type 1 config 0x3$' "$tmp/out"; then
	ok "-d context-switches: type 1 (software) config 3"
else
	fail "-d context-switches: $(cat "$tmp/out")"
fi
"$LC" events -d x -a >/dev/null 2>&1
[ $? -eq 2 ] && ok "-d with -a refused" || fail "-d with -a not refused with 2"
"$LC" events '*task-clock*' >"$tmp/out" 2>&1
if [ $? -eq 0 ] && grep -q '^perf::TASK-CLOCK ' "$tmp/out" && ! grep -q 'CYCLES' "$tmp/out"; then
	ok "pattern *task-clock*: the task clock only"
else
	fail "pattern *task-clock*: $(cat "$tmp/out")"
fi
"$LC" events 'no*such*' >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'no event matches' "$tmp/out" && ok "a pattern that matches nothing: exit 1" ||
	fail "a pattern that matches nothing: $(cat "$tmp/out")"
"$LC" events --json task-clock cycles >"$tmp/out" 2>&1
if grep -q '"event": "task-clock", "kind": "software", "opens": true, "opens_in_child": true, "reason": null' "$tmp/out" &&
   grep -q '"event": "cycles".*"opens": \(true\|false\)' "$tmp/out" && head -c 1 "$tmp/out" | grep -q '\['; then
	ok "--json: one array, task-clock opens in both"
else
	fail "--json: $(cat "$tmp/out")"
fi
"$LC" events 'task*' cycles >/dev/null 2>&1
[ $? -eq 2 ] && ok "patterns and names do not mix" || fail "patterns and names mixed"
[ $nfail -eq 0 ]
