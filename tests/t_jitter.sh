#!/bin/sh
# t_jitter.sh — tick jitter removes aliasing with program phases.
#
# phase: one thread BUSY for the first half of every millisecond and IDLE
# for the second, for 2 s: the truth is half computation, half load
# imbalance.  Sampled at 1 ms on a fixed grid (--jitter=0) every tick sees
# the same half (a share near 0 or 1, whichever the grid's phase is: shown,
# not judged); with the default jitter the computation share must be
# within 0.1 of one half in each of three runs.
SUB=jitter
. tests/lib.sh
W=build/workloads/phase
[ -x "$W" ] || { echo "t_jitter: $W is missing (run make workloads)" >&2; exit 1; }

share() {
	"$LC" report --format csv "$1" 2>/dev/null |
		awk -F, '$1 == "rt" { rt = $3 } $1 == "li" { li = $3 } END { if (rt + li > 0) printf "%.3f", rt / (rt + li) }'
}

"$LC" record -q -i 1ms --jitter=0 -o "$tmp/fixed.data" -- "$W" 2>/dev/null
echo "      fixed grid: computation share $(share "$tmp/fixed.data") (truth 0.5)"
for k in 1 2 3; do
	"$LC" record -q -i 1ms -o "$tmp/j.data" -- "$W" 2>"$tmp/err"
	s=$(share "$tmp/j.data")
	if [ -n "$s" ] && awk -v s="$s" 'BEGIN { exit !(s > 0.4 && s < 0.6) }'; then
		ok "run $k with jitter: computation share $s (truth 0.5)"
	else
		fail "run $k with jitter: computation share '$s' (truth 0.5)"; cat "$tmp/err"
	fi
done
run record --jitter=60 -- true
if [ "$st" -eq 2 ] && grep -q "bad --jitter" "$tmp/out"; then ok "--jitter=60 refused"; else fail "--jitter=60: status $st"; fi
finish
