#!/bin/sh
# t_advise_quiet.sh — "report --advise" and the machine's share on a quiet
# machine:
#   - the balanced controls (MPI 2 and 4 ranks, OpenMP, pthread, through
#     the real layers) name no culprit and suggest no rebalancing, the
#     report's other-processes share is small (under 10 %) and --advise
#     does not mention load;
#   - an imbalanced MPI job: the advice names the rank that computes twice
#     as much (2 ranks); with more ranks than CPUs (4 here) it names none
#     and says why.
# Exits 77 when the machine is not quiet: other processes held 10 % or more
# of the CPUs over the second before the test (/proc/stat), or a run's
# report says they did.  Run from the top of the tree (make check does).
set -u
SUB=advise_quiet
. tests/advise_lib.sh

c0=$(cpu_line)
sleep 1
busy=$(load_pct "$c0" "$(cpu_line)")
if awk -v b="$busy" 'BEGIN { exit !(b >= 10) }'; then
	skip t_advise_quiet "the machine is busy: other processes held $busy % of the CPUs over the second before the test"
fi

# quiet NAME: NAME's report measured little load and its advice is silent on it
judged=0
quiet() {
	o=$(machine_pct "$1" other)
	if [ -z "$o" ]; then
		echo "note  $1: no machine share in its report (a run too short for /proc/stat's clock ticks): not judged"
		return 0
	fi
	judged=$((judged + 1))
	l=$(awk -v o="$o" -v s="$(machine_pct "$1" steal)" 'BEGIN { printf "%.1f", o + s }')
	if awk -v l="$l" 'BEGIN { exit !(l >= 10) }'; then
		skip t_advise_quiet "the machine became busy: other processes held $l % of the program's CPUs during $1"
	fi
	if grep -q "the machine's load\|fix \[load\]\|fix \[rc-load\]" "$tmp/$1.adv"; then
		fail "$1: the advice mentions load at $l %"; sed 's/^/      /' "$tmp/$1.adv"
	else
		ok "$1: other processes and steal $l %, and the advice does not mention load"
	fi
}

controls quiet
for n in quiet-mpi2 quiet-mpi4 quiet-omp quiet-pt; do
	[ -f "$tmp/$n.json" ] && quiet "$n"
done
[ "$judged" -gt 0 ] || skip t_advise_quiet "no control's report measured the machine's share (all runs too short for /proc/stat's clock ticks)"
imbalanced quiet all
finish
