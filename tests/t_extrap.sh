#!/bin/sh
# t_extrap.sh — "lostcycles export --extrap" and "fit -f" on Extra-P files.
#
# The fixtures tests/data/fit/{runfast,strong}.runs go to Extra-P's text
# and JSON-lines formats; each read back and written again gives the same
# bytes (text from text, JSON lines from JSON lines, text from JSON lines),
# every value of the runs file appears in the export with all its digits,
# and "fit" prints the same models from the runs file and from either
# export.  Hand-written Extra-P files (one parameter without parentheses,
# nested parentheses, a single value instead of a list) read as the runs
# they hold; a region name of two words and a malformed line are refused.
SUB=export
. tests/lib.sh
D=tests/data/fit

for f in runfast strong; do
	"$LC" export --extrap "$D/$f.runs" >"$tmp/$f.txt" 2>"$tmp/err" &&
	"$LC" export --extrap "$D/$f.runs" -o "$tmp/$f.jsonl" 2>>"$tmp/err" &&
	"$LC" export --extrap "$tmp/$f.txt" >"$tmp/$f.txt2" 2>>"$tmp/err" &&
	"$LC" export --extrap "$tmp/$f.jsonl" --format jsonl >"$tmp/$f.jsonl2" 2>>"$tmp/err" &&
	"$LC" export --extrap "$tmp/$f.jsonl" >"$tmp/$f.txt3" 2>>"$tmp/err"
	st=$?
	check "$f: export, read back, export again" \
		'cmp -s "$tmp/$f.txt" "$tmp/$f.txt2" && cmp -s "$tmp/$f.jsonl" "$tmp/$f.jsonl2" &&
		 cmp -s "$tmp/$f.txt" "$tmp/$f.txt3" && grep -q "^METRIC rt" "$tmp/$f.txt" &&
		 grep -q "\"metric\":\"rt\"" "$tmp/$f.jsonl"'
	# every number of the runs file is in the export, digit for digit
	missing=$(grep -v '^#' "$D/$f.runs" | tr ' ' '\n' | sed -n 's/^[a-z]*=\([0-9.]*\)$/\1/p' |
		sort -u | while read -r v; do grep -qw -- "$v" "$tmp/$f.txt" || echo "$v"; done)
	st=0
	check "$f: every value exported exactly" '[ -z "$missing" ]'
done

fit() {	# fit FILE: the models of rt over n p, without the Datafile line
	"$LC" fit -c rt -v "n p" -f "$1" 'n*log2(n)/p + n' 'n/p + 1' 2>&1 | grep -v '^Datafile:'
}
fit "$D/strong.runs" >"$tmp/f.runs"
fit "$tmp/strong.txt" >"$tmp/f.txt"
fit "$tmp/strong.jsonl" >"$tmp/f.jsonl"
st=0
check "fit reads both formats: the same models as from the runs file" \
	'grep -q "n\*log2(n)/p" "$tmp/f.runs" && cmp -s "$tmp/f.runs" "$tmp/f.txt" &&
	 cmp -s "$tmp/f.runs" "$tmp/f.jsonl"'

# hand-written files: what Extra-P's documentation allows
cat >"$tmp/one.txt" <<'X'
# one parameter, bare coordinates
PARAMETER p
POINTS 1 2 4
REGION main
METRIC tt
DATA 1.5 1.7
DATA 2.5
DATA 4.5
X
cat >"$tmp/two.txt" <<'X'
PARAMETER n
PARAMETER p
POINTS ((10) (1)) ((20) (2))
REGION main
METRIC li
DATA 0.25
DATA 0.5
METRIC rt
DATA 1
DATA 2
X
printf '%s\n' '{"params":{"p":1},"value":3.25,"metric":"rt"}' \
	'{"params":{"p":2},"metric":"rt","value":[1.5,1.75]}' >"$tmp/one.jsonl"
: >"$tmp/exists.txt"
refuse "export -o onto an existing file is refused without --force" 1 "give --force to replace it" \
	--extrap "$tmp/one.txt" -o "$tmp/exists.txt"
run export --extrap "$tmp/one.txt" -o "$tmp/exists.txt" --force
check "export -o --force replaces it" '[ -s "$tmp/exists.txt" ]'
run export --extrap "$tmp/one.txt" --format jsonl
check "text, one parameter: 3 points, two repetitions kept, the region kept" \
	'grep -q "{\"params\":{\"p\":1},\"callpath\":\"main\",\"metric\":\"tt\",\"value\":\[1.5,1.7\]}" "$tmp/out" &&
	 [ "$(wc -l <"$tmp/out")" -eq 3 ]'
run export --extrap "$tmp/two.txt"
check "text, nested parentheses: two parameters, two metrics" \
	'grep -q "^POINTS (10 1) (20 2)$" "$tmp/out" && grep -q "^METRIC li$" "$tmp/out" &&
	 grep -q "^DATA 0.5$" "$tmp/out" && grep -q "^METRIC rt$" "$tmp/out"'
run export --extrap "$tmp/one.jsonl"
check "JSON lines: a value or a list" \
	'grep -q "^POINTS (1) (2)$" "$tmp/out" && grep -q "^DATA 3.25$" "$tmp/out" &&
	 grep -q "^DATA 1.5 1.75$" "$tmp/out"'

printf 'REGION other one\nDATA 1\nDATA 2\nDATA 3\n' >>"$tmp/one.txt"
printf 'PARAMETER p\nPOINTS 1 2\nREGION main\nMETRIC time\nDATA 1\nDATA 2\n' >"$tmp/time.txt"
refuse "no lost cycles category" 1 "the runs hold no category" --extrap "$tmp/time.txt"
refuse "a region name of two words" 1 "REGION: a region name is one word" --extrap "$tmp/one.txt"
printf '{"params":{"p":1},"value":}\n' >"$tmp/bad.jsonl"
refuse "malformed JSON line" 1 "bad.jsonl:1:" --extrap "$tmp/bad.jsonl"
refuse "no --extrap" 2 "--extrap RUNS is required"
refuse "unknown format" 2 "unknown format" --extrap "$D/strong.runs" --format csv
finish
