#!/bin/sh
# t_counters.sh — counters end to end through "record".
#
# A replayed counter trace (--counter-replay: the arithmetic without a PMU)
# gives both threads of the control workload stalls on a quarter of their
# cycles: memory loss must be a quarter of their computation (0.2-0.3 of
# ML + rt), its method printed under the table, and report --counters must
# hold the replayed counts (up to rounding; the real perf_event path with a
# software event is checked against a thread's own CPU time in
# test_counters).  A bad event is refused before the command runs; without
# a PMU, the default set leaves ML na with the reason, and record says so
# once.
SUB=counters
. tests/lib.sh
W=build/workloads/control
[ -x "$W" ] || { echo "t_counters: $W is missing (run make workloads)" >&2; exit 1; }

# threads 0 and 1 (in order of appearance): cumulative cycles and stalls
cat >"$tmp/trace" <<'T'
# t_ns thread cycles stalls enabled running
150000000 0 1000000 250000 150000000 150000000
150000000 1 1000000 250000 150000000 150000000
350000000 0 2000000 500000 350000000 350000000
350000000 1 2000000 500000 350000000 350000000
T
run record -q -e task-clock=cycles,context-switches=stall --counter-replay "$tmp/trace" \
	-o "$tmp/r.data" -- "$W"
"$LC" report --format csv "$tmp/r.data" >"$tmp/csv" 2>/dev/null
"$LC" report "$tmp/r.data" >"$tmp/txt" 2>/dev/null
if [ "$st" -eq 0 ] && awk -F, '$1 == "ml" { ml = $3 } $1 == "rt" { rt = $3 }
	END { s = ml / (ml + rt); printf "      ML %.4f s, rt %.4f s: share %.3f\n", ml, rt, s; exit !(s > 0.15 && s < 0.3) }' "$tmp/csv"; then
	ok "replayed stalls: memory loss is their share of the computation they cover"
else
	fail "replayed stalls"; cat "$tmp/out" "$tmp/csv"
fi
grep -q '^\*\* Memory Loss: busy x stall cycles / cycles (context-switches / task-clock)' "$tmp/txt" &&
	ok "the method is printed under the table" || { fail "no method line"; cat "$tmp/txt"; }
"$LC" report --counters --format csv "$tmp/r.data" >"$tmp/cc" 2>/dev/null
if awk -F, '$1 == "task-clock" { c = $3 } $1 == "context-switches" { s = $3 }
	END { exit !(c >= 3999000 && c <= 4000000 && s >= 999000 && s <= 1000000) }' "$tmp/cc"; then
	ok "report --counters holds the replayed counts"
else
	fail "report --counters totals"; cat "$tmp/cc"
fi

run record -q -e cycles:nonsense -o "$tmp/x.data" -- sh -c 'echo ran >"$1"' sh "$tmp/ran"
if [ "$st" -eq 1 ] && grep -q "event 'cycles:nonsense'" "$tmp/out" && [ ! -e "$tmp/ran" ]; then
	ok "a bad event is refused before the command runs"
else
	fail "bad event: status $st"; cat "$tmp/out"
fi

run record -o "$tmp/d.data" -- "$W"
if grep -q 'lostcycles record: warning: memory loss will be na' "$tmp/out"; then
	"$LC" report "$tmp/d.data" >"$tmp/dtxt" 2>/dev/null
	grep -q '^Memory Loss  *na  *(not measured: counters (.*do not open here' "$tmp/dtxt" &&
		ok "no PMU: record warns once, ML na with the reason" ||
		{ fail "no PMU: ML line"; cat "$tmp/dtxt"; }
	[ "$(grep -c 'memory loss will be na' "$tmp/out")" -eq 1 ] || fail "warned more than once"
else
	echo "      the default counters open here: no degradation to check"
fi
run record --no-counters -e cycles -- true
[ "$st" -eq 2 ] && ok "--no-counters with -e refused" || fail "--no-counters with -e: status $st"
finish
