#!/bin/sh
# t_sweep.sh — "lostcycles sweep" end to end: 2 x 3 points with 2 repeats
# write 12 runs lines that 'lostcycles fit' reads, with p passed to record
# as --procs; SIGINT midway exits 130 having lost at most the run in
# progress, and the same command then completes the sweep without redoing
# or duplicating a point, after removing a half line left by a crash;
# SIGKILL midway, then a rerun, leaves 12 whole lines, no point twice; a
# failing run is recorded as a '# failed' comment with its exit status and
# --fail-fast stops there; --suggest names unmeasured points (or points the
# fit left out, -x) where one run narrows the prediction most (--at).
# Run from the top of the tree.
. tests/lib.sh
set -u
LC=$(pwd)/lostcycles
WL=$(pwd)/build/workloads/control	# 0.4 s, instrumented, takes no arguments
for f in "$LC" "$WL"; do
	[ -x "$f" ] || { echo "t_sweep: $f missing (make all workloads)" >&2; exit 1; }
done
lc_tmpdir
cd "$tmp" || exit 1

# The command gets the placeholders as $0 and $1 and runs the workload.
set -- sh -c 'exec "$2"' '{n}' '{p}' "$WL"

# keys FILE: the distinct (n, p, rep) of the data lines, one per line
keys() {
	grep -v '^#' "$1" | awk '{ n = p = r = "";
		for (i = 1; i <= NF; i++) { split($i, kv, "=");
			if (kv[1] == "n") n = kv[2]; if (kv[1] == "p") p = kv[2]; if (kv[1] == "rep") r = kv[2] }
		print n, p, r }' | sort
}

# A full sweep.
"$LC" sweep -q -o full.runs -v p=1,2 -v n=1,2,3 -r 2 -- "$@" 2>err
rc=$?
lines=$(grep -vc '^#' full.runs)
[ $rc -eq 0 ] && [ "$lines" -eq 12 ] && ok "12 lines, exit 0" || { fail "exit $rc, $lines lines"; cat err; }
[ "$(keys full.runs | uniq | wc -l)" -eq 12 ] && ok "12 distinct points x repeats" || fail "duplicates"
if grep -q '^n=2 rep=1 p=2 li=[0-9.e-]* ip=.* rt=[0-9.e-]* tt=[0-9.e-]* wall=[0-9.e-]*\( load=[0-9.e+-]*\)\{0,1\}$' full.runs; then
	ok "a line carries the variables, categories, tt and wall"
else
	fail "line format: $(head -1 full.runs)"
fi
if "$LC" fit -c rt -v "n p" -f full.runs "p" >fit.out 2>&1 && grep -q '6 points from 12 runs' fit.out; then
	ok "fit reads the runs file: 6 points from 12 runs"
else
	fail "fit: $(cat fit.out)"
fi
[ "$(ls full.runs.profiles/*.data | wc -l)" -eq 12 ] && ok "12 profiles beside RUNS" ||
	fail "profiles: $(ls full.runs.profiles | head)"
"$LC" report -f full.runs.profiles/p2-n3-rep2.data -l >rep.out 2>&1 && grep -q '^p=2 ' rep.out &&
	ok "a kept profile reports, p=2 from the variable" || fail "report of a kept profile: $(cat rep.out)"

# stop SIG RUNS N CMD...: start the 2 x 3 x 2 sweep of CMD into RUNS in the
# background and send it SIG once RUNS holds N lines; rc is its exit
# status, kids the processes it had started then.
stop() {
	sig=$1 runs=$2 lines=$3
	shift 3
	"$LC" sweep -q -o "$runs" -v p=1,2 -v n=1,2,3 -r 2 -- "$@" 2>err &
	pid=$!
	i=0
	while [ $i -lt 200 ] && [ "$(cat "$runs" 2>/dev/null | wc -l)" -lt "$lines" ]; do
		sleep 0.05; i=$((i + 1))
	done
	kids=$(cat /proc/$pid/task/*/children 2>/dev/null)
	kill -"$sig" $pid
	wait $pid
	rc=$?
}

# Interrupted midway, then resumed.
stop INT part.runs 4 "$@"
k=$(grep -vc '^#' part.runs)
if [ $rc -eq 130 ] && [ "$k" -ge 4 ] && [ "$k" -lt 12 ]; then
	ok "SIGINT after $k runs: exit 130"
else
	fail "SIGINT: exit $rc after $k lines"; cat err
fi
nd=$(ls part.runs.profiles/*.data 2>/dev/null | wc -l)
ne=$(find part.runs.profiles -type f -size 0 2>/dev/null | wc -l)
if [ "$nd" -eq "$k" ] && [ "$ne" -eq 0 ]; then
	ok "SIGINT: a profile per kept line, no partial one, no empty output"
else
	fail "SIGINT left $nd profiles for $k lines, $ne empty files: $(ls part.runs.profiles)"
fi
cp part.runs before.runs
printf 'n=3 rep=2 p=2 li=0.1 ip=' >>part.runs	# a half line, as a crash would leave
"$LC" sweep -o part.runs -v p=1,2 -v n=1,2,3 -r 2 -- "$@" 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "12 runs, $k already in part.runs, $((12 - k)) to go" err &&
   grep -q 'removed a last line cut short' err; then
	ok "resume: $k runs kept, $((12 - k)) run, the half line removed"
else
	fail "resume: exit $rc"; cat err
fi
[ "$(head -c "$(wc -c <before.runs)" part.runs | cmp - before.runs && echo same)" = same ] &&
	ok "the first $k lines are untouched" || fail "earlier lines changed"
[ "$(keys part.runs | uniq | wc -l)" -eq 12 ] && [ "$(grep -vc '^#' part.runs)" -eq 12 ] &&
	ok "12 lines, no duplicate point" || { fail "after resume:"; cat part.runs; }
"$LC" sweep -o part.runs -v p=1,2 -v n=1,2,3 -r 2 -- "$@" 2>err
grep -q '0 to go' err && [ "$(grep -vc '^#' part.runs)" -eq 12 ] && ok "a complete sweep runs nothing" ||
	fail "rerun of a complete sweep: $(cat err)"

# Killed with SIGKILL midway (no handler runs, as after a crash or the OOM
# killer), then rerun: the sweep completes with every point once and no
# half line.  The run in progress goes on orphaned; it is let end first.
stop KILL kill.runs 3 "$@"
for c in $kids; do
	j=0
	while [ $j -lt 200 ] && kill -0 "$c" 2>/dev/null; do sleep 0.05; j=$((j + 1)); done
done
# whole lines: the variables through wall= (and load= when measured), nothing after
whole='^n=[123] rep=[12] p=[12] li=[0-9.e-]* .* tt=[0-9.e-]* wall=[0-9.e-]*\( load=[0-9.e+-]*\)\{0,1\}$'
k=$(cat kill.runs 2>/dev/null | grep -c "$whole")
if [ $rc -eq 137 ] && [ "$k" -ge 3 ] && [ "$k" -lt 12 ]; then
	ok "SIGKILL after $k runs"
else
	fail "SIGKILL: exit $rc after $k whole lines"; cat err kill.runs
fi
"$LC" sweep -o kill.runs -v p=1,2 -v n=1,2,3 -r 2 -- "$@" 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "12 runs, $k already in kill.runs, $((12 - k)) to go" err; then
	ok "rerun after SIGKILL: $k kept, $((12 - k)) run"
else
	fail "rerun after SIGKILL: exit $rc"; cat err
fi
# the closing hint is a command that works
hint=$(sed -n "s/.*failed; \(lostcycles fit .*\) models them$/\1/p" err)
if [ -n "$hint" ] && (PATH="$(dirname "$LC"):$PATH"; eval "$hint") >hint.out 2>&1 &&
   grep -q "^ 1\. " hint.out; then
	ok "the closing hint runs: $hint"
else
	fail "the closing hint: '$hint': $(cat hint.out 2>/dev/null)"
fi
if [ "$(keys kill.runs | uniq | wc -l)" -eq 12 ] && [ "$(grep -vc '^#' kill.runs)" -eq 12 ] &&
   [ "$(grep -c "$whole" kill.runs)" -eq 12 ] &&
   [ "$(tail -c 1 kill.runs | od -An -tx1 | tr -d ' ')" = 0a ]; then
	ok "after SIGKILL and rerun: 12 whole lines, no point twice"
else
	fail "after SIGKILL and rerun:"; cat kill.runs
fi

# Failures.
"$LC" sweep -q -o fail.runs -v x=1,2 -- sh -c 'exit 3' 2>err
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c '^# failed: x=1 rep=1 status=3' fail.runs)" -eq 1 ] &&
   [ "$(grep -c '^# failed' fail.runs)" -eq 2 ]; then
	ok "failing runs: recorded with status 3, the sweep went on, exit 1"
else
	fail "failing runs: exit $rc"; cat fail.runs err
fi
"$LC" sweep -q --fail-fast -o ff.runs -v x=1,2 -- sh -c 'exit 3' 2>err
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^# failed' ff.runs)" -eq 1 ] && ok "--fail-fast stops at the first" ||
	fail "--fail-fast: exit $rc, $(cat ff.runs)"
"$LC" sweep -o x.runs -v n=1 -- echo '{m}' 2>err
[ $? -eq 2 ] && grep -q '{m} is not a variable' err && ok "unknown placeholder refused" ||
	fail "unknown placeholder: $(cat err)"
"$LC" sweep -o x.runs -v p=0,2 -- true 2>err
[ $? -eq 2 ] && ok "p=0 refused" || fail "p=0 not refused"
# --suggest: models fitted to the runfast fixture; the grid's points that
# the runs file lacks, the most narrowing first, never a measured one.
R=$OLDPWD/tests/data/fit/runfast.runs
"$LC" fit -c li -v "n p" -f "$R" --emit m.model "n*log(n)*p" >/dev/null 2>&1
"$LC" fit -c rt -v "n p" -f "$R" --emit m.model "n^2*log2(n)+1" >/dev/null 2>&1
"$LC" fit -c ip -v "n p" -f "$R" --emit m.model "n^2*p" >/dev/null 2>&1
# The CSV rows: n,p,narrows_pct,T,half90,half90_pct (t_sweep_suggest.sh
# checks the formats against each other).
"$LC" sweep -o "$R" -v n=16,256,1024,4096 -v p=1,26,64 --suggest m.model --format csv >sg.out 2>err
rc=$?
pts=$(grep -c '^[0-9]*,[0-9]*,' sg.out)
if [ $rc -eq 0 ] && [ "$pts" -eq 3 ] && ! grep -q '^16,26,\|^256,1,' sg.out &&
   awk -F, 'NR > 1 { v = $3 + 0; if (n++ && v > prev + 1e-9) bad = 1; prev = v }
	END { exit bad }' sg.out; then
	ok "--suggest: 3 unmeasured points, the most narrowing first: $(sed -n 2p sg.out)"
else
	fail "--suggest: exit $rc"; cat sg.out err
fi
# -x: the points the fit left out count as not measured (n=256 p=1 is in the
# runs file, the fit used n=1024 only)
"$LC" sweep -o "$R" -v n=16,256,1024,4096 -v p=1,26,64 --suggest m.model -x "n=1024" --top 12 \
	--format csv >sg.out 2>err
if [ $? -eq 0 ] && grep -q '^256,1,' sg.out && [ "$(grep -c '^[0-9]*,[0-9]*,' sg.out)" -eq 11 ] &&
   ! grep -q '^1024,26,' sg.out; then
	ok "--suggest -x: points the fit left out are suggested, the fitted one is not"
else
	fail "--suggest -x: $(cat sg.out err)"
fi
# --at: the point that narrows the prediction where it is asked, not a
# fixed corner: rt = 2n + 3p, fitted plainly; at n=64 p=1 a run there pins
# the n term, at n=1 p=64 the p term
k=0
for n in 1 2 4; do for p in 1 2 4; do
	k=$((k + 1)); e=$(echo "1.03 0.98 1.01 0.97 1.02 0.99 1.04 0.96 1.0" | cut -d' ' -f$k)
	echo "n=$n p=$p rt=$(awk -v n=$n -v p=$p -v e=$e 'BEGIN { print (2 * n + 3 * p) * e }') li=0 ip=0 sl=0 cl=0"
done; done >h.runs
for c in rt li ip sl cl; do "$LC" fit -c $c -v "n p" -f h.runs --absolute --emit h.model "n + p" >/dev/null 2>&1; done
"$LC" sweep -o h.runs -v n=1,2,4,8,16,32,64 -v p=1,2,4,8,16,32,64 --suggest h.model --at "n=64 p=1" --top 1 --format csv >a.out 2>&1
"$LC" sweep -o h.runs -v n=1,2,4,8,16,32,64 -v p=1,2,4,8,16,32,64 --suggest h.model --at "n=1 p=64" --top 1 --format csv >b.out 2>&1
if grep -q '^64,1,[5-9][0-9]\.' a.out && grep -q '^1,64,[5-9][0-9]\.' b.out; then
	ok "--suggest --at: the run that narrows the prediction there: $(sed -n 2p a.out) / $(sed -n 2p b.out)"
else
	fail "--suggest --at: $(cat a.out b.out)"
fi
[ $nfail -eq 0 ]
