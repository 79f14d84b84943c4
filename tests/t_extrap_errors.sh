#!/bin/sh
# t_extrap_errors.sh — Extra-P text files are read whole or refused with
# the real reason: fewer DATA lines than POINTS is refused (it was fitted
# on what was there); a POINTS line longer than 64 KiB within the bound of
# 10000 points is read (it was refused as "unbalanced '('"), one beyond it
# is refused as such (300,000 points); every parse error names its line and
# the offending word, and none ends in ": ''"; a file of more than
# 1,000,000 values, or a JSON line longer than 1 MiB, is refused as it is
# read (memory stays bounded: 16 MB of values took 1.3 GB before).
SUB=export
. tests/lib.sh
command -v python3 >/dev/null 2>&1 || skip t_extrap_errors "python3 is not installed"
gen() {	# gen N FILE: N points (long coordinates), one DATA line each
	python3 - "$1" >"$2" <<'PY'
import sys
n = int(sys.argv[1])
print('PARAMETER p')
print('POINTS ' + ' '.join('(%d.000000000001)' % (i + 1) for i in range(n)))
print('REGION r')
print('METRIC li')
for i in range(n):
    print('DATA %d' % (i + 1))
PY
}
printf 'PARAMETER p\nPOINTS 1 2 4 8\nREGION r\nMETRIC li\nDATA 1\nDATA 2\n' >"$tmp/few.txt"
refuse "fewer DATA lines than POINTS" 1 "few.txt:6: METRIC li has 2 DATA lines for 4 POINTS" \
	--extrap "$tmp/few.txt"
if grep -q ": 'li'$" "$tmp/err"; then fail "the metric named twice: $(cat "$tmp/err")"; else ok "the metric is named once (not again as the offending word)"; fi
gen 5000 "$tmp/long.txt"
run export --extrap "$tmp/long.txt" -o "$tmp/long.runs"
check "a POINTS line of 5000 points (90 KB) is read" '[ "$(grep -c "^DATA" "$tmp/long.runs")" -eq 5000 ]'
gen 300000 "$tmp/huge.txt"
refuse "a POINTS line of 300,000 points" 1 "huge.txt:2: POINTS: more than 10000 points" \
	--extrap "$tmp/huge.txt"
st=0
check "... not as unbalanced" '! grep -q unbalanced "$tmp/err"'
printf 'PARAMETER p\nPOINTS 1 x\n' >"$tmp/b1.txt"
printf 'PARAMETER p\nBOGUS 1\n' >"$tmp/b2.txt"
printf 'PARAMETER p\nPOINTS 1 2\nREGION r\nMETRIC li\nDATA 1 z\n' >"$tmp/b3.txt"
refuse "a word that is not a number in POINTS" 1 "b1.txt:2: POINTS: expected a number: 'x'" \
	--extrap "$tmp/b1.txt"
refuse "an unknown keyword" 1 "b2.txt:2: expected PARAMETER, POINTS, REGION, METRIC or DATA: 'BOGUS'" \
	--extrap "$tmp/b2.txt"
refuse "a word that is not a number in DATA" 1 "b3.txt:5: DATA: expected numbers: 'z'" \
	--extrap "$tmp/b3.txt"
# memory: a file of more values than the bound (each becomes part of a
# run, ~160 bytes) is refused as it is read, in both formats; one JSON line
# longer than 1 MiB (json-c makes a tree of it) too.  Before: 16 MB of one
# DATA line took 1.3 GB and a minute.  A file of 1,000,000 values is read.
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/vals.txt", "w") as f:
    f.write("PARAMETER p\nPOINTS 1 2\nREGION r\nMETRIC li\n")
    f.write("DATA " + " ".join(["1"] * 600000) + "\nDATA " + " ".join(["2"] * 400001) + "\n")
with open(d + "/ok.txt", "w") as f:
    f.write("PARAMETER p\nPOINTS 1 2\nREGION r\nMETRIC li\n")
    f.write("DATA " + " ".join(["1"] * 600000) + "\nDATA " + " ".join(["2"] * 400000) + "\n")
with open(d + "/vals.jsonl", "w") as f:
    for i in range(1001):
        f.write('{"params": {"p": %d}, "value": [%s]}\n' % (i % 7 + 1, ",".join(["1.5"] * 1000)))
with open(d + "/line.jsonl", "w") as f:
    f.write('{"params": {"p": 1}, "value": [%s]}\n' % ",".join(["1"] * 600000))
PY
# peak RSS in kB of the command line, into $rss (0 without GNU time)
peak() {
	rss=0
	[ -x /usr/bin/time ] || { "$@"; return; }
	/usr/bin/time -f '%M' -o "$tmp/rss" "$@"
	r=$?
	rss=$(tail -n 1 "$tmp/rss")
	return $r
}
peak "$LC" export --extrap "$tmp/vals.txt" -o "$tmp/vals.runs" >"$tmp/out" 2>"$tmp/err"
refuse "a text file of 1,000,001 values" 1 "vals.txt:6: DATA: more than 1000000 values in the file" \
	--extrap "$tmp/vals.txt"
refuse "a JSON-lines file of 1,001,000 values" 1 "vals.jsonl:1001: more than 1000000 values" \
	--extrap "$tmp/vals.jsonl"
refuse "a JSON line of 1.2 MB" 1 "line.jsonl:1: a line longer than 1 MiB" --extrap "$tmp/line.jsonl"
st=0
if [ -z "${LC_SAN:-}" ] && [ "$rss" -gt 0 ]; then
	check "the refusal of 1,000,001 values peaks at $((rss / 1024)) MB (bound: 100 MB)" '[ "$rss" -lt 102400 ]'
fi
peak "$LC" export --extrap "$tmp/ok.txt" -o "$tmp/ok.runs" >"$tmp/out" 2>&1
st=$?
check "a file of 1,000,000 values is read (peak $((rss / 1024)) MB)" \
	'[ "$(grep -c "^DATA" "$tmp/ok.runs")" -eq 2 ]'
for f in few huge b1 b2 b3; do
	"$LC" fit -c li -v p -f "$tmp/$f.txt" >/dev/null 2>"$tmp/err"
	fst=$?
	cp "$tmp/err" "$tmp/out"
	st=0
	check "fit -f $f.txt fails with a reason that does not end in ': '''" \
		'[ "$fst" -eq 1 ] && [ -s "$tmp/err" ] && ! grep -q ": '"''"'\$" "$tmp/err"'
done
finish
