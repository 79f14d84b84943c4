#!/bin/sh
# t_scaling.sh — the scaling testbed (examples/scaling.c, whose threads'
# work is time asleep while flagged, so that p up to 64 behaves as on p
# processors) and its study (examples/scaling/study.sh): fitted on p <= 8,
# predicted at p = 16 and 64.
#  1. bad arguments: a usage line and exit 2, never a crash;
#  2. on generated runs of the testbed's laws (nothing timed, right-skewed
#     repeats): the study passes (T within 10 %, every category within 20 %
#     or 1 % of the total, no model below zero), and fails when the runs at
#     p = 64 are 30 % slower than the laws;
#  3. recorded: two repeats at p = 1, 2, 4, 8, 16, 64 (about 2.5 s, n =
#     250: phases a quarter as long as the study's): T within 10 %, every
#     category within 30 % or 2 % of the total (the full study's goals are
#     20 % and 1 %), or not judged when the machine was measured too busy.
set -u

SUB=scaling
. tests/lib.sh
need_built t_scaling build/examples/scaling examples
BIN=build/examples/scaling

for args in "0" "65" "2.5" "4 x" "4 1000 0" "2 1000 2 0" ""; do
	# shellcheck disable=SC2086
	$BIN $args >/dev/null 2>"$tmp/err"
	s=$?
	if [ "$s" -eq 2 ] && grep -q "^usage: \|^scaling: " "$tmp/err"; then
		ok "scaling $args: refused with exit 2: $(head -n 1 "$tmp/err")"
	else
		fail "scaling $args: exit $s"; sed 's/^/      /' "$tmp/err"
	fi
done

# the laws of examples/scaling.c for N = 250, 2 rounds, u = 1 us, and a
# start of 14 ms per slot in ip; one repeat in three 15-25 % slow
gen() {
	awk -v slow64="$1" 'BEGIN {
		split("1.0 1.2 0.99 1.01 1.25 1.0 0.98 1.15 1.02", m, " ")
		split("1 2 4 8 16 64", ps, " ")
		for (r = 1; r <= 3; r++) for (i = 1; i <= 6; i++) {
			p = ps[i]; f = m[(r + i) % 9 + 1]; g = p == 64 ? slow64 : 1
			lg = log(p) / log(2)
			rt = 2 * (8 + 128) * 250e-6
			ip = (2 * 8 * 250e-6 * (p - 1) + p * 0.014) * f * g
			li = 2 * 0.032 * (p - 1) / p * f * g
			cl = 2 * 0.001 * p * lg * f * g
			sl = 2 * 0.0005 * p * p * f * g
			tt = rt + ip + li + cl + sl
			printf "rep=%d p=%d li=%.9g ip=%.9g sl=%.9g cl=%.9g rc=na ml=na bl=0 wc=0 cpus=2 rt=%.9g tt=%.9g wall=%.9g\n",
				r, p, li, ip, sl, cl, rt, tt, tt / p
		}
	}'
}
for slow in 1 1.3; do
	mkdir -p "$tmp/g$slow"
	gen "$slow" >"$tmp/g$slow/scaling.runs"
	REUSE=1 LC=$LC TEST_PS="16 64" sh examples/scaling/study.sh "$tmp/g$slow" >"$tmp/g$slow/out" 2>&1
done
if [ "$(tail -n 1 "$tmp/g1/out")" = pass ] && grep -q '^sl(p) = .*p^2' "$tmp/g1/out" &&
   grep -q '^li(p) = .*(p - 1)/p' "$tmp/g1/out" && grep -q '^cl(p) = .*p\*log2(p)' "$tmp/g1/out"; then
	ok "generated runs of the laws: the laws' forms, and the study passes"
else
	fail "generated runs of the laws"; sed 's/^/      /' "$tmp/g1/out"
fi
if tail -n 1 "$tmp/g1.3/out" | grep -q '^FAIL:.*T@p=64'; then
	ok "runs 30 % slower at p = 64 than the laws: $(tail -n 1 "$tmp/g1.3/out")"
else
	fail "runs 30 % slower at p = 64 not caught"; sed 's/^/      /' "$tmp/g1.3/out"
fi

mkdir -p "$tmp/rec"
N=250 REPEATS=2 TEST_PS="16 64" CMAX=30 TTPCT=2 LC=$LC sh examples/scaling/study.sh "$tmp/rec" >"$tmp/rec/out" 2>&1
last=$(tail -n 1 "$tmp/rec/out")
if [ "$last" = pass ]; then
	ok "recorded, fitted on p <= 8: p = 16 and 64: T within 10 %, each category within 30 % or 2 % of T"
else
	sed 's/^/      /' "$tmp/rec/out"
	unjudged "recorded, fitted on p <= 8: $last" || fail "recorded, fitted on p <= 8: $last"
fi

finish
