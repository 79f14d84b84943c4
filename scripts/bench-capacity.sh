#!/bin/sh
# bench-capacity.sh — what the sampler can keep up with: build/bench/manythreads
# (THREADS flagged threads in PROCS processes, mostly asleep, kept off the
# sampler's CPU) under "lostcycles record", flags only (--no-counters) and
# with a software counter per thread (-e task-clock); for each shape:
#   at 100 us (the sampler sleeps between ticks): its CPU time per tick;
#     the cost per thread and tick is the slope against one thread
#   at 25 us (it busy-waits): the achieved mean interval and missed ticks
# A run lasts SECONDS_PER_RUN (default 2); the threads' start-up (the
# per-thread sources open as threads appear) is in the numbers.  The slope
# is as precise as the wake-up's cost is steady: +-5 us of it is +-20 ns
# per thread at 256 threads.
#
# Prints the benchmark table's rows ("row|3 capacity|...") on stdout and
# the raw numbers on stderr.  LC names the lostcycles to measure (default
# ./lostcycles), so that two builds can be measured in alternation against
# the same workload.
set -eu
wl=build/bench/manythreads
secs=${SECONDS_PER_RUN:-2}
lc=${LC:-./lostcycles}
[ -x "$wl" ] || { echo "bench-capacity: $wl not built (make bench)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# sampler INTERVAL MODE THREADS PROCS: "ticks missed cpu_s wall_s max_gap_s"
sampler() {
	case $2 in
	flags) ctr=--no-counters ;;
	*) ctr="-e task-clock" ;;
	esac
	# shellcheck disable=SC2086
	"$lc" record -q --force -i "$1" $ctr -o "$tmp/p.data" -- "$wl" "$3" "$4" "$secs"
	"$lc" report --format json "$tmp/p.data" 2>/dev/null | awk '
		/"wall":/ { gsub(/[",]/, ""); wall = $2 }
		/"sampler":/ { gsub(/[{},:"]/, " ");
			for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		END { print v["ticks"], v["missed_ticks"], v["cpu_s"], wall, v["max_gap_s"] }'
}
shapes="1 1
16 1
16 16
64 1
64 16
256 1
256 16"
for mode in flags counters; do
	# the one-thread cost per tick: the lower of two runs (wake-up noise)
	b1=$(sampler 100us "$mode" 1 1)
	b2=$(sampler 100us "$mode" 1 1)
	base=$(printf '%s\n%s\n' "$b1" "$b2" | awk '{ c = $3 / $1 } NR == 1 || c < m { m = c } END { print m }')
	echo "$shapes" | while read -r th pr; do
		# the lower CPU per tick of two runs: the wake-up's noise is ~5 us
		s1=$(sampler 100us "$mode" "$th" "$pr")
		s2=$(sampler 100us "$mode" "$th" "$pr")
		slow=$(printf '%s\n%s\n' "$s1" "$s2" | awk '{ c = $3 / $1 } NR == 1 || c < m { m = c; l = $0 } END { print l }')
		fast=$(sampler 25us "$mode" "$th" "$pr")
		echo "bench-capacity: $mode $th threads / $pr procs: 100us [$slow] 25us [$fast] (ticks missed cpu_s wall_s max_gap_s)" >&2
		echo "$slow|$fast" | awk -F'|' -v base="$base" -v th="$th" -v pr="$pr" -v mode="$mode" '{
			split($1, s, " "); split($2, f, " ")
			tick = s[3] / s[1]; per = th > 1 ? (tick - base) / (th - 1) : 0
			miss = 100 * f[2] / (f[1] + f[2]); iv = f[4] / f[1]
			goal = "-"; verdict = ""
			if (th == 256 && mode == "flags") {
				goal = "<= 30 ns/thread/tick; 25us with < 1 % missed"
				verdict = (per <= 30e-9 ? "per thread met" : sprintf("per thread MISSED (x%.1f; +-20 ns of wake-up noise)", per / 30e-9)) \
					  "; " (miss < 1 ? "missed met" : sprintf("missed MISSED by %.2f points", miss - 1))
			}
			what = mode == "flags" ? "flags only" : "flags + task-clock"
			ratio = th > 1 ? sprintf("%.2f x 1 thread", tick / base) : "1.00 (baseline)"
			printf "row|3 capacity|%s, %d threads in %d procs|%.1f us/tick at 100us (%.1f ns/thread); 25us: %.1f us achieved, %.2f %% missed, gap <= %.1f ms|%s|%s|%s\n",
			       what, th, pr, 1e6 * tick, 1e9 * per, 1e6 * iv, miss, 1e3 * f[5], ratio, goal, verdict
		}'
	done
done
