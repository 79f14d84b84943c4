#!/bin/sh
# t_mpi_fortran.sh — the MPI layer also sees Fortran programs (MPICH's
# Fortran bindings call the C functions it wraps): rank k of an unmodified
# Fortran program computes (k+1)*10 ms before a barrier, 10 times; each
# rank's SL matches its own measured barrier time within 5 % of its run
# time (3 tries; a miss on a machine measured too busy to judge it, by
# lib.sh's machine_busy, skips with the reason).  Exits 77 without MPICH or
# mpif90.
. tests/lib.sh
set -u

LC=./lostcycles
APP=build/mpi/fimbalance

if ! command -v mpiexec >/dev/null 2>&1 || [ ! -x "$APP" ] || [ ! -e build/liblostcycles-mpi.so ]; then
	skip t_mpi_fortran "MPICH with mpif90 is not installed (apt-get install mpich libmpich-dev gfortran)"
fi
lc_tmpdir
export XDG_CONFIG_HOME="$tmp/config"
unset LOSTCYCLES_LOGGP

tries=0
while :; do
	tries=$((tries + 1))
	if ! "$LC" record --force -q --mpi -o "$tmp/f.data" -- mpiexec -n 2 "$APP" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL  record --mpi of the Fortran program exited non-zero"
		cat "$tmp/err"
		exit 1
	fi
	"$LC" report --per-rank --format csv "$tmp/f.data" >"$tmp/csv" 2>>"$tmp/err"
	if awk '
		FNR == NR { if ($1 == "rank") { wait[$2] = $4 / 1e9; run[$2] = $6 / 1e9 }; next }
		/^rank,host,pid,/ { for (i = 1; i <= NF; i++) col[$i] = i; inr = 1; next }
		inr && NF > 10 { sl[$1] = $(col["sl"]) }
		END {
			for (k = 0; k < 2; k++) {
				if (!(k in sl) || !(k in wait)) { print "rank " k " missing"; bad = 1; continue }
				d = sl[k] - wait[k]; if (d < 0) d = -d
				printf "rank %d: sl %.4f s, measured wait %.4f s (|diff| %.1f%% of run)\n", k, sl[k], wait[k], 100 * d / run[k]
				if (d > 0.05 * run[k]) bad = 1
			}
			exit bad
		}' FS='[ ]' "$tmp/out" FS=',' "$tmp/csv" >"$tmp/res"; then
		cat "$tmp/res"
		[ "$tries" -gt 1 ] && echo "NOTE: t_mpi_fortran passed on try $tries"
		echo "t_mpi_fortran: all passed"
		exit 0
	fi
	if [ "$tries" -ge 3 ]; then
		cat "$tmp/res"
		skip_if_busy t_mpi_fortran "$tmp/err"
		echo "FAIL  SL per rank of the Fortran program does not match its barrier waits"
		exit 1
	fi
done
