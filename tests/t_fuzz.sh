#!/bin/sh
# t_fuzz.sh — each libFuzzer target (tests/fuzz/: the profile reader on any
# bytes and on blocks mutated with their CRCs repaired, the
# runs parser, the formula parser, the model-file reader, the grid parser,
# merge's node-file checks, the gnuplot string quoting of the plot scripts,
# the Extra-P readers)
# runs a few seconds from its kept corpus (tests/fuzz/corpus/NAME, real
# files and the regression inputs of crashes found and fixed): no crash, no
# leak, no sanitizer report.  New inputs go to a scratch folder, never into
# the kept corpus.  "make fuzz" runs them for minutes.  Skipped when clang's
# libFuzzer is not installed (the targets were not built).
. tests/lib.sh
set -u
SECS=${FUZZ_CHECK_SECONDS:-3}
for t in profile profile_blocks runs formula model grid merge gpquote extrap; do
	[ -x "build/fuzz/fuzz_$t" ] || {
		skip t_fuzz "build/fuzz/fuzz_$t was not built: clang with libFuzzer (-fsanitize=fuzzer) is not installed"
	}
done
lc_tmpdir
nfail=0
for t in profile profile_blocks runs formula model grid merge gpquote extrap; do
	mkdir "$tmp/$t"
	# the sanitized build's options are not for the fuzzers
	if env -u ASAN_OPTIONS -u TSAN_OPTIONS "build/fuzz/fuzz_$t" -max_total_time="$SECS" \
		-timeout=10 -print_final_stats=1 -artifact_prefix="$tmp/" "$tmp/$t" \
		"tests/fuzz/corpus/$t" >"$tmp/$t.log" 2>&1; then
		echo "ok    fuzz_$t: $(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log") inputs in ${SECS} s"
	else
		nfail=$((nfail + 1))
		echo "FAIL  fuzz_$t:"
		grep -E 'ERROR|SUMMARY|#[0-9]+ ' "$tmp/$t.log" | head -20 | sed 's/^/      /'
	fi
done
[ "$nfail" -eq 0 ] && echo "t_fuzz: all passed"
[ "$nfail" -eq 0 ]
