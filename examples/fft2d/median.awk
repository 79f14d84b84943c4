# median.awk — of "lostcycles report -l" lines, keep for each point (the
# same notes: n=, k=, p=, ...; not a run's own load=, wall= or rep=) the
# run with the median total time tt: one
# slow run on a busy machine then does not pull a point's mean away.
# With an even number of runs, the lower middle one is kept.  With
# -v pick=min the fastest run is kept instead (the least disturbed one,
# which a busy machine's right-skewed repeats call for).
{
	key = ""
	tt = 0
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "tt")
			tt = kv[2] + 0
		else if (kv[1] !~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt|load|wall|rep)$/)
			key = key " " $i
	}
	if (!(key in count)) {
		order[++nkeys] = key
		count[key] = 0
	}
	c = ++count[key]
	line[key, c] = $0
	t[key, c] = tt
}
END {
	for (k = 1; k <= nkeys; k++) {
		key = order[k]
		n = count[key]
		for (i = 1; i <= n; i++)
			idx[i] = i
		for (i = 2; i <= n; i++)	# insertion sort of the indices by tt
			for (j = i; j > 1 && t[key, idx[j]] < t[key, idx[j - 1]]; j--) {
				tmp = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = tmp
			}
		print line[key, idx[pick == "min" ? 1 : int((n + 1) / 2)]]
	}
}
