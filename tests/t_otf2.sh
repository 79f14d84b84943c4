#!/bin/sh
# t_otf2.sh — "export --otf2 DIR": the demo program (examples/demo.c: four
# threads) is recorded and its timeline exported as an OTF2 archive, which
# Debian's otf2-print (otf2-tools, the OTF2 library's own reader) reads
# back (and OTF2's Python bindings, python3-otf2, when installed): it must
# validate the archive; the clock properties say ns (1e9
# ticks per second) with every event inside [global offset, offset +
# length]; there is one region per category (canonical name its key), one
# location per thread in the process's location group (and one per track
# of the empty processor slots, in a group of their own); on every location
# Enter and Leave alternate on one region at a time, in time order; and
# each thread's time per region equals report --per-thread's time per
# category to the nanosecond, and every category summed over all
# locations equals the report's total.  An archive already in DIR is kept; links
# planted in DIR or at DIR, a DIR that is not empty or another user's are
# refused and nothing is written through them; names with escape sequences
# and invalid UTF-8 reach the archive's strings cleaned; a
# profile without the source asked for is refused, and the export of a
# build without the library (postproc/export/otf2.c compiled without it) says so
# and fails.  SKIP 77 when the OTF2 library or otf2-print cannot be had.
SUB=export
. tests/lib.sh
DEMO=build/examples/demo
need_built t_otf2 "$DEMO" examples
command -v python3 >/dev/null || skip t_otf2 "python3 is not installed"
command -v otf2-print >/dev/null ||
	skip t_otf2 "otf2-print is not installed (apt-get install otf2-tools; scripts/install-deps.sh check)"

# the stub of a build without the library: the same message either way
cat >"$tmp/stub.c" <<'C'
#include <stdio.h>
#include "otf2.h"
int main(void)
{
	char msg[256];
	int rc = lc_otf2_write("x", NULL, LC_SRC_SAMPLED, msg, sizeof(msg));
	printf("%d %d %s\n", lc_otf2_supported(), rc, msg);
	return 0;
}
C
# (with the build's sanitizers, whose objects build/libtool.a holds)
if ${CC:-cc} -std=c11 -D_GNU_SOURCE ${LC_SAN:+-fsanitize=$LC_SAN} -Ipostproc/export -Ipostproc/common -Iprofile -Iutil \
	-o "$tmp/stub" "$tmp/stub.c" postproc/export/otf2.c build/libtool.a -lm >"$tmp/cc" 2>&1; then
	"$tmp/stub" >"$tmp/out" 2>&1
	st=$?
	check "a build without the OTF2 library says so" "grep -q '^0 1 this build has no OTF2 support' \"\$tmp/out\""
else
	fail "the stub without the OTF2 library does not build"; sed 's/^/      /' "$tmp/cc"
fi

"$LC" record -q -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_otf2: record failed"; exit 1; }
run export --otf2 "$tmp/o" "$tmp/d.data"
if grep -q "no OTF2 support" "$tmp/out"; then
	skip t_otf2 "this build has no OTF2 support (libopen-trace-format2-dev: scripts/install-deps.sh check, then make)"
fi
check "export --otf2 writes DIR/traces.otf2" "[ -f \"\$tmp/o/traces.otf2\" ]"
cat >"$tmp/judge.py" <<'PY'
import collections, re, sys
sys.path.insert(0, "tests")
sys.dont_write_bytecode = True	# no __pycache__ in the tree
import per_thread
defs, evs = (open(f).read() for f in sys.argv[1:3])
ptcsv = sys.argv[3]
want_threads, ranks = int(sys.argv[4]), int(sys.argv[5])
bad = []
m = re.search(r"^CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+), Global Offset: (\d+), Length: (\d+)", defs, re.M)
if not m:
    sys.exit("no CLOCK_PROPERTIES in otf2-print -G")
res, off, length = map(int, m.groups())
if res != 10**9: bad.append("timer resolution %d, want 1e9 (ns)" % res)
regions = {int(i): (n, k) for i, n, k in
           re.findall(r'^REGION\s+(\d+)\s+Name: "([^"]*)" <\d+> \(Aka\. "([^"]*)"', defs, re.M)}
groups = dict(re.findall(r'^LOCATION_GROUP\s+(\d+)\s+Name: "([^"]*)"', defs, re.M))
locs = {}
for i, tid, nev, g in re.findall(r'^LOCATION\s+(\d+)\s+Name: "thread \d+ \(tid (\d+)\)".*?'
                                 r'# Events: (\d+), Group: "([^"]*)"', defs, re.M):
    locs[int(i)] = (int(tid), int(nev), g)
# per location: the open region, time per region, events
open_ = {}; last = collections.defaultdict(int); spent = collections.defaultdict(collections.Counter)
count = collections.Counter()
for kind, loc, ts, reg in re.findall(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "[^"]*" <(\d+)>', evs, re.M):
    loc, ts, reg = int(loc), int(ts), int(reg)
    count[loc] += 1
    if not off <= ts <= off + length: bad.append("location %d: event at %d outside the trace" % (loc, ts))
    if ts < last[loc]: bad.append("location %d: event at %d before %d" % (loc, ts, last[loc]))
    last[loc] = ts
    if kind == "ENTER":
        if loc in open_: bad.append("location %d: enter at %d inside region %d" % (loc, ts, open_[loc][0]))
        open_[loc] = (reg, ts)
    else:
        if open_.get(loc, (None,))[0] != reg: bad.append("location %d: leave of %d at %d not entered" % (loc, reg, ts))
        else: spent[loc][regions[reg][1]] += ts - open_.pop(loc)[1]
for loc in open_: bad.append("location %d: region %d never left" % (loc, open_[loc][0]))
for loc, (tid, nev, g) in locs.items():
    if count[loc] != nev: bad.append("location %d: %d events, the definition says %d" % (loc, count[loc], nev))
keys, threads = per_thread.read(ptcsv)
if sorted(k for n, k in regions.values()) != sorted(keys):
    bad.append("regions %s, categories %s" % (sorted(k for n, k in regions.values()), keys))
bytid = {tid: loc for loc, (tid, nev, g) in locs.items()}
nthreads = len(threads)
for idx, pid, tid, ns in threads:
    loc = bytid.get(tid)
    if loc is None:
        bad.append("thread %s (tid %s) has no location" % (idx, tid))
    elif not re.search(r"\b%s\)?$" % pid, locs[loc][2]):
        bad.append("location %d in group %s, not of pid %s" % (loc, locs[loc][2], pid))
bad += per_thread.compare(threads, lambda pid, tid: spent[bytid.get(tid)], "OTF2")
if nthreads < want_threads or len(locs) != nthreads:
    bad.append("%d threads in the report, %d locations, want %d" % (nthreads, len(locs), want_threads))
nodes = re.findall(r'^SYSTEM_TREE_NODE\s+\d+\s+Name: "([^"]*)"', defs, re.M)
if ranks:
    if sorted(g.split(" (")[0] for g in groups.values() if not g.startswith("empty processor slots")) != ["rank %d" % k for k in range(ranks)]:
        bad.append("location groups %s, want one per rank 0..%d" % (sorted(groups.values()), ranks - 1))
    if sorted(nodes) != ["machine", "nodeA", "nodeB"]:
        bad.append("system tree %s, want machine, nodeA, nodeB" % nodes)
print("%d locations in %d group(s) on %s, %d regions, %d events, trace %.6f s" %
      (len(locs), len(groups), "/".join(nodes[1:]), len(regions), sum(count.values()), length / 1e9))
for b in bad[:20]: print("  " + b)
sys.exit(1 if bad else 0)
PY

# judge WHAT DATA DIR NTHREADS RANKS: otf2-print's view of the archive DIR
# of profile DATA against its report --per-thread
judge() {
	"$LC" report -f "$2" --per-thread --format csv >"$tmp/pt.csv" 2>"$tmp/err"
	otf2-print -G "$3/traces.otf2" >"$tmp/defs" 2>&1 || fail "otf2-print -G failed: $(tail -n 1 "$tmp/defs")"
	otf2-print "$3/traces.otf2" >"$tmp/events" 2>&1 || fail "otf2-print failed: $(tail -n 1 "$tmp/events")"
	python3 "$tmp/judge.py" "$tmp/defs" "$tmp/events" "$tmp/pt.csv" "$4" "$5" >"$tmp/py" 2>&1
	verdict "$1" $? "$tmp/py"
}
judge "otf2-print reads the archive; per-thread time per region equals the report's to the ns" \
	"$tmp/d.data" "$tmp/o" 4 0

# every category, summed over all locations (threads and the empty
# processor slots' tracks), is the report's: the slots no thread held are
# exported too (Insufficient Parallelism and Load Imbalance of empty slots)
"$LC" report -f "$tmp/d.data" --format csv >"$tmp/tot.csv" 2>"$tmp/err"
python3 - "$tmp/defs" "$tmp/events" "$tmp/tot.csv" >"$tmp/py" 2>&1 <<'PY'
import collections, csv, re, sys
defs, evs = (open(f).read() for f in sys.argv[1:3])
want = {r["key"]: float(r["seconds"]) for r in csv.DictReader(open(sys.argv[3]))
        if r["available"] == "1" and r["seconds"] not in ("", None)}
regions = {int(i): k for i, k in re.findall(r'^REGION\s+(\d+)\s+Name: "[^"]*" <\d+> \(Aka\. "([^"]*)"', defs, re.M)}
slots = re.findall(r'^LOCATION\s+\d+\s+Name: "empty processor slot \d+"', defs, re.M)
open_, got = {}, collections.Counter()
for kind, loc, ts, reg in re.findall(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "[^"]*" <(\d+)>', evs, re.M):
    if kind == "ENTER": open_[loc] = int(ts)
    else: got[regions[int(reg)]] += int(ts) - open_.pop(loc)
bad = []
for k, sec in want.items():
    if k in ("p", "tt") or k not in regions.values(): continue
    if abs(got[k] / 1e9 - sec) > 1e-6 * max(1.0, len(slots)) + 1e-9 * 1000:
        bad.append("%s: %.9f s in the archive, %.9f s in the report" % (k, got[k] / 1e9, sec))
print("%d empty-slot tracks; ip %.6f s, li %.6f s in the archive" % (len(slots), got["ip"] / 1e9, got["li"] / 1e9))
for b in bad: print("  " + b)
sys.exit(1 if bad or not want else 0)
PY
verdict "every category summed over the archive's locations is the report's (empty slots included)" $? "$tmp/py"

# the same with OTF2's Python bindings (Debian's python3-otf2, for the
# system's python3) when they are installed
PYOTF2=/usr/bin/python3
if [ -x "$PYOTF2" ] && "$PYOTF2" -c 'import otf2' 2>/dev/null; then
	"$LC" report -f "$tmp/d.data" --per-thread --format csv >"$tmp/pt.csv" 2>"$tmp/err"
	"$PYOTF2" - "$tmp/o/traces.otf2" "$tmp/pt.csv" >"$tmp/py" 2>&1 <<'PY'
import collections, re, sys
import otf2
sys.path.insert(0, "tests")
sys.dont_write_bytecode = True	# no __pycache__ in the tree
import per_thread
bad = []
spent = collections.defaultdict(collections.Counter)
with otf2.reader.open(sys.argv[1]) as tr:
    cp = tr.definitions.clock_properties
    if cp.timer_resolution != 10**9: bad.append("timer resolution %d" % cp.timer_resolution)
    tids = {l.name: int(re.search(r"tid (\d+)", l.name).group(1)) for l in tr.definitions.locations
            if re.search(r"tid \d+", l.name)}
    entered = {}
    for loc, ev in tr.events:
        if loc.name not in tids: continue	# an empty processor slot's track
        tid = tids[loc.name]
        if isinstance(ev, otf2.events.Enter):
            entered[tid] = ev.time
        elif isinstance(ev, otf2.events.Leave):
            spent[tid][ev.region.canonical_name] += ev.time - entered.pop(tid)
keys, threads = per_thread.read(sys.argv[2])
n = len(threads)
bad += per_thread.compare(threads, lambda pid, tid: spent[tid], "OTF2")
print("%d threads read with the otf2 module" % n)
for b in bad[:20]: print("  " + b)
sys.exit(1 if bad or n < 4 else 0)
PY
	verdict "OTF2's Python bindings read the same per-thread times" $? "$tmp/py"
else
	echo "note  OTF2's Python bindings (python3-otf2) are not installed: that reader is not run"
fi

refuse "an archive already in DIR is kept" 1 "already holds an OTF2 archive" --otf2 "$tmp/o" "$tmp/d.data"

# links planted in or at DIR are never followed: a link to a file of root's
# and a dangling link in DIR (before: the file overwritten, the dangling
# link's target created), DIR itself a link (to a directory, or dangling),
# DIR not empty, DIR another user's; an empty DIR of one's own is used
mkdir "$tmp/pl" "$tmp/real"
echo keep >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/pl/traces.def"
ln -s "$tmp/created" "$tmp/pl/traces.otf2"
refuse "links planted in DIR: refused (DIR is not empty)" 1 "is not empty" --otf2 "$tmp/pl" "$tmp/d.data"
st=0
check "the planted links' targets untouched: the file kept, nothing created" \
	'[ "$(cat "$tmp/victim")" = keep ] && [ ! -e "$tmp/created" ] && [ -L "$tmp/pl/traces.def" ]'
ln -s "$tmp/real" "$tmp/lnk"
refuse "DIR a link to a directory: refused" 1 "is a symbolic link" --otf2 "$tmp/lnk" "$tmp/d.data"
ln -s "$tmp/made" "$tmp/dangling"
refuse "DIR a dangling link: refused" 1 "is a symbolic link" --otf2 "$tmp/dangling" "$tmp/d.data"
st=0
check "nothing written through either link" '[ -z "$(ls -A "$tmp/real")" ] && [ ! -e "$tmp/made" ]'
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$tmp/theirs" && chown 65534 "$tmp/theirs"
	refuse "DIR of another user: refused" 1 "belongs to uid 65534" --otf2 "$tmp/theirs" "$tmp/d.data"
fi
run export --otf2 "$tmp/real" "$tmp/d.data"
check "an empty DIR of one's own holds the archive, no temporary left beside it" \
	'[ -f "$tmp/real/traces.otf2" ] && ! ls -d "$tmp"/*.tmp-* >/dev/null 2>&1'

# names from the profile (the program's name, its command line) with an
# escape sequence, a bell and bytes that are not UTF-8 reach the archive's
# strings as '?'; valid UTF-8 stays
evil=$(printf 'd\033[2J\007\377\303\251')
cp "$DEMO" "$tmp/$evil"
"$LC" record -q -o "$tmp/e.data" -- "$tmp/$evil" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; fail "record of a program with a hostile name"; }
run export --otf2 "$tmp/oe" "$tmp/e.data"
otf2-print -G "$tmp/oe/traces.otf2" >"$tmp/edefs" 2>&1
otf2-print -A "$tmp/oe/traces.otf2" >>"$tmp/edefs" 2>&1
cat >"$tmp/clean.py" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
try:
    s = b.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8: %s" % e)
bad = [hex(ord(c)) for c in s if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0]
if bad:
    sys.exit("control characters: %s" % bad[:5])
if "d?[2J??\u00e9" not in s:
    sys.exit("the cleaned name is not there")
PY
python3 "$tmp/clean.py" "$tmp/edefs" >"$tmp/py" 2>&1
verdict "OTF2 strings carry no control character nor invalid UTF-8 (names cleaned, valid UTF-8 kept)" $? "$tmp/py"

refuse "no trace data" 1 "holds no trace data" --otf2 "$tmp/o2" --source trace "$tmp/d.data"
refuse "--otf2 with -o" 2 "--otf2 takes no -o" --otf2 "$tmp/o3" -o x "$tmp/d.data"
refuse "neither --extrap nor --otf2" 2 "--extrap RUNS is required, or --otf2 DIR" "$tmp/d.data"
refuse "both --extrap and --otf2" 2 "separate exports" --extrap "$tmp/d.data" --otf2 "$tmp/o5"
refuse "a missing profile" 1 "nothere.data" --otf2 "$tmp/o4" "$tmp/nothere.data"

# a merged MPI job: two "nodes" of two ranks each (LOSTCYCLES_HOST), merged
APP=build/mpi/imbalance
if command -v mpiexec >/dev/null 2>&1 && [ -x "$APP" ] && [ -e build/liblostcycles-mpi.so ]; then
	(cd "$tmp" && mpiexec -n 2 -env LOSTCYCLES_HOST nodeA "$OLDPWD/$LC" exec -o P -- "$OLDPWD/$APP" 5 20 : \
		-n 2 -env LOSTCYCLES_HOST nodeB "$OLDPWD/$LC" exec -o P -- "$OLDPWD/$APP" 5 20) >"$tmp/mpi.out" 2>&1 &&
		"$LC" merge -o "$tmp/J.data" "$tmp/P.nodeA.data" "$tmp/P.nodeB.data" >>"$tmp/mpi.out" 2>&1
	if [ $? -ne 0 ]; then
		fail "the 4-rank job or its merge failed"; sed 's/^/      /' "$tmp/mpi.out"
	else
		run export --otf2 "$tmp/oj" "$tmp/J.data"
		check "export --otf2 of a merged job" "[ -f \"\$tmp/oj/traces.otf2\" ]"
		judge "a merged job: a location group per rank on its node; per-thread times to the ns" \
			"$tmp/J.data" "$tmp/oj" 4 4
	fi
else
	echo "note  the merged-job part needs MPICH and build/mpi/imbalance (make check-build): not run"
fi
finish
