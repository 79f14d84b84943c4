#!/bin/sh
# case-study.sh — the 2D FFT case study of docs/case-study-fft2d.md, end to
# end on this machine: measure the fragments of the task-parallel program,
# fit a model per fragment, extract the two structures from the sources,
# compose and predict both versions, and compare with the programs' runs.
#
#   sh examples/fft2d/case-study.sh [OUTDIR]
#
# Environment (defaults in brackets): NS ["64 128 256 512 1024"] the sizes,
# PS ["1 2"] the processor counts (the task-parallel program runs where
# p >= 2), K [8] matrices per run, REPEATS [3] runs per point, LC
# [./lostcycles], BIN [build/examples], REUSE [0]: 1 to keep OUTDIR's runs
# and redo the analysis only.  Run from the top of the tree after "make all
# examples".
set -eu

OUT=${1:-build/fft2d}
NS=${NS:-"64 128 256 512 1024"}
PS=${PS:-"1 2"}
K=${K:-8}
REPEATS=${REPEATS:-3}
LC=${LC:-./lostcycles}
BIN=${BIN:-build/examples}
SRC=$(dirname "$0")
export OMP_WAIT_POLICY=passive	# idle OpenMP threads sleep instead of spinning

REUSE=${REUSE:-0}
mkdir -p "$OUT"
rm -f "$OUT"/*.model "$OUT"/*.lcm "$OUT"/*.median.runs
[ "$REUSE" = 1 ] || rm -f "$OUT"/*.runs
data="$OUT/run.data"

# record PROGRAM ARGS...: profile one run into $data, with its event trace:
# "report --source trace" gives the exact profile, which the short
# fragments of small n need (they last less than a few sampling ticks).
record() {
	"$LC" record --trace --force -o "$data" -- "$@" >/dev/null 2>"$OUT/record.err" || { cat "$OUT/record.err" >&2; exit 1; }
}

echo "== 1. measure: the fragments of the task-parallel program (fft2d_tp -f), and both programs"
# The programs' runs go to tp.runs and dp.runs, which nothing reads before
# step 5: the models come from the fragment runs alone.  They are measured
# in the same loop only so that a load that drifts over minutes (a shared
# machine) touches fragments and programs alike.
[ "$REUSE" = 1 ] && REPEATS=0
for r in $(seq "$REPEATS"); do
	for n in $NS; do
		for p in $PS; do
			record "$BIN/fft2d_tp" -f -n "$n" -p "$p" -k "$K"
			"$LC" report --source trace -f "$data" -t 1 -l "n=$n k=$K" >>"$OUT/init.runs"
			"$LC" report --source trace -f "$data" -t 2 -l "n=$n k=$K" >>"$OUT/cffts.runs"
			"$LC" report --source trace -f "$data" -t 3 -l "n=$n k=$K" >>"$OUT/transpose.runs"
			"$LC" report --source trace -f "$data" -t 4 -l "n=$n k=$K" >>"$OUT/cffts.runs"
			# the set-up fragment: the whole run minus the four loops
			for t in "" "-t 1" "-t 2" "-t 3" "-t 4"; do
				"$LC" report --source trace -f "$data" $t -l "n=$n k=$K"
			done | awk -f "$SRC/minus.awk" >>"$OUT/setup.runs"
			record "$BIN/fft2d_dp" -n "$n" -p "$p" -k "$K"
			"$LC" report --source trace -f "$data" -l "n=$n k=$K" >>"$OUT/dp.runs"
			[ "$p" -ge 2 ] || continue
			record "$BIN/fft2d_tp" -n "$n" -p "$p" -k "$K"
			"$LC" report --source trace -f "$data" -l "n=$n k=$K" >>"$OUT/tp.runs"
		done
	done
done
# one run per point: the median (this machine's timings vary a lot)
for f in setup init cffts transpose; do
	awk -f "$SRC/median.awk" "$OUT/$f.runs" >"$OUT/$f.median.runs"
done
wc -l "$OUT"/setup.runs "$OUT"/init.runs "$OUT"/cffts.runs "$OUT"/transpose.runs

echo "== 2. fit each fragment's categories (lostcycles fit --emit)"
# fit FRAGMENT CATEGORY FORMULA [OPTIONS]: plain least squares, as the
# thesis's lca, all terms kept (FITOPTS changes that): the large sizes, where
# the time is, weigh most, and a term is not dropped because this machine's
# noise hides it at a few points.
fit() {
	f=$1 c=$2 form=$3
	shift 3
	"$LC" fit -c "$c" -v "n p" -f "$OUT/$f.median.runs" --emit "$OUT/$f.model" ${FITOPTS:---absolute} "$@" "$form" | tail -n 1
}
# computation (rt) grows with the work, n^2 or n^2 log n, and with p when
# the threads slow each other down; load imbalance (li) needs two threads,
# so it is fitted where p >= 2, as (p - 1) times the work plus a constant
fit setup ip "p + n^2*p"
fit init rt "n^2 + n^2*(p-1)"
fit init li "n^2*(p-1) + abs(p-1)" -x "p>=2"
fit cffts rt "n^2*log2(n) + n^2*log2(n)*(p-1)"
fit cffts li "n^2*log2(n)*(p-1) + abs(p-1)" -x "p>=2"
fit transpose rt "n^2 + n^2*(p-1)"
fit transpose li "n^2*(p-1) + abs(p-1)" -x "p>=2"

echo "== 3. extract the structures from the sources (lostcycles compose --extract)"
"$LC" compose --extract "$SRC/fft2d_tp.c" -o "$OUT/tp.lcm"
"$LC" compose --extract "$SRC/fft2d_dp.c" -o "$OUT/dp.lcm"
grid_dp="n=$(echo $NS | tr ' ' ,) p=$(echo $PS | tr ' ' ,) k=$K"
tp_ps=$(for p in $PS; do [ "$p" -ge 2 ] && echo "$p"; done | tr '\n' , | sed 's/,$//')
grid_tp="n=$(echo $NS | tr ' ' ,) p=$tp_ps k=$K"

echo "== 4. predict both versions from the fragment models (dp.runs is not read)"
"$LC" compose -s "$OUT/dp.lcm" --grid "$grid_dp" | tee "$OUT/predicted-dp.txt"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --compare "$OUT/dp.lcm" | tee "$OUT/predicted-tp.txt"

awk -f "$SRC/median.awk" "$OUT/dp.runs" >"$OUT/dp.median.runs"
awk -f "$SRC/median.awk" "$OUT/tp.runs" >"$OUT/tp.median.runs"

echo "== 5. compare the predictions with the measurements (median run per point)"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --measured "$OUT/tp.median.runs" | tee "$OUT/tp-error.txt"
"$LC" compose -s "$OUT/dp.lcm" --grid "$grid_dp" --measured "$OUT/dp.median.runs" --plot "$OUT/dp.png" \
	| tee "$OUT/dp-error.txt"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --measured "$OUT/tp.median.runs" --compare "$OUT/dp.lcm" \
	--plot "$OUT/tp-vs-dp.png" >/dev/null
rm -f "$data" "$OUT/record.err"
