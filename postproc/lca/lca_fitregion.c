/*
 * lca_fitregion.c — "lostcycles fit" over the regions of the runs (the
 * region= note; Extra-P's REGION or callpath): which regions a call fits,
 * and the per-region names of its files.  See lca_fitrun.h.
 */
#include "lca_fitrun.h"
#include "lca_runs.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int lc_fitrun_load(const char *path, struct lc_runs **r, char *msg, size_t len)
{
	struct lc_runs_error re;
	int rc = lc_runs_read(path, r, &re);

	return rc ? lc_runs_fail(path, rc, &re, msg, len) : 0;
}

/* The region names[0..n) as "a, b, c" into buf (the first ones that fit). */
static void name_list(const char **names, int n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used + 8 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
	if (used >= len)
		snprintf(buf + len - 5, 5, "...");
}

/* The reason lc_runs_regions failed with rc (line: the run without one). */
static int regions_fail(const char *path, int rc, int line, char *msg, size_t len)
{
	if (rc == -E2BIG)
		return lc_fail(msg, len, rc, "%s: more than %d regions", path, LC_FITRUN_MAXREGIONS);
	return lc_fail(msg, len, rc, "%s:%d: no " LC_RUNS_REGION "= while other runs name "
		       "their region: give every run one", path, line);
}

int lc_fitrun_regions(const struct lc_runs *r, const char *path, const char *want,
		      const char **names, char *msg, size_t len)
{
	int line = 0, n = lc_runs_regions(r, names, LC_FITRUN_MAXREGIONS, &line);
	char list[512];

	if (n < 0)
		return regions_fail(path, n, line, msg, len);
	if (!want)
		return n > 1 ? n : 0;	/* one region: its runs are all the runs */
	if (!strcmp(want, "all"))
		return n;
	if (!n)
		return lc_fail(msg, len, -ENOENT, "--region %s: the runs of %s name no region (a "
			       "runs line's " LC_RUNS_REGION "=NAME, Extra-P's REGION or callpath)",
			       want, path);
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], want)) {
			names[0] = names[i];
			return 1;
		}
	name_list(names, n, list, sizeof(list));
	return lc_fail(msg, len, -ENOENT, "--region %s: no run of %s is of that region (its "
		       "regions: %s)", want, path, list);
}

/* path + "." + region, a '/' of region made '_' (NULL: out of memory). */
static char *region_path(const char *path, const char *region)
{
	char *s = malloc(strlen(path) + strlen(region) + 2), *p;

	if (!s)
		return NULL;
	sprintf(s, "%s.%s", path, region);
	for (p = s + strlen(path) + 1; *p; p++)
		if (*p == '/')
			*p = '_';
	return s;
}

int lc_fitrun_region_paths(struct lc_fitrun *fr, char *msg, size_t len)
{
	if (!fr->o.region_files || !fr->o.region)
		return 0;
	if (fr->o.emit && !(fr->o.emit = fr->emit_path = region_path(fr->o.emit, fr->o.region)))
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	if (fr->o.plot && !(fr->o.plot = fr->plot_path = region_path(fr->o.plot, fr->o.region)))
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	return 0;
}
