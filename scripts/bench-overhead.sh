#!/bin/sh
# Wall time of a workload run alone vs. under "lostcycles record" at several
# intervals, interleaved, best of N each; prints ratios to the alone run.
set -eu
wl=${WORKLOAD:-build/workloads/control}
n=${RUNS:-5}
[ -x "$wl" ] || { echo "bench-overhead: $wl not built (make workloads)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
best() { sort -n "$1" | head -n 1; }
now() { date +%s%N; }
for i in $(seq "$n"); do
	t=$(now); "$wl" >/dev/null; echo $(( $(now) - t )) >> "$tmp/alone"
	for iv in 1ms 100us 25us; do
		t=$(now); ./lostcycles record -q -i "$iv" -o "$tmp/p.data" -- "$wl" >/dev/null
		echo $(( $(now) - t )) >> "$tmp/$iv"
	done
done
a=$(best "$tmp/alone")
printf 'alone: %d ms\n' $((a / 1000000))
for iv in 1ms 100us 25us; do
	b=$(best "$tmp/$iv")
	awk -v a="$a" -v b="$b" -v iv="$iv" \
		'BEGIN { printf "record -i %-6s %d ms, ratio %.3f\n", iv, b / 1e6, b / a }'
done
