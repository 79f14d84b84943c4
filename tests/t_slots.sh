#!/bin/sh
# t_slots.sh — processor slots go to the threads that can use them.
#
# helpers: 2 workers compute for 400 ms while 2 helper threads wait on a
# condition (SYNC, as pigz's reader and writer), LC_TEAM(2).  The truth is
# that both slots computed the whole time: pure computation plus run-queue
# time (RC, where a worker shared a CPU) must be the workers' busy time
# within 5 %, and synchronization loss at most 5 % of the total.  The same
# with idle pool threads instead of waiting helpers (load imbalance and
# insufficient parallelism at most 5 %).
SUB=slots
. tests/lib.sh
W=build/workloads/helpers
[ -x "$W" ] || { echo "t_slots: $W is missing (run make workloads)" >&2; exit 1; }

# judge LABEL OUT CSV CAT: workers' busy time vs rt + rc, CAT's share
judge() {
	awk -v label="$1" -v cat="$4" '
		FNR == NR && $1 == "worker" { busy += $3 / 1e9; next }
		FNR != NR { split($0, f, ","); v[f[1]] = f[3] }
		END {
			comp = v["rt"] + v["rc"]; lost = v[cat]
			printf "  %s: rt+rc %.4f s, workers busy %.4f s, %s %.4f s of %.4f s\n", label, comp, busy, cat, lost, v["tt"]
			d = comp - busy; if (d < 0) d = -d
			exit !(busy > 0 && d <= 0.05 * busy && lost <= 0.05 * v["tt"])
		}
	' "$2" FS=, "$3"
}

for mode in sync idle; do
	arg=; [ $mode = idle ] && arg=idle
	"$LC" record -q -o "$tmp/$mode.data" -- "$W" 2 2 400 $arg >"$tmp/$mode.out" 2>"$tmp/$mode.err"
	"$LC" report --format csv "$tmp/$mode.data" >"$tmp/$mode.csv" 2>>"$tmp/$mode.err"
	[ $mode = sync ] && c=sl || c=li
	if judge "$mode helpers" "$tmp/$mode.out" "$tmp/$mode.csv" $c >"$tmp/j" 2>&1; then
		ok "$mode helpers take no slot from the workers"
	else
		fail "$mode helpers take slots"; cat "$tmp/$mode.err"
	fi
	cat "$tmp/j"
done
finish
