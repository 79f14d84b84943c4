#!/bin/sh
# study.sh — the scaling testbed (examples/scaling.c) recorded over p,
# every category fitted on the small p only, and predicted at the large p,
# where it was recorded too.  Results: docs/models.md ("The scaling
# testbed").
#
#   sh examples/scaling/study.sh [OUTDIR]
#
# Environment (defaults in brackets): FIT_PS ["1 2 4 8"] the fitted p,
# TEST_PS ["16 32 64"] the predicted ones, REPEATS [3] runs per point, N
# [1000], ROUNDS [2], UNIT [1] (microseconds; the testbed's arguments),
# FIT_OPTS ["--weights": the points weighted by their repeats' spread; the
# testbed's noise is the same few tenths of a ms at every p, so the
# default relative weights would give p = 1's 0.5 ms of sl, read to
# +/-0.5 ms, the weight of p = 8's 32 ms] more options of fit, RECORD_OPTS
# ["--sched=none": the run-queue waits for this machine's CPUs are not the
# testbed's], LC [./lostcycles], BIN [build/examples], REUSE [0]: 1 to redo
# the analysis from OUTDIR's runs, TMAX [10], CMAX [20], TTPCT [1]: the
# goals.  Run from the top of the tree after "make all examples".  The
# last line is "pass" when T at every predicted p is within TMAX % of the
# recorded runs' median, every category within CMAX % or TTPCT % of the
# total time, and no model below zero; else "FAIL: ...".
set -eu

OUT=${1:-build/scaling}
FIT_PS=${FIT_PS:-"1 2 4 8"}
TEST_PS=${TEST_PS:-"16 32 64"}
REPEATS=${REPEATS:-3}
N=${N:-1000}
ROUNDS=${ROUNDS:-2}
UNIT=${UNIT:-1}
RECORD_OPTS=${RECORD_OPTS:---sched=none}
LC=${LC:-./lostcycles}
BIN=${BIN:-build/examples}
SRC=$(dirname "$0")
list() { echo "$@" | tr ' ' ,; }
mkdir -p "$OUT"

echo "== 1. record (lostcycles sweep): p = $(list $FIT_PS $TEST_PS), $REPEATS repeats"
if [ "${REUSE:-0}" != 1 ]; then
	# the repeats take turns over all p, so that a load that drifts
	# touches fitted and predicted points alike
	for r in $(seq "$REPEATS"); do
		"$LC" sweep -q -o "$OUT/scaling.runs" -r "$r" --record-opts="$RECORD_OPTS" \
			-v "p=$(list $FIT_PS $TEST_PS)" \
			-- "$BIN/scaling" {p} "$N" "$ROUNDS" "$UNIT" >/dev/null
	done
	rm -rf "$OUT/scaling.runs.profiles"
fi

echo "== 2. fit every category on p = $(list $FIT_PS) (fit -c all)"
pmax=$(echo $TEST_PS | tr ' ' '\n' | sort -n | tail -n 1)
for p in $FIT_PS; do grep " p=$p " "$OUT/scaling.runs" || true; done >"$OUT/fitted.runs"
for p in $TEST_PS; do grep " p=$p " "$OUT/scaling.runs" || true; done >"$OUT/predicted.runs"
rm -f "$OUT/scaling.model"
# shellcheck disable=SC2086
"$LC" fit -c all -v p -f "$OUT/fitted.runs" --upto "p=$pmax" ${FIT_OPTS---weights} \
	--emit "$OUT/scaling.model" >"$OUT/fit.txt" 2>"$OUT/fit.err"
grep -h "^[a-z][a-z](" "$OUT/scaling.model" | sed 's/  *# .*//'

echo "== 3. predict p = $(list $TEST_PS) and compare with the recorded runs"
"$LC" predict -m "$OUT/scaling.model" --grid "p=$(list $TEST_PS)" >"$OUT/predict.txt"
awk -v tmax="${TMAX:-10}" -v cmax="${CMAX:-20}" -v ttpct="${TTPCT:-1}" -f "$SRC/compare.awk" \
	"$OUT/predict.txt" "$OUT/predicted.runs" | tee "$OUT/error.txt"
