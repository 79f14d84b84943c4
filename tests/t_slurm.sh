#!/bin/sh
# t_slurm.sh — MPI jobs under a real Slurm on this one machine.  The test
# starts its own munged, slurmctld and slurmd in a temporary folder (its own
# key, slurm.conf, state, spool and logs, free ports, proctrack/linuxproc,
# no cgroups; the node is called lcnode0, not the machine's name) and runs
# a 2-rank MPI program under "lostcycles exec" with nothing else set:
# through srun inside salloc (srun --mpi=pmi2 when Slurm has it), through
# MPICH's mpiexec inside salloc, and by the batch script of docs/mpi.md
# under sbatch.  Each time the node file is named by Slurm's node name
# (PREFIX.lcnode0.data), "merge --job ID" finds it by Slurm's job id and
# merges 2 ranks of that job on lcnode0, and another id finds nothing; srun
# --mpi=none is warned of once.  The daemons are stopped by their pids at
# the end.  Exits 77 with the reason when MPICH is missing, when Slurm is
# missing and cannot be installed (the test runs install-deps.sh slurm),
# when not root (slurmd runs tasks as their user), or when the daemons do
# not start here.
. tests/lib.sh
set -u
LC=$(pwd)/lostcycles
APP=$(pwd)/build/mpi/imbalance
PATH=$PATH:/usr/sbin
[ "$(id -u)" -eq 0 ] || skip t_slurm "not root: slurmd must start tasks as their user"
# Slurm and munge, installed by this test's step when missing (as t_html
# does Chromium): only this test needs them
if ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 ||
   ! command -v srun >/dev/null 2>&1; then
	log=$(mktemp) || exit 1
	sh scripts/install-deps.sh slurm >"$log" 2>&1 ||
		{ tail -n 3 "$log"; rm -f "$log"; skip t_slurm "Slurm and munge are not installed and could not be (sh scripts/install-deps.sh slurm)"; }
	rm -f "$log"
fi
for b in munged slurmctld slurmd srun salloc sbatch sinfo; do
	command -v $b >/dev/null 2>&1 ||
		skip t_slurm "no $b: Slurm and munge are not installed (sh scripts/install-deps.sh slurm)"
done
need_mpi t_slurm "" "$APP"
nfail=0
ok() { echo "ok    $*"; }
d=$tmp/slurm
mkdir -p "$d/state" "$d/spool" "$tmp/run"
chmod 755 "$tmp"

# stop: the daemons this test started, by the pids they wrote, and wait
# for them to go
stop() {
	for f in slurmd slurmctld munged; do
		[ -s "$d/$f.pid" ] || continue
		pid=$(cat "$d/$f.pid")
		kill "$pid" 2>/dev/null || continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	done
}
trap 'stop; rm -rf "$tmp"' EXIT
# not_here WHY: the daemons cannot run here: show their logs' ends, skip
not_here() {
	for f in munged slurmctld slurmd; do
		[ -s "$d/$f.log" ] && tail -n 3 "$d/$f.log" | sed "s/^/      $f: /"
	done
	skip t_slurm "$1"
}

# two free TCP ports of the loopback interface
ports=$(python3 -c 'import socket
s = [socket.socket() for i in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' 2>/dev/null) ||
	skip t_slurm "python3 cannot find free ports"
set -- $ports
head -c 1024 /dev/urandom >"$d/munge.key"
chmod 400 "$d/munge.key"
munged -f --socket="$d/munge.sock" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
	--log-file="$d/munged.log" --seed-file="$d/munged.seed" 2>>"$d/munged.log" ||
	not_here "munged does not start"
cat >"$d/slurm.conf" <<EOF
ClusterName=lctest
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SwitchType=switch/none
NodeName=lcnode0 NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=lc Nodes=lcnode0 Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
EOF
export SLURM_CONF="$d/slurm.conf"
slurmctld -f "$SLURM_CONF" 2>>"$d/slurmctld.log" || not_here "slurmctld does not start"
slurmd -f "$SLURM_CONF" -N lcnode0 2>>"$d/slurmd.log" || not_here "slurmd does not start"
i=0
until sinfo -h -o %t 2>/dev/null | grep -qx idle; do
	i=$((i + 1))
	[ $i -lt 100 ] || not_here "the node never became idle in 20 s (sinfo: $(sinfo -h -o %t 2>&1))"
	sleep 0.2
done
ok "munged, slurmctld and slurmd run (ports $1 and $2)"
mpi=
srun --mpi=list 2>&1 | grep -qw pmi2 && mpi=--mpi=pmi2

cd "$tmp/run" || exit 1
# job NAME PREFIX LAUNCH...: run "LAUNCH lostcycles exec -o PREFIX -- APP"
# inside salloc -n 2, merge by the job id, check 2 ranks of the job
job() {
	name=$1 prefix=$2
	shift 2
	timeout 300 salloc -Q -n 2 sh -c 'echo "$SLURM_JOB_ID" >"$0.id"; exec "$@"' "$prefix" \
		"$@" "$LC" exec -o "$prefix" -- "$APP" 5 20 >"$prefix.out" 2>"$prefix.err"
	st=$?
	id=$(cat "$prefix.id" 2>/dev/null)
	if [ "$st" -ne 0 ] || [ -z "$id" ]; then
		fail "$name: exit status $st, job id '$id'"
		sed 's/^/      /' "$prefix.out" "$prefix.err"
		return
	fi
	if [ -s "$prefix.lcnode0.data" ]; then
		ok "$name: the node file is named by Slurm's node name: $prefix.lcnode0.data"
	else
		fail "$name: no $prefix.lcnode0.data: $(ls)"
		return
	fi
	if "$LC" merge --job "$id" -o "$prefix-job.data" 2>"$prefix.merr" &&
	   grep -q ": 1 node file, 2 ranks, p = 2, job $id$" "$prefix.merr"; then
		ok "$name: merge --job $id finds the node file: $(cat "$prefix.merr")"
	else
		fail "$name: merge --job $id:"; sed 's/^/      /' "$prefix.merr"
		return
	fi
	ranks=$("$LC" report --per-rank "$prefix-job.data" 2>&1 |
		awk '/^ *rank host/ { on = 1; next } on && NF == 0 { exit }
		     on && $2 == "lcnode0" { printf "%s ", $1 }')
	[ "$ranks" = "0 1 " ] && ok "$name: ranks 0 and 1 on lcnode0" ||
		fail "$name: ranks on lcnode0: '$ranks'"
	if "$LC" merge --job "$((id + 1000))" -o "$prefix-none.data" 2>"$prefix.nerr"; then
		fail "$name: merge --job $((id + 1000)) merged"
	else
		ok "$name: merge --job $((id + 1000)): $(cat "$prefix.nerr")"
	fi
}
job "srun $mpi" S srun $mpi -n 2
job "mpiexec in salloc" M mpiexec -n 2

# srun without an MPI process manager: every rank would be a job of one;
# exec says so once, with the remedy
timeout 300 salloc -Q -n 2 srun --mpi=none -n 2 "$LC" exec -o N -- "$APP" 1 2 >N.out 2>N.err
if [ "$(grep -c "srun started 2 tasks without an MPI process manager.*--mpi=pmi2" N.err)" -eq 1 ]; then
	ok "srun --mpi=none: exec warns once that the ranks would be jobs of one"
else
	fail "srun --mpi=none: no single warning about the process manager:"; sed 's/^/      /' N.err
fi

# the batch script of docs/mpi.md, on this one node: sbatch --wait runs it,
# and its own merge --job "$SLURM_JOB_ID" and report --per-rank work
cat >batch.sh <<END
#!/bin/sh
#SBATCH --ntasks=2
#SBATCH --output=batch.out
srun $mpi lostcycles exec -o run -- "$APP" 5 20
lostcycles merge --job "\$SLURM_JOB_ID" -o "run-\$SLURM_JOB_ID.data" run.*.data
lostcycles report --per-rank "run-\$SLURM_JOB_ID.data"
END
if PATH=$(dirname "$LC"):$PATH timeout 300 sbatch --wait -Q batch.sh >sb.out 2>&1 &&
   ls run-*.data >/dev/null 2>&1 && grep -q "2 ranks, p = 2, job [0-9]" batch.out &&
   grep -q "^ *1 lcnode0 " batch.out; then
	ok "the batch script of docs/mpi.md: $(ls run-*.data), $(grep -o '2 ranks, p = 2, job [0-9]*' batch.out)"
else
	fail "sbatch --wait batch.sh:"; sed 's/^/      /' sb.out batch.out 2>/dev/null
fi
[ "$nfail" -eq 0 ] && echo "t_slurm: MPI jobs under Slurm merge by their job id"
exit $((nfail > 0))
