#!/bin/sh
# soak-stall.sh — many short recorded runs beside CPU hogs; counts the runs
# whose sampler fell behind and reports the longest tick gap seen.  A gap
# over STALL_MS (default 100 ms) fails the soak.  Run by "make bench";
# RUNS (default 200) and HOGS (default: the CPU count) tune it.
set -eu
runs=${RUNS:-200}
hogs=${HOGS:-$(nproc)}
limit=${STALL_MS:-100}
wl=build/workloads/helpers
[ -x "$wl" ] || { echo "soak-stall: $wl not built (make workloads)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-soak.XXXXXX)
pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
for i in $(seq "$hogs"); do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
done
behind=0
worst=0
for i in $(seq "$runs"); do
	./lostcycles record --force -o "$tmp/p.data" -- "$wl" 4 2 40 >/dev/null 2>"$tmp/err"
	g=$(sed -n 's/.*longest tick gap was \([0-9.]*\) ms.*/\1/p' "$tmp/err")
	if [ -n "$g" ]; then
		behind=$((behind + 1))
		worst=$(awk -v a="$worst" -v b="$g" 'BEGIN { print (b > a) ? b : a }')
	fi
	[ $((i % 50)) -eq 0 ] && echo "soak-stall: $i of $runs runs, $behind fell behind, longest gap $worst ms" >&2
done
echo "soak-stall: $runs runs beside $hogs CPU hogs: $behind fell behind; longest tick gap $worst ms (limit $limit ms)"
awk -v w="$worst" -v l="$limit" 'BEGIN { exit !(w < l) }'
