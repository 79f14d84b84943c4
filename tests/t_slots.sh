#!/bin/sh
# t_slots.sh — processor slots go to the threads that can use them.
#
# helpers: 2 workers compute for 400 ms while 2 helper threads wait on a
# condition (SYNC, as pigz's reader and writer), LC_TEAM(2).  The truth is
# that both slots computed the whole time: pure computation must be the
# workers' on-CPU time (the kernel's, CLOCK_THREAD_CPUTIME_ID) and resource
# contention their time waiting for a CPU (busy wall minus on-CPU, where a
# worker shared a CPU with the sampler), each within 5 % of the workers'
# busy time, and synchronization loss at most 5 % of the total.  The same
# with idle pool threads instead of waiting helpers (load imbalance at most
# 5 %).  On a machine measured too busy to judge (lib.sh's machine_busy) a
# miss is not judged: the test skips with the reason.
SUB=slots
. tests/lib.sh
W=build/workloads/helpers
need_timed_workload t_slots "$W"

# judge LABEL OUT CSV CAT: workers' busy time vs rt + rc, CAT's share
judge() {
	awk -v label="$1" -v cat="$4" '
		FNR == NR && $1 == "worker" { busy += $3 / 1e9; cpu += $4 / 1e9; next }
		FNR != NR { split($0, f, ","); v[f[1]] = f[3] }
		END {
			lost = v[cat]
			printf "  %s: rt %.4f s vs on-CPU %.4f s; rc %.4f s vs waiting for a CPU %.4f s; %s %.4f s of %.4f s\n", label, v["rt"], cpu, v["rc"], busy - cpu, cat, lost, v["tt"]
			d1 = v["rt"] - cpu; if (d1 < 0) d1 = -d1
			d2 = v["rc"] - (busy - cpu); if (d2 < 0) d2 = -d2
			exit !(busy > 0 && d1 <= 0.05 * busy && d2 <= 0.05 * busy && lost <= 0.05 * v["tt"])
		}
	' "$2" FS=, "$3"
}

for mode in sync idle; do
	arg=; [ $mode = idle ] && arg=idle
	"$LC" record --force -q -o "$tmp/$mode.data" -- "$W" 2 2 400 $arg >"$tmp/$mode.out" 2>"$tmp/$mode.err"
	"$LC" report --format csv "$tmp/$mode.data" >"$tmp/$mode.csv" 2>>"$tmp/$mode.err"
	[ $mode = sync ] && c=sl || c=li
	if judge "$mode helpers" "$tmp/$mode.out" "$tmp/$mode.csv" $c >"$tmp/j" 2>&1; then
		ok "$mode helpers take no slot from the workers"
	else
		unjudged "$mode helpers' slots" "$tmp/$mode.err" ||
			{ fail "$mode helpers take slots"; cat "$tmp/$mode.err"; }
	fi
	cat "$tmp/j"
done
finish
