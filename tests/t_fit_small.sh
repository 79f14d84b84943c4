#!/bin/sh
# t_fit_small.sh — small things of fit and predict: a category 0 in every
# run gets the model 0 (with a note), which --emit writes so that predict's
# T(E) counts it; --prune's "also what pruning left" line names two models
# and how many more; fit --emit records the largest measured p (%pmax);
# -c all fits every category of the runs in one call.
set -u

SUB=fit
. tests/lib.sh

for n in 64 128 256; do for p in 1 2 4; do
	printf 'n=%d p=%d rt=%s li=0.01 ip=0.02 sl=0 cl=0.03\n' "$n" "$p" "$(awk -v n="$n" 'BEGIN { print n * n / 1e4 }')"
done; done >"$tmp/z.runs"
run fit -c sl -v "n p" -f "$tmp/z.runs" --emit "$tmp/z.model"
check "sl 0 in every run: the model is 0, said, emitted" \
	'grep -q "^note: sl is 0 in all 9 runs: its model is 0" "$tmp/out" && grep -q "^ 1\. (0 +/- 0)  " "$tmp/out" &&
	 grep -q "^sl(n,p) = 0 " "$tmp/z.model" && grep -q "^%pmax 4$" "$tmp/z.model"'
for c in rt li ip cl; do "$LC" fit -c "$c" -v "n p" -f "$tmp/z.runs" --search --emit "$tmp/z.model" >/dev/null 2>&1; done
run predict -m "$tmp/z.model" --at "n=512 p=4"
check "predict: T(E) with sl counted as 0" 'grep -q "^sl .* 0 *0 *0$" "$tmp/out" && grep -q "^T(E) = sum C(E)/p = [0-9]" "$tmp/out"'

run fit -c all -v "n p" -f "$tmp/z.runs" --search --emit "$tmp/all.model"
check "-c all: every category of the runs in one call, each emitted" \
	'[ "$(grep -c "^lostcycles fit " "$tmp/out")" -eq 5 ] &&
	 [ "$(grep -c "^[a-z]*(n,p) = " "$tmp/all.model")" -eq 5 ] && grep -q "^sl(n,p) = 0 " "$tmp/all.model"'
run predict -m "$tmp/all.model" --at "n=512 p=4"
check "-c all: its model file predicts T(E)" 'grep -q "^T(E) = sum C(E)/p = [0-9]" "$tmp/out"'

run fit -c rt -v "n p" -f tests/data/fit/runfast.runs --search --prune
check "--prune: the also line names two models and how many more" \
	'grep -q "^    also what pruning left of .* and [0-9]* more$" "$tmp/out" &&
	 [ "$(grep "also what" "$tmp/out" | awk "{ if (length > m) m = length } END { print m + 0 }")" -lt 400 ]'

finish
