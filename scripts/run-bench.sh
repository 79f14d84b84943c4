#!/bin/sh
# Run the benchmarks given as arguments, then the sampler-overhead benchmark
# (a workload with and without "lostcycles record", as a ratio).  Prints the
# numbers that docs/performance.md records.
set -eu
for b in "$@"; do
	echo "== ${b##*/}"
	"$b"
done
echo "== sampler overhead on the target, no spare CPU (scripts/bench-overhead.sh)"
THREADS=$(nproc) sh scripts/bench-overhead.sh
echo "== sampler overhead on the target, a spare CPU"
THREADS=$(($(nproc) - 1)) sh scripts/bench-overhead.sh
echo "== short runs beside CPU hogs (scripts/soak-stall.sh)"
sh scripts/soak-stall.sh
