#!/bin/sh
# t_fit_load.sh — "lostcycles fit" models the program, not the load: runs
# carry the machine's load share (load=, as sweep writes it) and rc; the
# runs measured over 10 % load are flagged with file:line, --max-load
# leaves them out, and --no-load fits tt less rc, saying the model is for a
# machine without other load.
#
# Generated runs: tt = 4p (the program's own time, p = 1, 2, 4, 8, two
# repeats) plus rc = the contention other load added: 0 on the quiet runs
# (load=2), 2p on the loaded ones (load=60, lines 2, 4, 6 and 8).
set -u

SUB=fit
. tests/lib.sh
R=$tmp/load.runs

for p in 1 2 4 8; do
	printf 'p=%d rt=%d rc=0 tt=%d load=2\n' "$p" "$((4 * p))" "$((4 * p))"
	printf 'p=%d rt=%d rc=%d tt=%d load=60\n' "$p" "$((4 * p))" "$((2 * p))" "$((6 * p))"
done >"$R"

run fit -c tt -v p -f "$R" 'p'
check "the loaded runs are flagged with file:line, the model is pulled up by them" \
	'[ "$(grep -c "^loaded run .*load.runs:[2468]: load=60% of the program.s CPUs went to other processes (over 10%)" "$tmp/out")" -eq 4 ] &&
	 grep -q "^ 1\. (5 +/- [0-9.e-]*) \* p " "$tmp/out"'
run fit -c tt -v p -f "$R" --no-load 'p'
check "--no-load: tt less rc is the program's 4p, and it says so" \
	'grep -q "^note: --no-load: the model is of the program on a machine without other load (tt less rc" "$tmp/out" &&
	 grep -q "^ 1\. (4 +/- [0-9.e-]*) \* p " "$tmp/out"'
run fit -c tt -v p -f "$R" --max-load 20 'p'
check "--max-load 20: the loaded runs are left out" \
	'grep -q "4 points from 4 runs; 4 not selected by --max-load" "$tmp/out" &&
	 grep -q "^ 1\. (4 +/- [0-9.e-]*) \* p " "$tmp/out" && ! grep -q "^loaded run" "$tmp/out"'
run fit -c tt -v p -f "$R" --max-load 20 -x "p>=2" 'p'
check "--max-load with -x: both select" 'grep -q "3 points from 3 runs; 5 not selected by -x or --max-load" "$tmp/out"'
run fit -c tt -v p -f "$R" --format csv 'p'
check "machine formats: the loaded runs on stderr" \
	'grep -q "^lostcycles fit: loaded run .*load.runs:2: load=60%" "$tmp/out"'

"$LC" fit -c rc -v p -f "$R" --no-load 'p' >"$tmp/out" 2>&1
st=$?
[ "$st" -ne 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "no-load: rc is the time runnable but not running" "$tmp/out" &&
	ok "--no-load refuses rc in one line" || { fail "--no-load -c rc"; cat "$tmp/out"; }
sed 's/ load=[0-9]*//' "$R" >"$tmp/noload.runs"
"$LC" fit -c tt -v p -f "$tmp/noload.runs" --max-load 20 'p' >"$tmp/out" 2>&1
st=$?
[ "$st" -ne 0 ] && grep -q "max-load: no run in .* has load=" "$tmp/out" &&
	ok "--max-load without load= in the runs: refused" || { fail "--max-load without load="; cat "$tmp/out"; }
# short runs carry no load= (too short for the machine's share): unknown, kept, with a note
{ cat "$R"; printf 'p=16 rt=64 rc=0 tt=64\n'; printf 'p=32 rt=128 rc=0 tt=128\n'; } >"$tmp/short.runs"
"$LC" fit -c tt -v p -f "$tmp/short.runs" --max-load 20 'p' >"$tmp/out" 2>&1
st=$?
[ "$st" -eq 0 ] && grep -q "note: --max-load: 2 runs carry no load= (.*short.runs:9 and more: a run too short" "$tmp/out" &&
	grep -q "6 points from 6 runs; 4 not selected by --max-load" "$tmp/out" &&
	grep -q "^ 1\. (4 +/- [0-9.e-]*) \* p " "$tmp/out" &&
	ok "--max-load: runs without load= kept as unknown, with a note" ||
	{ fail "--max-load with short runs"; cat "$tmp/out"; }
"$LC" fit -c tt -v p -f "$R" --max-load 0 'p' >"$tmp/out" 2>&1
st=$?
[ "$st" -eq 2 ] && grep -q "max-load wants a percentage above 0 and at most 100, not '0'" "$tmp/out" &&
	ok "--max-load 0: refused" || { fail "--max-load 0"; cat "$tmp/out"; }

finish
