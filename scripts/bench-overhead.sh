#!/bin/sh
# The program's own wall time (as it reports it) run alone vs. under
# "lostcycles record" at several intervals, interleaved, best of N each;
# prints ratios to the alone run, and the same at 100 us with each run-queue
# source (--sched).  The record command's own start-up and
# file writing are not in these numbers; "record total" shows them.
set -eu
wl=${WORKLOAD:-build/bench/fixedwork}
# THREADS: the workload's threads; with fewer threads than CPUs the sampler
# has a spare CPU, with as many it shares one with the program
threads=${THREADS:-2}
n=${RUNS:-7}
[ -x "$wl" ] || { echo "bench-overhead: $wl not built (make bench)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
best() { sort -n "$1" | head -n 1; }
own() { sed -n 's/.*: \([0-9.]*\) ms$/\1/p'; }
now() { date +%s%N; }
for i in $(seq "$n"); do
	"$wl" 4000 "$threads" | own >> "$tmp/alone"
	for iv in 1ms 100us 25us; do
		t=$(now)
		./lostcycles record -q --force -i "$iv" -o "$tmp/p.data" -- "$wl" 4000 "$threads" | own >> "$tmp/$iv"
		echo $(( ($(now) - t) / 1000000 )) >> "$tmp/total-$iv"
	done
	for src in none switch schedstat; do
		./lostcycles record -q --force --sched=$src -o "$tmp/p.data" -- "$wl" 4000 "$threads" | own >> "$tmp/sched-$src"
	done
done
a=$(best "$tmp/alone")
echo "$wl on $threads threads alone: $a ms (best of $n)"
for iv in 1ms 100us 25us; do
	awk -v a="$a" -v b="$(best "$tmp/$iv")" -v t="$(best "$tmp/total-$iv")" -v iv="$iv" \
		'BEGIN { printf "record -i %-6s %7.1f ms, ratio %.3f   (record total %d ms)\n", iv, b, b / a, t }'
done
# the run-queue source's cost to the program: the same 100 us sampling with
# context-switch records, schedstat reads or neither
for src in none switch schedstat; do
	awk -v a="$a" -v b="$(best "$tmp/sched-$src")" -v s="$src" \
		'BEGIN { printf "record --sched=%-9s %7.1f ms, ratio %.3f\n", s, b, b / a }'
done
