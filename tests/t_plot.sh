#!/bin/sh
# t_plot.sh — "report --plot OUT.png": the imbalance workload is recorded;
# the PNG gnuplot draws is 900 x 600, its thread data file holds the
# report's --per-thread seconds of every thread and category, its window
# data file one row per timeline window whose processors sum to p, and the
# script beside them names both.  SKIP without gnuplot.
SUB=report
. tests/lib.sh
WL=build/workloads/imbalance
need_built t_plot "$WL"
command -v gnuplot >/dev/null || skip t_plot "gnuplot is not installed"
command -v python3 >/dev/null || skip t_plot "python3 is not installed"

"$LC" record -q -o "$tmp/d.data" -- "$WL" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_plot: record failed"; exit 1; }
run report -f "$tmp/d.data" --plot "$tmp/p.png"
check "--plot writes the PNG, the script and two data files" \
	'[ -s "$tmp/p.png" ] && grep -q "p.threads.data" "$tmp/p.gp" && grep -q "p.windows.data" "$tmp/p.gp"'
check "the PNG is 900 x 600" \
	'python3 -c "import sys,struct; d=open(sys.argv[1],\"rb\").read(); sys.exit(not (d[:4]==b\"\x89PNG\" and struct.unpack(\">II\",d[16:24])==(900,600)))" "$tmp/p.png"'
"$LC" report -f "$tmp/d.data" --per-thread --format csv >"$tmp/pt.csv" 2>/dev/null
"$LC" report -f "$tmp/d.data" --timeline --format csv >"$tmp/tl.csv" 2>/dev/null
p=$(awk -F, '$1 == "p" { print $3 }' "$tmp/pt.csv")
python3 - "$tmp/pt.csv" "$tmp/p.threads.data" "$tmp/p.windows.data" "$tmp/tl.csv" "$p" >"$tmp/py" 2>&1 <<'PY'
import sys, csv
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
h = next(i for i, r in enumerate(rows) if r[0] == "thread")
keys = rows[h][3:-1]
rep = {r[0]: [0.0 if v == "na" else float(v) for v in r[3:-1]] for r in rows[h + 1:] if r[0].isdigit()}
lines = [l.split() for l in open(sys.argv[2])]
got = {l[0]: [float(v) for v in l[1:]] for l in lines[1:]}
bad = []
if lines[0][1:] != keys: bad.append("columns %s, report %s" % (lines[0][1:], keys))
if set(got) != set(rep): bad.append("threads %s, report %s" % (sorted(got), sorted(rep)))
for t in rep:
    for k, a, b in zip(keys, got.get(t, []), rep[t]):
        if abs(a - b) > 1e-9: bad.append("thread %s %s: %.9f, report %.9f" % (t, k, a, b))
p = float(sys.argv[5])
win = [l.split() for l in open(sys.argv[3])][1:]
ntl = sum(1 for r in csv.reader(open(sys.argv[4])) if r and r[0].isdigit())
if len(win) != ntl: bad.append("%d window rows, report %d windows" % (len(win), ntl))
for w in win:
    s = sum(float(v) for v in w[1:])
    if abs(s - p) > 0.01: bad.append("window at %s: %.3f processors, p = %g" % (w[0], s, p))
print("%d threads, %d windows, p = %g" % (len(rep), len(win), p))
for b in bad[:10]: print("  " + b)
sys.exit(1 if bad else 0)
PY
verdict "the data files hold the report's per-thread seconds and every window" $? "$tmp/py"
# (a profile recorded by a slowed sampler may add a stall warning first)
run report -f "$tmp/d.data" --plot "$tmp/p.png"
if [ "$st" -eq 1 ] && grep -q "^lostcycles report: .*p.gp exists (give --force to replace it)" "$tmp/out"; then
	ok "--plot onto existing files is refused without --force"
else
	fail "--plot onto existing files: status $st"; sed 's/^/      /' "$tmp/out"
fi
run report -f "$tmp/d.data" --plot "$tmp/p.png" --force
check "--plot --force replaces them" '[ -s "$tmp/p.png" ]'
refuse "--plot with --format" 2 "take no --format" -f "$tmp/d.data" --plot "$tmp/x.png" --format csv
finish
