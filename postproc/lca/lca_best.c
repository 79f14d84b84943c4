/*
 * lca_best.c — "lostcycles predict --best" (see lca_best.h): the
 * constraints, the exhaustive search over the grid keeping the best few
 * points in order, and their table through the one emitter.
 */
#include "lca_best.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_emit.h"
#include "lc_util.h"
#include "lca_predrun.h"

const struct lc_best_word lc_best_words[] = {
	{ "time", LC_BEST_TIME },
	{ "speedup", LC_BEST_SPEEDUP },
	{ "speedup-per-p", LC_BEST_PER_P },
	{ NULL, LC_BEST_TIME },
};

/* What each goal looks for, for the title line. */
static const char *const goal_text[] = {
	[LC_BEST_TIME] = "least T(E)",
	[LC_BEST_SPEEDUP] = "most speedup over p=1",
	[LC_BEST_PER_P] = "most speedup per processor (efficiency)",
};

/* The operators, longest first so "<=" is not read as "<". */
static const char *const ops[] = { "<=", ">=", "!=", "==", "<", ">", "=" };

/* Parse one constraint w[0..wl) into *c. */
static int cond_one(const char *w, size_t wl, struct lc_best_cond *c, char *msg, size_t len)
{
	size_t k = 0;
	char num[64], *end;

	while (k < wl && (isalnum((unsigned char)w[k]) || w[k] == '_'))
		k++;
	if (!k || k >= sizeof(c->var) || isdigit((unsigned char)w[0]))
		return lc_fail(msg, len, -EINVAL, "--where '%.*s': want VAR OP NUMBER, e.g. p<=64 "
			       "or n=4096 (OP: <= < >= > = !=)", (int)wl, w);
	snprintf(c->var, sizeof(c->var), "%.*s", (int)k, w);
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		size_t ol = strlen(ops[o]), nl = wl - k - (k + ol <= wl ? ol : 0);

		if (k + ol > wl || memcmp(w + k, ops[o], ol) || !nl || nl >= sizeof(num))
			continue;
		snprintf(c->op, sizeof(c->op), "%s", strcmp(ops[o], "==") ? ops[o] : "=");
		snprintf(num, sizeof(num), "%.*s", (int)nl, w + k + ol);
		errno = 0;
		c->v = strtod(num, &end);
		if (end != num && !*end && !errno && isfinite(c->v))
			return 0;
		return lc_fail(msg, len, -EINVAL, "--where '%.*s': '%s' is not a number", (int)wl,
			       w, num);
	}
	return lc_fail(msg, len, -EINVAL, "--where '%.*s': want VAR OP NUMBER, e.g. p<=64 or "
		       "n=4096 (OP: <= < >= > = !=)", (int)wl, w);
}

/* Parse constraints.  See lca_best.h. */
int lc_best_cond_parse(const char *s, struct lc_best_cond *c, int *n, int max, char *msg,
		       size_t len)
{
	const char *w;
	size_t wl;
	int rc;

	while ((w = lc_next_word(&s, NULL, ",;", &wl))) {
		if (*n >= max)
			return lc_fail(msg, len, -EINVAL, "--where: more than %d constraints", max);
		if ((rc = cond_one(w, wl, &c[*n], msg, len)))
			return rc;
		(*n)++;
	}
	return 0;
}

/* Whether a constraint holds.  See lca_best.h. */
int lc_best_cond_holds(const struct lc_best_cond *c, double x)
{
	switch (c->op[0]) {
	case '<':
		return c->op[1] ? x <= c->v : x < c->v;
	case '>':
		return c->op[1] ? x >= c->v : x > c->v;
	case '!':
		return x != c->v;
	default:
		return x == c->v;
	}
}

/* Fix the variables the grid lacks.  See lca_best.h. */
int lc_best_fix(struct lc_grid *g, const struct lc_best_cond *c, int n, char *msg, size_t len)
{
	for (int i = 0; i < n; i++) {
		struct lc_axis *a;

		if (lc_grid_find(g, c[i].var) >= 0)
			continue;
		if (strcmp(c[i].op, "="))
			return lc_fail(msg, len, -EINVAL, "--where %s%s%g: %s is not a variable of "
				       "--grid (only VAR=V adds one)", c[i].var, c[i].op, c[i].v,
				       c[i].var);
		if (g->naxes == LC_GRID_MAXAXES)
			return lc_fail(msg, len, -EINVAL, "--where: more than %d variables",
				       LC_GRID_MAXAXES);
		a = &g->axis[g->naxes];
		if (lc_grow((void **)&a->v, &a->cap, 1, sizeof(*a->v)))
			return lc_fail(msg, len, -ENOMEM, "--where: out of memory");
		g->naxes++;
		snprintf(a->name, sizeof(a->name), "%s", c[i].var);
		a->v[0] = c[i].v;
		a->n = 1;
	}
	return 0;
}

/* One point evaluated: its grid index, T, half width, T(p=1), efficiency,
 * and the score the goal orders by (less is better). */
struct cand {
	size_t i;
	double t, h, t1, eff, score;
};

/* The search: the best k points in order, and what was ruled out. */
struct search {
	struct cand top[LC_BEST_MAXTOP];
	int ntop, k;
	size_t n, feasible, ruled, low;	/* points, feasible, --where, --min-efficiency */
	double eff_max;			/* the highest efficiency below the floor */
	size_t eff_max_i;
};

/* p must be a whole number of processors, at least 1. */
static int check_p(const struct lc_predrun *pr, char *msg, size_t len)
{
	const struct lc_axis *ax = &pr->g.axis[pr->pax];

	for (int i = 0; i < ax->n; i++)
		if (ax->v[i] < 1 || ax->v[i] != floor(ax->v[i]))
			return lc_fail(msg, len, -EINVAL, "--best: p=%g is not a whole number of "
				       "processors (1 or more)", ax->v[i]);
	return 0;
}

/* Whether the current point meets every --where. */
static int meets(const struct lc_predrun *pr)
{
	for (int c = 0; c < pr->ncond; c++)
		if (!lc_best_cond_holds(&pr->cond[c], pr->vals[lc_grid_find(&pr->g,
									    pr->cond[c].var)]))
			return 0;
	return 1;
}

/* Evaluate grid point i into *c.  0, or -errno with the reason. */
static int evaluate(struct lc_predrun *pr, size_t i, struct cand *c, char *msg, size_t len)
{
	double p, h1;
	int rc;

	lc_predrun_point(pr, i);
	p = pr->vals[pr->pax];
	if ((rc = lc_predrun_past(pr, msg, len)) ||
	    (rc = lc_predrun_total(pr, NAN, &c->t, &c->h, msg, len)) ||
	    (rc = lc_predrun_total(pr, 1, &c->t1, &h1, msg, len)))
		return rc;
	c->i = i;
	c->eff = c->t1 / c->t / p;
	c->score = pr->o.goal == LC_BEST_SPEEDUP ? -c->t1 / c->t :
		   pr->o.goal == LC_BEST_PER_P ? -c->eff : c->t;
	return 0;
}

/* Whether a goes before b: the better score, then the less T, then the
 * earlier point of the grid. */
static int before(const struct cand *a, const struct cand *b)
{
	if (a->score != b->score)
		return a->score < b->score;
	if (a->t != b->t)
		return a->t < b->t;
	return a->i < b->i;
}

/* Keep c among the best s->k, in order. */
static void keep(struct search *s, const struct cand *c)
{
	int j;

	if (s->ntop == s->k && !before(c, &s->top[s->k - 1]))
		return;
	j = s->ntop < s->k ? s->ntop++ : s->k - 1;
	while (j > 0 && before(c, &s->top[j - 1])) {
		s->top[j] = s->top[j - 1];
		j--;
	}
	s->top[j] = *c;
}

/* Walk the grid: every point that meets the constraints, the best kept. */
static int walk(struct lc_predrun *pr, struct search *s, char *msg, size_t len)
{
	struct cand c;
	int rc;

	for (size_t i = 0; i < s->n; i++) {
		lc_predrun_point(pr, i);
		if (!meets(pr)) {
			s->ruled++;
			continue;
		}
		if ((rc = evaluate(pr, i, &c, msg, len)))
			return rc;
		if (c.eff < pr->o.min_eff) {
			if (!s->low++ || c.eff > s->eff_max)
				s->eff_max = c.eff, s->eff_max_i = i;
			continue;
		}
		s->feasible++;
		keep(s, &c);
	}
	return 0;
}

/* The refusal when no point is feasible. */
static int none(struct lc_predrun *pr, const struct search *s, char *msg, size_t len)
{
	char at[200] = "", low[300] = "";

	if (s->low) {
		lc_predrun_point(pr, s->eff_max_i);
		lc_predrun_point_text(pr, at, sizeof(at));
		snprintf(low, sizeof(low), ", %zu have an efficiency below --min-efficiency %g "
			 "(the highest: %.4g at %s)", s->low, pr->o.min_eff, s->eff_max, at);
	}
	return lc_fail(msg, len, -ENOENT, "--best: no point of the grid meets the constraints: "
		       "of %zu points, %zu fail --where%s", s->n, s->ruled, low);
}

/* The columns of the table: rank, the variables, then the figures. */
static int columns(const struct lc_predrun *pr, struct lc_col *cols)
{
	static const struct lc_col figs[] = {
		{ .name = "T_s", .kind = LC_COL_SIG, .prec = 6 },
		{ .name = "T_low", .kind = LC_COL_SIG, .prec = 6 },
		{ .name = "T_high", .kind = LC_COL_SIG, .prec = 6 },
		{ .name = "speedup", .kind = LC_COL_SIG, .prec = 5 },
		{ .name = "efficiency", .kind = LC_COL_FLOAT, .prec = 4, .data_prec = 6 },
		{ .name = "T_vs_best", .kind = LC_COL_PCT, .prec = 2, .data_prec = 4 },
	};
	int n = 0;

	cols[n++] = (struct lc_col){ .name = "rank", .kind = LC_COL_INT };
	for (int a = 0; a < pr->g.naxes; a++)
		cols[n++] = (struct lc_col){ .name = pr->names[a], .kind = LC_COL_SIG, .prec = 10 };
	for (size_t f = 0; f < sizeof(figs) / sizeof(figs[0]); f++)
		cols[n++] = figs[f];
	return n;
}

/* Write the table of the kept points. */
static int table(struct lc_predrun *pr, const struct search *s, FILE *out, char *msg,
		 size_t len)
{
	struct lc_col cols[LC_GRID_MAXAXES + 8];
	int nc = columns(pr, cols), rc;
	struct lc_emit *e = lc_emit_new(out, (enum lc_emit_format)pr->o.format, cols, nc, 0);

	if (!e)
		return lc_fail(msg, len, -ENOMEM, "--best: out of memory");
	for (int r = 0; r < s->ntop; r++) {
		const struct cand *c = &s->top[r];

		lc_predrun_point(pr, c->i);
		lc_emit_int(e, r + 1);
		for (int a = 0; a < pr->g.naxes; a++)
			lc_emit_num(e, pr->vals[a]);
		lc_emit_num(e, c->t);
		lc_emit_num(e, lc_predict_lower(c->t, c->h));
		lc_emit_num(e, c->t + c->h);
		lc_emit_num(e, c->t1 / c->t);
		lc_emit_num(e, c->eff);
		lc_emit_num(e, 100 * (c->t - s->top[0].t) / s->top[0].t);
		lc_emit_row(e);
	}
	if ((rc = lc_emit_end(e)))
		return lc_fail(msg, len, rc, "--best: %s", strerror(-rc));
	return 0;
}

/* The title lines of the text table. */
static void title(struct lc_predrun *pr, const struct search *s, FILE *out)
{
	const struct cand *b = &s->top[0];
	char at[200];

	fprintf(out, "lostcycles predict --best: %s of %s over %s", goal_text[pr->o.goal],
		pr->o.model, pr->o.grid);
	for (int c = 0; c < pr->ncond; c++)
		fprintf(out, "%s%s%s%g", c ? ", " : " where ", pr->cond[c].var, pr->cond[c].op,
			pr->cond[c].v);
	if (pr->o.min_eff > 0)
		fprintf(out, "%s efficiency >= %g", pr->ncond ? "," : " where", pr->o.min_eff);
	fprintf(out, "\n%zu points: %zu feasible, %zu ruled out by --where, %zu below "
		"--min-efficiency\n", s->n, s->feasible, s->ruled, s->low);
	lc_predrun_point(pr, b->i);
	lc_predrun_point_text(pr, at, sizeof(at));
	fprintf(out, "best: %s  T(E) = %.6g s (90%% prediction interval %.6g .. %.6g)  speedup "
		"%.4g  efficiency %.4g\n", at, b->t, lc_predict_lower(b->t, b->h), b->t + b->h,
		b->t1 / b->t, b->eff);
}

/* Search and print.  See lca_best.h. */
int lc_best_print(struct lc_predrun *pr, FILE *out, char *msg, size_t len)
{
	struct search *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return lc_fail(msg, len, -ENOMEM, "--best: out of memory");
	s->n = lc_grid_count(&pr->g);
	s->k = pr->o.top > 0 ? (pr->o.top < LC_BEST_MAXTOP ? pr->o.top : LC_BEST_MAXTOP) : 5;
	if (!(rc = check_p(pr, msg, len)) && !(rc = walk(pr, s, msg, len)) && !s->feasible)
		rc = none(pr, s, msg, len);
	if (!rc && pr->o.format == LC_EMIT_TEXT)
		title(pr, s, out);
	if (!rc)
		rc = table(pr, s, out, msg, len);
	if (!rc && pr->o.format == LC_EMIT_TEXT) {
		lc_predrun_point(pr, s->top[0].i);
		lc_predrun_notes(pr, pr->vals[pr->pax], out);
	}
	free(s);
	return rc;
}
