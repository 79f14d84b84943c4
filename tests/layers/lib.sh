# lib.sh — shell helpers of the layer tests (t_omp.sh, t_pthread.sh), sourced
# from the top of the tree.  A case records a program under a layer, reads
# the program's own "truth k=v ..." line from its stdout and the profile's
# "report -l" line, and compares numbers in seconds: a category matches the
# truth when they differ by at most TOL (0.05) of the profile's total time.
# Runs are recorded with --trace, so each run has two profiles: the exact
# one of the flags the layers set (--source trace), and the sampled one.
# near() checks both: the exact profile against the program's truth (TOL),
# and the sampled profile against the exact one, within what sampling error
# allows: 3 standard errors (report's "±" column) plus one tick per slot at
# either end of the run.  A sampled profile that is off while record warned
# "the sampler fell behind" (its CPU was taken: the time of a gap goes to
# the state seen at its end) is not judged: the case is recorded again, at
# most 3 tries in all, each noted (on a machine so busy that all 3 fell
# behind, the sampled profile is not judged, and the test ends with SKIP
# and the reason).  A case whose exact profile does not match is recorded
# once more too (machines are noisy) and fails when that run fails as well,
# unless the machine was measured too busy to judge it (tests/lib.sh's
# machine_busy): then it too is not judged.  Source tests/lib.sh first.

LC=./lostcycles
TOL=0.05
lc_tmpdir
nfail=0
INTERVAL=0.0001		# record's default sampling interval, s
try=1			# the try of the case that check() runs
behind=0		# a run of the case being checked warned that the sampler fell behind

ok() {
	echo "ok    $*"
}

fail() {
	nfail=$((nfail + 1))
	echo "FAIL  $*"
}

# value KEY FILE: the number after " KEY=" (or at the start of the line) in
# FILE's first line that has one.
value() {
	sed -n "s/^\(.* \)\{0,1\}$1=\([-0-9.e+]*\).*/\2/p" "$2" | head -n 1
}

# record NAME CMD...: record CMD into $tmp/NAME.data; the program's stdout
# goes to $tmp/NAME.truth, the report -l line to $tmp/NAME.l.  Returns
# non-zero (with a message) when record or report fails.  LAYERS holds the
# record options that load the layers (--omp, --pthread), set by the caller.
LAYERS=
record() {
	name=$1
	shift
	# shellcheck disable=SC2086
	if ! "$LC" record --force --trace $LAYERS -o "$tmp/$name.data" -- "$@" >"$tmp/$name.truth" \
		2>"$tmp/$name.rec"; then
		echo "      $name: lostcycles record failed:"
		sed 's/^/      | /' "$tmp/$name.rec"
		return 1
	fi
	if ! "$LC" report -f "$tmp/$name.data" --source trace -l >"$tmp/$name.l" \
		2>"$tmp/$name.err" ||
	   ! "$LC" report -f "$tmp/$name.data" -l >"$tmp/$name.sampled.l" 2>"$tmp/$name.err" ||
	   ! "$LC" report -f "$tmp/$name.data" --format csv >"$tmp/$name.sampled.csv" \
		2>"$tmp/$name.err"; then
		echo "      $name: lostcycles report failed:"
		sed 's/^/      | /' "$tmp/$name.err"
		return 1
	fi
	echo "      $name: $(cat "$tmp/$name.truth")"
	echo "      $name: trace   $(cat "$tmp/$name.l")"
	echo "      $name: sampled $(cat "$tmp/$name.sampled.l")"
	if grep "fell behind" "$tmp/$name.rec" | sed "s/^/      $name: /" | grep .; then
		behind=1
	fi
	return 0
}

# badreads NAME: the sampler read every state word the layers wrote as
# valid (bad_reads 0: their mark is outside the state byte).
badreads() {
	bad=$("$LC" report -f "$tmp/$1.data" --format json |
		sed -n 's/.*"bad_reads": *\([0-9]*\).*/\1/p')
	echo "      $1.sampled: bad_reads=$bad"
	[ "$bad" = 0 ]
}

# near NAME CAT TRUTHKEY: category CAT of the exact profile matches the
# truth TRUTHKEY within TOL of the total time, and CAT of the sampled
# profile matches the exact one within 3 standard errors of its sampling
# plus 2 x p x INTERVAL.  Prints the comparisons; a sampled mismatch of a
# run whose sampler fell behind sets behind=1.
near() {
	got=$(value "$2" "$tmp/$1.l")
	# computation is judged with the time its threads waited for a CPU
	# (RC), which both profiles take from the scheduler, as the programs
	# measure busy wall time
	[ "$2" = rt ] && got=$(awk -v a="$got" -v b="$(value rc "$tmp/$1.l")" \
		'BEGIN { printf "%.9f", a + b }')
	want=$(value "$3" "$tmp/$1.truth")
	tt=$(value tt "$tmp/$1.l")
	awk -v g="$got" -v w="$want" -v t="$tt" -v tol="$TOL" \
		-v what="$1: $2$([ "$2" = rt ] && echo +rc)=$got vs measured $3=$want" \
		'BEGIN { d = g - w; if (d < 0) d = -d;
			 printf "      %s: |diff| = %.4f s = %.2f %% of total %.4f s\n", what, d, 100 * d / t, t;
			 exit !(t > 0 && d <= tol * t) }' || return 1
	[ -f "$tmp/$1.sampled.csv" ] || return 0
	if [ "$2" = rt ]; then
		sgot=$(awk -v a="$(value rt "$tmp/$1.sampled.l")" -v b="$(value rc "$tmp/$1.sampled.l")" \
			'BEGIN { printf "%.9f", a + b }')
		se=$(awk -F, '$1 == "rt" || $1 == "rc" { v += $7 * $7 } END { printf "%.9f", sqrt(v) }' \
			"$tmp/$1.sampled.csv")
	else
		sgot=$(value "$2" "$tmp/$1.sampled.l")
		se=$(awk -F, -v k="$2" '$1 == k { print $7 }' "$tmp/$1.sampled.csv")
	fi
	p=$(value p "$tmp/$1.sampled.l")
	if awk -v s="$sgot" -v g="$got" -v se="$se" -v p="$p" -v iv="$INTERVAL" \
		-v what="$1.sampled: $2$([ "$2" = rt ] && echo +rc)=$sgot vs exact $2$([ "$2" = rt ] && echo +rc)=$got" \
		'BEGIN { d = s - g; if (d < 0) d = -d; lim = 3 * se + 2 * p * iv;
			 printf "      %s: |diff| = %.4f s (allowed %.4f s: 3 x se %.4f s + 2 x p x %g s)\n",
				what, d, lim, se, iv;
			 exit !(s != "" && se != "" && d <= lim) }'; then
		return 0
	fi
	grep -q "the sampler fell behind" "$tmp/$1.rec" || return 1
	if [ "$try" -ge 3 ]; then
		unjudged "$1.sampled: $2, off while the sampler fell behind on all 3 tries" "$tmp/$1.rec"
		return 0
	fi
	echo "      $1.sampled: off while the sampler fell behind: not judged"
	return 1
}

# share NAME CAT OP FRACTION: category CAT is OP (">=" or "<=") FRACTION of
# the total time.
share() {
	got=$(value "$2" "$tmp/$1.l")
	tt=$(value tt "$tmp/$1.l")
	awk -v g="$got" -v t="$tt" -v op="$3" -v f="$4" -v what="$1: $2=$got, total $tt" \
		'BEGIN { s = g / t; printf "      %s: %.2f %% (want %s %.1f %%)\n", what, 100 * s, op, 100 * f;
			 exit !(t > 0 && (op == ">=" ? s >= f : s <= f)) }'
}

# big NAME KEY FRACTION: the program's own truth KEY is at least FRACTION of
# its p x wall time, so that a category within TOL of it cannot be 0 (the
# cases use 0.10, twice TOL: a very busy machine stretches the programs'
# sleeps and shrinks their losses' share; the program's own numbers do not
# grow with a slow start or exit).
big() {
	awk -v v="$(value "$2" "$tmp/$1.truth")" -v p="$(value p "$tmp/$1.truth")" \
		-v w="$(value wall "$tmp/$1.truth")" -v f="$3" -v what="$1: measured $2" \
		'BEGIN { printf "      %s = %.2f %% of p x wall (want >= %.0f %%)\n", what,
			 100 * v / (p * w), 100 * f; exit !(p * w > 0 && v >= f * p * w) }'
}

# check WHAT FUNCTION: run FUNCTION (which records and checks, returning
# non-zero on a mismatch); report ok or FAIL.  A run that failed is tried
# again: once, and up to 3 tries in all while record warned that the
# sampler fell behind (the sampled profile is then off, and the exact one
# takes p and the run's total from the session, which a sampler without
# its CPU shapes too).
check() {
	try=1
	again=0
	while :; do
		behind=0
		if "$2"; then
			if [ "$try" -gt 1 ]; then ok "$1 (try $try)"; else ok "$1"; fi
			return
		fi
		if [ "$try" -ge 3 ] || { [ "$behind" = 0 ] && [ "$again" = 1 ]; }; then
			# shellcheck disable=SC2046
			unjudged "$1" $(ls -t "$tmp"/*.rec 2>/dev/null | head -n 1) || fail "$1"
			return
		fi
		if [ "$behind" = 1 ]; then
			echo "      NOTE: try $try: the sampler fell behind; once more"
		else
			again=1
			echo "      NOTE: try $try failed; once more"
		fi
		try=$((try + 1))
	done
}
