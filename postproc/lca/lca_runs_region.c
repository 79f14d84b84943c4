/*
 * lca_runs_region.c — the regions of a set of runs (the region= note) and
 * the runs of one region, through the runs' public interface.
 */
#include "lca_runs.h"

#include <errno.h>
#include <string.h>

/* The region of run i, or NULL. */
static const char *region_of(const struct lc_runs *r, int key, size_t i)
{
	return key >= 0 ? lc_runs_text(r, i, key) : NULL;
}

/* Whether name is in names[0..n). */
static int listed(const char **names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

int lc_runs_regions(const struct lc_runs *r, const char **names, int max, int *line)
{
	int key = lc_runs_find_key(r, LC_RUNS_REGION, strlen(LC_RUNS_REGION)), n = 0;

	for (size_t i = 0; key >= 0 && i < lc_runs_count(r); i++) {
		const char *name = region_of(r, key, i);

		if (!name) {
			*line = lc_runs_line(r, i);
			return -EINVAL;
		}
		if (listed(names, n, name))
			continue;
		if (n == max)
			return -E2BIG;
		names[n++] = name;
	}
	return n;
}

/* Copy run i of r into out as a new run. */
static int copy_run(const struct lc_runs *r, size_t i, struct lc_runs *out)
{
	int rc = lc_runs_start(out, lc_runs_line(r, i));

	for (int k = 0; !rc && k < lc_runs_nkeys(r); k++) {
		const char *name = lc_runs_keyname(r, k);
		double v;

		switch (lc_runs_get(r, i, k, &v)) {
		case LC_CELL_ABSENT:
			break;
		case LC_CELL_TEXT:
			rc = lc_runs_add_text(out, name, lc_runs_text(r, i, k));
			break;
		default:
			rc = lc_runs_add(out, name, v);
		}
	}
	return rc;
}

int lc_runs_select(const struct lc_runs *r, const char *region, struct lc_runs **out)
{
	int key = lc_runs_find_key(r, LC_RUNS_REGION, strlen(LC_RUNS_REGION)), rc = 0;

	*out = lc_runs_new();
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < lc_runs_count(r); i++) {
		const char *name = region_of(r, key, i);

		if (!region || (name && !strcmp(name, region)))
			rc = copy_run(r, i, *out);
	}
	if (rc) {
		lc_runs_free(*out);
		*out = NULL;
	}
	return rc ? -ENOMEM : 0;
}
