#!/bin/sh
# t_where.sh — "report --where" end to end on unmodified programs recorded
# through the layers, against what the programs measured of themselves:
#   - OpenMP (tests/layers/omp_where.c, built with -g): a balanced loop in
#     balanced() and a skewed loop in skewed(); by load imbalance the skewed
#     loop's place (its file:line, in skewed()) ranks first, its LI within
#     5 % of the total time of the idle time the threads measured at its
#     barrier, and the balanced loop's row under a tenth of that (or, when
#     a busy machine made the balanced loop's threads wait that long, within
#     5 % of what they measured);
#   - MPI (tests/mpi/where.c, 2 ranks): one row per function for MPI_Recv
#     and MPI_Allreduce, each with SL + CL within 3 % of the total time of
#     the time the ranks measured in it;
#   - pthreads (tests/layers/pt_where.c, PIE): a static lock and a malloc'd
#     one of different contention, the static one's rows named by its
#     symbol, the heap one's by its address (never by a symbol), SL within
#     5 % of the total time of the waits the program measured for each;
#   - every exclusive table adds up to the report's totals (text's (total)
#     row is the report's Total Time);
#   - each profile's Perfetto export has a place track per thread, and the
#     pthread profile's OTF2 export a place location per thread
#     (place_tracks, place_otf2).
# A profile that carries no places (a build whose layers do not record
# them) is not judged: the test skips with that reason.  A miss on a
# machine measured too busy to judge it (lib.sh's machine_busy) is not
# judged either.  Exits 77 when the layers or MPICH are missing.
SUB=where
. tests/lib.sh
skip_under_tsan t_where
noplaces=

# places LABEL DATA: the where table of DATA as CSV in $tmp/LABEL.csv and
# the report's summary in $tmp/LABEL.sum; 1 (and noted) without places
places() {
	if ! "$LC" report --where --format csv "$2" >"$tmp/$1.csv" 2>"$tmp/$1.werr"; then
		if grep -q 'holds no places' "$tmp/$1.werr"; then
			noplaces="$noplaces $1"
		else
			fail "$1: report --where: $(cat "$tmp/$1.werr")"
		fi
		return 1
	fi
	"$LC" report --format csv "$2" >"$tmp/$1.sum" 2>/dev/null
}

# adds LABEL: the CSV's category columns add up to the report's (in ns)
adds() {
	awk -F, 'FNR == NR && NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		FNR == NR { for (k in col) if (k ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt)$/ && $(col[k]) != "na") { v = $(col[k]); gsub(/\./, "", v); s[k] += v }; next }
		$1 ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt)$/ && $3 != "na" { v = sprintf("%.9f", $3); gsub(/\./, "", v); if (s[$1] + 0 != v + 0) { print "  " $1 ": rows " s[$1] " ns, report " v " ns"; bad = 1 } }
		END { exit bad }' "$tmp/$1.csv" "$tmp/$1.sum"
}

# tt LABEL: the report's total time, s
tt() { awk -F, '$1 == "tt" { print $3 }' "$tmp/$1.sum"; }

# judge LABEL OKMSG PROG FILE...: the awk judgment PROG (tt set) over
# FILE...; ok, not judged on a busy machine, or failed; then the rows of
# LABEL must add up to the totals
judge() {
	label=$1 okmsg=$2 prog=$3
	shift 3
	if awk -F, -v tt="$(tt "$label")" "$prog" "$@" >"$tmp/j"; then
		ok "$okmsg"
	else
		unjudged "$okmsg" "$tmp/$label.err" || { fail "$okmsg"; cat "$tmp/$label.csv"; }
	fi
	cat "$tmp/j"
	adds "$label" && ok "$label: the rows add up to the totals to the ns" ||
		fail "$label: the rows do not add up to the totals"
}

# place_tracks LABEL DATA: the Perfetto export of DATA has a place track
# per thread (tid + 2^22, named "... places"), each slice named as the
# where table $tmp/LABEL.csv names a place (or "(elsewhere)"), with the
# seconds of its places as args (adding up to its duration when they are
# all there: fewer than five); a track's slices never overlap nor leave
# a gap as a reader's doubles sum them where they meet in ns, and cover
# exactly what the thread's own track covers (so its total is the thread's)
place_tracks() {
	if ! command -v python3 >/dev/null; then
		echo "note  $1: perfetto place tracks not judged: python3 is not installed"
		return
	fi
	if ! "$LC" report --timeline --format perfetto -f "$2" >"$tmp/$1.json" 2>"$tmp/$1.perr"; then
		fail "$1: perfetto: $(cat "$tmp/$1.perr")"
		return
	fi
	python3 - "$tmp/$1.json" "$tmp/$1.csv" >"$tmp/$1.py" 2>&1 <<'PY'
import json, sys, csv, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {r[0] for r in csv.reader(open(sys.argv[2])) if r} | {"(elsewhere)"}
P = 1 << 22
ns = lambda x: round(float(x) * 1000)
tracks = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X" and e["pid"] != 0:
        tracks[(e["pid"], e["tid"])].append(e)
tnames = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
          if e["ph"] == "M" and e["name"] == "thread_name"}
bad = []
def cover(sl):
    iv = []
    for e in sl:
        a, b = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
        if iv and iv[-1][1] == a: iv[-1][1] = b
        else: iv.append([a, b])
    return iv
threads = [k for k in tracks if k[1] < P]
nplace = nslice = 0
for k in threads:
    pk = (k[0], k[1] + P)
    sl = tracks.get(pk, [])
    if not sl:
        bad.append("thread %s has no place track" % (k,)); continue
    nplace += 1
    nslice += len(sl)
    if not tnames.get(pk, "").endswith(" places"):
        bad.append("place track %s named %r" % (pk, tnames.get(pk)))
    for e in sl:
        if e["name"] not in names: bad.append("slice named %r, not a place of the table" % e["name"])
        if not e.get("args") or any(n not in names for n in e["args"]):
            bad.append("slice at %s: args %r" % (e["ts"], e.get("args")))
        elif len(e["args"]) < 5 and sum(round(v * 1e9) for v in e["args"].values()) != ns(e["dur"]):
            bad.append("slice at %s: args %r do not add up to its %s us" % (e["ts"], e["args"], e["dur"]))
    for a, b in zip(sl, sl[1:]):
        end = a["ts"] + a["dur"]
        if b["ts"] < end: bad.append("%s: slice at %s overlaps the one before as parsed" % (pk, b["ts"]))
        elif ns(b["ts"]) == ns(a["ts"]) + ns(a["dur"]) and b["ts"] != end:
            bad.append("%s: gap of %g us as parsed at %s" % (pk, b["ts"] - end, b["ts"]))
        if a["name"] == b["name"] and ns(b["ts"]) == ns(a["ts"]) + ns(a["dur"]):
            bad.append("%s: two slices of %r meet at %s (not merged)" % (pk, a["name"], b["ts"]))
    tc, pc = cover(tracks[k]), cover(sl)
    if tc != pc:
        bad.append("%s: the place track covers %d ns in %d spans, the thread's %d ns in %d" %
                   (pk, sum(b - a for a, b in pc), len(pc), sum(b - a for a, b in tc), len(tc)))
print("%d threads, %d place tracks, %d place slices, %d distinct names" %
      (len(threads), nplace, nslice, len({e["name"] for k in tracks if k[1] >= P for e in tracks[k]})))
if nplace < 2: bad.append("%d place tracks" % nplace)
for b in bad[:20]: print("  " + b)
sys.exit(1 if bad else 0)
PY
	verdict "$1: perfetto place tracks named by the table's places, meeting, covering each thread's track" $? "$tmp/$1.py"
}

# place_otf2 LABEL DATA: export --otf2 of DATA has, after a location per
# thread, one per thread's place track, named "... places" (the empty
# processor slots' tracks follow them), whose regions
# are places the where table $tmp/LABEL.csv names (or "(elsewhere)"), and
# whose Enter/Leave spans cover exactly what its thread's location covers
place_otf2() {
	if ! command -v otf2-print >/dev/null || ! command -v python3 >/dev/null ||
		! "$LC" export --otf2 "$tmp/$1.otf2" "$2" >"$tmp/$1.oerr" 2>&1; then
		echo "note  $1: OTF2 place locations not judged: no otf2-print, python3 or OTF2 build"
		return
	fi
	otf2-print -G "$tmp/$1.otf2/traces.otf2" >"$tmp/$1.odef" 2>&1
	otf2-print "$tmp/$1.otf2/traces.otf2" >"$tmp/$1.oev" 2>&1
	python3 - "$tmp/$1.odef" "$tmp/$1.oev" "$tmp/$1.csv" >"$tmp/$1.opy" 2>&1 <<'PY'
import sys, csv, re, collections
names = {r[0] for r in csv.reader(open(sys.argv[3])) if r} | {"(elsewhere)"}
locs = {int(m.group(1)): m.group(2) for m in
        re.finditer(r'^LOCATION +(\d+) +Name: "([^"]*)"', open(sys.argv[1]).read(), re.M)
        if not m.group(2).startswith("empty processor slot")}	# their own tracks, after
cover = collections.defaultdict(list)
regs = collections.defaultdict(set)
for m in re.finditer(r'^(ENTER|LEAVE) +(\d+) +(\d+) +Region: "([^"]*)"', open(sys.argv[2]).read(), re.M):
    loc, ts = int(m.group(2)), int(m.group(3))
    iv = cover[loc]
    regs[loc].add(m.group(4))
    if m.group(1) == "ENTER":
        if iv and iv[-1][1] == ts: continue
        iv.append([ts, None])
    else:
        iv[-1][1] = ts
nt = sum(1 for n in locs.values() if not n.endswith(" places"))
bad = []
if len(locs) != 2 * nt: bad.append("%d locations for %d threads" % (len(locs), nt))
for t in range(nt):
    p = nt + t
    if locs.get(p) != locs.get(t, "?") + " places": bad.append("location %d named %r" % (p, locs.get(p)))
    if regs[p] - names: bad.append("location %d: regions %r not in the table" % (p, regs[p] - names))
    if cover[p] != cover[t]: bad.append("location %d covers %s, its thread %s" % (p, cover[p][:3], cover[t][:3]))
print("%d threads, %d place locations, %d place regions" % (nt, len(locs) - nt, len(set().union(*[regs[nt + t] for t in range(nt)]) if nt else 0)))
for b in bad[:20]: print("  " + b)
sys.exit(1 if bad else 0)
PY
	verdict "$1: OTF2 place locations covering each thread's, with the table's places as regions" $? "$tmp/$1.opy"
}

OMPLIB=build/liblostcycles-omp.so
OMPWL=build/layers/omp_where
if [ -f "$OMPLIB" ] && [ -x "$OMPWL" ] && [ -z "${LC_SAN:-}" ]; then
	OMP_NUM_THREADS=2 "$LC" record -q --omp -o "$tmp/omp.data" -- "$OMPWL" \
		>"$tmp/omp.out" 2>"$tmp/omp.err"
	if places omp "$tmp/omp.data"; then
		place_tracks omp "$tmp/omp.data"
		"$LC" report --where=li --format csv "$tmp/omp.data" >"$tmp/omp.li" 2>"$tmp/omp.lierr"
		judge omp "OpenMP: the skewed loop's place first by LI, with its measured idle time" '
			FNR == NR { n = split($0, f, " "); for (i = 2; i <= n; i++) { split(f[i], kv, "="); t[kv[1]] = kv[2] }; next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			FNR == 2 { first = $1; ffn = $(col["function"]); fli = $(col["li"]) }
			$(col["function"]) == "balanced" && $(col["kind"]) == "omp loop" { bli = $(col["li"]) }
			END {
				printf "  first by li: %s in %s(): li %.4f s; measured %.4f s; balanced loop li %.4f s (measured %.4f s); total %.3f s\n", first, ffn, fli, t["li_skewed"], bli, t["li_balanced"], tt
				d = fli - t["li_skewed"]; if (d < 0) d = -d
				db = bli - t["li_balanced"]; if (db < 0) db = -db
				# the balanced loop under a tenth, unless the machine made
				# it wait that much itself: then its own measured wait
				bal = bli < fli / 10
				if (!bal && t["li_balanced"] >= t["li_skewed"] / 10 && db <= 0.05 * tt) {
					print "  (the balanced loop itself waited over a tenth as long: its row is judged against that)"
					bal = 1
				}
				exit !(ffn == "skewed" && first ~ /^omp_where\.c:[0-9]+/ && d <= 0.05 * tt && bal && t["li_skewed"] > 0.05)
			}' "$tmp/omp.out" "$tmp/omp.li"
		# a line of two constructs (rounds() inlined twice): two places of
		# distinct names, and -t of that line refused, not one picked
		dup=$("$LC" report --tags "$tmp/omp.data" | grep -o 'omp_where\.c:[0-9]*' | sort | uniq -d | head -n 1)
		if [ -n "$dup" ]; then
			"$LC" report -t "$dup" "$tmp/omp.data" >"$tmp/dup.out" 2>"$tmp/dup.err"
			rc=$?
			# A region's place holds only the time its threads spent
			# outside its loops, which may be none on a given run: each
			# region row there is, is named apart ("$dup via ..."), and
			# -t of the line is refused, unless one place alone holds it
			# (then -t shows that place, by its whole name).
			if { { [ $rc -eq 1 ] && grep -q "names several fragment tags" "$tmp/dup.err"; } ||
				{ [ $rc -eq 0 ] && grep -q "^\*\* place $dup via " "$tmp/dup.out"; }; } &&
				[ "$(grep -c "^$dup," "$tmp/omp.csv")" -eq 0 ]; then
				ok "OpenMP: $dup holds two regions: each row of them named apart, -t $dup refused or the one place shown"
			else
				fail "OpenMP: $dup of two regions"; cat "$tmp/dup.err" "$tmp/dup.out" "$tmp/omp.csv"
			fi
		fi
	fi
else
	echo "note  OpenMP case not run: no OpenMP layer or program (clang, libomp-dev), or a sanitizer build"
fi

PT=build/layers/pt_where
if [ -f build/liblostcycles-pthread.so ] && [ -x "$PT" ]; then
	# p = its five threads (-p): each waiting thread holds its processor
	"$LC" record -q --pthread -p 5 -o "$tmp/pt.data" -- "$PT" >"$tmp/pt.out" 2>"$tmp/pt.err"
	# its "waited" line is what the rows are judged against
	status_ok "pthreads: record of pt_where" $? "$tmp/pt.err"
	if places pt "$tmp/pt.data"; then
		# names are not timing: judged on a busy machine too
		heap=$(awk '/^waited / { print $5 }' "$tmp/pt.out")
		if awk -F, -v heap="$heap" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$(col["kind"]) != "mutex" || $1 ~ /\(object not recorded\)/ { next }
			$1 ~ /^lock_a @ / { a = 1; next }
			index($1, heap " @ ") == 1 { h = 1; next }
			{ print "  another name: " $1; bad = 1 }
			END { exit !(a && h && !bad) }' "$tmp/pt.csv"; then
			ok "pthreads: the static lock named by its symbol, the heap lock ($heap) by its address"
		else
			fail "pthreads: lock names"; cat "$tmp/pt.csv"
		fi
		judge pt "pthreads: each lock's rows with its measured waits" '
			FNR == NR && /^waited / { split($0, w, " "); wa = w[3]; heap = w[5]; wb = w[6]; next }
			FNR == NR { next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 ~ /^lock_a( @ |$)/ { a += $(col["sl"]); na++ }
			index($1, heap " @ ") == 1 || $1 == heap { b += $(col["sl"]); nb++ }
			END {
				printf "  lock_a: %d row(s), sl %.4f s, measured %.4f s; heap %s: %d row(s), sl %.4f s, measured %.4f s; total %.3f s\n", na, a, wa, heap, nb, b, wb, tt
				da = a - wa; if (da < 0) da = -da
				db = b - wb; if (db < 0) db = -db
				exit !(na > 0 && nb > 0 && da <= 0.05 * tt && db <= 0.05 * tt && wa > 0.1 && wb > 0.02)
			}' "$tmp/pt.out" "$tmp/pt.csv"
		place_tracks pt "$tmp/pt.data"
		place_otf2 pt "$tmp/pt.data"
	fi
fi

MPIWL=build/mpi/where
if command -v mpiexec >/dev/null 2>&1 && [ -e build/liblostcycles-mpi.so ] && [ -x "$MPIWL" ]; then
	export XDG_CONFIG_HOME="$tmp/config"
	unset LOSTCYCLES_LOGGP
	"$LC" record -q --mpi -o "$tmp/mpi.data" -- mpiexec -n 2 "$MPIWL" >"$tmp/mpi.out" 2>"$tmp/mpi.err"
	if places mpi "$tmp/mpi.data"; then
		place_tracks mpi "$tmp/mpi.data"
		judge mpi "MPI: one row per function, SL + CL with the measured times" '
			FNR == NR && $1 ~ /^rank/ { split($0, w, " "); recv += w[4] / 1e9; allr += w[6] / 1e9; next }
			FNR == NR { next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 ~ /^MPI_Recv( @ |$)/ { r += $(col["sl"]) + $(col["cl"]); nr++ }
			$1 ~ /^MPI_Allreduce( @ |$)/ { a += $(col["sl"]) + $(col["cl"]); na++ }
			END {
				printf "  MPI_Recv: %d row(s), sl+cl %.4f s, measured %.4f s; MPI_Allreduce: %d row(s), sl+cl %.4f s, measured %.4f s; total %.3f s\n", nr, r, recv, na, a, allr, tt
				dr = r - recv; if (dr < 0) dr = -dr
				da = a - allr; if (da < 0) da = -da
				exit !(nr == 1 && na == 1 && dr <= 0.03 * tt && da <= 0.03 * tt && recv > 0.05 && allr > 0.05)
			}' "$tmp/mpi.out" "$tmp/mpi.csv"
	fi
else
	echo "note  MPI case not run: MPICH or the MPI layer is missing"
fi

if [ "$ntest" -eq 0 ] && [ -n "$noplaces" ]; then
	skip t_where "the profiles of$noplaces carry no places: the layers of this build do not record them yet"
fi
[ -n "$noplaces" ] && echo "note  no places in:$noplaces (not judged)"
finish
