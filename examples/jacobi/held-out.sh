#!/bin/sh
# held-out.sh — a held-out test of lostcycles' models on a program nobody
# tuned them for: the plain pthread Jacobi solver jacobi_pt (no lostcycles
# code; record --pthread sets the flags), measured at small n, each
# category fitted by the search (fit -c all --search over n and p), and the
# whole program predicted at n twice the largest fitted one, where it was
# measured too but not fitted.  Results: docs/models.md.
#
#   sh examples/jacobi/held-out.sh [OUTDIR]
#
# Environment (defaults in brackets): FIT_NS ["181 256 362 512 724"] the
# fitted sizes, TEST_NS ["1024 1448 2896"] the held-out ones (1448 and
# 2896 = 2 and 4 x 724), PS ["1 2"], STEPS [400] sweeps per run, REPEATS
# [5] runs per point (fit chooses how a point's repeats become one value:
# the mean, or the smallest on a busy machine's right-skewed repeats; the
# comparison aggregates the measured repeats the same way, category by
# category; AGGREGATE=mean|median|min sets fit's --aggregate instead), LC
# [./lostcycles], BIN [build/examples], REUSE
# [0]: 1 to redo the analysis from OUTDIR's runs, KEEP_PROFILES [0]: 1 to
# keep the sweep's profiles, FRESH [0]: 1 to delete OUTDIR's sweep first.
# Run from the top of the tree after "make all examples".  An interrupted
# study resumes (sweep skips the runs its file holds).
set -eu

OUT=${1:-build/jacobi}
FIT_NS=${FIT_NS:-"181 256 362 512 724"}
TEST_NS=${TEST_NS:-"1024 1448 2896"}
PS=${PS:-"1 2"}
STEPS=${STEPS:-400}
REPEATS=${REPEATS:-5}
LC=${LC:-./lostcycles}
BIN=${BIN:-build/examples}
SRC=$(dirname "$0")
list() { echo "$@" | tr ' ' ,; }
mkdir -p "$OUT"
[ "${FRESH:-0}" != 1 ] || rm -f "$OUT/jacobi.sweep"

echo "== 1. measure (lostcycles sweep --record-opts=--pthread): the fitted and the held-out sizes"
# the repeats take turns over all sizes, so that a load that drifts over
# minutes touches fitted and held-out points alike
if [ "${REUSE:-0}" != 1 ]; then
	before=$(sh "$SRC/../fft2d/snapshot.sh" $$)
	for r in $(seq "$REPEATS"); do
		"$LC" sweep -q -o "$OUT/jacobi.sweep" -r "$r" --record-opts=--pthread \
			-v "n=$(list $FIT_NS $TEST_NS)" -v "p=$(list $PS)" -v "s=$STEPS" \
			-- "$BIN/jacobi_pt" -n {n} -p {p} -s {s} >/dev/null
	done
	echo "$before" "$(sh "$SRC/../fft2d/snapshot.sh" $$)" | tr '\n' ' ' |
		awk -f "$SRC/../fft2d/machine.awk" -v cpus="$(getconf _NPROCESSORS_ONLN)" -v hz="$(getconf CLK_TCK)" |
		tee "$OUT/machine.txt"
	[ "${KEEP_PROFILES:-0}" = 1 ] || rm -rf "$OUT/jacobi.sweep.profiles"
fi
# the runs: the sweep's lines, the point's median for the comparison
# (the sweep's rep=, wall= and load= are not part of a point)
sed 's/ rep=[^ ]*//; s/ wall=[^ ]*//; s/ load=[^ ]*//' "$OUT/jacobi.sweep" |
	awk -f "$SRC/../fft2d/median.awk" >"$OUT/jacobi.median.runs"

echo "== 2. fit every category on the fitted sizes only (fit -c all --search)"
fitted=$(for n in $FIT_NS; do printf 'n=%s ' "$n"; done)
nmax=$(echo $TEST_NS | tr ' ' '\n' | sort -n | tail -n 1)
rm -f "$OUT/jacobi.model"
for n in $FIT_NS; do
	grep "^n=$n " "$OUT/jacobi.sweep"
done >"$OUT/fitted.runs"
"$LC" fit -c all -v "n p" -f "$OUT/fitted.runs" --search --upto "n=$nmax" ${AGGREGATE:+--aggregate "$AGGREGATE"} \
	--emit "$OUT/jacobi.model" >"$OUT/fit.txt"
grep -h "^[a-z][a-z](" "$OUT/jacobi.model" | sed 's/  *# .*//'

echo "== 3. predict every measured point from the model, and compare"
# T(E) against the median run (error.txt), and every category against the
# same category's repeats aggregated as fit aggregated them (categories.txt)
for n in $FIT_NS $TEST_NS; do
	for p in $PS; do
		printf 'n=%s p=%s ' "$n" "$p"
		"$LC" predict -m "$OUT/jacobi.model" --at "n=$n p=$p" | sed -n 's/^T(E) = sum C(E)\/p = \([^ ]*\) s.*/\1/p'
	done
done | awk -v fitted="$FIT_NS" -f "$SRC/compare.awk" - "$OUT/jacobi.median.runs" | tee "$OUT/error.txt"
for n in $FIT_NS $TEST_NS; do
	for p in $PS; do
		"$LC" predict -m "$OUT/jacobi.model" --at "n=$n p=$p" |
			awk -v at="n=$n p=$p" '/^[a-z][a-z]  / { print at, $1, $(NF - 2) }'
	done
done >"$OUT/predicted.txt"
awk -v fitted="$FIT_NS" -v given="${AGGREGATE:-}" -f "$SRC/categories.awk" "$OUT/fit.txt" "$OUT/predicted.txt" "$OUT/jacobi.sweep" |
	tee "$OUT/categories.txt"
