#!/bin/sh
# t_pthread.sh — the pthread layer (build/liblostcycles-pthread.so, loaded
# with LD_PRELOAD by record --pthread) on unmodified pthread programs, against the waits the
# programs measure around their own calls (tests/layers/pt_lockbar.c):
#   - a contended mutex and a barrier: SL matches the measured waits within
#     5 % of the total time, and is large, in the exact (trace) profile; the
#     sampler read every word the layer wrote as valid (every case also
#     checks the sampled profile against the exact one, within its sampling
#     error: see tests/layers/lib.sh);
#   - a tight loop of uncontended lock/unlock calls stays BUSY: no SL, and
#     the time the threads spent in the loop is computation;
#   - the main thread waiting in pthread_join while the other thread works:
#     LI matches the measured join;
#   - waits in a timed mutex lock, read-write locks, a spin lock, semaphores
#     and condition variables, plain and timed (tests/layers/pt_waits.c):
#     SL matches the measured waits;
#   - precedence (tests/layers/pt_macros.c): the main thread's LC_BUSY()
#     and the program's LC_PARALLEL_* win over the layer, also before the
#     program's first LC_PARALLEL_BEGIN;
#   - a program fully instrumented with macros (tests/workloads/imbalance)
#     gives its known ground truth (LI = 1/3) with the layer loaded too;
#   - without a session the layer passes every call through.
# Programs are recorded with "lostcycles record --pthread"; the no-session
# case sets LD_PRELOAD itself.  Run from the top of the tree (make check does).
. tests/lib.sh
skip_under_tsan t_pthread "its ground truth (the programs' own waits against the exact and the sampled profiles) is judged within tolerances that ThreadSanitizer, slowing the programs and the sampler 5-15x, does not leave"
set -u

PTLIB=$(pwd)/build/liblostcycles-pthread.so
WL=build/layers/pt_lockbar
MAC=build/layers/pt_macros
WAITS=build/layers/pt_waits
IMB=build/workloads/imbalance

for f in "$PTLIB" "$WL" "$MAC" "$WAITS" "$IMB"; do
	if [ ! -e "$f" ]; then
		echo "t_pthread: $f is missing (run 'make all workloads')" >&2
		exit 1
	fi
done
. tests/layers/lib.sh
unset LD_PRELOAD

# pt NAME ARGS...: record a program with "record --pthread".
LAYERS=--pthread
pt() {
	record "$@"
}

case_contended() {
	pt contended "$WL" contended && near contended sl sl && big contended sl 0.10 &&
		badreads contended
}

case_uncontended() {
	pt uncontended "$WL" uncontended && share uncontended sl "<=" 0.005 &&
		near uncontended rt busy &&
		[ "$(value locks "$tmp/uncontended.truth")" -gt 100000 ]
}

case_join() {
	pt join "$WL" join && near join li join && big join join 0.10
}

case_waits() {
	pt waits "$WAITS" && near waits sl sl && big waits sl 0.10
}

# SL: only the worker's lock waits inside the program's parallel phase
# (the layer alone would add its wait at the start barrier and its later
# waits); IP holds at least those two.
case_macros() {
	pt macros "$MAC" && near macros sl sl || return 1
	awk -v ip="$(value ip "$tmp/macros.l")" -v late="$(value late "$tmp/macros.truth")" \
		-v pre="$(value pre "$tmp/macros.truth")" -v tt="$(value tt "$tmp/macros.l")" \
		'BEGIN { printf "      macros: ip=%s, measured late+pre=%.6f\n", ip, late + pre;
			 exit !(ip >= late + pre - 0.05 * tt) }'
}

# imbalance: LC_TEAM(2), LI = 8 of every 24 ms of processor time.
case_instrumented() {
	pt instrumented "$IMB" || return 1
	echo "li=$(value tt "$tmp/instrumented.l" | awk '{ printf "%.6f", $1 / 3 }')" \
		>"$tmp/instrumented.truth"
	near instrumented li li
}

case_nosession() {
	env -u LOSTCYCLES_SESSION LD_PRELOAD="$PTLIB" "$WL" contended >"$tmp/plain" &&
		grep -q '^truth ' "$tmp/plain"
}

check "contended mutex and barrier: SL = measured waits" case_contended
check "uncontended locks stay BUSY" case_uncontended
check "pthread_join while another thread works: LI = measured join" case_join
check "rwlock, spin, semaphore, condition, timed waits: SL = measured" case_waits
check "precedence: the program's macros win" case_macros
check "an instrumented program keeps its ground truth" case_instrumented
check "no session: calls pass through" case_nosession

[ "$nfail" -eq 0 ] || { echo "t_pthread: $nfail failed"; exit 1; }
end_unjudged t_pthread
echo "t_pthread: all passed"
