# categories.awk — the error of a composed prediction per category and per
# p.  Input: the output of "lostcycles compose --at" at each point (its
# head line "... at n=N p=P k=K" names the point, its category lines give
# C(E)), then the measured runs (one "report -l" line per point, as
# median.awk keeps them).  Output: for each p, the mean relative error over
# the points of T (tt/p) and of each category (a category predicted 0 is
# 100 % off where it was measured; one measured below 1 % of the point's
# time tt leaves that point out, its relative error meaningless, and "-"
# when it was that small at every point).
/^lostcycles compose: .* at / {
	n = p = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^n=/) n = substr($i, 3)
		if ($i ~ /^p=/) p = substr($i, 3)
	}
	next
}
/^[a-z][a-z] +[a-z]/ && n != "" {
	pred[n, p, $1] = $(NF - 2)
	cats[$1] = 1
	next
}
/^T\(E\) = / && n != "" {
	pred[n, p, "T"] = $6
	next
}
/^n=/ {
	mn = mp = ""
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "n") mn = kv[2]
		else if (kv[1] == "p") mp = kv[2]
		else if (kv[1] ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt|tt)$/ && kv[2] != "na") meas[kv[1]] = kv[2] + 0
	}
	meas["T"] = meas["tt"] / mp
	for (c in meas)
		got[mn, mp, c] = meas[c]
	if (!((mp) in ps)) { ps[mp] = 1; plist[++np] = mp }
	delete meas
}
END {
	ncat = split("T rt rc li ip sl", order, " ")
	printf "%4s", "p"
	for (k = 1; k <= ncat; k++) printf "  %18s", order[k] (k == 1 ? " (tt/p)" : "")
	printf "\n"
	for (j = 1; j <= np; j++) {
		pp = plist[j]
		printf "%4s", pp
		for (k = 1; k <= ncat; k++)
			printf "  %18s", cell(pp, order[k])
		printf "\n"
	}
}
# mean relative error of category c at p over the points where it is 1 % of tt or more
function cell(pp, c,    key, f, s, cnt, pv) {
	cnt = 0
	for (key in got) {
		split(key, f, SUBSEP)
		if (f[2] != pp || f[3] != c || got[key] <= 0 || got[key] < 0.01 * got[f[1], pp, "tt"])
			continue
		pv = ((f[1], pp, c) in pred) ? pred[f[1], pp, c] : 0
		s += (pv > got[key] ? pv - got[key] : got[key] - pv) / got[key]
		cnt++
	}
	if (!cnt)
		return "-"
	return sprintf("%.1f %% (%d pts)", 100 * s / cnt, cnt)
}
