#!/bin/sh
# t_extrap_errors.sh — Extra-P text files are read whole or refused with
# the real reason: fewer DATA lines than POINTS is refused (it was fitted
# on what was there); a POINTS line longer than 64 KiB within the bound of
# 10000 points is read (it was refused as "unbalanced '('"), one beyond it
# is refused as such (300,000 points); every parse error names its line and
# the offending word, and none ends in ": ''".
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
for f in few huge b1 b2 b3; do
	"$LC" fit -c li -v p -f "$tmp/$f.txt" >/dev/null 2>"$tmp/err"
	fst=$?
	cp "$tmp/err" "$tmp/out"
	st=0
	check "fit -f $f.txt fails with a reason that does not end in ': '''" \
		'[ "$fst" -eq 1 ] && [ -s "$tmp/err" ] && ! grep -q ": '"''"'\$" "$tmp/err"'
done
finish
