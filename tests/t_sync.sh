#!/bin/sh
# t_sync.sh — "report --sync": which synchronization object costs the most.
#
# twolocks: three threads take a hot lock (2 ms held) and a cold one; they
# measure their own waits per lock.  With LC_SYNC_BEGIN_ON / LC_NAME
# (tests/workloads/twolocks) and with the pthread layer on the same program
# without flags (tests/layers/pt_twolocks), the first object --sync lists
# is the hot lock (its name, or its address as the program printed it), and
# its synchronization loss matches the waits the program measured for it
# within 5 % of the total time.  CSV and JSON carry the same rows; a
# profile without objects says so and exits 1.  A miss on a machine
# measured too busy to judge it (lib.sh's machine_busy) is not judged: the
# test skips with the reason.
SUB=sync
. tests/lib.sh
skip_under_tsan t_sync
MAC=build/workloads/twolocks
PLAIN=build/layers/pt_twolocks
for f in "$MAC" "$PLAIN" build/liblostcycles-pthread.so; do
	[ -e "$f" ] || { echo "t_sync: $f is missing (run make all workloads)" >&2; exit 1; }
done

# judge LABEL OUT DATA WANTNAME: the first row of --sync (CSV) against OUT
judge() {
	"$LC" report --sync --format csv "$3" >"$tmp/csv" 2>"$tmp/err" || return 1
	"$LC" report --format csv "$3" >"$tmp/sum" 2>>"$tmp/err" || return 1
	awk -v want="$4" '
		FNR == NR && $1 == "hot" { hot = $2 }
		FNR == NR && $1 == "waited" { w = $3 }
		FNR != NR && FILENAME ~ /csv$/ && FNR == 2 { split($0, f, ","); obj = f[2]; name = f[3]; sec = f[4] }
		FNR != NR && FILENAME ~ /sum$/ { split($0, f, ","); if (f[1] == "tt") tt = f[3] }
		END {
			printf "  hot lock %s waited %.4f s; --sync first: %s \"%s\" %.4f s of %.4f s\n", hot, w, obj, name, sec, tt
			d = sec - w; if (d < 0) d = -d
			if (obj != hot) exit 1
			if (want != "" && name != want) exit 1
			exit !(w > 0.1 && d <= 0.05 * tt)
		}
	' "$2" "$tmp/csv" "$tmp/sum"
}

# judged LABEL RUN WANTNAME WHAT: judge the recording $tmp/RUN.data against
# $tmp/RUN.out; ok WHAT, or fail (not judged on a machine measured too busy)
# with what the run and report said
judged() {
	if judge "$1" "$tmp/$2.out" "$tmp/$2.data" "$3" >"$tmp/j" 2>&1; then
		ok "$4"
	else
		unjudged "${4%%:*}'s hot lock" "$tmp/$2.err" || fail "${4%%:*}"
		cat "$tmp/$2.err" "$tmp/err" "$tmp/csv"
	fi
	cat "$tmp/j"
}

"$LC" record -q -o "$tmp/m.data" -- "$MAC" macros >"$tmp/m.out" 2>"$tmp/m.err"
judged macros m "hot lock" "LC_SYNC_BEGIN_ON: the hot lock first, by name, with its measured wait"

# p = its four threads (-p): on a machine of fewer CPUs, p would be capped
# by them and the waits would outnumber the slots
"$LC" record -q --pthread -p 4 -o "$tmp/p.data" -- "$PLAIN" >"$tmp/p.out" 2>"$tmp/p.err"
judged pthread p "" "--pthread: the hot mutex first, by address, with its measured wait"

# (run merges stderr into the output: report's warning that the sampler
# fell behind may come before the array)
run report --sync --format json "$tmp/m.data"
check "--sync --format json: one array naming the hot lock" \
	'grep -v "^lostcycles report: " "$tmp/out" | head -c 1 | grep -q "\[" && grep -q "\"name\":\"hot lock\"" "$tmp/out"'
"$LC" record -q -o "$tmp/n.data" -- build/workloads/control >/dev/null 2>&1
run report --sync "$tmp/n.data"
if [ "$st" -eq 1 ] && grep -q "no synchronization object" "$tmp/out"; then
	ok "no objects: said, exit 1"
else
	fail "no objects: status $st"; cat "$tmp/out"
fi
run report --sync -t 1 "$tmp/m.data"
if [ "$st" -eq 2 ]; then ok "--sync -t refused"; else fail "--sync -t: status $st"; fi
finish
