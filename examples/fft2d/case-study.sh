#!/bin/sh
# case-study.sh — the 2D FFT case study of docs/case-study-fft2d.md, end to
# end on this machine: measure the fragments of the task-parallel program,
# fit a model per fragment, extract the two structures from the sources,
# compose and predict both versions, and compare with the programs' runs.
#
#   sh examples/fft2d/case-study.sh [OUTDIR]
#
# Step 6 records one more run of the task-parallel program in trace mode
# and composes it by critical path analysis over that trace.
#
# Environment (defaults in brackets): NS ["64 128 256 512 1024"] the sizes,
# PS ["1 2"] the processor counts (the task-parallel program runs where
# p >= 2), K [8] matrices per run, REPEATS [5] runs per point, PICK [min]
# which run stands for a point, in the fits and in the comparison alike:
# min the fastest (a busy machine slows some runs a lot and none speeds
# up), median the median one, all every run (the fits then choose the
# aggregate from the repeats, fit's --aggregate through FITOPTS, and the
# comparison takes the fastest), LC [./lostcycles], BIN
# [build/examples], REUSE [0]: 1 to keep OUTDIR's runs and redo the
# analysis only, FRESH [0]: 1 to delete OUTDIR's sweeps and runs first (by
# default an interrupted or shorter study resumes: the sweeps skip the runs
# their files hold, and a profile already turned into runs lines is not read
# again), KEEP_PROFILES [0]: 1 to keep the sweeps' profiles.  A sweep line
# carries the machine's load during the run (load=) when the run was long
# enough for /proc/stat's ticks to give it (about 0.4 s on 2 CPUs),
# OUTDIR/loads.txt those runs' loads per sweep, and
# OUTDIR/machine.txt the load over the whole measurement; dp-categories.txt
# the error per p and category.  Run from the top of the tree after "make
# all examples".
set -eu

OUT=${1:-build/fft2d}
NS=${NS:-"64 128 256 512 1024"}
PS=${PS:-"1 2"}
K=${K:-8}
REPEATS=${REPEATS:-5}
PICK=${PICK:-min}
LC=${LC:-./lostcycles}
BIN=${BIN:-build/examples}
SRC=$(dirname "$0")
export OMP_WAIT_POLICY=passive	# idle OpenMP threads sleep instead of spinning

REUSE=${REUSE:-0}
FRESH=${FRESH:-0}
mkdir -p "$OUT"
case $PICK in min | median | all) ;; *) echo "PICK=$PICK: min, median or all" >&2; exit 2 ;; esac
rm -f "$OUT"/*.model "$OUT"/*.lcm "$OUT"/*.median.runs "$OUT"/*.point.runs
if [ "$FRESH" = 1 ]; then
	rm -rf "$OUT"/*.runs "$OUT"/*.sweep "$OUT"/*.sweep.profiles "$OUT"/read.profiles
fi
touch "$OUT/read.profiles"	# the profiles already turned into runs lines
list() { echo "$@" | tr ' ' ,; }
tp_ps=$(for p in $PS; do [ "$p" -ge 2 ] && echo "$p"; done | tr '\n' , | sed 's/,$//')

echo "== 1. measure (lostcycles sweep): the fragments of the task-parallel program (fft2d_tp -f), and both programs"
# Three sweeps, each recording every run with its event trace ("report
# --source trace" below gives the exact profile, which the short fragments
# of small n need: they last less than a few sampling ticks) and keeping the
# profiles in NAME.sweep.profiles/.  The programs' profiles, read in step 5
# only, go to dp and tp; the models come from the fragment sweep alone.
# The sweeps take turns repeat by repeat (sweep -r R skips the repeats its
# file already holds), so that a load that drifts over minutes (a shared
# machine) touches fragments and programs alike.
sweep() {
	name=$1
	shift
	"$LC" sweep -q -o "$OUT/$name.sweep" -r "$r" --record-opts=--trace -v "n=$(list $NS)" "$@" -v "k=$K" \
		-- "$BIN/$prog" $args -n {n} -p {p} -k {k} || { echo "sweep $name failed" >&2; exit 1; }
}
# the machine over the measurements (snapshot.sh, machine.awk)
snapshot() { sh "$SRC/snapshot.sh" $$; }
if [ "$REUSE" != 1 ]; then
	before=$(snapshot)
	for r in $(seq "$REPEATS"); do
		prog=fft2d_tp args=-f sweep frag -v "p=$(list $PS)"
		prog=fft2d_dp args= sweep dp -v "p=$(list $PS)"
		[ -n "$tp_ps" ] && prog=fft2d_tp args= sweep tp -v "p=$tp_ps"
	done
	# the runs lines, from each kept profile (named nN-pP-kK-repR.data)
	for f in "$OUT"/frag.sweep.profiles/*.data "$OUT"/dp.sweep.profiles/*.data "$OUT"/tp.sweep.profiles/*.data; do
		[ -f "$f" ] || continue
		! grep -qxF "$f" "$OUT/read.profiles" || continue
		n=$(basename "$f" | sed 's/^n\([0-9]*\)-.*/\1/')
		rep() { "$LC" report --source trace -f "$f" "$@" -l "n=$n k=$K"; }
		case $f in
		*/dp.sweep.profiles/*)
			rep >>"$OUT/dp.runs"
			# the set-up fragment: the data-parallel program's whole
			# run minus its four loops, measured on the program it
			# predicts (the loops' own times are not used)
			for t in "" "-t 1" "-t 2" "-t 3" "-t 4"; do
				rep $t
			done | awk -f "$SRC/minus.awk" >>"$OUT/setup.runs"
			;;
		*/tp.sweep.profiles/*) rep >>"$OUT/tp.runs" ;;
		*)
			rep -t 1 >>"$OUT/init.runs"
			rep -t 2 >>"$OUT/cffts.runs"
			rep -t 3 >>"$OUT/transpose.runs"
			rep -t 4 >>"$OUT/cffts.runs"
			;;
		esac
		echo "$f" >>"$OUT/read.profiles"
	done
	echo "$before" "$(snapshot)" | tr '\n' ' ' | awk -f "$SRC/machine.awk" -v cpus="$(getconf _NPROCESSORS_ONLN)" -v hz="$(getconf CLK_TCK)" \
		| tee "$OUT/machine.txt"
	# the profiles (trace mode: large) are not kept, the sweeps' own lines are
	[ "${KEEP_PROFILES:-0}" = 1 ] || rm -rf "$OUT"/*.sweep.profiles
fi
# the loads of the runs long enough to have one (sweep's load=), per sweep
for f in "$OUT"/*.sweep; do
	[ -f "$f" ] || continue
	sed -n 's/.* load=\([0-9.]*\).*/\1/p' "$f" | sort -n |
		awk -v f="$(basename "$f")" '{ v[++k] = $1 } END { if (k) printf "%s: load= (other processes and steal, %% of the CPU time) %.1f .. %.1f, median %.1f, over the %d runs of 0.4 s or more\n", f, v[1], v[k], v[int((k + 1) / 2)], k; else printf "%s: no run long enough for a load\n", f }'
done | tee "$OUT/loads.txt"
# one run per point (PICK): the fastest by default (this machine's timings
# vary a lot, and a slowed run is the load's, not the program's)
point() { awk -f "$SRC/median.awk" -v pick="$([ "$PICK" = all ] && echo min || echo "$PICK")" "$1"; }
for f in setup init cffts transpose; do
	if [ "$PICK" = all ]; then
		cp "$OUT/$f.runs" "$OUT/$f.point.runs"
	else
		point "$OUT/$f.runs" >"$OUT/$f.point.runs"
	fi
done
wc -l "$OUT"/setup.runs "$OUT"/init.runs "$OUT"/cffts.runs "$OUT"/transpose.runs

echo "== 2. fit each fragment's categories (lostcycles fit --emit)"
# fit FRAGMENT CATEGORY FORMULA [OPTIONS]: every category the fragments'
# runs hold is modelled (rt, li, and rc: even a quiet machine keeps a thread
# runnable but not running for 5-10 % of its time at n >= 256, the sampler
# and other processes taking turns on its CPUs, and the programs pay it
# too); each point weighs by its relative error (fit's default 1/y^2: the
# study is judged by the relative error at each n, and the times span 300x,
# so plain least squares would leave the small sizes to chance); and a term
# whose 90 % interval contains 0 is dropped (--prune).  FITOPTS replaces
# "--prune" (e.g. FITOPTS="--absolute" for the thesis's plain least squares
# with every term kept).
fit() {
	f=$1 c=$2 form=$3
	shift 3
	"$LC" fit -c "$c" -v "n p" -f "$OUT/$f.point.runs" --emit "$OUT/$f.model" ${FITOPTS:---prune} "$@" "$form" | tail -n 1
}
# computation (rt) and run-queue contention (rc) grow with the work, n^2 or
# n^2 log n, and with p when the threads slow each other down; load
# imbalance (li) needs two threads, so it is fitted where p >= 2, as (p - 1)
# times the work plus a constant (the loop's fork and barrier)
fit setup ip "p + n^2*p"
for c in rt rc; do
	fit init $c "n^2 + n^2*(p-1)"
	fit cffts $c "n^2*log2(n) + n^2*log2(n)*(p-1)"
	fit transpose $c "n^2 + n^2*(p-1)"
done
fit init li "n^2*(p-1) + abs(p-1)" -x "p>=2"
fit cffts li "n^2*log2(n)*(p-1) + abs(p-1)" -x "p>=2"
fit transpose li "n^2*(p-1) + abs(p-1)" -x "p>=2"

echo "== 3. extract the structures from the sources (lostcycles compose --extract)"
"$LC" compose --force --extract "$SRC/fft2d_tp.c" -o "$OUT/tp.lcm"
"$LC" compose --force --extract "$SRC/fft2d_dp.c" -o "$OUT/dp.lcm"
grid_dp="n=$(echo $NS | tr ' ' ,) p=$(echo $PS | tr ' ' ,) k=$K"
grid_tp="n=$(echo $NS | tr ' ' ,) p=$tp_ps k=$K"

echo "== 4. predict both versions from the fragment models (dp.runs is not read)"
"$LC" compose -s "$OUT/dp.lcm" --grid "$grid_dp" | tee "$OUT/predicted-dp.txt"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --compare "$OUT/dp.lcm" | tee "$OUT/predicted-tp.txt"

point "$OUT/dp.runs" >"$OUT/dp.point.runs"
point "$OUT/tp.runs" >"$OUT/tp.point.runs"

echo "== 5. compare the predictions with the measurements (one run per point, PICK=$PICK)"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --measured "$OUT/tp.point.runs" | tee "$OUT/tp-error.txt"
"$LC" compose -s "$OUT/dp.lcm" --grid "$grid_dp" --measured "$OUT/dp.point.runs" --force --plot "$OUT/dp.png" \
	| tee "$OUT/dp-error.txt"
# the data-parallel error per p and per category: each point's composed
# categories (compose --at) against its run
for n in $NS; do
	for p in $PS; do
		"$LC" compose -s "$OUT/dp.lcm" --at "n=$n p=$p k=$K"
	done
done | awk -f "$SRC/categories.awk" - "$OUT/dp.point.runs" | tee "$OUT/dp-categories.txt"
"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --measured "$OUT/tp.point.runs" --compare "$OUT/dp.lcm" \
	--force --plot "$OUT/tp-vs-dp.png" >/dev/null

echo "== 6. synchronization by critical path analysis over a recorded trace (compose --critical-path)"
# One run of the task-parallel program at the largest n, its trace files
# kept: the instances of its four fragments and the waits between its
# tasks.  The trace is rescaled to each point's predicted fragment times.
if [ -n "$tp_ps" ] && [ "$REUSE" != 1 ]; then
	rm -rf "$OUT/trace"
	mkdir -p "$OUT/trace"
	nmax=$(echo $NS | tr ' ' '\n' | sort -n | tail -n 1)
	pmin=$(echo "$tp_ps" | cut -d, -f1)
	LOSTCYCLES_TRACE_DIR="$OUT/trace" "$LC" record -q --force --trace -o "$OUT/trace.data" -- \
		"$BIN/fft2d_tp" -n "$nmax" -p "$pmin" -k "$K" >/dev/null
	rm -f "$OUT/trace.data"
fi
if [ -n "$tp_ps" ] && [ -d "$OUT/trace" ]; then
	"$LC" compose -s "$OUT/tp.lcm" --grid "$grid_tp" --measured "$OUT/tp.point.runs" \
		--critical-path "$OUT/trace" | tee "$OUT/tp-cp-error.txt"
fi
