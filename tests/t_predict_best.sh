#!/bin/sh
# t_predict_best.sh — "lostcycles predict --best", the pipeline-tuning
# optimizer: on T = a/p + b*p the best p is a grid neighbour of
# p* = sqrt(a/b); on a pipelined wavefront model in p and a block size b it
# is the exhaustive minimum of predict --grid's own table (computed here
# with awk); constraints and the efficiency floor hold on every row; the
# runner-ups are in order; CSV and JSON; bad input refused with one line.
# Run from the top of the tree with sh; exits non-zero on failure.
set -u

SUB=predict
. tests/lib.sh

# csv_col FILE NAME: the column NAME of the CSV FILE, one value a line.
csv_col() {
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		{ print $c }' "$1"
}

# T = a/p + b*p as tt = p*T; the best p over the grid G must be the largest
# grid value at or below p* or the smallest at or above it.
known() {
	printf 'tt(p) = %s + %s*p^2\n' "$1" "$2" >"$tmp/ab.model"
	run predict -m "$tmp/ab.model" --grid "p=$3" --best --format csv
	best=$(csv_col "$tmp/out" p | head -n 1)
	"$LC" predict -m "$tmp/ab.model" --grid "p=$3" 2>/dev/null |
		awk -v a="$1" -v b="$2" -v best="${best:-x}" '
		$1 + 0 == $1 && NF > 2 { v = $1 + 0; s = sqrt(a / b)
			if (v <= s && (lo == "" || v > lo)) lo = v
			if (v >= s && (hi == "" || v < hi)) hi = v }
		END { exit !(best != "x" && (best == lo || best == hi)) }' >"$tmp/ok" 2>&1
	ok_known=$?
	check "T = $1/p + $2*p over p=$3: best p=${best:-?}, a grid neighbour of p* = sqrt(a/b)" \
		'[ $ok_known -eq 0 ]'
}
known 1000 1 "1..200"
known 50 2 "1..64"
known 7 0.001 "1,2,4,...,512"
known 3e5 0.5 "1..1000:7"

printf 'tt(p) = 1000 + 1*p^2\n' >"$tmp/ab.model"
run predict -m "$tmp/ab.model" --grid "p=1..200" --best
check "text: the title, the best line, p=32 (p* = 31.6) with T = 63.25" \
	'grep -q "^lostcycles predict --best: least T(E) of .* over p=1\.\.200$" "$tmp/out" &&
	 grep -q "^200 points: 200 feasible" "$tmp/out" &&
	 grep -q "^best: p=32  T(E) = 63\.25 s (90% prediction interval" "$tmp/out" &&
	 grep -q "^ *1  *32  *63\.25 " "$tmp/out"'
check "five rows by default, ranked 1..5" \
	'[ "$(awk "\$1 ~ /^[1-9]\$/ && NF == 8" "$tmp/out" | cut -c1-5 | tr -d " " | tr "\n" " ")" = "1 2 3 4 5 " ]'

# the runner-ups in order, for each goal
for goal in time speedup speedup-per-p; do
	case $goal in
	time) col=T_s sort="-g" ;;
	speedup) col=speedup sort="-gr" ;;
	speedup-per-p) col=efficiency sort="-gr" ;;
	esac
	run predict -m "$tmp/ab.model" --grid "p=1..200" --best $goal --top 8 --format csv
	csv_col "$tmp/out" $col >"$tmp/col"
	check "--best $goal --top 8: eight rows, ordered by $col" \
		'[ "$(wc -l <"$tmp/col")" -eq 8 ] && sort $sort "$tmp/col" | cmp -s - "$tmp/col"'
done
check "--best speedup-per-p: the most efficient point, p=1" \
	'[ "$(csv_col "$tmp/out" p | head -n 1)" = 1 ]'

# a prediction interval from the model's covariance
printf 'tt(p) = 1000 + 1*p^2\n#: tt dof=10 s2=4 cov=4,0,0,1e-06\n' >"$tmp/ci.model"
run predict -m "$tmp/ci.model" --grid "p=1..200" --best --format csv
check "the 90% interval around T on every row (low < T < high)" \
	'awk -F, "NR > 1 { n++; if (!(\$4 < \$3 && \$3 < \$5)) bad = 1 } END { exit bad || n != 5 }" \
	 "$tmp/out"'

# constraints
run predict -m "$tmp/ab.model" --grid "p=1..200" --best --where "p<=16" --format csv
check "--where p<=16: the best is the boundary p=16, every row p<=16" \
	'[ "$(csv_col "$tmp/out" p | head -n 1)" = 16 ] &&
	 csv_col "$tmp/out" p | awk "\$1 > 16 { bad = 1 } END { exit bad }"'
run predict -m "$tmp/ab.model" --grid "p=1..200" --best --where "p!=32, p>=20" --where "p<40" \
	--top 20 --format csv
check "--where p!=32, p>=20 and p<40: the best p=31, no row outside, 19 rows" \
	'[ "$(csv_col "$tmp/out" p | head -n 1)" = 31 ] && [ "$(wc -l <"$tmp/out")" -eq 20 ] &&
	 csv_col "$tmp/out" p | awk "\$1 == 32 || \$1 < 20 || \$1 >= 40 { bad = 1 } END { exit bad }"'
# E(p) = 1001/(1000 + p^2) >= 0.5 for p <= 31
run predict -m "$tmp/ab.model" --grid "p=1..200" --best --min-efficiency 0.5 --format csv
check "--min-efficiency 0.5: the best p=31 (E(32) = 0.495), every row's efficiency >= 0.5" \
	'[ "$(csv_col "$tmp/out" p | head -n 1)" = 31 ] &&
	 csv_col "$tmp/out" efficiency | awk "\$1 < 0.5 { bad = 1 } END { exit bad }"'

# the pipeline-tuning seed's shape: n/b + p - 1 stages of b*n/p*c1 + c2*p
# seconds; an interior optimum in p and b (p* ~ 20, b* ~ 200 at n=4096)
printf 'tt(n,p,b) = (n/b + p - 1)*(1e-7*b*n + 0.004*p)\n' >"$tmp/pipe.model"
G="p=1..64 b=16..512:16"
# exhaustive WHERE: the least T(E) of the --grid table among rows where
# the awk condition WHERE holds (p in $1, b in $2), as "p b T"
exhaustive() {
	"$LC" predict -m "$tmp/pipe.model" --grid "$G n=4096" 2>/dev/null |
		awk "\$1 + 0 == \$1 && NF > 4 && ($1) { if (m == \"\" || \$5 < m) { m = \$5; at = \$1 \" \" \$2 } }
			END { print at, m }"
}
# best_of ARGS: the best row of predict --best ARGS as "p b T"
best_of() {
	run predict -m "$tmp/pipe.model" --grid "$G" --where n=4096 --best --format csv "$@"
	awk -F, 'NR == 2 { printf "%s %s %.6g\n", $2, $3, $5 }' "$tmp/out"
}
ex=$(exhaustive 1)
be=$(best_of)
check "pipeline model: --best ($be) equals the exhaustive search of the grid table ($ex)" \
	'[ -n "$ex" ] && [ "$be" = "$ex" ] && [ "${be%% *}" -gt 1 ] && [ "${be%% *}" -lt 64 ]'
ex=$(exhaustive '$2 <= 64 && $1 != 20')
be=$(best_of --where "b<=64" --where "p!=20")
check "pipeline model under b<=64, p!=20: --best ($be) equals the exhaustive search ($ex)" \
	'[ -n "$ex" ] && [ "$be" = "$ex" ]'
check "--where n=4096 adds n as a column of the one value" \
	'[ "$(csv_col "$tmp/out" n | sort -u)" = 4096 ]'

run predict -m "$tmp/pipe.model" --grid "$G" --where n=4096 --best --top 3 --format json
if command -v python3 >/dev/null 2>&1; then
	check "--format json: an array of three objects with the point and T" \
		'python3 -c "import json,sys; d = json.load(open(sys.argv[1])); \
		 assert len(d) == 3 and all(set(\"rank p b n T_s T_low T_high\".split()) <= set(r) for r in d); \
		 assert [r[\"rank\"] for r in d] == [1, 2, 3]" "$tmp/out"'
else
	check "--format json: three objects" '[ "$(grep -c "\"rank\":" "$tmp/out")" -eq 3 ]'
fi

# refused with one clear line
printf 'rt(p) = 10/p\n' >"$tmp/rt.model"
refuse "a model without T(E)" 1 "rt.model has no model for li ip sl cl" \
	-m "$tmp/rt.model" --grid "p=1..4" --best
refuse "no feasible point: what ruled the points out" 1 \
	"--best: no point of the grid meets the constraints: of 64 points, 64 fail --where" \
	-m "$tmp/ab.model" --grid "p=1..64" --best --where "p>64"
refuse "no point above the efficiency floor: the highest named" 1 \
	"63 have an efficiency below --min-efficiency 0.999 (the highest: 0.997 at p=2)" \
	-m "$tmp/ab.model" --grid "p=1..64" --best --where "p>1" --min-efficiency 0.999
refuse "a grid too large" 1 "8192 points, more than --max-points 1000" \
	-m "$tmp/pipe.model" --grid "p=1..256 b=1..32" --where n=64 --best --max-points 1000
refuse "p not a whole number" 1 "--best: p=1.5 is not a whole number of processors" \
	-m "$tmp/ab.model" --grid "p=1,1.5,2" --best
refuse "--best with --at" 1 "--best searches a grid: give --grid, not --at" \
	-m "$tmp/ab.model" --at "p=4" --best
refuse "an unknown goal" 2 "bad --best 'fastest'" -m "$tmp/ab.model" --grid p=1..4 --best fastest
refuse "--where without --best" 2 "--where needs --best" -m "$tmp/ab.model" --grid p=1..4 \
	--where "p<2"
refuse "a constraint that is not VAR OP NUMBER" 1 "--where 'p<<2': '<2' is not a number" \
	-m "$tmp/ab.model" --grid p=1..4 --best --where "p<<2"
refuse "an inequality on a variable the grid lacks" 1 "--where q<=4: q is not a variable of --grid" \
	-m "$tmp/ab.model" --grid p=1..4 --best --where "q<=4"
refuse "--best with --compare" 2 "--best takes no --compare, --what-if or --plot" \
	-m "$tmp/ab.model" --compare "$tmp/ab.model" --grid p=1..4 --best

finish
