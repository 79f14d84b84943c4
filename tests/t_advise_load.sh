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
#   - an imbalanced MPI job (2 ranks): no rank is named either (the load
#     makes ranks late as well as their work does: under two CPU-bound
#     processes even a balanced job's ranks measure computation tens of
#     percent apart), and the advice says why.
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
# under load: no rank named, and the advice says why
if [ "$have_mpi" = 1 ] && rec loaded-imb2 --mpi mpiexec -n 2 "$MPI_APP" 2000000 60 1 2; then
	unnamed loaded-imb2
fi
stop_hogs
finish
