/*
 * lca_search.c — generate the hypothesis space of the --search mode: the
 * single-variable normal form, and for several variables a two-stage
 * search (best factors per variable along lines of the others, then sums
 * of products of them).  See lca_search.h.
 */
#include "lc_util.h"
#include "lca_search.h"
#include "lca_formula.h"
#include "lca_lsq.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exponents of v, as text so that 1/3 stays exact; the negative ones are
 * used with LC_SEARCH_NEGATIVE only. */
static const char *const iexp_pos[] = {
	"0", "1/4", "1/3", "1/2", "2/3", "3/4", "1", "5/4", "4/3", "3/2", "5/3", "7/4",
	"2", "9/4", "7/3", "5/2", "8/3", "11/4", "3",
};
static const char *const iexp_neg[] = {
	"-1/4", "-1/3", "-1/2", "-2/3", "-3/4", "-1", "-5/4", "-4/3", "-3/2", "-5/3", "-7/4", "-2",
};
#define NPOS (sizeof(iexp_pos) / sizeof(iexp_pos[0]))
#define NNEG (sizeof(iexp_neg) / sizeof(iexp_neg[0]))
#define MAXJ 2
#define MAXFACTORS ((NPOS + NNEG) * (MAXJ + 1))
#define FLEN 64

/* One factor v^i * log2(v)^j of a variable and its stage-1 score. */
struct factor {
	char text[FLEN];
	double score;
};

/* Write the factor v^i*log2(v)^j into buf ("" when i = j = 0). */
static void factor_text(char *buf, size_t len, const char *v, const char *i, int j)
{
	int has_i = strcmp(i, "0") != 0;
	int paren = strchr(i, '/') || i[0] == '-';
	size_t used = 0;

	buf[0] = '\0';
	if (has_i)
		used = (size_t)snprintf(buf, len, strcmp(i, "1") ? (paren ? "%s^(%s)" : "%s^%s") : "%s",
					v, i);
	if (j > 0 && used < len)
		snprintf(buf + used, len - used, "%slog2(%s)%s", has_i ? "*" : "", v,
			 j > 1 ? "^2" : "");
}

/* Resolve the one variable name ctx to slot 0. */
static int resolve_one(void *ctx, const char *name, size_t len)
{
	const char *v = ctx;

	return strlen(v) == len && !strncmp(v, name, len) ? 0 : -1;
}

/* Parse "F + 1" over the single variable v; NULL on failure. */
static struct lc_formula *parse_one(const char *v, const char *f)
{
	struct lc_formula *fm = NULL;
	struct lc_parse_error pe;
	char buf[2 * FLEN];

	snprintf(buf, sizeof(buf), "%s + 1", f);
	return lc_formula_parse(buf, 0, resolve_one, (void *)v, &fm, &pe) ? NULL : fm;
}

/* True when term 0 of fm is finite at every value of column v of pts;
 * otherwise the first offending point goes to info. */
static int defined_at(const struct lc_formula *fm, const struct lc_points *pts, int v,
		      const char *name, struct lc_search_info *info)
{
	for (size_t i = 0; i < pts->n; i++) {
		double x = pts->x[i * (size_t)pts->nvars + (size_t)v];

		if (!isfinite(lc_expr_eval(fm->term[0], &x))) {
			if (!info->undefined_at[0])
				snprintf(info->undefined_at, sizeof(info->undefined_at), "%s=%g", name, x);
			return 0;
		}
	}
	return 1;
}

/* Every factor of one variable that is defined at all points of pts (any
 * pts column v; pts NULL: all).  Returns the count. */
static int factors(const char *name, const struct lc_points *pts, int v, unsigned sflags,
		   struct factor *out, struct lc_search_info *info)
{
	int n = 0, tried = 0;

	for (int neg = 0; neg <= !!(sflags & LC_SEARCH_NEGATIVE); neg++) {
		const char *const *ie = neg ? iexp_neg : iexp_pos;
		size_t ni = neg ? NNEG : NPOS;

		for (size_t a = 0; a < ni; a++)
			for (int j = 0; j <= MAXJ; j++) {
				struct lc_formula *fm;
				int ok;

				if (!strcmp(ie[a], "0") && !j)
					continue;
				factor_text(out[n].text, FLEN, name, ie[a], j);
				tried++;
				if (!pts) {
					n++;
					continue;
				}
				fm = parse_one(name, out[n].text);
				ok = fm && defined_at(fm, pts, v, name, info);
				lc_formula_free(fm);
				if (ok)
					n++;
				else
					info->undefined++;
			}
	}
	info->nfactors = tried;
	return n;
}

/* Hypotheses for one variable: the constant c0, then c0 + c1*f and c1*f
 * for every factor f. */
static int one_var(const char *v, const struct lc_points *pts, unsigned sflags, char ***h, int *n,
		   struct lc_search_info *info)
{
	static struct factor fs[MAXFACTORS];
	char buf[2 * FLEN];
	int nf = factors(v, pts, 0, sflags, fs, info), rc = lc_strv_push(h, n, "1");

	for (int a = 0; a < nf && !rc; a++) {
		snprintf(buf, sizeof(buf), "%.64s + 1", fs[a].text);
		rc = lc_strv_push(h, n, buf);
		if (!rc)
			rc = lc_strv_push(h, n, fs[a].text);
	}
	return rc;
}

/* The lines of pts along variable v: line[i] gets the line number of point
 * i (points sharing the values of every other variable).  Returns the
 * number of lines. */
static int lines_along(const struct lc_points *pts, int v, int *line)
{
	int nl = 0;
	size_t nv = (size_t)pts->nvars;

	for (size_t i = 0; i < pts->n; i++) {
		line[i] = -1;
		for (size_t j = 0; j < i && line[i] < 0; j++) {
			int same = 1;

			for (size_t u = 0; u < nv; u++)
				same &= (int)u == v || pts->x[i * nv + u] == pts->x[j * nv + u];
			if (same)
				line[i] = line[j];
		}
		if (line[i] < 0)
			line[i] = nl++;
	}
	return nl;
}

/* Single-variable points of column v for the points of pts on line l
 * (l < 0: all points).  Returns 0 or -ENOMEM. */
static int line_points(const struct lc_points *pts, int v, const int *line, int l,
		       struct lc_points *out)
{
	size_t m = 0;

	*out = (struct lc_points){ .nvars = 1 };
	out->x = malloc((pts->n + 1) * sizeof(double));
	out->y = malloc((pts->n + 1) * sizeof(double));
	out->sd = malloc((pts->n + 1) * sizeof(double));
	out->count = malloc((pts->n + 1) * sizeof(int));
	if (!out->x || !out->y || !out->sd || !out->count)
		return -ENOMEM;
	for (size_t i = 0; i < pts->n; i++) {
		if (l >= 0 && line[i] != l)
			continue;
		out->x[m] = pts->x[i * (size_t)pts->nvars + (size_t)v];
		out->y[m] = pts->y[i];
		out->sd[m] = pts->sd[i];
		out->count[m] = pts->count[i];
		m++;
	}
	out->n = m;
	return 0;
}

/* Order factors by score, best first. */
static int cmp_score(const void *a, const void *b)
{
	const struct factor *x = a, *y = b;

	return (x->score > y->score) - (x->score < y->score);
}

/* The single-variable points of the lines along v with 3 points or more
 * (all points as one line when none has) into lp[64].  Returns how many,
 * or -ENOMEM. */
static int collect_lines(const struct lc_points *pts, int v, struct lc_points *lp)
{
	int *line = malloc((pts->n + 1) * sizeof(*line)), nl, nlp = 0, rc = 0;

	if (!line)
		return -ENOMEM;
	nl = lines_along(pts, v, line);
	for (int l = 0; l < nl && nlp < 64 && !rc; l++) {
		rc = line_points(pts, v, line, l, &lp[nlp]);
		if (lp[nlp].n >= 3)
			nlp++;
		else
			lc_points_free(&lp[nlp]);
	}
	if (!rc && nlp == 0) {
		rc = line_points(pts, v, line, -1, &lp[0]);
		nlp = 1;
	}
	free(line);
	return rc ? rc : nlp;
}

/* Score factor fa by the in-sample SMAPE of c0 + c1*factor summed over
 * the nlp lines lp (200 for a line it cannot fit).  0 or -ENOMEM. */
static int score_factor(const char *name, struct factor *fa, const struct lc_points *lp, int nlp,
			unsigned fitflags)
{
	struct lc_formula *fm = parse_one(name, fa->text);
	struct lc_fit fit;

	fa->score = 0;
	if (!fm)
		return -ENOMEM;
	for (int l = 0; l < nlp; l++)
		fa->score += lc_fit_formula(fm, &lp[l], fitflags | LC_FIT_NOLOO, &name, &fit, NULL,
					    0) ? 200 : fit.smape_in;
	lc_formula_free(fm);
	return 0;
}

/* Stage 1 for variable v: score every factor by the in-sample SMAPE of
 * c0 + c1*factor summed over the lines along v, sort best first.  Returns
 * the number of factors or -ENOMEM / -EDOM. */
static int rank_factors(const char *name, const struct lc_points *pts, int v, unsigned sflags,
			unsigned fitflags, struct factor *fs, struct lc_search_info *info)
{
	int nf = factors(name, pts, v, sflags, fs, info), used = 0, rc = 0, nlp;
	struct lc_points lp[64];

	if (nf == 0)
		return -EDOM;
	nlp = collect_lines(pts, v, lp);
	if (nlp < 0)
		return nlp;
	for (; used < nf && !rc; used++)
		rc = score_factor(name, &fs[used], lp, nlp, fitflags);
	for (int l = 0; l < nlp; l++)
		lc_points_free(&lp[l]);
	if (rc)
		return rc;
	qsort(fs, (size_t)used, sizeof(*fs), cmp_score);
	return used;
}

/* Append "a*b" (either may be "") to buf. */
static void join(char *buf, size_t len, const char *a, const char *b)
{
	snprintf(buf, len, "%s%s%s", a, *a && *b ? "*" : "", b);
}

/* Term c of the terms of stage 2 into out: for each variable, no factor
 * or one of its keep[v] kept factors (c counts in that mixed radix). */
static void make_term(struct factor (*fs)[MAXFACTORS], const int *keep, int nvars, size_t c,
		      char *out)
{
	char b[3 * FLEN + 4];

	out[0] = 0;
	for (int v = 0; v < nvars; v++) {
		int idx = (int)(c % ((size_t)keep[v] + 1));

		c /= (size_t)keep[v] + 1;
		join(b, sizeof(b), out, idx ? fs[v][idx - 1].text : "");
		memcpy(out, b, sizeof(b));
	}
}

/* Push "a + b + 1" and "a + b" (b NULL: "a + 1" and "a").  0 or -ENOMEM. */
static int push_sums(char ***h, int *n, const char *a, const char *b)
{
	char buf[8 * FLEN];

	snprintf(buf, sizeof(buf), "%s%s%s + 1", a, b ? " + " : "", b ? b : "");
	if (lc_strv_push(h, n, buf))
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "%s%s%s", a, b ? " + " : "", b ? b : "");
	return lc_strv_push(h, n, buf);
}

/* Stage 2: the terms (kept factors and their products across variables),
 * then every term and every pair of terms, with and without a constant. */
static int combine(struct factor (*fs)[MAXFACTORS], const int *keep, int nvars, char ***h, int *n)
{
	int nt = 0, rc = 0;
	char (*term)[3 * FLEN + 4];
	size_t cap = 1;

	for (int v = 0; v < nvars; v++)
		cap *= (size_t)keep[v] + 1;
	term = malloc(cap * sizeof(*term));
	if (!term || lc_strv_push(h, n, "1")) {
		free(term);
		return -ENOMEM;
	}
	for (size_t c = 1; c < cap; c++)	/* every choice but none */
		make_term(fs, keep, nvars, c, term[nt++]);
	for (int a = 0; a < nt && !rc; a++) {
		rc = push_sums(h, n, term[a], NULL);
		for (int b = a + 1; b < nt && !rc; b++)
			rc = push_sums(h, n, term[a], term[b]);
	}
	free(term);
	return rc;
}

/* Hypotheses for two or three variables. */
static int multi_var(const char *const *vars, int nvars, const struct lc_points *pts,
		     unsigned sflags, unsigned fitflags, char ***h, int *n,
		     struct lc_search_info *info)
{
	static struct factor fs[3][MAXFACTORS];
	int keep[3], k = nvars == 2 ? LC_SEARCH_KEEP2 : LC_SEARCH_KEEP3;

	for (int v = 0; v < nvars; v++) {
		int nf = rank_factors(vars[v], pts, v, sflags, fitflags, fs[v], info);

		if (nf < 0)
			return nf;
		keep[v] = nf < k ? nf : k;
		info->kept[v] = keep[v];
	}
	return combine(fs, keep, nvars, h, n);
}

/* Build the hypotheses.  See lca_search.h. */
int lc_search_hypotheses(const char *const *vars, int nvars, const struct lc_points *pts,
			 unsigned sflags, unsigned fitflags, char ***out, int *n,
			 struct lc_search_info *info)
{
	int rc;

	*out = NULL;
	*n = 0;
	memset(info, 0, sizeof(*info));
	if (nvars < 1 || nvars > 3)
		return -E2BIG;
	if (nvars == 1)
		rc = one_var(vars[0], pts, sflags, out, n, info);
	else
		rc = multi_var(vars, nvars, pts, sflags, fitflags, out, n, info);
	if (!rc && *n == 0)
		rc = -EDOM;
	if (rc) {
		lc_strv_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

