#!/bin/sh
# t_jitter.sh — tick jitter removes aliasing with program phases.
#
# phase: one thread BUSY for the first half of every millisecond and IDLE
# for the second, for 2 s: half computation, half load imbalance on a quiet
# machine.  On a busy one the kernel preempts the thread at its own ticks,
# which alias with the phases too, and the thread keeps the state it was
# preempted in (as low as a third busy, measured): so the truth is the
# exact trace source of the same run (--trace), not one half.  Sampled at
# 1 ms on a fixed grid (--jitter=0) every tick sees the same half (a share
# near 0 or 1, whichever the grid's phase is: shown, not judged); with the
# default jitter the sampled busy share must be within 0.15 of the trace's
# in each of three runs (its spread is about 0.03 at +-10 %: 5 standard
# deviations; aliasing gives 0 or 1).  The busy share counts the thread's
# run-queue time (rc) with its computation (the trace has no run-queue
# data: that time is computation there).  A run whose share is off while
# its sampler fell behind is tried again (3 tries); a share still off on a
# machine measured too busy to judge it (lib.sh's machine_busy) is not
# judged, and the test skips with the reason.
SUB=jitter
. tests/lib.sh
W=build/workloads/phase
need_built t_jitter "$W"

# share FILE SOURCE: the busy share of SOURCE (sampled, trace) in FILE
share() {
	"$LC" report --source "$2" --format csv "$1" 2>/dev/null |
		awk -F, '$1 == "rt" || $1 == "rc" { b += $3 } $1 == "li" { li = $3 } END { if (b + li > 0) printf "%.3f", b / (b + li) }'
}

"$LC" record -q --trace -i 1ms --jitter=0 -o "$tmp/fixed.data" -- "$W" 2>/dev/null
echo "      fixed grid: busy share $(share "$tmp/fixed.data" sampled) (trace $(share "$tmp/fixed.data" trace))"
# one run: "sampled trace" busy shares in $tmp/sh; 0 when they agree
# within 0.15, 1 when not but the sampler fell behind (record warns of
# missed ticks on a machine too busy to give it its CPU: worth another
# try), 2 when not
judged() {
	"$LC" record --force --trace -i 1ms -o "$tmp/j.data" -- "$W" 2>"$tmp/err"
	echo "$(share "$tmp/j.data" sampled) $(share "$tmp/j.data" trace)" >"$tmp/sh"
	awk '{ d = $1 - $2; exit !(NF == 2 && d > -0.15 && d < 0.15) }' "$tmp/sh" && return 0
	grep -q "fell behind" "$tmp/err" && return 1
	return 2
}
for k in 1 2 3; do
	for try in 1 2 3; do
		judged
		r=$?
		[ "$r" -ne 1 ] && break
		echo "NOTE: run $k try $try: busy share $(cut -d' ' -f1 "$tmp/sh") (trace $(cut -d' ' -f2 "$tmp/sh")): $(grep "fell behind" "$tmp/err")"
	done
	what="run $k with jitter: busy share $(cut -d' ' -f1 "$tmp/sh") (trace $(cut -d' ' -f2 "$tmp/sh"))"
	if [ "$r" -eq 0 ]; then
		ok "$what"
	else
		unjudged "$what" "$tmp/err" || { fail "$what"; cat "$tmp/err"; }
	fi
done
run record --jitter=60 -- true
if [ "$st" -eq 2 ] && grep -q "bad --jitter" "$tmp/out"; then ok "--jitter=60 refused"; else fail "--jitter=60: status $st"; fi
finish
