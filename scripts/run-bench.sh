#!/bin/sh
# run-bench.sh — the benchmarks of "make bench", then ONE table: for each
# measure its figure, its ratio to the baseline measured in this run, the
# goal and whether it is met (docs/performance.md).  Each stage's raw output
# goes to the log (BENCH_LOG, default build/bench/bench.log).
set -eu
log=${BENCH_LOG:-build/bench/bench.log}
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
: > "$log"
rows=$tmp/rows
: > "$rows"
start=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
say() { echo "run-bench: $*" >&2; echo "== $*" >> "$log"; }

say "1 annotation cost (bench_annot, alone and under a 25 us sampler)"
build/bench/bench_annot > "$tmp/alone" 2>> "$log"
./lostcycles record -q -i 25us --no-counters -o "$tmp/annot.data" -- \
	build/bench/bench_annot > "$tmp/sampled" 2>> "$log"
cat "$tmp/alone" "$tmp/sampled" >> "$log"
build/bench/bench_annot --table "$tmp/alone" "$tmp/sampled" >> "$rows"
# LIKWID's own way to run markers: say exactly why it cannot run here
if command -v likwid-perfctr > /dev/null; then
	why=$(likwid-perfctr -m -C 0 -g CLOCK true 2>&1 | grep -iv '^-*$\|^CPU ' | head -n 1)
	echo "row|1 annotation|likwid-perfctr -m -C 0 -g CLOCK (LIKWID's marker mode)|does not run: \"$why\" (no /dev/cpu/*/msr in this guest; CPUID shows no PMU counters)|-|-|" >> "$rows"
fi

say "2 target slowdown (scripts/bench-overhead.sh)"
sh scripts/bench-overhead.sh >> "$rows" 2>> "$log"

say "3 sampler capacity (scripts/bench-capacity.sh)"
sh scripts/bench-capacity.sh >> "$rows" 2>> "$log"
build/bench/bench_flags > "$tmp/flags" 2>&1
cat "$tmp/flags" >> "$log"
# attribution alone (no wake-up, no slot reads): the in-process tick bench
awk '$1 == "tick" && $2 == 256 { printf "row|3 capacity|attribution per tick, 256 threads (bench_flags, in process)|%.1f ns/thread (%.0f ns a tick; reading the slots %.1f ns)|%s x sweep|<= 30 ns/thread/tick|%s\n", $8 / 256, $8, $5, $NF, $8 / 256 <= 30 ? "met" : "MISSED" }' "$tmp/flags" >> "$rows"

say "4 accuracy against trace mode (scripts/bench-accuracy.sh)"
sh scripts/bench-accuracy.sh >> "$rows" 2>> "$log"

say "6 the sampler's cost on programs that use every CPU (scripts/bench-cost.sh)"
sh scripts/bench-cost.sh >> "$rows" 2>> "$log"

say "5 post-processing (scripts/bench-postproc.sh)"
sh scripts/bench-postproc.sh >> "$rows" 2>> "$log"

say "short runs beside CPU hogs (scripts/soak-stall.sh)"
RUNS=${SOAK_RUNS:-60} sh scripts/soak-stall.sh >> "$log" 2>&1 || true
tail -n 1 "$log" | sed 's/^soak-stall: \(.*\)$/row|3 capacity|short runs beside CPU hogs|\1|-|-|/' >> "$rows"

say "7 record's own start and end (bench_latency: record -q of a program that does nothing)"
build/bench/bench_latency "${LATENCY_RUNS:-40}" >> "$rows" 2>> "$log"

say "model selection (bench_search)"
build/bench/bench_search 5 >> "$log" 2>&1

echo
echo "lostcycles benchmarks: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), kernel $(uname -r)"
echo "load average at start $load0, at end $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - start)) s; raw numbers in $log"
echo
echo "| item | measure | figure | ratio to baseline | goal | verdict |"
echo "|---|---|---|---|---|---|"
sed -n 's/^row|\(.*\)$/| \1 |/p' "$rows" | sed 's/||/| |/g; s/||/| |/g'
