/*
 * diff_scale.c — "lostcycles diff --scaling" (diff.h): the scaling factor
 * SF = (T_min / T_n) / (n / n_min) per place and per category over
 * profiles of different sizes n (p by default), with T a place's seconds
 * per processor.  Places are matched by name; a place missing from a
 * profile has no factor there (na).
 */
#include "diff.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_util.h"

/* The places of every profile: built through diff's sides, one profile a
 * side, so that names and totals are those diff compares. */
struct scale {
	int n;
	struct lc_diff **d;	/* d[k]: profile 0 against profile k */
};

/* The row of d with place and cat, or NULL. */
static const struct lc_diff_row *find(const struct lc_diff *d, const char *place, int cat)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (d->rows[i].cat == cat && !strcmp(d->rows[i].place, place))
			return &d->rows[i];
	return NULL;
}

/* Seconds per processor of row r on its side k (0: the A side). */
static double per_proc(const struct lc_diff_row *r, int b, uint32_t p, int divided)
{
	double v = b ? r->b : r->a;

	return divided ? v : v / p;
}

static int columns(struct lc_col **out, int n, const double *size, char (*hdr)[32])
{
	struct lc_col *c = calloc((size_t)n + 3, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c[0] = (struct lc_col){ .name = "place", .kind = LC_COL_STR };
	c[1] = (struct lc_col){ .name = "cat", .kind = LC_COL_STR };
	c[2] = (struct lc_col){ .name = "t_min_s", .kind = LC_COL_FLOAT, .prec = 4,
				.data_prec = 9 };
	for (int k = 0; k < n; k++) {
		snprintf(hdr[k], sizeof(hdr[k]), "sf_n%g", size[k]);
		c[3 + k] = (struct lc_col){ .name = hdr[k], .kind = LC_COL_FLOAT, .prec = 3,
					    .data_prec = 6 };
	}
	*out = c;
	return 0;
}

/* One table row: place r's category over the profiles.  m is the profile
 * of the smallest size. */
static void sf_row(struct lc_emit *e, const struct scale *s, const struct lc_diff_row *r,
		   struct lc_profile *const *prs, const double *size, int m)
{
	const struct lc_diff_row *rm = find(s->d[m], r->place, r->cat);
	double tm = rm ? per_proc(rm, m != 0, prs[m]->procs, s->d[m]->per_proc) : NAN;

	lc_emit_str(e, r->place);
	lc_emit_str(e, r->cat == LC_DIFF_ALL ? "all" : lc_cat_info(r->cat)->key);
	lc_emit_num(e, tm);
	for (int k = 0; k < s->n; k++) {
		const struct lc_diff_row *rk = find(s->d[k], r->place, r->cat);
		double tk = rk ? per_proc(rk, k != 0, prs[k]->procs, s->d[k]->per_proc) : NAN;

		lc_emit_num(e, tk > 0 && tm > 0 ? (tm / tk) / (size[k] / size[m]) : NAN);
	}
	lc_emit_row(e);
}

static int print(FILE *out, const struct scale *s, struct lc_profile *const *prs,
		 const double *size, enum lc_emit_format fmt)
{
	char (*hdr)[32] = calloc((size_t)s->n, sizeof(*hdr));
	struct lc_col *cols = NULL;
	struct lc_emit *e = NULL;
	int m = 0, r;

	for (int k = 1; k < s->n; k++)
		if (size[k] < size[m])
			m = k;
	r = hdr ? columns(&cols, s->n, size, hdr) : -ENOMEM;
	if (!r && !(e = lc_emit_new(out, fmt, cols, s->n + 3, 0)))
		r = -ENOMEM;
	/* the rows of the first profile (A of every comparison) */
	for (uint32_t i = 0; !r && i < s->d[0]->n; i++)
		sf_row(e, s, &s->d[0]->rows[i], prs, size, m);
	if (e && lc_emit_end(e) && !r)
		r = -EIO;
	free(cols), free(hdr);
	return r;
}

int lc_diff_scaling(FILE *out, struct lc_profile *const *prs, int n, const double *size,
		    enum lc_source src, enum lc_emit_format fmt, char *msg, size_t len)
{
	struct lc_diff_opts o = LC_DIFF_OPTS_DEFAULT;
	struct scale s = { .n = n };
	double *sz = calloc((size_t)n + 1, sizeof(double));
	int r = 0;

	if (n < 2) {
		free(sz);
		return lc_fail(msg, len, -EINVAL, "--scaling needs two profiles or more");
	}
	if (!sz || !(s.d = calloc((size_t)n, sizeof(*s.d)))) {
		free(sz);
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	}
	for (int k = 0; k < n; k++)
		sz[k] = size ? size[k] : prs[k]->procs;
	for (int k = 0; k < n && !r; k++)
		for (int j = 0; j < k && !r; j++)
			if (sz[j] == sz[k])
				r = lc_fail(msg, len, -EINVAL, "profiles %d and %d have one size "
					    "(%g): --scaling compares different sizes", j + 1, k + 1,
					    sz[k]);
	o.source = src;
	for (int k = 0; k < n && !r; k++)
		r = lc_diff_build(prs, 1, prs + k, 1, &o, &s.d[k], msg, len);
	if (!r && (r = print(out, &s, prs, sz, fmt)))
		lc_fail(msg, len, r, "cannot write the table");
	for (int k = 0; k < n; k++)
		lc_diff_free(s.d[k]);
	free(s.d), free(sz);
	return r;
}
