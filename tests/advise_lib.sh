# advise_lib.sh — helpers of t_advise_quiet.sh and t_advise_load.sh, sourced
# from the top of the tree after setting SUB: the balanced controls and the
# imbalanced MPI job, recorded through the real layers, and what their
# advice must and must not say.
#
#   cpu_line                  /proc/stat's "cpu" line: user nice system idle
#                             iowait irq softirq steal (all CPUs)
#   load_pct A B              other than idle and iowait, % of all CPU time
#                             between two cpu_lines
#   rec NAME LAYER CMD...     record CMD with LAYER (--mpi, --omp,
#                             --pthread) into $tmp/NAME.data, its advice in
#                             $tmp/NAME.adv and report in $tmp/NAME.rep
#   machine_pct NAME KEY      the report's machine share KEY (other, steal,
#                             sampler, program) of NAME, in %
#   control NAME              NAME's advice names no culprit: no late rank,
#                             no thread trend, no fragment, no rebalancing,
#                             and no "fewer threads" for p <= CPUs
#   names_rank NAME R         NAME's advice names rank R first as late
. tests/lib.sh

OMPLIB=build/liblostcycles-omp.so
MPI_APP=build/mpi/balance
PT_APP=build/layers/pt_balanced
OMP_APP=build/layers/omp_balanced
have_mpi=0
have_omp=0
command -v mpiexec >/dev/null 2>&1 && [ -x "$MPI_APP" ] && have_mpi=1
[ -f "$OMPLIB" ] && [ -x "$OMP_APP" ] && [ -z "${LC_SAN:-}" ] && have_omp=1
export OMP_NUM_THREADS=2
export LOSTCYCLES_ADVICE=share/advice.txt
unset OMP_TOOL_LIBRARIES LD_PRELOAD OMP_SCHEDULE

cpu_line() {
	sed -n 's/^cpu  *//p' /proc/stat | head -n 1
}

load_pct() {
	echo "$1 $2" | awk '{ b0 = $1 + $2 + $3 + $6 + $7 + $8; t0 = b0 + $4 + $5;
			      b1 = $11 + $12 + $13 + $16 + $17 + $18; t1 = b1 + $14 + $15;
			      printf "%.2f\n", (t1 > t0 ? 100 * (b1 - b0) / (t1 - t0) : 0) }'
}

rec() {
	rn=$1; layer=$2; shift 2
	if ! "$LC" record --force "$layer" -o "$tmp/$rn.data" -- "$@" >"$tmp/$rn.out" 2>"$tmp/$rn.rec"; then
		fail "$rn: record failed:"; sed 's/^/      | /' "$tmp/$rn.rec"; return 1
	fi
	"$LC" report -f "$tmp/$rn.data" --advise >"$tmp/$rn.adv" 2>&1
	"$LC" report -f "$tmp/$rn.data" --format json >"$tmp/$rn.json" 2>/dev/null
}

machine_pct() {
	sed -n "s/.*\"machine\": {\"percent\": {.*\"$2\": \([0-9.]*\).*/\1/p" "$tmp/$1.json" | head -n 1
}

control() {
	bad=""
	grep -q "fix \[sl-late\]" "$tmp/$1.adv" && bad="$bad sl-late"
	grep -q "fix \[li-trend\]" "$tmp/$1.adv" && bad="$bad li-trend"
	grep -q "fix \[li-tag\]" "$tmp/$1.adv" && bad="$bad li-tag"
	grep -q "fix \[sl-tag\]" "$tmp/$1.adv" && bad="$bad sl-tag"
	grep -q "give it less work\|rebalance" "$tmp/$1.adv" && bad="$bad rebalancing"
	p=$(sed -n 's/.*(p = \([0-9]*\) x wall.*/\1/p' "$tmp/$1.adv")
	cpus=$(nproc)
	if [ "${p:-0}" -le "$cpus" ] && grep -q "fix \[rc-runq\]" "$tmp/$1.adv"; then
		bad="$bad rc-runq(p=$p)"
	fi
	if [ -z "$bad" ]; then
		ok "$1: balanced control: no culprit, no rebalancing (p = $p)"
	else
		fail "$1: balanced control got:$bad"; sed 's/^/      /' "$tmp/$1.adv"
	fi
}

names_rank() {
	first=$(sed -n 's/.*evidence: rank \([0-9]*\) (.*arrived last in.*/\1/p' "$tmp/$1.adv" | head -n 1)
	if [ "$first" = "$2" ] && grep -q "fix \[sl-late\]" "$tmp/$1.adv"; then
		ok "$1: the advice names rank $2 as late"
	else
		fail "$1: the advice names rank '${first:-none}', want $2"; sed 's/^/      /' "$tmp/$1.adv"
	fi
}

# the balanced controls: MPI 2 and 4 ranks, OpenMP, pthread
controls() {
	if [ "$have_mpi" = 1 ]; then
		# long enough (about 0.6 s) for the machine share, which needs
		# a span of /proc/stat's clock ticks
		rec "$1-mpi2" --mpi mpiexec -n 2 "$MPI_APP" 6000000 && control "$1-mpi2"
		rec "$1-mpi4" --mpi mpiexec -n 4 "$MPI_APP" 3000000 && control "$1-mpi4"
	else
		echo "note  no MPICH: the MPI controls are left out"
	fi
	if [ "$have_omp" = 1 ]; then
		rec "$1-omp" --omp "$OMP_APP" && control "$1-omp"
	else
		echo "note  no OpenMP layer (clang, libomp): the OpenMP control is left out"
	fi
	rec "$1-pt" --pthread "$PT_APP" && control "$1-pt"
}

# unnamed NAME: NAME's advice names no late rank, and says why
unnamed() {
	if grep -q "fix \[sl-late\]" "$tmp/$1.adv" ||
	   ! grep -q "no rank can be named as late from this run\|no rank is systematically late" \
		"$tmp/$1.adv"; then
		fail "$1: the advice names a rank, or not why it does not"
		sed 's/^/      /' "$tmp/$1.adv"
	else
		ok "$1: no rank named, and the advice says why"
	fi
}

# the imbalanced MPI jobs: the last rank computes twice as much; named
# when the ranks have a CPU each, else (ranks wait for their siblings'
# CPUs as well as for their work) the advice says why it names none
imbalanced() {
	[ "$have_mpi" = 1 ] || return 0
	for k in 2 4; do
		[ "$k" -le "$(nproc)" ] || [ "${2:-}" = all ] || continue
		rec "$1-imb$k" --mpi mpiexec -n "$k" "$MPI_APP" $((4000000 / k)) 60 $((k - 1)) 2 ||
			continue
		if [ "$k" -le "$(nproc)" ]; then
			names_rank "$1-imb$k" $((k - 1))
		else
			unnamed "$1-imb$k"
		fi
	done
}
