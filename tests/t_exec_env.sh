#!/bin/sh
# t_exec_env.sh — "lostcycles exec" takes the node's name and the job's id
# from a batch system's environment without a batch system: a 2-rank MPI
# job started by mpiexec with Slurm's SLURMD_NODENAME and SLURM_JOB_ID set
# writes PREFIX.<that node>.data, "merge --job" finds it by that id among
# the current folder's files (another job's node file beside it is left
# out) and merges 2 ranks; LOSTCYCLES_HOST still wins over Slurm's name,
# and PBS's "1234.server" gives job 1234.  tests/t_slurm.sh does the same
# under a real Slurm.  Exits 77 without MPICH.
. tests/lib.sh
set -u
need_mpi t_exec_env "" build/mpi/imbalance
top=$(pwd)
LC=$top/lostcycles APP=$top/build/mpi/imbalance nfail=0
cd "$tmp" && export TMPDIR="$tmp" || exit 1
ok() { echo "ok    $*"; }
unset SLURM_JOB_ID SLURMD_NODENAME PBS_JOBID LSB_JOBID LOSTCYCLES_JOB_ID LOSTCYCLES_HOST

# run ENV...: one 2-rank job under exec -o the given prefix, env set
run() {
	prefix=$1
	shift
	env "$@" mpiexec -n 2 "$LC" exec -o "$prefix" -- "$APP" 2 5 >"$prefix.out" 2>&1 ||
		{ fail "mpiexec ... exec -o $prefix ($*)"; sed 's/^/      /' "$prefix.out"; }
}
run A SLURM_JOB_ID=7771 SLURMD_NODENAME=cn17
run B SLURM_JOB_ID=7772 SLURMD_NODENAME=cn18
[ -s A.cn17.data ] && [ -s B.cn18.data ] && ok "node files named by SLURMD_NODENAME: A.cn17.data B.cn18.data" ||
	fail "no A.cn17.data and B.cn18.data: $(ls)"
if "$LC" merge --job 7771 -o J.data 2>merr && grep -q ": 1 node file, 2 ranks, p = 2, job 7771$" merr; then
	ok "merge --job 7771 takes A's file, not B's: $(cat merr)"
else
	fail "merge --job 7771:"; sed 's/^/      /' merr
fi
# J.data is itself a profile of job 7771 on cn17: taken as a node file, it
# would clash with A.cn17.data
"$LC" merge --job 7771 --force -o J.data 2>merr && grep -q ": 1 node file, 2 ranks" merr &&
	ok "the output file (a profile of the job) is not taken for a node file" ||
	{ fail "merge --job 7771 --force -o J.data again:"; sed 's/^/      /' merr; }
if "$LC" merge --job 9 -o N.data . 2>merr; then
	fail "merge --job 9 merged"
else
	grep -q "no node file of job 9 among the 3 profiles looked at" merr &&
		ok "merge --job 9: $(cat merr)" || { fail "merge --job 9:"; sed 's/^/      /' merr; }
fi
run C SLURM_JOB_ID=7773 SLURMD_NODENAME=cn17 LOSTCYCLES_HOST=mine
[ -s C.mine.data ] && ok "LOSTCYCLES_HOST wins over SLURMD_NODENAME" || fail "no C.mine.data: $(ls)"
run D PBS_JOBID=1234.server
"$LC" merge --job 1234 -o P.data D.*.data 2>merr && ok "PBS_JOBID 1234.server is job 1234" ||
	{ fail "merge --job 1234 of PBS's job:"; sed 's/^/      /' merr; }
[ "$nfail" -eq 0 ] && echo "t_exec_env: exec reads the batch system's node name and job id"
exit $((nfail > 0))
