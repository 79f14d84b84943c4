#!/bin/sh
# t_diff.sh — "lostcycles diff" end to end on an unmodified OpenMP program
# (tests/layers/omp_skew.c): its skewed loop under schedule(static) against
# the same loop under schedule(dynamic), the fix of an imbalanced loop.
# The loop's load imbalance falls beyond noise, the total falls, the loop
# is matched across its two source lines by function and construct kind,
# nothing got slower beyond noise; --fail-if "li>+5%" the other way round
# exits 3; usage errors exit 2 with their reason.  A run whose sampler fell
# behind is not judged.
set -u
SUB=diff
. tests/lib.sh
skip_under_tsan t_diff

WL=build/layers/omp_skew
[ -x "$WL" ] && [ -f build/liblostcycles-omp.so ] ||
	skip t_diff "no OpenMP layer or test program (needs clang and libomp-dev)"
[ -z "${LC_SAN:-}" ] || skip t_diff "under SAN the OpenMP programs are built by clang"
lc_tmpdir
export OMP_NUM_THREADS=2
unset OMP_TOOL_LIBRARIES LD_PRELOAD OMP_SCHEDULE

for m in static dynamic; do
	"$LC" record --omp -o "$tmp/$m.data" "$WL" "$m" >"$tmp/$m.out" 2>"$tmp/$m.err" ||
		{ fail "record $m"; cat "$tmp/$m.err"; finish; exit 1; }
done
if machine_busy "$tmp/static.err" "$tmp/dynamic.err"; then
	skip t_diff "$busy_reason"
fi

"$LC" diff "$tmp/static.data" "$tmp/dynamic.data" >"$tmp/d.txt" 2>&1
status_ok "diff static dynamic" $? "$tmp/d.txt"
has_lines "the loop's LI falls beyond noise; total falls; nothing slower" "$tmp/d.txt" \
	'^omp_skew\.c:[0-9]* .*omp [a-z]* *li .* faster *omp_skew\.c:' \
	'^total .*beyond noise); faster beyond noise: omp_skew' \
	'slower beyond noise: nothing$'

"$LC" diff --format csv --all "$tmp/static.data" "$tmp/dynamic.data" >"$tmp/d.csv"
has_lines "CSV" "$tmp/d.csv" '^place,what,cat,a_s,b_s,change_s,change,a_share,b_share,se_s,z,verdict,b_place$' \
	'^(total),,all,'

"$LC" diff --fail-if 'li>+5%' "$tmp/dynamic.data" "$tmp/static.data" >/dev/null 2>"$tmp/f.err"
r=$?
[ "$r" -eq 3 ] && ok "--fail-if li>+5% holds: exit 3" ||
	{ fail "--fail-if: exit $r, not 3"; cat "$tmp/f.err"; }

"$LC" diff --fail-if 'li+5%' "$tmp/static.data" "$tmp/dynamic.data" >/dev/null 2>"$tmp/u.err"
r=$?
[ "$r" -eq 2 ] && grep -q "no operator" "$tmp/u.err" && ok "a bad --fail-if: exit 2, reason" ||
	{ fail "bad --fail-if: exit $r"; cat "$tmp/u.err"; }
"$LC" diff "$tmp/static.data" >/dev/null 2>"$tmp/u.err"
r=$?
[ "$r" -eq 2 ] && grep -q "give two profiles" "$tmp/u.err" && ok "one profile: exit 2, reason" ||
	{ fail "one profile: exit $r"; cat "$tmp/u.err"; }

"$LC" diff --html "$tmp/d.html" "$tmp/static.data" "$tmp/dynamic.data" >/dev/null &&
	grep -q '<tr class="faster"><td>omp_skew' "$tmp/d.html" && ok "--html" || fail "--html"
finish
