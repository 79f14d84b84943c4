#!/bin/sh
# t_fit_repeats.sh — "lostcycles fit --aggregate": a point's repeats make
# its value as their median (by default with 3 or more), mean or minimum,
# and the header shows their spread and the runs' noise.  The runs: y = 2p
# at p = 1, 2, 4, 8, three repeats each, one of them slowed 3 times (a
# loaded machine), so the median is exactly 2p, the mean is not.
set -u

SUB=fit
. tests/lib.sh
R=$tmp/r.runs

for p in 1 2 4 8; do
	printf 'p=%d rt=%s\np=%d rt=%s\np=%d rt=%s\n' "$p" "$((2 * p))" "$p" "$((2 * p))" \
		"$p" "$((6 * p))"
done >"$R"


run fit -c rt -v p -f "$R" -d 'p'
check "default: one slowed run of three is right-skewed: the smallest repeat, said why, exactly 2p" \
	'grep -q "(the smallest of each point.s repeats)" "$tmp/out" &&
	 grep -q "^aggregate: the smallest repeat, chosen from the repeats: right-skewed (their upper half-ranges infx the lower over 4 points;.*--aggregate overrides" "$tmp/out" &&
	 grep -q "^ 1\. (2 +/- [0-9.e-]*) \* p " "$tmp/out" &&
	 grep -q "^repeats: spread (largest - smallest) / value 200% .. 200% (the largest at p=1); the runs. noise" "$tmp/out"'
for p in 1 2 4 8; do
	for f in 0.97 1.0 1.03; do
		awk -v p=$p -v f=$f 'BEGIN { printf "p=%d rt=%.9g\n", p, 2 * p * f }'
	done
done >"$tmp/sym.runs"
run fit -c rt -v p -f "$tmp/sym.runs" 'p'
check "default: a symmetric spread is averaged, said why" \
	'grep -q "(repeats averaged)" "$tmp/out" &&
	 grep -q "^aggregate: the mean, chosen from the repeats: a symmetric spread (their upper half-ranges 1x the lower over 4 points" "$tmp/out" &&
	 grep -q "^ 1\. (2 +/- [0-9.e-]*) \* p " "$tmp/out"'
run fit -c rt -v p -f "$R" --aggregate median 'p'
check "--aggregate median overrides the choice, and nothing says it was chosen" \
	'grep -q "(the median of each point.s repeats)" "$tmp/out" && ! grep -q "^aggregate:" "$tmp/out"'
run fit -c rt -v p -f "$R" --aggregate mean 'p'
check "--aggregate mean: the slowed runs pull the model up" \
	'grep -q "(repeats averaged)" "$tmp/out" && grep -q "^ 1\. (3\.[0-9]* +/- [0-9.e-]*) \* p " "$tmp/out"'
run fit -c rt -v p -f "$R" --aggregate min 'p'
check "--aggregate min: the least disturbed run" \
	'grep -q "the smallest of each point.s repeats" "$tmp/out" && grep -q "^ 1\. (2 +/- [0-9.e-]*) \* p " "$tmp/out"'
"$LC" fit -c rt -v p -f "$R" --aggregate mode 'p' >"$tmp/out" 2>&1
st=$?
check_fails() { [ "$st" -ne 0 ] && [ "$(wc -l <"$tmp/out")" -le 2 ] && grep -q -- "$1" "$tmp/out"; }
if check_fails "bad --aggregate 'mode': unknown aggregate (mean, median or min)"; then ok "--aggregate mode: refused in one line"; else fail "--aggregate mode"; cat "$tmp/out"; fi
"$LC" fit -c rt -v p -f "$R" --upto "q=4" 'p' >"$tmp/out" 2>&1
st=$?
if check_fails "--upto wants VAR=VALUE with a -v variable, not 'q=4'"; then ok "--upto q=4: refused"; else fail "--upto q=4"; cat "$tmp/out"; fi
"$LC" fit -c rt -v p -f "$R" --upto "p=x" 'p' >"$tmp/out" 2>&1
st=$?
if check_fails "--upto p: 'x' is not a number"; then ok "--upto p=x: refused"; else fail "--upto p=x"; cat "$tmp/out"; fi

finish
