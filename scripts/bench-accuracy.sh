#!/bin/sh
# bench-accuracy.sh — attribution error against the exact trace-mode profile
# of the same run, at each interval, on the bench workloads: the numbers of
# "lostcycles calibrate" (the same curve it draws), REPEATS runs each
# (default 3).  "err max" is the largest category difference, "err sum" the
# sum of the differences, both in % of total processor time.
#
# Prints the benchmark table's rows ("row|4 accuracy|...") on stdout and
# calibrate's tables on stderr.
set -eu
r=${REPEATS:-3}
ivs=10us,25us,100us,1ms
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
./lostcycles calibrate -q -i $ivs -r "$r" -- build/bench/fixedwork 4000 1 > "$tmp/compute"
./lostcycles calibrate -q -i $ivs -r "$r" -- build/bench/syncwork 100000 1 > "$tmp/sync"
cat "$tmp/compute" "$tmp/sync" >&2
# interval (us), err max, its category, err sum; both files list the same
# intervals in the same order
rows() { awk '$1 ~ /^[0-9]+$/ && NF >= 6 { print $1, $4, $5, $6 }' "$1"; }
rows "$tmp/compute" > "$tmp/c"
rows "$tmp/sync" > "$tmp/s"
paste -d" " "$tmp/c" "$tmp/s" | awk '{
	goal = "-"; verdict = ""
	m = $2 > $6 ? $2 : $6
	if ($1 == 100) {
		goal = "<= 1 % of total processor time at 100us"
		verdict = m <= 1 ? sprintf("met (%.2f %%)", m) : sprintf("MISSED by %.2f points", m - 1)
	}
	printf "row|4 accuracy|error vs trace at %d us (compute / sync)|err max %.2f %% (%s) / %.2f %% (%s); err sum %.2f / %.2f %%|-|%s|%s\n",
	       $1, $2, $3, $6, $7, $4, $8, goal, verdict
}'
