#!/bin/sh
# t_input.sh — hostile analysis input is refused with one line, never an
# abort or an endless read: a model file whose "#:" line has a huge, NaN,
# fractional or infinite field (GSL's abort handler is off and every field is
# checked), a predict or compose grid of more points than --max-points, and
# a profile that is not one (report -f /dev/zero stops at the first read).
# Run from the top of the tree with sh; exits non-zero on failure.
set -u

SUB=predict
. tests/lib.sh
D=tests/data/fit

"$LC" fit -c rt -v "n p" -f $D/runfast.runs "n^2*log2(n)" --emit "$tmp/m" >/dev/null 2>&1 ||
	{ echo "t_input: fit --emit failed"; exit 1; }
grep -q '^#: rt dof=' "$tmp/m" || { echo "t_input: no '#:' line in the model"; exit 1; }
run predict -m "$tmp/m" --at "n=64 p=2"
check "the model as fitted predicts" 'grep -q "^rt " "$tmp/out"'
# bad NAME SED-EXPR PATTERN: the model with its "#:" line edited is refused
bad() {
	sed "/^#:/$2" "$tmp/m" >"$tmp/bad"
	refuse "$1" 1 "$3" -m "$tmp/bad" --at "n=64 p=2"
}
bad "dof=1e30 refused (was an abort through (int)dof)" 's/dof=[0-9]*/dof=1e30/' "dof must be a whole number"
bad "dof=3e9 refused" 's/dof=[0-9]*/dof=3e9/' "dof must be a whole number"
bad "dof=nan refused" 's/dof=[0-9]*/dof=nan/' "dof must be a whole number"
bad "dof=2.5 refused" 's/dof=[0-9]*/dof=2.5/' "dof must be a whole number"
bad "s2=inf refused" 's/s2=[^ ]*/s2=inf/' "s2 must be a finite number"
bad "s2=-1 refused" 's/s2=[^ ]*/s2=-1/' "s2 must be a finite number"
bad "a NaN covariance refused" 's/cov=.*/cov=nan/' "covariance 1 is not a finite number"
bad "rel=7 refused" 's/ rel=1/ rel=7/' "rel must be 0 or 1"

# grids: the product of the axes is capped
refuse "a 10^10-point grid is refused by the default --max-points" 1 "more than --max-points 1000000" \
	-m "$tmp/m" --grid "n=1..100000 p=1..100000"
refuse "eight long axes (a product past 2^64) are refused" 1 "too many points" \
	-m $D/fft_data.model --grid "n=1..100000 p=1..100000 a=1..100000 b=1..100000 c=1..100000 d=1..100000 e=1..100000 f=1..100000"
refuse "--max-points lowers the cap" 1 "6 points, more than --max-points 5" \
	-m "$tmp/m" --grid "n=64,128 p=1..3" --max-points 5
run predict -m "$tmp/m" --grid "n=64,128 p=1..3" --max-points 6
check "--max-points 6 takes a 6-point grid" '[ "$(grep -c "^ *\(64\|128\) " "$tmp/out")" -eq 6 ]'
refuse "--max-points 0 is a usage error" 2 "bad --max-points" -m "$tmp/m" --at "n=1 p=1" --max-points 0
SUB=compose refuse "compose caps its grid too" 1 "more than --max-points 1000000" \
	-s tests/data/compose/annotated.lcm --grid "n=1..100000 p=1..100000 k=1"

# a profile that is not one: refused at its first bytes
SUB=report
if [ -z "${LC_SAN:-}" ]; then
	# 1 GB of address space: reading /dev/zero to the end would fail with
	# ENOMEM instead of the reason (sanitizers reserve more, so not there)
	( ulimit -v 1000000; "$LC" report -f /dev/zero ) >"$tmp/out" 2>"$tmp/err"
	st=$?
else
	"$LC" report -f /dev/zero >"$tmp/out" 2>"$tmp/err"
	st=$?
fi
[ "$st" -eq 1 ] && grep -q "not a lostcycles profile" "$tmp/err" &&
	ok "report -f /dev/zero: not a lostcycles profile, at the first read" ||
	{ fail "report -f /dev/zero: status $st"; cat "$tmp/err"; }
head -c 3 /dev/zero >"$tmp/z3"
refuse "a 3-byte foreign file is not a profile" 1 "not a lostcycles profile" -f "$tmp/z3"
SUB=input
finish
