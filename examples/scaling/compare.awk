# compare.awk — the scaling testbed's predictions against its recorded runs.
# Input: predict --grid's table (a "p li ip sl cl bl wc rt T(E)" header and
# one line per p), then the runs of the predicted p (report -l lines).
# Each category and T = tt/p are compared with the median of the point's
# repeats: T must be within tmax % (default 10), a category within cmax %
# (20) or within ttpct % (1) of the point's total time (tt), and no
# prediction below zero.
# Prints a table and a last line "pass" or "FAIL: what".
FNR == NR {
	if ($1 == "p") {
		for (i = 1; i <= NF; i++)
			col[i] = $i == "T(E)" ? "T" : $i
		ncol = NF
		next
	}
	if (ncol && $1 ~ /^[0-9]/) {
		ps[++np] = $1
		for (i = 2; i <= ncol; i++)
			pred[$1, col[i]] = $i
	}
	next
}
{
	p = ""
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		v[kv[1]] = kv[2]
	}
	p = v["p"]
	if (p == "" || v["tt"] == "")
		next
	k = ++nrun[p]
	for (c in v)
		runs[p, c, k] = v[c]
	runs[p, "T", k] = v["tt"] / p
}
function median(p, c,    n, i, j, t, a) {
	n = nrun[p]
	for (i = 1; i <= n; i++)
		a[i] = runs[p, c, i] + 0
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
BEGIN {
	if (tmax == "") tmax = 10
	if (cmax == "") cmax = 20
	if (ttpct == "") ttpct = 1
	split("li ip sl cl rt T", cats, " ")
	bad = ""
}
END {
	printf "%4s %4s %12s %12s %8s\n", "p", "cat", "predicted", "measured", "error"
	for (j = 1; j <= np; j++) {
		p = ps[j]
		if (!nrun[p])
			continue
		tt = median(p, "tt")
		for (i = 1; i <= 6; i++) {
			c = cats[i]
			if (!((p, c) in pred))
				continue
			m = median(p, c)
			e = m ? 100 * (pred[p, c] - m) / m : 0
			d = pred[p, c] - m
			ok = c == "T" ? (e <= tmax && e >= -tmax) : \
			     (e <= cmax && e >= -cmax) || (d <= tt * ttpct / 100 && d >= -tt * ttpct / 100)
			if (pred[p, c] < 0)
				ok = 0
			printf "%4s %4s %12.6g %12.6g %+7.1f%%%s\n", p, c, pred[p, c], m, e, ok ? "" : "  over the goal"
			if (!ok)
				bad = bad " " c "@p=" p
		}
	}
	print bad == "" ? "pass" : "FAIL:" bad
}
