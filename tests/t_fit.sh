#!/bin/sh
# t_fit.sh — "lostcycles fit" end to end on tests/data/fit/runfast.runs:
# the ranked default forms, multi-variable fits with --emit, --search,
# --prune, -g files, CSV input, and every kind of bad input refused with a
# one-line message naming the problem (file:line and token, the formula's
# column, the reason a fit is refused, the unknown name), never a crash.
# Run from the top of the tree with sh; exits non-zero on failure.
set -u

LC=./lostcycles
R=tests/data/fit/runfast.runs
[ -x "$LC" ] || { echo "t_fit: $LC is missing (run make)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lc-t_fit.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
nfail=0
ntest=0

ok() { ntest=$((ntest + 1)); echo "ok    $*"; }
fail() { ntest=$((ntest + 1)); nfail=$((nfail + 1)); echo "FAIL  $*"; }

# run ARGS...: run lostcycles ARGS with both outputs in $tmp/out and the
# exit status in $st.
run() {
	"$LC" "$@" >"$tmp/out" 2>&1
	st=$?
}

# check NAME COND: the last run exited 0 and COND, a shell test run with
# eval, holds.
check() {
	name=$1; shift
	if [ "$st" -ne 0 ]; then
		fail "$name: exit status $st"; sed 's/^/      /' "$tmp/out"; return
	fi
	if eval "$@"; then ok "$name"; else fail "$name"; fi
}

# refuse NAME STATUS PATTERN ARGS...: fit exits with STATUS (1: bad data,
# 2: bad command line) and exactly one stderr line containing PATTERN.
refuse() {
	name=$1; want=$2; pat=$3; shift 3
	"$LC" fit "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne "$want" ]; then
		fail "$name: exit status $st, want $want"; sed 's/^/      /' "$tmp/err"; return
	fi
	if ! grep -qF -- "$pat" "$tmp/err"; then
		fail "$name: stderr lacks '$pat':"; sed 's/^/      /' "$tmp/err"; return
	fi
	if [ "$(grep -c '^lostcycles fit:' "$tmp/err")" -ne 1 ]; then
		fail "$name: not one message line:"; sed 's/^/      /' "$tmp/err"; return
	fi
	ok "$name"
}

run fit --help
check "--help exits 0 with the usage" 'grep -q "usage: lostcycles fit" "$tmp/out"'

run fit -c li -v p -f "$R" -x "n=256"
check "li over p: p*sqrt(p) ranks first" \
	'grep -q "^ 1\. (0\.1[89][0-9]* +/- [0-9.e-]*) \* p\*sqrt(p)  *R2 : 0\.99" "$tmp/out"'
check "li over p: 8 points from 10 runs, repeats averaged" \
	'grep -q "8 points from 10 runs (repeats averaged); 11 not selected by -x" "$tmp/out"'
check "li over p: a zero-interval term is flagged" 'grep -q "+/- [0-9.e-]*)?" "$tmp/out"'

run fit -c rc -v p -f "$R" -x "n=256"
check "rc over p: the threshold form ranks first" \
	'grep -q "^ 1\. max((.*) \* p + (.*), (.*))  \[threshold p ~ 10\]" "$tmp/out"'

run fit -c li -v p -f "$R" -x "n=256" --prune
check "--prune drops the constant of p*sqrt(p) + 1" \
	'grep -q "also what pruning left of .p\*sqrt(p) + 1. (dropped 1)" "$tmp/out" &&
	 [ "$(grep -c "p\*sqrt(p)  " "$tmp/out")" -eq 1 ]'

run fit -c li -v "n p" -f "$R" "n*log(n)*p*sqrt(p), n*log(n)*p*sqrt(p) + n*log(n), n*p" \
	--emit "$tmp/m"
check "li over n p: the product form ranks first" \
	'grep -q "^ 1\. ([0-9.e-]* +/- [0-9.e-]*) \* n\*log(n)\*p\*sqrt(p)  " "$tmp/out"'
check "--emit writes the model line and its covariance" \
	'grep -q "^li(n,p) = [0-9.e-]*\*n\*log(n)\*p\*sqrt(p)   # 90%: k1 in \[" "$tmp/m" &&
	 grep -q "^#: li dof=[0-9]* s2=[0-9.e-]* rel=1 cov=[0-9.e-]*$" "$tmp/m" &&
	 grep -q "^%log e$" "$tmp/m"'

run fit -c rt -v n -f "$R" -x "p=26" --search --top 3
check "--search finds n^2*log2(n) for rt over n" \
	'grep -q "^ 1\. (.*) \* n^2\*log2(n) + (.*)" "$tmp/out"'

run fit -c li -v p -f "$R" -x "n=256" -g "$tmp/li"
check "-g writes the gnuplot script and data" \
	'[ -s "$tmp/li.gp" ] && [ -s "$tmp/li.data" ] && grep -q "index 1 using 1:2 with lines" "$tmp/li.gp"'
if command -v gnuplot >/dev/null 2>&1; then
	check "-g makes a PNG with gnuplot" '[ "$(head -c 4 "$tmp/li.png" | tail -c 3)" = "PNG" ]'
fi

printf 'p,li,rc\n1,0.01,na\n2,0.029,na\n4,0.08,na\n8,0.226,na\n16,0.64,na\n' >"$tmp/r.csv"
run fit -c li -v p -f "$tmp/r.csv" "p*sqrt(p)"
check "CSV runs file" 'grep -q "^ 1\. (0\.0[0-9]* +/- .*) \* p\*sqrt(p)" "$tmp/out"'

printf 'p=1 li=0.1\np=2 li=0.x2\n' >"$tmp/bad"
refuse "malformed line: file:line and token" 1 "$tmp/bad:2: value is not a number or 'na': 'li=0.x2'" \
	-c li -v p -f "$tmp/bad"
printf 'p=1 li=0.1 oops\n' >"$tmp/bad"
refuse "malformed token" 1 "$tmp/bad:1: expected NAME=VALUE: 'oops'" -c li -v p -f "$tmp/bad"
refuse "formula syntax error: column" 1 "formula 'p*sqrt(p': column 9: missing ')'" \
	-c li -v p -f "$R" "p*sqrt(p"
refuse "unknown variable in a formula" 1 "column 3: unknown variable 'q'" -c li -v p -f "$R" "p*q"
refuse "too few points" 1 "too few points: 3 parameters need at least 4 points, have 3" \
	-c li -v p -f "$R" -x "n=256 && p<=4" "p*sqrt(p) + p + 1"
refuse "rank-deficient" 1 "rank-deficient: the terms are linearly dependent" \
	-c li -v p -f "$R" "p + 2*p"
refuse "unknown category" 2 "unknown category 'zz' (known: li ip sl cl rc ml bl wc rt tt)" \
	-c zz -v p -f "$R"
refuse "unknown variable" 1 "unknown variable 'q': no run in $R has it" -c li -v q -f "$R"
refuse "category na everywhere" 1 "ml is 'na' in all 21 selected runs" -c ml -v p -f "$R"
refuse "no default forms" 1 "no default models for rt over \"n\"" -c rt -v n -f "$R"
refuse "unknown name in -x" 1 "extraction 'd=32': column 1: unknown variable 'd'" \
	-c li -v p -f "$R" -x "d=32"
refuse "-x selects nothing" 1 "-x 'n=3' selects none of the 21 runs" -c li -v p -f "$R" -x "n=3"
refuse "missing file" 1 "$tmp/none: No such file or directory" -c li -v p -f "$tmp/none"
refuse "missing -c" 2 "-c CATEGORY, -v VARS and -f RUNS are required" -v p -f "$R"
refuse "bad --top" 2 "--top wants a whole number" -c li -v p -f "$R" --top x
printf 'p=0 li=1\np=1 li=2\np=2 li=3\n' >"$tmp/r0"
refuse "a term not finite at a point" 1 "term log(p) is not finite at p=0" -c li -v p -f "$tmp/r0" "log(p)"

echo "t_fit: $((ntest - nfail))/$ntest passed"
[ "$nfail" -eq 0 ]
