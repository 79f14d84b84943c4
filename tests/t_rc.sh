#!/bin/sh
# t_rc.sh — resource contention from the scheduler, against ground truth.
#
# rcpin: three BUSY threads pinned to one CPU, each computing until it has
# used a known CPU time, never blocking: each thread's run-queue time is
# exactly its busy wall time minus its CPU time, which it measures itself.
# Each thread's RC must equal that within 5 % of its busy time, and its
# pure computation (rt) its CPU time, with every source the machine offers
# (context-switch records, schedstat).  A control with one thread alone on
# its CPU has RC near 0.  --sched=none leaves RC na with the reason.  A
# miss on a machine measured too busy to judge it (lib.sh's machine_busy)
# is not judged: the test skips with the reason.
SUB=rc
. tests/lib.sh
W=build/workloads/rcpin
need_timed_workload t_rc "$W"

# compare OUT CSV LABEL: each "thread TID WALL CPU" line of OUT against the
# per-thread row (by tid) of the report CSV
compare() {
	awk -v label="$3" '
		FNR == NR && $1 == "thread" { wall[$2] = $3 / 1e9; cpu[$2] = $4 / 1e9; n++; next }
		FNR != NR && /^thread,/ { split($0, h, ","); for (i in h) col[h[i]] = i; rows = 1; next }
		FNR != NR && rows && NF {
			split($0, f, ",")
			t = f[col["tid"]]
			if (!(t in wall)) next
			rc = f[col["rc"]]; rt = f[col["rt"]]
			want = wall[t] - cpu[t]
			d1 = rc - want; if (d1 < 0) d1 = -d1
			d2 = rt - cpu[t]; if (d2 < 0) d2 = -d2
			printf "  %s tid %s: rc %.4f want %.4f, rt %.4f want %.4f (busy %.4f)\n", label, t, rc, want, rt, cpu[t], wall[t]
			if (d1 > 0.05 * wall[t] || d2 > 0.05 * wall[t]) bad++
			seen++
		}
		END { if (seen != n || n == 0) { print "  rows matched " seen " of " n; exit 1 } exit bad > 0 }
	' "$1" FS=" " "$2"
}

for src in switch schedstat; do
	"$LC" record --force -q --sched=$src -o "$tmp/$src.data" -- "$W" 3 200 0 >"$tmp/$src.out" 2>"$tmp/$src.err"
	st=$?
	"$LC" report --per-thread --format csv "$tmp/$src.data" >"$tmp/$src.csv" 2>>"$tmp/$src.err"
	if grep -q '^rc,.*,0,' "$tmp/$src.csv"; then
		echo "skip  $src: RC unavailable here: $(grep '^rc,' "$tmp/$src.csv")"
		continue
	fi
	if [ $st -eq 0 ] && compare "$tmp/$src.out" "$tmp/$src.csv" "$src" >"$tmp/cmp" 2>&1; then
		ok "three threads on one CPU ($src): RC = busy - CPU time, rt = CPU time"
	else
		{ [ $st -eq 0 ] && unjudged "three threads on one CPU ($src)" "$tmp/$src.err"; } ||
			fail "three threads on one CPU ($src)"
		cat "$tmp/$src.err"
	fi
	cat "$tmp/cmp"
done

# the control: one thread alone on CPU 0 (the sampler takes the last CPU).
# Its RC must be its own wait for a CPU, which is near 0 on a quiet machine;
# on a busy one the other programs' time on CPU 0 is the truth it is judged
# against (the row says how long the thread measured itself waiting).
"$LC" record --force -q -o "$tmp/c.data" -- "$W" 1 200 0 >"$tmp/c.out" 2>"$tmp/c.err"
"$LC" report --per-thread --format csv "$tmp/c.data" >"$tmp/c.csv" 2>>"$tmp/c.err"
if compare "$tmp/c.out" "$tmp/c.csv" control >"$tmp/cmp" 2>&1; then
	ok "control: a thread alone on its CPU has RC = its own wait for the CPU"
else
	unjudged "control: a thread alone on its CPU" "$tmp/c.err" ||
		fail "control: a thread alone on its CPU"
	cat "$tmp/c.err"
fi
cat "$tmp/cmp"

# --sched=none: RC is na with the reason, and the time stays computation
"$LC" record -q --sched=none -o "$tmp/n.data" -- "$W" 2 50 0 >/dev/null 2>&1
run report "$tmp/n.data"
check "--sched=none: RC na with the reason" \
	'grep -q "Resource Contention *na .*sched=none" "$tmp/out"'
run record --sched=bogus -- true
if [ "$st" -eq 2 ] && grep -q "bad --sched" "$tmp/out"; then ok "--sched=bogus refused"; else fail "--sched=bogus: status $st"; cat "$tmp/out"; fi
finish
