#!/bin/sh
# t_omp.sh — the OpenMP layer (build/liblostcycles-omp.so, an OMPT tool) on
# unmodified OpenMP programs built with clang -fopenmp, against the losses
# the programs measure themselves (tests/layers/omp_skew.c):
#   - a skewed schedule(static) loop: LI matches the measured idle time at
#     the loop's barrier within 5 % of the total time, and is large, in the
#     exact (trace) profile; the sampler read every word the tool wrote as
#     valid (every case also checks the sampled profile against the exact
#     one, within its sampling error: see tests/layers/lib.sh);
#   - the same loop with schedule(dynamic): LI matches, and drops;
#   - an explicit barrier after uneven work: SL matches the measured waits;
#   - contention for an omp_lock_t and a critical section: SL matches;
#   - taskwait while another thread runs the task: SL matches the measured
#     waits, and the task's run is computation (rt >= its time);
#   - nested regions nest: a loop's idle time after a nested region inside
#     it ended is still LI;
#   - serial sections between regions: IP matches (p-1) x serial time (plus
#     p x the time outside main());
#   - the team size comes from the region (p=2, "LC_TEAM"), and the loop's
#     fragment tag (from its codeptr_ra) holds the loop's LI; report names it
#     FILE:LINE (the line of the loop's pragma) and -t accepts that name;
#   - precedence (tests/layers/omp_macros.c): the program's LC_TEAM,
#     LC_PARALLEL_* and a thread's own LC_BUSY() win over the layer, also
#     with the pthread layer loaded as well;
#   - the tool linked into the program (-llostcycles-omp) works without
#     --omp;
#   - without a session the tool declines and the program runs normally;
#   - record --omp warns about a program built with GCC's libgomp.
# Programs are recorded with "lostcycles record --omp" (and --pthread); one
# case loads the tool through OMP_TOOL_LIBRARIES itself.
# Exits 77 (skip) when clang or libomp is missing.  Run from the top of the
# tree (make check does).
. tests/lib.sh
set -u
if [ -n "${LC_SAN:-}" ]; then
	skip t_omp "under SAN=$LC_SAN the OpenMP programs and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
fi

OMPLIB=$(pwd)/build/liblostcycles-omp.so
PTLIB=$(pwd)/build/liblostcycles-pthread.so
WL=build/layers/omp_skew
MAC=build/layers/omp_macros

if [ ! -f "$OMPLIB" ] || [ ! -x "$WL" ] || [ ! -x "$MAC" ]; then
	skip t_omp "no OpenMP layer or test program (needs clang and libomp-dev)"
fi
. tests/layers/lib.sh

export OMP_NUM_THREADS=2
unset OMP_TOOL_LIBRARIES LD_PRELOAD OMP_SCHEDULE

# omp NAME ARGS...: record an OpenMP program with the tool loaded.
omp() {
	n=$1
	shift
	LAYERS=--omp
	record "$n" "$@"
}

case_static() {
	omp static "$WL" static && near static li li && big static li 0.10 &&
		badreads static &&
		grep -q '^p=2 ' "$tmp/static.l" &&
		"$LC" report -f "$tmp/static.data" | grep -q 'processors: 2 (LC_TEAM)'
}

# LI drops: as a share of the program's p x wall time, below three quarters
# of the static loop's (about a third of it on a quiet machine; a busy one
# stretches the dynamic loop's sleeps unevenly).
case_dynamic() {
	[ -f "$tmp/static.l" ] || omp static "$WL" static || return 1
	omp dynamic "$WL" dynamic && near dynamic li li || return 1
	awk -v d="$(value li "$tmp/dynamic.l")" -v dw="$(value wall "$tmp/dynamic.truth")" \
		-v s="$(value li "$tmp/static.l")" -v sw="$(value wall "$tmp/static.truth")" \
		'BEGIN { printf "      LI share: dynamic %.2f %%, static %.2f %%\n", 50 * d / dw, 50 * s / sw;
			 exit !(d / dw < 0.75 * s / sw) }'
}

case_barrier() {
	omp barrier "$WL" barrier && near barrier sl sl && big barrier sl 0.10 &&
		share barrier li "<=" 0.03
}

case_tasks() {
	omp tasks "$WL" tasks && near tasks sl sl && big tasks sl 0.10 || return 1
	awk -v rt="$(value rt "$tmp/tasks.l")" -v task="$(value task "$tmp/tasks.truth")" \
		-v tt="$(value tt "$tmp/tasks.l")" \
		'BEGIN { printf "      tasks: rt=%s, measured task time %s\n", rt, task;
			 exit !(task > 0 && rt >= task - 0.05 * tt) }'
}

case_nested() {
	omp nested "$WL" nested && near nested li li && big nested li 0.10
}

case_locks() {
	omp locks "$WL" locks && near locks sl sl && big locks sl 0.10
}

# The program measures its serial time inside main(); before main() and
# after it (loading, the runtime's start and exit) no thread of the program
# works either: ipx adds p x that time, taken from the profile's wall time.
with_outside() {
	awk -v ip="$(value ip "$tmp/$1.truth")" -v p="$(value p "$tmp/$1.truth")" \
		-v w="$(value wall "$tmp/$1.truth")" -v tt="$(value tt "$tmp/$1.l")" \
		'BEGIN { o = tt / p - w; if (o < 0) o = 0; printf " ipx=%.6f\n", ip + p * o }' \
		>>"$tmp/$1.truth"
	echo "      $1: with $(value p "$tmp/$1.truth") x the time outside main(): $(tail -n 1 "$tmp/$1.truth")"
}

case_serial() {
	omp serial "$WL" serial && with_outside serial && near serial ip ipx &&
		big serial ip 0.10
}

# The loop's tag: report --tags names the tool's tags FILE:LINE, each a line
# with an OpenMP pragma of the program, and for one of them -t NAME shows LI
# within 5 % of the total of the whole run's LI.
case_tags() {
	[ -f "$tmp/static.data" ] || omp static "$WL" static || return 1
	"$LC" report -f "$tmp/static.data" --tags >"$tmp/tags" || return 1
	names=$(grep -o 'omp_skew\.c:[0-9]*' "$tmp/tags" | sort -u)
	sed 's/^/      --tags: /' "$tmp/tags"
	[ -n "$names" ] || return 1
	for n in $names; do
		sed -n "${n##*:}p" tests/layers/omp_skew.c | grep -q '#pragma omp' || return 1
		"$LC" report -f "$tmp/static.data" --source trace -t "$n" -l >"$tmp/tag.l" ||
			return 1
		li=$(value li "$tmp/tag.l")
		awk -v a="$li" -v b="$(value li "$tmp/static.l")" -v t="$(value tt "$tmp/static.l")" \
			'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 0.05 * t) }' &&
			{ echo "      -t $n: li=$li"; return 0; }
	done
	return 1
}

# Precedence: p=3 from the program's LC_TEAM; SL only thread 1's waits
# while the program's parallel phase was open; the later ones are IP.
macros_checks() {
	grep -q '^p=3 ' "$tmp/$1.l" && near "$1" sl sl
}

# Loaded through OMP_TOOL_LIBRARIES by hand, as without record --omp.
case_macros() {
	LAYERS=
	record macros env OMP_TOOL_LIBRARIES="$OMPLIB" "$MAC" && macros_checks macros
}

case_both() {
	LAYERS="--omp --pthread"
	record both "$MAC" && macros_checks both
}

# Both layers on the serial program: the runtime's own threads and waits are
# left to the OpenMP tool, so the serial sections stay IP (were the runtime's
# threads counted, work would exist throughout and IP would be near 0).
case_both_serial() {
	LAYERS="--omp --pthread"
	record both_serial "$WL" serial &&
		with_outside both_serial && near both_serial ip ipx
}

case_nosession() {
	env -u LOSTCYCLES_SESSION OMP_TOOL_LIBRARIES="$OMPLIB" "$WL" barrier >"$tmp/plain" &&
		grep -q '^truth ' "$tmp/plain"
}

# The tool linked into the program: libomp finds ompt_start_tool in it.
case_linked() {
	clang -fopenmp -O2 -g -o "$tmp/linked" tests/layers/omp_skew.c -L"$(pwd)/build" \
		-Wl,--no-as-needed -llostcycles-omp -Wl,-rpath,"$(pwd)/build" || return 1
	LAYERS=
	record linked "$tmp/linked" static && near linked li li && big linked li 0.10
}

# A program built by GCC links libgomp: record --omp says it sees nothing.
case_gomp() {
	printf '#include <omp.h>\nint main(void)\n{\n#pragma omp parallel\n\t;\n\treturn 0;\n}\n' \
		>"$tmp/gomp.c"
	if ! gcc -fopenmp -o "$tmp/gomp" "$tmp/gomp.c" 2>/dev/null; then
		echo "      (gcc -fopenmp unavailable: not checked)"
		return 0
	fi
	"$LC" record --omp -q -o "$tmp/gomp.data" -- "$tmp/gomp" 2>"$tmp/gomp.err"
	sed 's/^/      | /' "$tmp/gomp.err"
	grep -q "libgomp, which has no OMPT" "$tmp/gomp.err"
}

check "skewed static loop: LI = measured idle time" case_static
check "dynamic schedule: LI = measured idle time, and drops" case_dynamic
check "explicit barrier: SL = measured waits" case_barrier
check "lock and critical contention: SL = measured waits" case_locks
check "taskwait: SL = measured waits, tasks are computation" case_tasks
check "nested regions nest: LI after the inner region" case_nested
check "serial sections: IP = (p-1) x serial time" case_serial
check "fragment tag of the loop holds its LI" case_tags
check "precedence: the program's macros win" case_macros
check "precedence with both layers loaded" case_both
check "both layers: runtime threads left to the OpenMP tool" case_both_serial
check "the tool linked into the program" case_linked
check "no session: the program runs normally" case_nosession
check "record --omp warns about GCC's libgomp" case_gomp

[ "$nfail" -eq 0 ] || { echo "t_omp: $nfail failed"; exit 1; }
end_unjudged t_omp
echo "t_omp: all passed"
