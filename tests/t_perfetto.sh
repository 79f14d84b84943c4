#!/bin/sh
# t_perfetto.sh — "report --timeline --format perfetto": the demo program
# (examples/demo.c: four threads, five tagged phases) is recorded, and its
# Chrome trace JSON is parsed with python3's json module.  Every thread has
# a named track in a named process; on every track the slices are ordered
# and do not overlap as a reader's doubles sum them (ts + dur of a slice is
# at most the next ts, and exactly it where the slices meet, or where no
# double dur sums to it exactly (ties round to even past it), the largest
# dur that stays below: Chrome's parser drops a slice that overlaps by a
# rounding error); each thread's slice time
# per category equals the report's --per-thread seconds (to the
# nanosecond); the counter track has one sample per window and no value
# for a category the report calls na (not measured), the machine track (other, steal, sampler) one per
# measuring span; the five fragment tags have tracks of their own; its
# threads were in no place, so there are no place tracks (t_where.sh
# judges those).
# Options that do not combine are refused.
SUB=report
. tests/lib.sh
DEMO=build/examples/demo
need_built t_perfetto "$DEMO" examples
command -v python3 >/dev/null || skip t_perfetto "python3 is not installed"

"$LC" record -q -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_perfetto: record failed"; exit 1; }

# standard output only: a warning (a stalled sampler) goes to standard error
"$LC" report -f "$tmp/d.data" --timeline --format perfetto >"$tmp/trace.json" 2>"$tmp/err"
"$LC" report -f "$tmp/d.data" --per-thread --format csv >"$tmp/pt.csv" 2>>"$tmp/err"
"$LC" report -f "$tmp/d.data" --timeline --format csv >"$tmp/tl.csv" 2>>"$tmp/err"

python3 - "$tmp/trace.json" "$tmp/pt.csv" "$tmp/tl.csv" >"$tmp/py" 2>&1 <<'PY'
import json, sys, csv, collections, math
sys.path.insert(0, "tests")
sys.dont_write_bytecode = True	# no __pycache__ in the tree
import per_thread
tr = json.load(open(sys.argv[1]))
ev = tr["traceEvents"]
bad = []
pnames = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
tnames = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
tracks = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X":
        tracks[(e["pid"], e["tid"])].append(e)
        if (e["pid"], e["tid"]) not in tnames: bad.append("unnamed track %s" % ((e["pid"], e["tid"]),))
        if e["pid"] not in pnames: bad.append("unnamed process %s" % e["pid"])
        if e["dur"] <= 0: bad.append("empty slice %s" % e)
ns = lambda x: round(float(x) * 1000)          # us with 3 decimals -> ns
for k, sl in tracks.items():
    for a, b in zip(sl, sl[1:]):
        if ns(b["ts"]) < ns(a["ts"]) + ns(a["dur"]):
            bad.append("track %s: slice at %s overlaps or precedes the one at %s" % (k, b["ts"], a["ts"]))
        elif b["ts"] < a["ts"] + a["dur"]:
            bad.append("track %s: slice at %s overlaps the one at %s by %g us as parsed" %
                       (k, b["ts"], a["ts"], a["ts"] + a["dur"] - b["ts"]))
        elif (ns(b["ts"]) == ns(a["ts"]) + ns(a["dur"]) and b["ts"] != a["ts"] + a["dur"] and
              a["ts"] + math.nextafter(a["dur"], math.inf) <= b["ts"]):
            bad.append("track %s: slices at %s and %s meet in ns but leave a gap of %g us as parsed" %
                       (k, a["ts"], b["ts"], b["ts"] - a["ts"] - a["dur"]))
# per-thread totals against the report (seconds with 9 decimals = ns)
keys, threads = per_thread.read(sys.argv[2])
nthreads = len(threads)
def slices(pid, tid):
    got = collections.Counter()
    for e in tracks.get((pid, tid), []):
        got[e["cat"]] += ns(e["dur"])
    return got
bad += per_thread.compare(threads, slices, "slices")
na = {k for t in threads for k, v in t[3].items() if v is None}
for e in ev:
    if e["ph"] == "C" and e["name"] == "processors" and na & set(e["args"]):
        bad.append("counter at %s has a value for %s, not measured" % (e["ts"], ",".join(sorted(na & set(e["args"])))))
        break
tags = [k for k in tracks if k[0] == 0]
nwin = sum(1 for r in csv.reader(open(sys.argv[3])) if r and r[0].isdigit())
ncount = sum(1 for e in ev if e["ph"] == "C" and e["name"] == "processors")
nmach = sum(1 for e in ev if e["ph"] == "C" and e["name"] == "machine (CPUs)")
if nmach < 2 or any(set(e["args"]) != {"other", "steal", "sampler"}
                    for e in ev if e["ph"] == "C" and e["name"] == "machine (CPUs)"):
    bad.append("%d machine counter samples, or without other, steal and sampler" % nmach)
if nthreads != 4: bad.append("%d threads in the report, want 4" % nthreads)
if len(tags) != 5: bad.append("%d tag tracks, want 5" % len(tags))
# the demo's threads are in no place (all elsewhere): no place tracks
if any(k[1] >= 1 << 22 for k in tracks): bad.append("place tracks in a profile without places")
if ncount != nwin + 1: bad.append("%d counter samples for %d windows" % (ncount, nwin))
print("%d threads, %d slices, %d tag tracks, %d counter samples, %d windows" %
      (nthreads, sum(len(s) for s in tracks.values()), len(tags), ncount, nwin))
for b in bad[:20]: print("  " + b)
sys.exit(1 if bad else 0)
PY
verdict "perfetto JSON: tracks named, slices ordered, totals equal the report's" $? "$tmp/py"

refuse "perfetto needs --timeline" 2 "give --timeline" -f "$tmp/d.data" --format perfetto
refuse "perfetto with --per-thread" 2 "take no other report option" -f "$tmp/d.data" \
	--timeline --format perfetto --per-thread
refuse "two insight reports" 2 "separate reports" -f "$tmp/d.data" --advise --pop
refuse "--model without --advise" 2 "go with --advise" -f "$tmp/d.data" --model x
finish
