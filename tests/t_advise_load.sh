#!/bin/sh
# t_advise_load.sh — "report --advise" and the machine's share beside two
# CPU-bound processes that this test starts and kills by pid:
#   - a balanced OpenMP and a balanced pthread program: the report's
#     other-processes share of the CPUs is within 10 % of what /proc/stat
#     gives over the same span (busy time less the CPU time of record and
#     its program, read with the shell's "times"); the header marks the
#     categories the load distorts, and --advise's first item is the load,
#     with its figure;
#   - the balanced controls (MPI 2 and 4 ranks, OpenMP, pthread, through
#     the real layers) name no culprit and suggest no rebalancing;
#   - an imbalanced MPI job (2 ranks, rank 1 computes twice as much): the
#     advice names rank 1 by its work (computation and the waits it
#     causes, which the load does not distort), and says that this is the
#     evidence it used; its --pop prints the report's load line and takes
#     the busiest rank's waits for a CPU out of T (communication efficiency
#     then above 50 %; the job alone: about 95 %);
#   - a 0.3 s two-thread run: --advise never advises fewer threads (p fits
#     the CPUs: someone else held them);
#   - no report of an OpenMP program carries the spin-wait note (it is in
#     docs/openmp-pthreads.md, Limits: no profile signature tells a spin
#     from computation).
# Run from the top of the tree (make check does).
set -u
SUB=advise_load
. tests/advise_lib.sh

hogs=""
stop_hogs() {
	for h in $hogs; do kill "$h" 2>/dev/null; done
	for h in $hogs; do wait "$h" 2>/dev/null; done
	hogs=""
}
trap 'stop_hogs; rm -rf "$tmp"' EXIT
for i in 1 2; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done

# hog_ticks: the CPU time of this test's two CPU-bound processes so far,
# in clock ticks (utime + stime of /proc/PID/stat)
hog_ticks() {
	for h in $hogs; do cat "/proc/$h/stat"; done |
		awk '{ sub(/.*\) /, ""); t += $12 + $13 } END { printf "%d\n", t }'
}

# accuracy NAME LAYER CMD...: record CMD; the report's other-processes
# share against /proc/stat over the same span: busy (user nice system irq
# softirq) less ours, of all time (with idle, iowait and steal); ours from
# the shell's children times, in clock ticks.  Outsiders (neither ours nor
# the hogs) are measured too: when the shares disagree and outsiders took
# over a tenth of the CPUs, or the sampler missed ticks, the machine was
# busier than this test's own load and the share is not judged.
hz=$(getconf CLK_TCK)
accuracy() {
	n=$1	# rec sets rn, not n
	c0=$(cpu_line)
	h0=$(hog_ticks)
	times >"$tmp/t0"
	w0=$(date +%s.%N)
	rec "$@" || return 0
	w1=$(date +%s.%N)
	times >"$tmp/t1"
	h1=$(hog_ticks)
	c1=$(cpu_line)
	set -- $(echo "$c0 $c1 $(tail -n 1 "$tmp/t0") $(tail -n 1 "$tmp/t1") $h0 $h1" | awk -v hz="$hz" '
		function s(x) { split(x, a, "m"); return a[1] * 60 + a[2] }
		{ b = ($11 + $12 + $13 + $16 + $17) - ($1 + $2 + $3 + $6 + $7);
		  t = b + ($14 + $15 + $18) - ($4 + $5 + $8);
		  ours = (s($23) + s($24) - s($21) - s($22)) * hz;
		  out = b - ours - ($26 - $25);
		  printf "%.2f %.2f\n", (t > 0 ? 100 * (b - ours) / t : -1), (t > 0 ? 100 * out / t : 0) }')
	ref=$1 outsiders=$2
	got=$(machine_pct "$n" other)
	# the meter spans the program's life, /proc/stat here the whole of
	# record (its start and exit too): over the part the meter does not
	# cover, the share may be anything from 0 to 100 %, which bounds how
	# far the two can differ beyond a tenth of the reference
	span=$(machine_pct "$n" len)
	if [ -z "$got" ]; then
		fail "$n: the report has no machine share"; cat "$tmp/$n.json"
	elif awk -v g="$got" -v r="$ref" -v l="${span:-0}" -v w0="$w0" -v w1="$w1" 'BEGIN {
		u = w1 > w0 ? 1 - l / (w1 - w0) : 1; if (u < 0) u = 0
		m = g > 100 - g ? g : 100 - g
		d = g - r; if (d < 0) d = -d; exit !(d <= 0.1 * r + m * u) }'; then
		ok "$n: other processes' share $got % (/proc/stat: $ref % over the whole record, the meter's span $span s of $(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.3f", b - a }') s)"
	elif grep -q "the sampler fell behind" "$tmp/$n.rec"; then
		not_judged "$n: other processes' share $got % (/proc/stat: $ref %)" \
			"missed ticks: $(grep -m 1 "the sampler fell behind" "$tmp/$n.rec")"
	elif awk -v o="$outsiders" 'BEGIN { exit !(o > 10) }'; then
		not_judged "$n: other processes' share $got % (/proc/stat: $ref %)" \
			"others: processes other than this test's took $outsiders % of the CPUs (/proc/stat less the hogs and ours)"
	else
		fail "$n: other processes' share $got %, /proc/stat gives $ref % (outsiders $outsiders %)"
		sed 's/^/      /' "$tmp/$n.rec"
	fi
}

[ "$have_omp" = 1 ] && accuracy acc-omp --omp "$OMP_APP"
accuracy acc --pthread "$PT_APP"
"$LC" report -f "$tmp/acc.data" >"$tmp/acc.rep" 2>/dev/null
if grep -q "^\*\* the machine: other processes" "$tmp/acc.rep" &&
   grep -q "^Resource Contention.* \*$" "$tmp/acc.rep" &&
   grep -q "distorted by that load" "$tmp/acc.rep"; then
	ok "acc: the header states the share and marks the distorted categories"
else
	fail "acc: header"; sed 's/^/      /' "$tmp/acc.rep"
fi
if grep -q "^ 1\. the machine's load: other processes took [0-9.]* %" "$tmp/acc.adv" &&
   grep -q "fix \[load\]" "$tmp/acc.adv"; then
	ok "acc: --advise's first item is the load"
else
	fail "acc: --advise's first item is not the load"; sed 's/^/      /' "$tmp/acc.adv"
fi

controls loaded
if [ "$have_omp" = 1 ]; then
	"$LC" report -f "$tmp/loaded-omp.data" >"$tmp/loaded-omp.rep" 2>&1
	if grep -q "spinning on a flush\|flush or an atomic" "$tmp/loaded-omp.rep"; then
		fail "loaded-omp: the report carries the spin-wait note"
	else
		ok "loaded-omp: no spin-wait note on a plain OpenMP run"
	fi
fi
# under load: the rank that computes more is named by its work
if [ "$have_mpi" = 1 ] && rec loaded-imb2 --mpi mpiexec -n 2 "$MPI_APP" 2000000 60 1 2; then
	first=$(sed -n 's/.*evidence: rank \([0-9]*\) (.*) computed .*judged by computation and waits.*/\1/p' \
		"$tmp/loaded-imb2.adv" | head -n 1)
	if [ "$first" = 1 ] && grep -q "fix \[sl-late\]" "$tmp/loaded-imb2.adv"; then
		ok "loaded-imb2: the advice names rank 1 by its work, and says so"
	elif ! grep -q "distorted: " "$tmp/loaded-imb2.adv"; then
		not_judged "loaded-imb2: late rank" "the machine's load measured below 10 %: the quiet rule applies"
	elif ! grep -q "synchronization loss (sl)" "$tmp/loaded-imb2.adv"; then
		# rank 0's waits for a rank 1 that waited for a CPU are the
		# machine's (the partner rule): what is left of SL is no item
		not_judged "loaded-imb2: late rank" "SL is no item of the advice: the waits went to rc, rank 1 waiting for CPUs the others held"
	else
		fail "loaded-imb2: the advice names rank '${first:-none}' by its work, want 1"
		sed 's/^/      /' "$tmp/loaded-imb2.adv"
	fi
	"$LC" report -f "$tmp/loaded-imb2.data" --pop >"$tmp/pop.txt" 2>&1
	"$LC" report -f "$tmp/loaded-imb2.data" --pop --format csv 2>/dev/null | tail -n 1 >"$tmp/pop.csv"
	ce=$(cut -d, -f5 "$tmp/pop.csv") own=$(awk -F, '{ print $NF }' "$tmp/pop.csv")
	if grep -q "^\*\* the machine: other processes" "$tmp/pop.txt" &&
	   grep -q "T = the program's own time" "$tmp/pop.txt" &&
	   awk -v c="$ce" 'BEGIN { exit !(c > 0.5) }'; then
		ok "loaded-imb2: --pop prints the load line, leaves the waits for a CPU out (own time $own s, CommE $ce)"
	else
		fail "loaded-imb2: --pop (CommE ${ce:-?}, want above 0.5 with the load left out)"
		sed 's/^/      /' "$tmp/pop.txt"
	fi
fi
# a 0.3 s run: never "fewer threads" while p fits the CPUs
if rec loaded-short --pthread "$PT_APP" 2 10 1000000; then
	p=$(sed -n 's/.*(p = \([0-9]*\) x wall.*/\1/p' "$tmp/loaded-short.adv")
	if [ "${p:-0}" -le "$(nproc)" ] &&
	   grep -q "number of threads\|fix \[rc-runq\]\|fix \[rc-other\]" "$tmp/loaded-short.adv"; then
		fail "loaded-short: the advice blames the program's threads (p = $p)"
		sed 's/^/      /' "$tmp/loaded-short.adv"
	else
		ok "loaded-short: no 'fewer threads' (p = ${p:-?}, $(sed -n 's/.*wall \([0-9.]*\) s).*/\1/p' "$tmp/loaded-short.adv") s)"
	fi
fi
stop_hogs
finish
