# minus.awk — from "lostcycles report -l" lines, the first (a whole run)
# minus the sum of the others (its fragments), category by category: the
# time spent outside the fragments, as one more -l line.  Notes (n=, k=,
# p=) come from the first line; a category that is na anywhere stays na.
{
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (NR == 1) {
			order[i] = kv[1]
			nf = NF
		}
		if (kv[1] ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt|tt)$/) {
			if (kv[2] == "na")
				na[kv[1]] = 1
			else
				v[kv[1]] += (NR == 1 ? 1 : -1) * kv[2]
		} else if (NR == 1) {
			note[kv[1]] = kv[2]
		}
	}
}
END {
	for (i = 1; i <= nf; i++) {
		k = order[i]
		if (k in note)
			printf "%s%s=%s", (i > 1 ? " " : ""), k, note[k]
		else if (k in na)
			printf "%s%s=na", (i > 1 ? " " : ""), k
		else
			printf "%s%s=%.9g", (i > 1 ? " " : ""), k, (v[k] < 0 ? 0 : v[k])
	}
	printf "\n"
}
