/*
 * lca_ppchart.c — the stacked-bar predicate profile chart (see lca_ppchart.h).
 */
#include "lc_emit.h"
#include "lc_util.h"
#include "lc_profile.h"
#include "lca_ppchart.h"
#include "lca_formula.h"
#include "lca_models.h"
#include "lca_plot.h"
#include "lca_runs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXCAT 10

/* The chart: p values and per-category means (NaN: not measured). */
struct chart {
	int ncat;
	const char *cat[MAXCAT];
	size_t np;
	double *p;
	double *v;		/* np x ncat */
};

/* Resolve an extraction identifier: any name in the runs file. */
static int resolve_key(void *ctx, const char *name, size_t len)
{
	return lc_runs_find_key(ctx, name, len);
}

/* Find the index of value x in the sorted-as-inserted list, adding it. */
static size_t p_index(struct chart *c, double x)
{
	size_t i;

	for (i = 0; i < c->np; i++)
		if (c->p[i] == x)
			return i;
	c->p[c->np] = x;
	return c->np++;
}

/* True when key is one of the chart's categories, tt or p. */
static int is_cat(const struct chart *c, const char *key)
{
	if (!strcmp(key, "p") || !strcmp(key, "tt"))
		return 1;
	for (int j = 0; j < c->ncat; j++)
		if (!strcmp(c->cat[j], key))
			return 1;
	return 0;
}

/* Remember the first run's variables at row k in first[]; set *mixed when a
 * later run at the same p has other values. */
static void note_mixed(const struct chart *c, const struct lc_runs *r, size_t k,
		       const double *vals, double *first, int *seen, int *mixed)
{
	int nk = lc_runs_nkeys(r);

	for (int j = 0; j < nk; j++) {
		double *f = &first[k * (size_t)nk + (size_t)j];

		if (is_cat(c, lc_runs_keyname(r, j)))
			continue;
		if (!seen[k])
			*f = vals[j];
		else if (!(*f == vals[j] || (isnan(*f) && isnan(vals[j]))))
			*mixed = 1;
	}
	seen[k] = 1;
}

/* Fill c->v with the mean of each category per p. */
static void fill(struct chart *c, const struct lc_runs *r, int pkey, const struct lc_expr *cond,
		 double *vals, int *count, double *first, int *seen, int *mixed)
{
	for (size_t i = 0; i < lc_runs_count(r); i++) {
		double p;
		size_t k;

		for (int j = 0; j < lc_runs_nkeys(r); j++)
			lc_runs_get(r, i, j, &vals[j]);
		if ((cond && !(lc_expr_eval(cond, vals) != 0)) ||
		    lc_runs_get(r, i, pkey, &p) != LC_CELL_VALUE)
			continue;
		k = p_index(c, p);
		note_mixed(c, r, k, vals, first, seen, mixed);
		for (int j = 0; j < c->ncat; j++) {
			double v;
			int key = lc_runs_find_key(r, c->cat[j], strlen(c->cat[j]));

			if (lc_runs_get(r, i, key, &v) != LC_CELL_VALUE)
				continue;
			c->v[k * MAXCAT + (size_t)j] = isnan(c->v[k * MAXCAT + (size_t)j]) ? v :
						       c->v[k * MAXCAT + (size_t)j] + v;
			count[k * MAXCAT + (size_t)j]++;
		}
	}
	for (size_t k = 0; k < c->np; k++)
		for (int j = 0; j < c->ncat; j++)
			if (count[k * MAXCAT + (size_t)j])
				c->v[k * MAXCAT + (size_t)j] /= count[k * MAXCAT + (size_t)j];
}

/* Order rows by p (insertion sort; a handful of rows). */
static void sort_rows(struct chart *c)
{
	for (size_t i = 1; i < c->np; i++)
		for (size_t j = i; j > 0 && c->p[j - 1] > c->p[j]; j--) {
			double t = c->p[j];

			c->p[j] = c->p[j - 1];
			c->p[j - 1] = t;
			for (int k = 0; k < MAXCAT; k++) {
				t = c->v[j * MAXCAT + (size_t)k];
				c->v[j * MAXCAT + (size_t)k] = c->v[(j - 1) * MAXCAT + (size_t)k];
				c->v[(j - 1) * MAXCAT + (size_t)k] = t;
			}
		}
}

/* Print the chart's table (and write it as the data file when f != out). */
static void table(const struct chart *c, FILE *f)
{
	fprintf(f, "%6s", "p");
	for (int j = 0; j < c->ncat; j++)
		fprintf(f, " %10s", c->cat[j]);
	fprintf(f, "\n");
	for (size_t k = 0; k < c->np; k++) {
		fprintf(f, "%6g", c->p[k]);
		for (int j = 0; j < c->ncat; j++) {
			double v = c->v[k * MAXCAT + (size_t)j];

			if (isnan(v))
				fprintf(f, " %10s", "na");
			else
				fprintf(f, " %10.6g", v);
		}
		fprintf(f, "\n");
	}
}

/* Write the gnuplot script for the rowstacked histogram. */
static int script(const struct chart *c, const char *gp, const char *data, const char *title)
{
	FILE *f = lc_out_fopen(gp);
	char t[4200];

	if (!f)
		return -errno;
	snprintf(t, sizeof(t), "predicate profile of %s", title);
	fprintf(f, "# written by lostcycles predict --profile: the predicate profile\nset title ");
	lc_emit_gnuplot_str(f, t);
	fprintf(f, " noenhanced\n"
		   "set xlabel \"processors (p)\"\nset ylabel \"seconds (summed over processors)\"\n"
		   "set style data histograms\nset style histogram rowstacked\n"
		   "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset key outside right\n"
		   "set datafile missing 'na'\n");
	for (int i = 0; i < c->ncat; i++)	/* each category in the colour of every chart */
		fprintf(f, "set linetype %d lc rgb '%s'\n", i + 1,
			lc_cat_info(lc_key_lookup(c->cat[i]))->colour);
	fprintf(f, "plot for [i=2:%d] ", c->ncat + 1);
	lc_emit_gnuplot_str(f, data);
	fprintf(f, " using i:xtic(1) title columnheader(i)\n");
	return fclose(f) ? -errno : 0;
}

/* Pick the categories the runs file has: overheads first, then rt. */
static void pick_cats(struct chart *c, const struct lc_runs *r)
{
	for (int i = 0; i < LC_NCAT && c->ncat < MAXCAT; i++) {
		const char *key = lc_cat_info(i)->key;

		if (lc_runs_find_key(r, key, strlen(key)) >= 0)
			c->cat[c->ncat++] = key;
	}
}

/* Read the runs and build the chart.  Returns 0 or -errno with the reason
 * in why. */
static int build(struct chart *c, const char *path, const char *extract, struct lc_runs **rp,
		 struct lc_expr **cond, int *mixed, char *why, size_t len)
{
	struct lc_runs_error re;
	struct lc_parse_error pe;
	int rc = lc_runs_read(path, rp, &re), pkey;
	double *vals, *first;
	int *count, *seen;

	if (rc)
		return lc_runs_fail(path, rc, &re, why, len);
	pkey = lc_runs_find_key(*rp, "p", 1);
	if (pkey < 0)
		return lc_fail(why, len, -EINVAL, "%s: no run has p", path);
	if (extract && lc_expr_parse_cond(extract, 0, resolve_key, *rp, cond, &pe))
		return lc_fail(why, len, -EINVAL, "extraction '%s': column %d: %s", extract,
			       pe.column, pe.msg);
	pick_cats(c, *rp);
	c->p = malloc((lc_runs_count(*rp) + 1) * sizeof(double));
	c->v = malloc((lc_runs_count(*rp) + 1) * MAXCAT * sizeof(double));
	count = calloc((lc_runs_count(*rp) + 1) * MAXCAT, sizeof(int));
	vals = malloc(((size_t)lc_runs_nkeys(*rp) + 1) * sizeof(double));
	first = malloc((lc_runs_count(*rp) + 1) * ((size_t)lc_runs_nkeys(*rp) + 1) * sizeof(double));
	seen = calloc(lc_runs_count(*rp) + 1, sizeof(int));
	if (!c->p || !c->v || !count || !vals || !first || !seen) {
		free(count);
		free(vals);
		free(first);
		free(seen);
		return lc_fail(why, len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < (lc_runs_count(*rp) + 1) * MAXCAT; i++)
		c->v[i] = NAN;
	fill(c, *rp, pkey, *cond, vals, count, first, seen, mixed);
	sort_rows(c);
	free(count);
	free(vals);
	free(first);
	free(seen);
	return 0;
}

/* Write the chart c of the runs file path: the table on out, and the
 * data, script and PNG of png.  0, or -errno with the reason. */
static int write_chart(struct chart *c, const char *path, const char *png, enum lc_out_mode how,
		       int mixed, FILE *out, char *why, size_t len)
{
	char base[4096], gp[4200], data[4200];
	size_t n = strlen(png);
	int rc;
	FILE *f;

	snprintf(base, sizeof(base), "%.*s", (int)(n > 4 && !strcmp(png + n - 4, ".png") ? n - 4 : n), png);
	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(data, sizeof(data), "%s.data", base);
	if ((rc = lc_plot_prepare(gp, data, png, how, why, len)))
		return rc;
	fprintf(out, "predicate profile of %s (seconds summed over processors, mean over runs)\n", path);
	table(c, out);
	if (mixed)
		fprintf(out, "note: runs with the same p differ in other variables and were averaged; "
			     "select some with -x\n");
	f = lc_out_fopen(data);
	if (!f || (table(c, f), fclose(f)) || script(c, gp, data, path))
		return lc_fail(why, len, -EIO, "cannot write %s or %s", data, gp);
	rc = lc_plot_png(gp, png);
	if (rc == -ENOENT)
		fprintf(out, "wrote %s and %s (gnuplot not installed: no PNG)\n", gp, data);
	else if (rc)
		return lc_fail(why, len, rc, "gnuplot failed on %s", gp);
	else
		fprintf(out, "wrote %s (and %s, %s)\n", png, gp, data);
	return 0;
}

/* The chart.  See lca_ppchart.h. */
int lc_ppchart_write(const char *path, const char *extract, const char *png,
		     enum lc_out_mode how, FILE *out, char *why, size_t len)
{
	struct chart c = { 0 };
	struct lc_runs *r = NULL;
	struct lc_expr *cond = NULL;
	int rc, mixed = 0;

	rc = build(&c, path, extract, &r, &cond, &mixed, why, len);
	if (rc)
		goto out;
	if (!c.np || !c.ncat)
		rc = lc_fail(why, len, -EINVAL, "%s: no runs with p and categories%s", path,
			     extract ? " match the extraction" : "");
	else
		rc = write_chart(&c, path, png, how, mixed, out, why, len);
out:
	free(c.p);
	free(c.v);
	lc_expr_free(cond);
	lc_runs_free(r);
	return rc;
}
