# compare.awk — predicted T(E) against the measured median run per point.
# Input: "n=N p=P T" lines (predict's T(E) at each point), then the median
# runs (report -l lines: tt/p is the measured time).  fitted: the sizes the
# model was fitted on; the others are held out.  Prints each point and the
# mean relative error of the fitted and of each held-out size.
FNR == NR {
	split($1, a, "=")
	split($2, b, "=")
	pred[a[2], b[2]] = $3
	if (!(a[2] in seen)) { seen[a[2]] = 1; ns[++nn] = a[2] }
	if (!(b[2] in seenp)) { seenp[b[2]] = 1; ps[++np] = b[2] }
	next
}
{
	n = p = tt = ""
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "n") n = kv[2]
		if (kv[1] == "p") p = kv[2]
		if (kv[1] == "tt") tt = kv[2]
	}
	if (n != "" && (n, p) in pred && tt != "")
		meas[n, p] = tt / p
}
END {
	split(fitted, f, " ")
	for (i in f) isfit[f[i]] = 1
	printf "%8s %4s %12s %12s %8s\n", "n", "p", "predicted s", "measured s", "error"
	for (k = 1; k <= nn; k++) {
		n = ns[k]
		for (j = 1; j <= np; j++) {
			key = n SUBSEP ps[j]
			if (!(key in meas) || pred[key] == "")
				continue
			e = 100 * (pred[key] - meas[key]) / meas[key]
			printf "%8s %4s %12.6g %12.6g %+7.1f%%%s\n", n, ps[j], pred[key], meas[key], e, n in isfit ? "" : "  held out"
			grp = n in isfit ? "fitted" : "n=" n
			sum[grp] += e < 0 ? -e : e
			cnt[grp]++
		}
	}
	for (g in sum)
		printf "mean relative error %s: %.1f %% over %d points\n", g, sum[g] / cnt[g], cnt[g]
}
