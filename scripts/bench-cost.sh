#!/bin/sh
# bench-cost.sh — what the sampler costs a program that uses every CPU
# (docs/performance.md, item 6).  Two unmodified programs of fixed work,
# with as many threads as CPUs: an OpenMP stencil (build/layers/omp_stencil,
# record --omp; a barrier every sweep) and a pthread pool
# (build/layers/pt_pool, record --pthread; a queue under a mutex).
#
# 6a, the breakdown: record -i 25us, 100us, 1ms and the default, with and
# without --spare-cpu, under LC_TICK_BREAKDOWN=1: the sampling thread's CPU
# per tick by part (its own CPU clock), and the other threads of record.
#
# 6b, the slowdown: each program alone, under record -i 10s (its layer
# with a sampler that hardly ever wakes: what the layer alone costs) and
# under record at the default settings, without and with --spare-cpu,
# interleaved (PAIRS rounds); the medians of the ratios of the
# program's own wall time: the sampler's (default over -i 10s, the goal's)
# and record's in all (default over alone).  With --spare-cpu the program runs on the other CPUs, so its pair
# is the program alone on those CPUs (taskset), with as many threads.  The
# sampler's CPU is measured from outside: record's CPU time (wait4 of
# it and its waited-for children: bench/cputime) minus the program's own
# (what it prints, getrusage).  A last row runs the pool with 64 threads.
#
# PAIRS (default 7), STENCIL_STEPS (20000: about 1 s on a quiet 2-CPU
# machine), POOL_TASKS (12000: about 1 s) and COST_INTERVALS (the
# breakdown's, "25us 100us 1ms default") make it shorter (tests/t_cost.sh).
#
# Prints the benchmark table's rows ("row|6 cost|...") on stdout and the raw
# numbers on stderr.  With --table it first builds what it needs, then
# prints the rows as a table with the machine, the load and the time taken,
# the raw numbers going to build/bench/bench-cost.log: the one command for
# item 6 alone (3-5 minutes on a quiet 2-CPU machine).
set -eu
if [ "${1:-}" = --table ]; then
	make -s all workloads build/bench/cputime >&2
	t_start=$(date +%s)
	t_load=$(cut -d' ' -f1-3 /proc/loadavg)
	t_rows=$(sh "$0" 2> build/bench/bench-cost.log)
	echo "item 6 (scripts/bench-cost.sh): $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), kernel $(uname -r)"
	echo "load average at start $t_load, at end $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - t_start)) s; raw numbers in build/bench/bench-cost.log"
	echo
	echo "| item | measure | figure | ratio to baseline | goal | verdict |"
	echo "|---|---|---|---|---|---|"
	echo "$t_rows" | sed -n 's/^row|\(.*\)$/| \1 |/p' | sed 's/||/| |/g; s/||/| |/g'
	exit 0
fi
pairs=${PAIRS:-7}
ncpu=$(nproc)
last=$((ncpu - 1))
rest=$((ncpu > 1 ? ncpu - 1 : 1))
others="0-$((ncpu > 1 ? ncpu - 2 : 0))"
stencil="build/layers/omp_stencil ${STENCIL_STEPS:-20000}"
pool="build/layers/pt_pool ${POOL_TASKS:-12000}"
for w in build/layers/omp_stencil build/layers/pt_pool; do
	[ -x "$w" ] || { echo "bench-cost: $w not built (make workloads)" >&2; exit 1; }
done
[ -x build/bench/cputime ] || { echo "bench-cost: build/bench/cputime not built (make bench)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" | head -n 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
layer() { case $1 in stencil) echo --omp ;; *) echo --pthread ;; esac; }
prog() { case $1 in stencil) echo "$stencil" ;; *) echo "$pool" ;; esac; }

# 6a: one recording with the breakdown; its per-tick line and summary
breakdown() {	# WORKLOAD SPARE(0|1) INTERVAL(default|TIME)
	b_iv=""
	[ "$3" = default ] || b_iv="-i $3"
	b_sp=""
	[ "$2" = 1 ] && b_sp=--spare-cpu
	# shellcheck disable=SC2046,SC2086
	LC_TICK_BREAKDOWN=1 ./lostcycles record --force $(layer "$1") $b_sp $b_iv --no-counters \
		-o "$tmp/b.data" -- $(prog "$1") > "$tmp/b.out" 2> "$tmp/b.err" || return 0
	cat "$tmp/b.err" >&2
	awk -v wl="$1" -v sp="$2" -v iv="$3" '
		/per tick \(us/ { sub(/.*CPU\): /, ""); parts = $0 }
		/ ticks, / && !ticks { for (i = 1; i <= NF; i++) if ($i == "ticks,") ticks = $(i - 1) }
		/interval .*mean/ { m = $0; sub(/.*mean /, "", m); sub(/;.*/, "", m) }
		/sampler CPU/ { s = $0; sub(/.*sampler CPU /, "", s); sub(/; estimated.*/, "", s) }
		END { printf "row|6 cost|breakdown: %s, %s, -i %s|%s ticks, mean %s; us per tick: %s; sampler %s|-|-|\n",
		      wl, sp ? "--spare-cpu" : "no spare CPU", iv, ticks, m, parts, s }' "$tmp/b.err"
}
for wl in stencil pool; do
	for sp in 0 1; do
		for iv in ${COST_INTERVALS:-25us 100us 1ms default}; do
			breakdown "$wl" "$sp" "$iv"
		done
	done
done

# 6b: a triplet; appends "ratio ratio_to_layer sampler_share" to $tmp/NAME
alone() {	# WORKLOAD SPARE
	# shellcheck disable=SC2046
	if [ "$2" = 1 ]; then
		OMP_NUM_THREADS=$rest taskset -c "$others" $(prog "$1") $([ "$1" = pool ] && echo "$rest")
	else
		$(prog "$1")
	fi
}
sampled() {	# WORKLOAD SPARE [OPTION...]: record, timed from outside
	s_wl=$1 s_sp=""
	[ "$2" = 1 ] && s_sp=--spare-cpu
	s_rest=$([ "$1" = pool ] && [ "$2" = 1 ] && echo "$rest" || true)
	shift 2
	# shellcheck disable=SC2046,SC2086
	build/bench/cputime "$tmp/time" ./lostcycles record -q --force $(layer "$s_wl") \
		$s_sp "$@" -o "$tmp/s.data" -- $(prog "$s_wl") $s_rest
}
triplet() {	# WORKLOAD SPARE
	a=$(alone "$1" "$2" | field wall)
	l=$(sampled "$1" "$2" -i 10s | field wall)
	out=$(sampled "$1" "$2")
	w=$(echo "$out" | field wall)
	c=$(echo "$out" | field cpu)
	t=$(awk '{ print $1 + $2 }' "$tmp/time")
	echo "bench-cost: $1 spare=$2 alone $a s, layer only (-i 10s) $l s, recorded $w s, record CPU $t s, program CPU $c s" >&2
	awk -v a="$a" -v l="$l" -v w="$w" -v t="$t" -v c="$c" 'BEGIN { if (a > 0 && l > 0 && w > 0) printf "%.5f %.5f %.5f\n", w / a, w / l, (t - c) / w }' >> "$tmp/$1-$2"
}
load0=$(cut -d' ' -f1 /proc/loadavg)
for i in $(seq "$pairs"); do
	for wl in stencil pool; do
		for sp in 0 1; do
			triplet "$wl" "$sp"
		done
	done
done
load1=$(cut -d' ' -f1 /proc/loadavg)
for wl in stencil pool; do
	for sp in 0 1; do
		f=$tmp/$wl-$sp
		[ -s "$f" ] || continue
		r=$(cut -d' ' -f1 "$f" | median)
		rl=$(cut -d' ' -f2 "$f" | median)
		s=$(cut -d' ' -f3 "$f" | median)
		lo=$(cut -d' ' -f2 "$f" | sort -g | head -n 1)
		hi=$(cut -d' ' -f2 "$f" | sort -g | tail -n 1)
		awk -v wl="$wl" -v sp="$sp" -v r="$r" -v rl="$rl" -v s="$s" -v lo="$lo" -v hi="$hi" -v n="$(wc -l < "$f")" \
		    -v l0="$load0" -v l1="$load1" -v c="$ncpu" 'BEGIN {
			goal = sp ? 0.005 : 0.03
			slow = rl - 1
			# a median within the spread of the rounds decides nothing
			v = (hi - lo) / 2 > goal ? sprintf("slowdown undecided (the rounds spread +-%.0f %%)", 50 * (hi - lo)) : slow <= goal ? "slowdown met" : "slowdown MISSED"
			v = v "; " (s <= 0.05 ? "CPU met" : "CPU MISSED")
			printf "row|6 cost|%s, %d threads on %d CPUs, default settings, %s|slowdown by the sampler %.1f %% (against the layer alone, record -i 10s; median of %d, %.3f..%.3f), by record in all %.1f %%; sampler CPU %.1f %% of one CPU (from outside); load %s..%s|%.3f x layer alone|slowdown <= %s; sampler <= 5 %% of a CPU|%s\n",
			       wl, sp ? c - 1 : c, sp ? c - 1 : c, sp ? "--spare-cpu" : "no spare CPU",
			       100 * slow, n, lo, hi, 100 * (r - 1), 100 * s, l0, l1, rl, sp ? "0.5 %" : "3 %", v }'
	done
done

# 64 threads (the pool), no spare CPU: the sampler's CPU
out=$(build/bench/cputime "$tmp/time" ./lostcycles record -q --force --pthread \
	-o "$tmp/s.data" -- build/layers/pt_pool "${POOL_TASKS:-12000}" 64)
w=$(echo "$out" | field wall)
c=$(echo "$out" | field cpu)
t=$(awk '{ print $1 + $2 }' "$tmp/time")
awk -v w="$w" -v t="$t" -v c="$c" 'BEGIN { s = w > 0 ? (t - c) / w : 0
	printf "row|6 cost|pool, 64 threads, default settings, no spare CPU|sampler CPU %.1f %% of one CPU (from outside)|-|sampler <= 10 %% of a CPU at 64 threads|%s\n", 100 * s, s <= 0.10 ? "met" : "MISSED" }'
