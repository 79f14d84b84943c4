#!/bin/sh
# t_regions.sh — runs of several regions: Extra-P files with more than one
# REGION (text) or callpath (JSON lines), fitted in one call.
#
# Three regions of known forms (2p + 5, 0.25 p log2(p) + 1, 3 sqrt(p) + 10,
# repeats at +-1 %) are written in Extra-P's text format; the JSON lines
# come from "export --extrap".  "fit --search" recovers each region's form
# from either, naming the region in text, formula, JSON and CSV; --region
# selects one; export and read again give the same runs; --emit writes a
# model file per region that predict reads and compose composes.  A region no run has, runs
# with and without a region, and malformed REGION or callpath names are
# refused with one line.  Many regions in one call take less CPU time than
# one call per region (children's CPU time, the same run).
SUB=fit
. tests/lib.sh

awk 'BEGIN {
	print "PARAMETER p"; printf "POINTS"
	for (p = 2; p <= 128; p *= 2) printf " %d", p
	print ""; split("lin nlogn sqrt", R, " ")
	for (i = 1; i <= 3; i++) {
		print "REGION " R[i]; print "METRIC rt"
		for (p = 2; p <= 128; p *= 2) {
			v = i == 1 ? 5 + 2 * p : i == 2 ? 1 + 0.25 * p * log(p) / log(2) : 10 + 3 * sqrt(p)
			printf "DATA %.9g %.9g\n", v * 1.01, v * 0.99
		}
	}
}' >"$tmp/three.txt"
"$LC" export --extrap "$tmp/three.txt" --format jsonl >"$tmp/three.jsonl"

for f in three.txt three.jsonl; do
	run fit -c rt -v p -f "$tmp/$f" --search --format formula
	check "$f: each region's form recovered, named" \
		'[ "$(grep -c "^# region" "$tmp/out")" -eq 3 ] &&
		 grep -A1 "^# region lin$" "$tmp/out" | grep -qx "2\*p + 5" &&
		 grep -A1 "^# region nlogn$" "$tmp/out" | grep -qx "0.25\*p\*log2(p) + 1" &&
		 grep -A1 "^# region sqrt$" "$tmp/out" | grep -Eq "^(2.99999|3)[0-9]*\*p\*\*\(1/2\) \+ (9.99999|10)"'
done
run fit -c all -v p -f "$tmp/three.txt" --search
check "text: a Region line per model table, one call" \
	'[ "$(grep -c "^Region: " "$tmp/out")" -eq 3 ] && grep -q "^Region: nlogn (14 of" "$tmp/out"'
run fit -c rt -v p -f "$tmp/three.txt" --search --format json --region sqrt
check "--region: one region, named in JSON" \
	'grep -q "\"region\": \"sqrt\"" "$tmp/out" && ! grep -q "\"region\": \"lin\"" "$tmp/out"'
run fit -c rt -v p -f "$tmp/three.jsonl" --search --format csv --top 1
check "CSV: a region column" \
	'grep -q "^region,rank,formula," "$tmp/out" && grep -q "^lin,1,2\*p + 5," "$tmp/out" &&
	 [ "$(grep -c "^[a-z]*,1," "$tmp/out")" -eq 3 ]'

# round trip: read, export, read again: the same runs (so the same export)
"$LC" export --extrap "$tmp/three.jsonl" >"$tmp/back.txt" &&
"$LC" export --extrap "$tmp/back.txt" --format jsonl >"$tmp/back.jsonl"
st=$?
check "export by region, read back: the same runs" \
	'cmp -s "$tmp/back.jsonl" "$tmp/three.jsonl" &&
	 "$LC" export --extrap "$tmp/three.txt" | cmp -s - "$tmp/back.txt" &&
	 [ "$(grep -c "^REGION " "$tmp/back.txt")" -eq 3 ]'

run fit -c rt -v p -f "$tmp/three.txt" --search --emit "$tmp/m"
check "--emit: a model file per region" \
	'[ -s "$tmp/m.lin" ] && [ -s "$tmp/m.nlogn" ] && [ -s "$tmp/m.sqrt" ] && [ ! -e "$tmp/m" ]'
"$LC" predict -m "$tmp/m.lin" --at "p=256" >"$tmp/out" 2>&1
st=$?
check "predict reads a region's model file" 'grep -q "517" "$tmp/out"'
printf 'serial main: lin sqrt\nfragment lin\n    model m.lin\nfragment sqrt\n    model m.sqrt\n' \
	>"$tmp/s.struct"
"$LC" compose -s "$tmp/s.struct" --at "p=256" >"$tmp/out" 2>&1
st=$?
check "compose: a fragment per region's model file (517 + 58 = 575 at p=256)" \
	'grep -Eq "^rt .* 575 " "$tmp/out"'

# runs files: region=NAME, a word even when it looks like a number
printf 'region=7 p=1 rt=1\nregion=7 p=2 rt=2\nregion=x p=1 rt=3\nregion=x p=2 rt=3\n' >"$tmp/r.runs"
run fit -c rt -v p -f "$tmp/r.runs" --region 7 'p'
check "runs file: region=7 is a name" 'grep -q "^Region: 7 (2 of" "$tmp/out"'

refuse "a region no run has" 1 "--region zz: no run of" -c rt -v p -f "$tmp/three.txt" \
	--region zz
refuse "a region no run has: the regions listed" 1 "(its regions: lin, nlogn, sqrt)" \
	-c rt -v p -f "$tmp/three.txt" --region zz
printf 'p=3 rt=4\n' >>"$tmp/r.runs"
refuse "runs with and without a region" 1 "r.runs:5: no region= while other runs" \
	-c rt -v p -f "$tmp/r.runs"
printf 'p=1 rt=1\n' >"$tmp/none.runs"
refuse "--region on runs without regions" 1 "name no region" -c rt -v p -f "$tmp/none.runs" \
	--region a
printf 'region=a,b p=1 rt=1\n' >"$tmp/comma.runs"
refuse "runs file: a malformed region name" 1 "comma.runs:1: a region name is" \
	-c rt -v p -f "$tmp/comma.runs"
sed 's/^REGION nlogn$/REGION n log n/' "$tmp/three.txt" >"$tmp/blank.txt"
refuse "REGION: a name of three words" 1 "REGION: a region name is one word" \
	-c rt -v p -f "$tmp/blank.txt"
sed 's/^REGION nlogn$/REGION/' "$tmp/three.txt" >"$tmp/empty.txt"
refuse "REGION without a name" 1 "REGION: no name" -c rt -v p -f "$tmp/empty.txt"
sed '1s/"callpath":"lin"/"callpath":"a=b"/' "$tmp/three.jsonl" >"$tmp/bad.jsonl"
refuse "callpath: not a region name" 1 "bad.jsonl:1: \"callpath\" is not a region name" \
	-c rt -v p -f "$tmp/bad.jsonl"
sed '/^REGION lin$/,/^REGION nlogn$/{/^REGION nlogn$/!d}' "$tmp/three.txt" >"$tmp/dup.txt"
printf 'REGION sqrt\nMETRIC rt\nDATA 1\nDATA 1\nDATA 1\nDATA 1\nDATA 1\nDATA 1\nDATA 1\n' \
	>>"$tmp/dup.txt"
refuse "a region's metric twice" 1 "a second METRIC block" -c rt -v p -f "$tmp/dup.txt"

# CPU: 40 regions in one call against one call per region
awk 'BEGIN {
	print "PARAMETER p"; printf "POINTS"
	for (p = 2; p <= 128; p *= 2) printf " %d", p
	print ""
	for (i = 1; i <= 40; i++) {
		print "REGION r" i; print "METRIC rt"
		for (p = 2; p <= 128; p *= 2)
			printf "DATA %.9g %.9g\n", (i + 0.5 * i * p) * 1.01, (i + 0.5 * i * p) * 0.99
	}
}' >"$tmp/many.txt"
cpu() {	# the children's user + system CPU seconds so far (times' second line;
	# times runs in this shell: in $(...) it would count the subshell's)
	times >"$tmp/times"
	sed -n 2p "$tmp/times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m");
		s += a[1] * 60 + a[2] } printf "%.3f\n", s }'
}
cpu >"$tmp/c0"; c0=$(cat "$tmp/c0")
"$LC" fit -c rt -v p -f "$tmp/many.txt" --search >"$tmp/one.out" 2>&1
st=$?
cpu >"$tmp/c1"; c1=$(cat "$tmp/c1")
i=1
while [ $i -le 40 ]; do
	"$LC" fit -c rt -v p -f "$tmp/many.txt" --search --region r$i >/dev/null 2>&1 || st=$?
	i=$((i + 1))
done
cpu >"$tmp/c2"; c2=$(cat "$tmp/c2")
one=$(echo "$c0 $c1" | awk '{ print $2 - $1 }')
each=$(echo "$c1 $c2" | awk '{ print $2 - $1 }')
check "40 regions in one call: one process, 40 model tables" \
	'[ "$(grep -c "^Region: " "$tmp/one.out")" -eq 40 ]'
if echo "$one $each" | awk '{ exit !($1 < $2) }'; then
	ok "40 regions: $one s CPU in one call, $each s in one call each"
else
	unjudged "40 regions: $one s CPU in one call, not less than $each s in one call each" ||
		fail "40 regions: $one s CPU in one call, not less than $each s in one call each"
fi
finish
