#!/bin/sh
# t_fit_physical.sh — a time cannot be negative: "fit" marks (the user's
# formula) or leaves out (--search) a model whose fitted curve goes below
# zero in the measured range or up to --upto, and "predict" never prints a
# negative time or interval bound without a note.
#
# The runs are generated with a known truth (n = 256..724, p = 1..4, three
# repeats each): rc = 4.64e-07*n^2 - 8.99e-10*n^2*p^3*log2(p)^2, positive
# where it was measured and far below zero at p = 64, the form a search
# chose for a measured Jacobi (where predict --at "n=1448 p=64" printed
# T(E) = -277.6 s).
set -u

SUB=fit
. tests/lib.sh
R=$tmp/jacobi.runs

awk 'BEGIN {
	split("1.0 1.02 0.985", m, " ")
	for (i = 0; i < 4; i++) for (p = 1; p <= 4; p++) for (r = 1; r <= 3; r++) {
		n = int(256 * 2 ^ (i / 2))
		rc = 4.64e-07 * n * n - 8.99e-10 * n * n * p ^ 3 * (log(p) / log(2)) ^ 2
		printf "n=%d p=%d rt=%.6g li=%.6g ip=0.001 sl=0 cl=%.6g rc=%.6g\n", n, p,
			1e-7 * n * n * log(n) / log(2) * m[r], 1e-9 * n * n * m[r],
			1e-9 * n * n * p * m[r], rc * m[r]
	}
}' >"$R"
F='n^2 + n^2*p^3*log2(p)^2'

run fit -c rc -v "n p" -f "$R" "$F"
check "the truth's form fits the measured range without a mark" \
	'grep -q "^ 1\. .*n^2\*p^3\*log2(p)^2" "$tmp/out" && ! grep -q "<0" "$tmp/out"'

run fit -c rc -v "n p" -f "$R" "$F" 'n^2' --upto "p=64"
check "--upto p=64: the user's form is marked below zero, with a note" \
	'grep -q "^ [12]\. .*n^2\*p^3\*log2(p)^2.*<0$" "$tmp/out" && grep -q "^<0 the fitted curve" "$tmp/out" &&
	 grep -q "goes below zero at n=[0-9.e+]* p=[0-9.]*: a time cannot" "$tmp/out"'

run fit -c rc -v "n p" -f "$R" --search --upto "n=1448 p=64" --emit "$tmp/m.model"
check "--search --upto: forms below zero up to p=64 are left out, and counted" \
	'grep -q "^note: [0-9]* forms* whose fitted curve goes below zero in the measured range or up to --upto left out" "$tmp/out"'
run predict -m "$tmp/m.model" --at "n=1448 p=64"
check "the searched model predicts rc >= 0 at n=1448 p=64" \
	'grep -q "^rc " "$tmp/out" && ! grep -q "^rc  *.* -[0-9]" "$tmp/out"'

cat >"$tmp/neg.model" <<'X'
%log 2
rt(n,p) = 1e-7*n^2*log2(n)
li(n,p) = 1e-9*n^2
ip(n,p) = 0.001
sl(n,p) = 0
cl(n,p) = 1e-9*n^2*p
rc(n,p) = 4.64e-07*n^2 - 8.99e-10*n^2*p^3*log2(p)^2
X
run predict -m "$tmp/neg.model" --at "n=1448 p=64"
check "predict: a category below zero counts as 0, with a note; T(E) is not negative" \
	'grep -q "^note: a category.s model below zero counts as 0 (a time cannot be negative; rc = -" "$tmp/out" &&
	 grep -q "^T(E) = sum C(E)/p = [0-9]" "$tmp/out" && ! grep -q "interval -" "$tmp/out" &&
	 ! grep -q "speedup over p=1: -" "$tmp/out"'
run predict -m "$tmp/neg.model" --grid "n=1448 p=1,4,16,64"
check "predict --grid: the note under the table" \
	'grep -q "^note: a category.s model below zero counts as 0 .* at the first such point" "$tmp/out"'

finish
