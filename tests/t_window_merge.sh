#!/bin/sh
# t_window_merge.sh — "merge" of node files whose windows grow.
#
# One MPI job of two "nodes" (LOSTCYCLES_HOST) of two ranks each runs under
# "lostcycles exec -w 1ms --window-grow 8" (60 rounds of 5 ms): each node file's
# windows follow the schedule (8 of 1 ms, then 4 of 2 ms, 4 of 4 ms, ...),
# and the merged job's totals are exactly the sums of the nodes', its
# timeline adds up to them, and its windows follow the first file's
# schedule, each start where the schedule puts its index.  A job whose
# second node has coarser windows (-w 2ms) than the first file's is
# refused with the reason; named first, the coarser file takes the other's
# finer windows.  Exits 77 when MPICH is absent.
. tests/lib.sh
set -u

mpi_job_test t_window_merge build/mpi/imbalance

timeline() {	# timeline FILE: "index start total" per window
	"$LC" report --timeline --format csv "$1" 2>/dev/null | awk -F, '
		/^window,start,/ { for (i = 1; i <= NF; i++) col[$i] = i; t = 1; next }
		t && NF > 3 { print $(col["window"]), $(col["start"]), $(col["total"]) }'
}

# on_schedule B G FILE: every window of FILE's timeline starts where the
# schedule of base B s and growth G puts its index (G = 0: fixed)
on_schedule() {
	awk -v b="$1" -v g="$2" '
		function abs(x) { return x < 0 ? -x : x }
		{
			i = $1
			if (g == 0 || i < g) s = i * b
			else { lv = 1 + int((i - g) / (g / 2)); s = g * b * 2 ^ (lv - 1) + ((i - g) % (g / 2)) * b * 2 ^ lv }
			if (abs($2 - s) > 1e-7) { printf "  window %d starts at %.9f s, not %.9f s\n", i, $2, s; bad = 1 }
			n++
		}
		END { exit bad || n < 1 }' "$3"
}

if ! two_nodes P 60 "-w 1ms --window-grow 8" "-w 1ms --window-grow 8"; then
	fail "mpiexec ... lostcycles exec -w 1ms --window-grow 8 failed"; cat err
	exit 1
fi
for h in nodeA nodeB; do
	[ -s "P.$h.data" ] || { fail "no node file P.$h.data"; cat err; exit 1; }
	timeline "P.$h.data" >"$h.tl"
	if on_schedule 0.001 8 "$h.tl" >j && [ "$(wc -l <"$h.tl")" -gt 20 ]; then
		ok "node $h: $(wc -l <"$h.tl") windows on the growing schedule"
	else
		fail "node $h: windows off the schedule"; cat j
	fi
done

if ! "$LC" merge -o J.data P.nodeA.data P.nodeB.data 2>merr; then
	fail "merge of the two growing node files failed"; cat merr; exit 1
fi
cat_ns P.nodeA.data >a; cat_ns P.nodeB.data >b; cat_ns J.data >jt
if awk 'FILENAME != "jt" { sum[$1] += $2; next } { if (sum[$1] != $2) { print "  " $1 ": job " $2 " ns, nodes " sum[$1] " ns"; bad = 1 } ; n++ }
	END { exit bad || n < 5 }' a b jt >j; then
	ok "merged totals = sums of the nodes: $(tr '\n' ' ' <jt)"
else
	fail "merged totals are not the sums of the node files"; cat j
fi
timeline J.data >job.tl
if awk 'FILENAME == "jt" { if ($1 == "tt") tt = $2 / 1e9; next } { s += $3 } END { d = s - tt; if (d < 0) d = -d; exit !(tt > 0 && d < 1e-5) }' jt job.tl; then
	ok "the job's timeline adds up to its total time"
else
	fail "the job's timeline does not add up to its total time"
fi
# the job's windows: the first file's schedule
if on_schedule 0.001 8 job.tl >j; then
	ok "the job's $(wc -l <job.tl) windows follow the growing schedule of the first file (nodes: $(wc -l <nodeA.tl), $(wc -l <nodeB.tl))"
else
	fail "the job's windows do not follow the first file's growing schedule"; cat j
fi
# its Perfetto tracks: a job window may hold a node window that began
# before it, and the thread's slices must still not overlap
if command -v python3 >/dev/null; then
	if "$LC" report --timeline --format perfetto J.data >J.json 2>/dev/null &&
	   python3 - J.json >j 2>&1 <<'PY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
tracks = {}
for e in ev:
    tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
bad = 0
for k, v in tracks.items():
    v.sort()
    for a, b in zip(v, v[1:]):
        if b[0] < a[1] - 1e-3:
            print("  track %s: slice at %s us overlaps the one ending at %s us" % (k, b[0], a[1]))
            bad = 1
if not ev:
    print("  no slices")
    bad = 1
sys.exit(bad)
PY
	then
		ok "the job's Perfetto thread tracks do not overlap ($(grep -c '"ph":"X"' J.json) slices)"
	else
		fail "the job's Perfetto tracks overlap"; cat j
	fi
fi

# coarser windows than the first file's: refused; named first: merged
if ! two_nodes Q 60 "-w 1ms" "-w 2ms"; then
	fail "mpiexec ... exec -w 1ms / -w 2ms failed"; cat err
else
	if "$LC" merge -o X.data Q.nodeA.data Q.nodeB.data 2>xerr; then
		fail "a node with coarser windows than the first file's merged"
	elif grep -q "Q.nodeB.data has 2 ms windows.*-w and --window-grow" xerr && [ ! -e X.data ]; then
		ok "coarser windows than the first file's: refused ($(cat xerr))"
	else
		fail "coarser windows: unclear reason, or X.data left"; cat xerr
	fi
	if "$LC" merge -o Y.data Q.nodeB.data Q.nodeA.data 2>yerr; then
		cat_ns Q.nodeA.data >a; cat_ns Q.nodeB.data >b; cat_ns Y.data >yt
		timeline Y.data >y.tl
		if awk 'FILENAME != "yt" { sum[$1] += $2; next } { if (sum[$1] != $2) bad = 1; n++ } END { exit bad || n < 5 }' a b yt &&
		   on_schedule 0.002 0 y.tl >j; then
			ok "the coarser file first: merged on its 2 ms windows, totals the sums"
		else
			fail "the coarser file first: totals or windows wrong"; cat j
		fi
	else
		fail "the coarser file first did not merge"; cat yerr
	fi
fi

echo "t_window_merge: $((ntest - nfail))/$ntest passed"
[ "$nfail" -eq 0 ]
