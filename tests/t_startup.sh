#!/bin/sh
# t_startup.sh — serial start-up before any runtime or layer call is
# computation of the main thread (docs/openmp-pthreads.md, docs/mpi.md):
#   - an unmodified OpenMP program that computes 1.5 s before its first
#     OpenMP call (tests/layers/omp_start.c), record --omp: IP of the exact
#     (trace) profile within 3 % of the total time of (p - 1) x the serial
#     time the program measured, and the sampled one within its sampling
#     error of the exact one (tests/layers/lib.sh, near); report prints
#     no note on spin waits (it is in docs/openmp-pthreads.md only: nothing
#     in a profile tells a spinning thread from a computing one);
#   - the same shape with pthreads before the first pthread_create
#     (tests/layers/pt_start.c), record --pthread, p from the profile;
#   - an MPI program whose ranks compute 1.5 s each before MPI_Init
#     (tests/mpi/start.c), record --mpi -- mpiexec -n 2: every rank's
#     set-up is computation of its own processor, so IP is only the time
#     outside the ranks' main() (mpiexec starting them and ending: each
#     slot's profile wall time minus its rank's), within 3 % of the total
#     time, and computation (rt + rc) holds the 2 x 1.5 s.
# Without the main thread BUSY from the start, IP was 3.3 s of 4.2 s
# (OpenMP) and 3.5 s of 4.1 s (MPI).  Exits 77 when no layer can run here.
. tests/lib.sh
set -u
if [ -n "${LC_SAN:-}" ]; then
	skip t_startup "under SAN=$LC_SAN the OpenMP program and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
fi
OMPWL=build/layers/omp_start
PTWL=build/layers/pt_start
MPIWL=build/mpi/start
[ -x "$PTWL" ] || skip t_startup "no test program (make workloads)"
. tests/layers/lib.sh
unset OMP_TOOL_LIBRARIES LD_PRELOAD OMP_SCHEDULE
export OMP_NUM_THREADS=2
SERIAL=1.5

# ipp NAME: add " ipp=(p - 1) x serial + p x outside" to the truth, p from
# the profile: outside main() (the profile's wall time minus the program's:
# loading it, which a busy machine stretches, and its exit) no thread of
# the program is there yet, or only its main one.
ipp() {
	awk -v p="$(value p "$tmp/$1.l")" -v s="$(value serial "$tmp/$1.truth")" \
		-v w="$(value wall "$tmp/$1.truth")" -v tt="$(value tt "$tmp/$1.l")" \
		'BEGIN { o = tt / p - w; if (o < 0) o = 0;
			 printf " ipp=%.6f outside=%.6f\n", (p - 1) * s + p * o, o }' >>"$tmp/$1.truth"
	echo "      $1: $(tail -n 1 "$tmp/$1.truth")"
}

# near3 NAME: near NAME ip ipp with a tolerance of 3 % of the total time.
near3() {
	TOL=0.03
	near "$1" ip ipp
	r=$?
	TOL=0.05
	return $r
}

# omp_note NAME WANT: report's text has the note on spin waits OpenMP
# cannot see (WANT 1) or not (0).
omp_note() {
	n=$("$LC" report -f "$tmp/$1.data" 2>/dev/null | grep -c '^\*\* note: OpenMP: a thread spinning')
	echo "      $1: spin-wait note: $n (want $2)"
	[ "$n" = "$2" ]
}

case_omp() {
	LAYERS=--omp
	record omp_start "$OMPWL" "$SERIAL" && ipp omp_start && near3 omp_start &&
		omp_note omp_start 0
}

case_pthread() {
	LAYERS=--pthread
	record pt_start "$PTWL" "$SERIAL" && ipp pt_start && near3 pt_start &&
		omp_note pt_start 0
}

# The MPI job, sampled (trace mode is not what MPI runs use).
case_mpi() {
	"$LC" record --force --mpi -q -o "$tmp/mpi.data" -- mpiexec -n 2 "$MPIWL" "$SERIAL" \
		>"$tmp/mpi.truth" 2>"$tmp/mpi.rec" || { sed 's/^/      | /' "$tmp/mpi.rec"; return 1; }
	"$LC" report -f "$tmp/mpi.data" -l >"$tmp/mpi.l" 2>/dev/null || return 1
	echo "      mpi: $(tr '\n' ' ' <"$tmp/mpi.truth")"
	echo "      mpi: $(cat "$tmp/mpi.l")"
	awk -v l="$(cat "$tmp/mpi.l")" '
		{ s += $4; w += $6 }
		END {
			n = split(l, kv, " ")
			for (i = 1; i <= n; i++) { split(kv[i], a, "="); v[a[1]] = a[2] }
			c = v["rt"] + v["rc"]
			out = v["tt"] - w
			d = v["ip"] - out; if (d < 0) d = -d
			printf "      mpi: ip %.4f s vs %.4f s outside the ranks: |diff| = %.2f %% of total %.4f s (want <= 3 %%); rt+rc %.4f s, set-up of the ranks %.4f s\n",
				v["ip"], out, 100 * d / v["tt"], v["tt"], c, s
			exit !(NR == 2 && v["p"] == 2 && v["tt"] > 0 && d <= 0.03 * v["tt"] &&
			       c >= s - 0.03 * v["tt"])
		}' "$tmp/mpi.truth"
}

if [ -x "$OMPWL" ] && [ -e build/liblostcycles-omp.so ]; then
	check "OpenMP: serial set-up before the runtime starts is IP of p - 1 slots" case_omp
else
	echo "NOTE: t_startup: no OpenMP layer (clang, libomp-dev): OpenMP case left out"
fi
check "pthreads: serial set-up before the first pthread call" case_pthread
if command -v mpiexec >/dev/null 2>&1 && [ -x "$MPIWL" ] && [ -e build/liblostcycles-mpi.so ]; then
	check "MPI: set-up before MPI_Init is computation" case_mpi
else
	echo "NOTE: t_startup: no MPICH (mpiexec, mpicc): MPI case left out"
fi

[ "$nfail" -eq 0 ] || { echo "t_startup: $nfail failed"; exit 1; }
end_unjudged t_startup
echo "t_startup: all passed"
