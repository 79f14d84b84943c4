#!/bin/sh
# t_counters.sh — counters end to end through "record".
#
# A replayed counter trace (--counter-replay: the arithmetic without a PMU)
# gives both threads of the control workload stalls on a quarter of their
# cycles: memory loss must be a quarter of their computation (0.2-0.3 of
# ML + rt), its method printed under the table, and report --counters must
# hold the replayed counts (up to rounding; the real perf_event path with a
# software event is checked against a thread's own CPU time in
# test_counters).  With a miss event, CL is misses x the ideal latency of
# --miss-latency, else of the memory file of calibrate --memory (written
# here), else misses are not charged; the report says which.  A bad event is refused before the command runs; without
# a PMU, the default set leaves ML na with the reason, and record says so
# once.
SUB=counters
. tests/lib.sh
W=build/workloads/control
need_built t_counters "$W"

# threads 0 and 1 (in order of appearance): cumulative cycles and stalls
cat >"$tmp/trace" <<'T'
# t_ns thread cycles stalls enabled running
150000000 0 1000000 250000 150000000 150000000
150000000 1 1000000 250000 150000000 150000000
350000000 0 2000000 500000 350000000 350000000
350000000 1 2000000 500000 350000000 350000000
T
# replay OUT ARGS...: record the workload with ARGS into OUT; the replayed
# lines are due 150 and 350 ms after the first tick, so a run whose threads
# appeared too late (a loaded machine) misses some: try again, up to three
# times, until the profile holds every replayed cycle count (st: status;
# late: 1 when every try came too late).  A judgment of such a run fails
# only when the machine was not measured too busy (lib.sh's machine_busy).
replay() {
	out=$1; shift
	late=0
	for try in 1 2 3; do
		"$LC" record --force "$@" -o "$out" -- "$W" >"$tmp/out" 2>&1
		st=$?
		"$LC" report --counters --format csv "$out" 2>/dev/null |
			awk -F, '$1 == "task-clock" && $3 >= 3999000 { f = 1 } END { exit !f }' && return
		echo "NOTE: t_counters: try $try: the threads came too late for the replayed lines"
	done
	late=1
}
# late_or_fail NAME: the judgment NAME failed; not judged when every try of
# the run came too late on a busy machine
late_or_fail() {
	{ [ "$late" -eq 1 ] && unjudged "$1: the threads came too late for the replayed lines" "$tmp/out"; } ||
		fail "$1"
}
replay "$tmp/r.data" -q -e task-clock=cycles,context-switches=stall --counter-replay "$tmp/trace"
"$LC" report --format csv "$tmp/r.data" >"$tmp/csv" 2>/dev/null
"$LC" report "$tmp/r.data" >"$tmp/txt" 2>/dev/null
if [ "$st" -eq 0 ] && awk -F, '$1 == "ml" { ml = $3 } $1 == "rt" { rt = $3 }
	END { s = ml / (ml + rt); printf "      ML %.4f s, rt %.4f s: share %.3f\n", ml, rt, s; exit !(s > 0.15 && s < 0.3) }' "$tmp/csv"; then
	ok "replayed stalls: memory loss is their share of the computation they cover"
else
	late_or_fail "replayed stalls"; cat "$tmp/out" "$tmp/csv"
fi
grep -q '^\*\* Memory Loss: busy x stall cycles / cycles (context-switches / task-clock)' "$tmp/txt" &&
	ok "the method is printed under the table" || { fail "no method line"; cat "$tmp/txt"; }
"$LC" report --counters --format csv "$tmp/r.data" >"$tmp/cc" 2>/dev/null
if awk -F, '$1 == "task-clock" { c = $3 } $1 == "context-switches" { s = $3 }
	END { exit !(c >= 3999000 && c <= 4000000 && s >= 999000 && s <= 1000000) }' "$tmp/cc"; then
	ok "report --counters holds the replayed counts"
else
	late_or_fail "report --counters totals"; cat "$tmp/cc"
fi

# CL = misses x ideal latency, the latency from the memory file of
# "calibrate --memory" when --miss-latency is not given: 2 threads x 20000
# replayed misses x 50 ns = 2 ms (the control workload sets no COMM flag).
cat >"$tmp/mtrace" <<'T'
# t_ns thread cycles stalls misses enabled running
150000000 0 1000000 250000 10000 150000000 150000000
150000000 1 1000000 250000 10000 150000000 150000000
350000000 0 2000000 500000 20000 350000000 350000000
350000000 1 2000000 500000 20000 350000000 350000000
T
printf '# written by t_counters\nformat=1\ntransfer_ns=50\ndram_ns=200\n' >"$tmp/memory"
EV=task-clock=cycles,context-switches=stall,cpu-migrations=miss
# cl_case NAME SECONDS METHOD ARGS...: record the workload with the
# replayed misses and ARGS; the profile's CL must be SECONDS within 2 us
# (rounding), and the report's CL method line must start with METHOD.
cl_case() {
	name=$1 want=$2 method=$3
	shift 3
	replay "$tmp/cl.data" -e $EV --counter-replay "$tmp/mtrace" "$@"
	"$LC" report "$tmp/cl.data" >"$tmp/cltxt" 2>/dev/null
	if [ "$st" -eq 0 ] && "$LC" report --format csv "$tmp/cl.data" 2>/dev/null |
		awk -F, -v want="$want" '$1 == "cl" { cl = $3 }
			END { d = cl - want; printf "      CL %.9f s, want %s s\n", cl, want
			      exit !(cl != "" && d < 2e-6 && d > -2e-6) }' &&
	   grep -qF "** Communication Loss: $method" "$tmp/cltxt"; then
		ok "$name"
	else
		late_or_fail "$name"; cat "$tmp/out" "$tmp/cltxt"
	fi
}
export LOSTCYCLES_MEMORY_FILE="$tmp/memory"
cl_case "memory file: CL = misses x its transfer_ns, and the report says where the latency came from" \
	0.002 "misses x ideal latency 50.0 ns (cpu-migrations); latency from $tmp/memory (transfer_ns" -q
cl_case "--miss-latency wins over the memory file" 0.0008 \
	"misses x ideal latency 20.0 ns (cpu-migrations); latency from --miss-latency" -q --miss-latency 20
LOSTCYCLES_MEMORY_FILE="$tmp/nofile"
cl_case "no latency: misses not charged, and the report says why" 0 \
	"the COMM flags only; misses (cpu-migrations) not charged: no --miss-latency, and no memory file $tmp/nofile (run lostcycles calibrate --memory)" -q
printf 'format=9\ntransfer_ns=50\ndram_ns=200\n' >"$tmp/badmem"
LOSTCYCLES_MEMORY_FILE="$tmp/badmem"
cl_case "an unreadable memory file: misses not charged" 0 \
	"the COMM flags only; misses (cpu-migrations) not charged: no --miss-latency, and $tmp/badmem: format 9"
[ "$(grep -c 'warning: .*badmem: format 9, this version reads 1: misses are not charged' "$tmp/out")" -eq 1 ] &&
	ok "... and record warned once" || { fail "no single warning"; cat "$tmp/out"; }
unset LOSTCYCLES_MEMORY_FILE

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
