#!/bin/sh
# t_bench.sh — the benchmark programs of "make bench" run and bench_annot
# prints well-formed table rows (briefly: nothing here is a timing, and no
# number is asserted).  Run from the top of the tree (make check does).
. tests/lib.sh
set -eu
b=build/bench
for p in bench_annot syncwork manythreads genprofile bench_latency; do
	[ -x "$b/$p" ] || { echo "t_bench: $b/$p not built"; exit 1; }
done
lc_tmpdir

# item 1: raw lines for every op and thread count, then 7-field rows
ANNOT_QUICK=1 "$b/bench_annot" > "$tmp/raw" 2> /dev/null
n=$(grep -c '^annot [a-z_0-9]* [0-9]* ' "$tmp/raw")
[ "$n" -eq 36 ] || { echo "t_bench: bench_annot printed $n raw lines, not 36"; exit 1; }
"$b/bench_annot" --table "$tmp/raw" "$tmp/raw" > "$tmp/rows"
awk -F'|' 'NF != 7 || $1 != "row" { bad = 1; print "t_bench: malformed row: " $0 }
	   END { exit bad || NR != 13 }' "$tmp/rows"
grep -q '^row|1 annotation|LC_BUSY/LC_IDLE|[0-9.]* ns' "$tmp/rows" || { echo "t_bench: no LC_BUSY figure"; exit 1; }
# the workloads run (under a session too) and report their time
"$b/syncwork" 1000 2 | grep -q ': [0-9.]* ms$' || { echo "t_bench: syncwork"; exit 1; }
./lostcycles record -q -o "$tmp/m.data" -- "$b/manythreads" 8 2 0.1
./lostcycles report "$tmp/m.data" 2>/dev/null | grep -q '^Total Time' || { echo "t_bench: manythreads profile"; exit 1; }
# the synthetic profile reads back with every thread and window
"$b/genprofile" "$tmp/g.data" 1 8 2
./lostcycles report --per-thread "$tmp/g.data" > "$tmp/rep"
grep -q 'processors: 8' "$tmp/rep" || { echo "t_bench: genprofile's profile"; cat "$tmp/rep"; exit 1; }
# with record's growing windows (1 ms, doubling after 8): 8 + 4 x 7 windows
# in 1 s, contiguous, the last cut at the end; the totals still 8 x 1 s
"$b/genprofile" "$tmp/g2.data" 1 8 2 1 8
./lostcycles report --timeline --max-windows 0 --format csv "$tmp/g2.data" > "$tmp/tl"
awk -F, '/^[0-9]+,/ { n++; if ($2 + 0 != end + 0 && n > 1) bad = bad " " $1; end = $2 + $3 }
	END { if (n != 36 || bad != "" || end < 0.9999 || end > 1.0001) { print "t_bench: windows", n, "gaps at" bad, "end", end; exit 1 } }' "$tmp/tl"
./lostcycles report "$tmp/g2.data" | grep -q '^Total Time  *8\.000000 ' || { echo "t_bench: growing windows' total"; exit 1; }
# report --max-windows 8 holds at most 8 windows, still contiguous over the
# whole second, and says in text that neighbours were merged
./lostcycles report --timeline --max-windows 8 --format csv "$tmp/g2.data" > "$tmp/tl8"
awk -F, '/^[0-9]+,/ { n++; if ($2 + 0 != end + 0 && n > 1) bad = bad " " $1; end = $2 + $3 }
	END { if (n > 8 || n < 4 || bad != "" || end < 0.9999 || end > 1.0001) { print "t_bench: --max-windows 8:", n, "windows, gaps at" bad, "end", end; exit 1 } }' "$tmp/tl8"
./lostcycles report --timeline --max-windows 8 "$tmp/g2.data" | grep -q "the profile's 36 windows shown as [4-8]: neighbours merged" ||
	{ echo "t_bench: --max-windows: no note of the merging"; exit 1; }
# bench_latency (item 7: record's own start and end) runs and prints its
# three rows, six fields each, the last the verdict of the 30 ms goal
"$b/bench_latency" 2 > "$tmp/lat" || { echo "t_bench: bench_latency failed"; exit 1; }
awk -F'|' '$1 == "row" && $2 == "7 latency" && NF == 7 { n++ } END { exit n != 3 }' "$tmp/lat" &&
	tail -n 1 "$tmp/lat" | grep -Eq '\|(met|MISSED)$' ||
	{ echo "t_bench: bench_latency's rows:"; cat "$tmp/lat"; exit 1; }
echo "t_bench: bench programs run; bench_annot's 13 rows and bench_latency's 3 well-formed"
