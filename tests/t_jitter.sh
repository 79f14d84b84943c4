#!/bin/sh
# t_jitter.sh — tick jitter removes aliasing with program phases.
#
# phase: one thread BUSY for the first half of every millisecond and IDLE
# for the second, for 2 s: the truth is half computation, half load
# imbalance.  Sampled at 1 ms on a fixed grid (--jitter=0) every tick sees
# the same half (a share near 0 or 1, whichever the grid's phase is: shown,
# not judged); with the default jitter the busy share must be within 0.15
# of one half in each of three runs (its spread is about 0.03 at +-10 %:
# 5 standard deviations; aliasing gives 0 or 1).  The busy share counts the
# thread's run-queue time (rc) with its computation: the workload spins by
# the clock, so a busy machine that preempts it moves busy time to rc.  A
# share outside the bounds on a machine measured too busy to judge it
# (lib.sh's machine_busy) is not judged, and the test skips with the reason.
SUB=jitter
. tests/lib.sh
W=build/workloads/phase
[ -x "$W" ] || { echo "t_jitter: $W is missing (run make workloads)" >&2; exit 1; }

share() {
	"$LC" report --format csv "$1" 2>/dev/null |
		awk -F, '$1 == "rt" || $1 == "rc" { b += $3 } $1 == "li" { li = $3 } END { if (b + li > 0) printf "%.3f", b / (b + li) }'
}

"$LC" record -q -i 1ms --jitter=0 -o "$tmp/fixed.data" -- "$W" 2>/dev/null
echo "      fixed grid: busy share $(share "$tmp/fixed.data") (truth 0.5)"
# one run: its busy share, or empty when the sampler fell behind (record
# warns of missed ticks on a machine too busy to give it its CPU)
judged() {
	"$LC" record --force -i 1ms -o "$tmp/j.data" -- "$W" 2>"$tmp/err"
	grep -q "fell behind" "$tmp/err" && return 1
	share "$tmp/j.data"
}
for k in 1 2 3; do
	s=
	for try in 1 2 3; do
		s=$(judged) && break
		echo "NOTE: run $k try $try not judged: $(grep "fell behind" "$tmp/err")"
	done
	if [ -n "$s" ] && awk -v s="$s" 'BEGIN { exit !(s > 0.35 && s < 0.65) }'; then
		ok "run $k with jitter: busy share $s (truth 0.5)"
	else
		unjudged "run $k with jitter: busy share '$s' (truth 0.5)" "$tmp/err" ||
			{ fail "run $k with jitter: busy share '$s' (truth 0.5)"; cat "$tmp/err"; }
	fi
done
run record --jitter=60 -- true
if [ "$st" -eq 2 ] && grep -q "bad --jitter" "$tmp/out"; then ok "--jitter=60 refused"; else fail "--jitter=60: status $st"; fi
finish
