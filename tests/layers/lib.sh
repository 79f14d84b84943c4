# lib.sh — shell helpers of the layer tests (t_omp.sh, t_pthread.sh), sourced
# from the top of the tree.  A case records a program under a layer, reads
# the program's own "truth k=v ..." line from its stdout and the profile's
# "report -l" line, and compares numbers in seconds: a category matches the
# truth when they differ by at most TOL (0.05) of the profile's total time.
# Runs are recorded with --trace: the checks read the exact profile of the
# flags the layers set (--source trace), so that a sampler starved by a busy
# machine does not decide them; the sampled profile of the same run is kept
# as NAME.sampled for the cases that check it too.  Machines are noisy: a
# case whose check fails is recorded once more and fails only when the
# second run fails too.

LC=./lostcycles
TOL=0.05
tmp=$(mktemp -d /tmp/lc-t-layers.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
nfail=0

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
		2>"$tmp/$name.err"; then
		echo "      $name: lostcycles record failed:"
		sed 's/^/      | /' "$tmp/$name.err"
		return 1
	fi
	if ! "$LC" report -f "$tmp/$name.data" --source trace -l >"$tmp/$name.l" \
		2>"$tmp/$name.err" ||
	   ! "$LC" report -f "$tmp/$name.data" -l >"$tmp/$name.sampled.l" 2>"$tmp/$name.err"; then
		echo "      $name: lostcycles report failed:"
		sed 's/^/      | /' "$tmp/$name.err"
		return 1
	fi
	echo "      $name: $(cat "$tmp/$name.truth")"
	echo "      $name: trace   $(cat "$tmp/$name.l")"
	echo "      $name: sampled $(cat "$tmp/$name.sampled.l")"
}

# sampled NAME CAT KEY: the sampled profile of NAME: the sampler read every
# state word the layers wrote as valid (bad_reads 0: their mark is outside
# the state byte), and CAT is within TOL of the truth KEY.  The second part
# depends on a sampler that got its CPU: on a machine so busy that it did
# not, the difference is noted, not failed (the exact profile of the same
# run has been checked already; sampling accuracy is test_accuracy's job).
sampled() {
	bad=$("$LC" report -f "$tmp/$1.data" --format json |
		sed -n 's/.*"bad_reads": *\([0-9]*\).*/\1/p')
	echo "      $1.sampled: bad_reads=$bad"
	[ "$bad" = 0 ] || return 1
	cp "$tmp/$1.truth" "$tmp/$1.sampled.truth"
	near "$1.sampled" "$2" "$3" ||
		echo "      NOTE: $1: the sampled profile is off (a starved sampler?); not failed"
}

# near NAME CAT TRUTHKEY: category CAT of the profile matches the truth
# TRUTHKEY within TOL of the total time.  Prints the comparison.
near() {
	got=$(value "$2" "$tmp/$1.l")
	want=$(value "$3" "$tmp/$1.truth")
	tt=$(value tt "$tmp/$1.l")
	awk -v g="$got" -v w="$want" -v t="$tt" -v tol="$TOL" -v what="$1: $2=$got vs measured $3=$want" \
		'BEGIN { d = g - w; if (d < 0) d = -d;
			 printf "      %s: |diff| = %.4f s = %.2f %% of total %.4f s\n", what, d, 100 * d / t, t;
			 exit !(t > 0 && d <= tol * t) }'
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
# non-zero on a mismatch) up to twice; report ok or FAIL.
check() {
	if "$2"; then
		ok "$1"
	elif echo "      (once more)" && "$2"; then
		ok "$1 (second run)"
	else
		fail "$1"
	fi
}
