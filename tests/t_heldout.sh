#!/bin/sh
# t_heldout.sh — the held-out test of examples/jacobi/held-out.sh on runs of
# known truth: a Jacobi-like program's categories (rt = 2.4e-7 n^2, barrier
# SL and LI at p = 2, a set-up of 3 ms + 1e-9 n^2 as IP of the idle slot,
# RC a share of the work), five repeats per point with right-skewed
# multiplicative noise (one repeat in five 20-25 % slow, as a loaded
# machine gives them; a point's median 0 or 3 % above the truth), n = 181..724 fitted and n = 1024, 1448 held out.  The script
# (REUSE=1: no run is recorded, nothing is timed) fits every category by the
# search on the fitted sizes and predicts the held-out ones: within 10 % of
# their medians at twice the largest fitted n, and the fitted points too
# (within 5 %: the medians are up to 3 % off the truth).
set -u

SUB=heldout
. tests/lib.sh

awk 'BEGIN {
	split("1.0 0.97 1.03 1.2 0.99 1.03 0.98 1.06 1.25 1.02", m, " ")
	split("181 256 362 512 724 1024 1448", ns, " ")
	for (r = 1; r <= 5; r++) for (i = 1; i <= 7; i++) for (p = 1; p <= 2; p++) {
		n = ns[i]; f = m[(r + i + p) % 5 + 1 + 5 * ((i + p) % 2)]
		rt = 2.4e-7 * n * n * f
		sl = (p - 1) * 3e-8 * n * n * f
		li = (p - 1) * 2e-4 * f
		ip = p * (0.003 + 1e-9 * n * n) * f
		rc = 0.05 * rt
		tt = rt + sl + li + ip + rc
		printf "n=%d s=400 rep=%d p=%d li=%.9g ip=%.9g sl=%.9g cl=0 rc=%.9g ml=na bl=0 wc=0 cpus=2 rt=%.9g tt=%.9g wall=%.9g\n",
			n, r, p, li, ip, sl, rc, rt, tt, tt / p
	}
}' >"$tmp/jacobi.sweep"

REUSE=1 LC=$LC sh examples/jacobi/held-out.sh "$tmp" >"$tmp/out" 2>&1
st=$?
check "held-out.sh on generated runs: exit 0, a model per category, an error table" \
	'grep -q "^rt(n,p) = " "$tmp/out" && grep -q "^mean relative error n=1448: " "$tmp/out"'
e2=$(sed -n 's/^mean relative error n=1448: \([0-9.]*\) %.*/\1/p' "$tmp/out")
e1=$(sed -n 's/^mean relative error fitted: \([0-9.]*\) %.*/\1/p' "$tmp/out")
check "held out at 2x the largest fitted n (n = 1448): mean error ${e2:-?} % <= 5 %, fitted ${e1:-?} % <= 5 %" \
	'[ -n "$e2" ] && [ -n "$e1" ] && awk -v a="$e2" -v b="$e1" "BEGIN { exit !(a <= 5 && b <= 5) }"'
check "the held-out points are marked" \
	'[ "$(grep -c " held out$" "$tmp/out")" -eq 4 ]'
# per category (categories.awk): each measured category aggregated as fit
# aggregated it (here the smallest repeat: the repeats are right-skewed);
# against the repeats' mean instead, T would be 7 % off
e3=$(sed -n 's/^held out n=1448: T mean error \([0-9.]*\) %.*/\1/p' "$tmp/categories.txt")
check "per category at n = 1448: T within ${e3:-?} % <= 2 %, no category more than 20 % and 1 % of T off" \
	'[ -n "$e3" ] && awk -v a="$e3" "BEGIN { exit !(a <= 2) }" && grep -q "^held out n=1448: .*of T: none$" "$tmp/categories.txt"'

finish
