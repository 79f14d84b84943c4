# categories.awk — the held-out test per category: each category's
# prediction against the same category measured at the same point, its
# repeats made one value the way fit made them one for the model.
#
# Inputs, in this order: fit's output (fit -c all: each "Category: xx"
# line, then the "aggregate:" line saying the mean, the median or the
# smallest repeat), the predictions ("n=N p=P CAT C" lines: a category's
# C(E) from predict), and the runs (every repeat: the sweep's lines).
# fitted: the fitted sizes; the others are held out.  given: fit's
# --aggregate when it was given (fit then prints no "aggregate:" line).
#
# Per point: T = sum C/p predicted and measured (the measured categories,
# each aggregated as fitted, summed and divided by p), and each category's
# relative error.  A category misses when it is more than 20 % off and
# more than 1 % of T off; T misses when it is more than 10 % off.  Then,
# per group (the fitted sizes, each held-out n), T's mean and largest
# error and the misses.  The fastest and the median run's tt/p are printed
# beside T for reference.
FILENAME == ARGV[1] {
	for (i = 1; i < NF; i++)
		if ($i == "Category:")
			cur = $(i + 1)
	if ($1 == "aggregate:" && cur != "")
		agg[cur] = $0 ~ /smallest/ ? "min" : $0 ~ /median/ ? "median" : "mean"
	if (given != "" && cur != "")
		agg[cur] = given
	next
}
FILENAME == ARGV[2] {
	n = substr($1, 3)
	p = substr($2, 3)
	pred[n, p, $3] = $4
	if (!($3 in iscat)) { iscat[$3] = 1; cats[++nc] = $3 }
	if (!(n in seen)) { seen[n] = 1; ns[++nn] = n }
	if (!(p in seenp)) { seenp[p] = 1; ps[++np] = p }
	next
}
{
	n = p = ""
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "n") n = kv[2]
		else if (kv[1] == "p") p = kv[2]
	}
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] ~ /^(li|ip|sl|cl|rc|bl|wc|rt|tt)$/ && kv[2] != "na") {
			c = ++cnt[n, p, kv[1]]
			val[n, p, kv[1], c] = kv[2] + 0
		}
	}
}
# The k values of category c at point (n, p), aggregated by how.
function aggregate(n, p, c, how,    k, i, j, v, t, s) {
	k = cnt[n, p, c]
	if (!k)
		return ""
	for (i = 1; i <= k; i++)
		v[i] = val[n, p, c, i]
	for (i = 2; i <= k; i++)	# insertion sort
		for (j = i; j > 1 && v[j] < v[j - 1]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	if (how == "min")
		return v[1]
	if (how == "median")
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	for (i = 1; i <= k; i++)
		s += v[i]
	return s / k
}
function abs(x) { return x < 0 ? -x : x }
END {
	split(fitted, f, " ")
	for (i in f)
		isfit[f[i]] = 1
	printf "aggregates:"
	for (j = 1; j <= nc; j++)
		printf " %s=%s", cats[j], agg[cats[j]] == "" ? "mean" : agg[cats[j]]
	printf "\n%6s %2s %11s %11s %7s %11s %11s", "n", "p", "T pred s", "T meas s", "error", "fastest s", "median s"
	for (j = 1; j <= nc; j++)
		printf " %7s", cats[j]
	printf "\n"
	for (k = 1; k <= nn; k++)
		for (q = 1; q <= np; q++)
			point(ns[k], ps[q])
	for (g = 1; g <= ng; g++) {
		x = groups[g]
		printf "%s: T mean error %.1f %%, largest %.1f %% over %d points; categories off by more than 20 %% and 1 %% of T: %s\n",
		    x, sum[x] / npt[x], big[x], npt[x], miss[x] == "" ? "none" : substr(miss[x], 3)
	}
}
function point(n, p,    j, c, m, tp, tm, e, grp, line, mark) {
	if (!cnt[n, p, "tt"])
		return
	tp = tm = 0
	for (j = 1; j <= nc; j++) {
		c = cats[j]
		m[c] = aggregate(n, p, c, agg[c])
		if (m[c] == "")
			m[c] = 0
		tp += pred[n, p, c] / p
		tm += m[c] / p
	}
	if (tm <= 0)
		return
	e = 100 * (tp - tm) / tm
	grp = n in isfit ? "fitted" : "held out n=" n
	if (!(grp in npt))
		groups[++ng] = grp
	npt[grp]++
	sum[grp] += abs(e)
	if (abs(e) > big[grp])
		big[grp] = abs(e)
	line = sprintf("%6s %2s %11.5g %11.5g %+6.1f%% %11.5g %11.5g", n, p, tp, tm, e,
	    aggregate(n, p, "tt", "min") / p, aggregate(n, p, "tt", "median") / p)
	for (j = 1; j <= nc; j++) {
		c = cats[j]
		mark = abs(pred[n, p, c] - m[c]) / p > 0.01 * tm ? "*" : " "
		if (m[c] > 0)
			line = line sprintf(" %+6.0f%s", 100 * (pred[n, p, c] - m[c]) / m[c], mark)
		else
			line = line sprintf(" %7s", pred[n, p, c] > 0 ? "+inf" mark : "0")
		if (mark == "*" && (m[c] <= 0 || abs(pred[n, p, c] - m[c]) / m[c] > 0.2))
			miss[grp] = miss[grp] sprintf(", %s at p=%s (%.3g s against %.3g s)", c, p, pred[n, p, c], m[c])
	}
	print line (n in isfit ? "" : "  (held out)")
}
