/*
 * search_gen.h — the seeded generators of the model-selection tests
 * (tests/test_search.c) and of their larger sweep (bench/bench_search.c).
 *
 * Noise: every run is value * (1 + noise * u), u uniform in [-1, 1) (the
 * convention of Extra-P's synthetic inputs), so "5 % noise" means runs
 * within +-5 % of the true value.
 *
 * Generator 1, single variable: every one of the 56 forms
 * c0 + c1 * x^i * log2(x)^j of the --search space (i in 0..3 by quarters
 * and thirds, j in 0..2, not both 0).  c0 is log-uniform in [0.01, 1000)
 * and c1 is chosen so that the term's mean over the design is c0 times a
 * log-uniform factor in [1, 100): the term matters at least as much as the
 * constant.  Two designs, each 8 values with 5 repeats averaged into a
 * point with its spread:
 *   A  x = 1, 2, 4, ..., 128 (doubling, as processor counts)
 *   B  x = 1, 4, 16, ..., 16384 (quadrupling, as problem sizes)
 * A case is recovered when the selected model's only non-constant term is
 * the generator's (its constant may be left out when it cannot be told
 * from zero).
 *
 * Generator 2, strong scaling: rt(n, p) = a * n * log2(n) / p + b * n over
 * n = 64, 128, ..., 1024 and p = 1, 2, 4, 8, 16 (a 5 x 5 grid, one run per
 * point), with a and b such that both terms have about equal shares
 * (uniform in [0.5, 2) times their mean's reciprocal).  A case is
 * recovered when the selected model has exactly the two terms n*log2(n)/p
 * and n; its prediction error is measured at the unmeasured points
 * (4096, 16), (1024, 64) and (4096, 64), four times the largest n and p.
 */
#ifndef LC_TEST_SEARCH_GEN_H
#define LC_TEST_SEARCH_GEN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lca_formula.h"
#include "lca_lsq.h"
#include "lca_runs.h"
#include "lca_search.h"
#include "lc_util.h"
#include "rng.h"

/* Resolve names against the NULL-terminated array ctx. */
static int gen_resolve(void *ctx, const char *name, size_t len)
{
	const char *const *names = ctx;

	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}

/* Allocate points of nvars variables, n rows. */
static void gen_points(struct lc_points *p, int nvars, size_t n)
{
	*p = (struct lc_points){ .n = n, .nvars = nvars };
	p->x = calloc(n * (size_t)nvars, sizeof(double));
	p->y = calloc(n, sizeof(double));
	p->sd = calloc(n, sizeof(double));
	p->count = calloc(n, sizeof(int));
}

/* Point i gets the mean and spread of reps noisy repeats of v. */
static void gen_value(struct lc_points *p, size_t i, double v, double noise, int reps)
{
	double s = 0, ss = 0;

	for (int r = 0; r < reps; r++) {
		double y = v * (1 + noise * (2 * rng_uniform() - 1));

		s += y;
		ss += y * y;
	}
	p->y[i] = s / reps;
	p->sd[i] = reps > 1 ? sqrt(fmax(ss - s * s / reps, 0) / (reps - 1)) : 0;
	p->count[i] = reps;
}

/* The selection over the hypotheses h[0..nh) (formula texts over names):
 * fit each, leave out those below zero in the measured range or up to
 * upto[] (NULL: none; as fit --upto), select, return the index of the
 * chosen one (-1: none) and parse it into *chosen with its fit. */
static int gen_select_upto(char **h, int nh, const char *const *names,
			   const struct lc_points *pts, unsigned flags, const double *upto,
			   struct lc_formula **chosen, struct lc_fit *cfit)
{
	struct lc_formula **f = calloc((size_t)nh, sizeof(*f));
	struct lc_fit *fits = calloc((size_t)nh, sizeof(*fits));
	struct lc_fit **fp = calloc((size_t)nh, sizeof(*fp));
	const struct lc_formula **ff = calloc((size_t)nh, sizeof(*ff));
	int *idx = calloc((size_t)nh, sizeof(*idx)), *order = calloc((size_t)nh, sizeof(*order));
	int n = 0, best = -1;
	struct lc_select sel;

	for (int i = 0; i < nh; i++) {
		struct lc_parse_error pe;

		if (lc_formula_parse(h[i], 0, gen_resolve, (void *)names, &f[i], &pe))
			continue;
		if (lc_fit_formula(f[i], pts, flags | LC_FIT_NOLOO, names, &fits[n], NULL, 0) ||
		    lc_fit_below_zero(f[i], &fits[n], pts, upto, names, NULL, 0))
			continue;	/* as fit: not fitted, or below zero in the range */
		ff[n] = f[i];
		fp[n] = &fits[n];
		idx[n++] = i;
	}
	if (n && !lc_fit_select(ff, fp, n, pts, flags, names, order, &sel)) {
		best = idx[order[0]];
		*cfit = fits[order[0]];
		*chosen = f[best];
		f[best] = NULL;
	}
	for (int i = 0; i < nh; i++)
		lc_formula_free(f[i]);
	free(f);
	free(fits);
	free(fp);
	free(ff);
	free(idx);
	free(order);
	return best;
}

/* gen_select_upto over the measured range. */
static int gen_select(char **h, int nh, const char *const *names, const struct lc_points *pts,
		      unsigned flags, struct lc_formula **chosen, struct lc_fit *cfit)
{
	return gen_select_upto(h, nh, names, pts, flags, NULL, chosen, cfit);
}

/* ---- generator 1: the 56 single-variable forms ---- */

struct gen1_result {
	int cases, first;
};

/* True when f is c1*term (plus a constant or not) with term a constant
 * multiple of g's only non-constant term at the values xs[0..nx). */
static int gen1_same(const struct lc_formula *f, const struct lc_formula *g, const double *xs,
		     int nx)
{
	int var = 0, match = 0;

	for (int t = 0; t < f->nterms; t++) {
		double r0 = NAN;
		int same = 1, konst = 1;

		for (int i = 0; i < nx; i++) {
			double a = lc_expr_eval(f->term[t], &xs[i]), b = lc_expr_eval(g->term[0], &xs[i]);
			double c = lc_expr_eval(f->term[t], &xs[0]);

			konst &= a == c;
			if (b == 0 && a == 0)
				continue;
			if (isnan(r0))
				r0 = a / b;
			same &= fabs(a / b - r0) <= 1e-9 * fabs(r0);
		}
		var += !konst;
		match += !konst && same;
	}
	return var == 1 && match == 1;
}

/* The mean of term 0 of f over xs[0..nx). */
static double gen1_mean(const struct lc_formula *f, const double *xs, int nx)
{
	double m = 0;

	for (int i = 0; i < nx; i++)
		m += fabs(lc_expr_eval(f->term[0], &xs[i]));
	return m > 0 ? m / nx : 1;
}

/* Run every form `seeds` times on design d (0: A, 1: B) at noise. */
static inline void gen1_run(int d, double noise, int seeds, unsigned flags, struct gen1_result *r)
{
	static const char *const names[] = { "x", NULL };
	double xs[8];
	char **h;
	int nh;
	struct lc_search_info info;

	for (int i = 0; i < 8; i++)
		xs[i] = ldexp(1, d == 0 ? i : 2 * i);
	memset(r, 0, sizeof(*r));
	if (lc_search_hypotheses(names, 1, NULL, 0, flags, &h, &nh, &info))
		return;
	for (int g = 0; g < nh; g++) {
		struct lc_formula *f = NULL;
		struct lc_parse_error pe;
		double c[2];

		lc_formula_parse(h[g], 0, gen_resolve, (void *)names, &f, &pe);
		if (f->nterms != 2) {	/* the generators are the forms with a constant */
			lc_formula_free(f);
			continue;
		}
		for (int s = 0; s < seeds; s++) {
			struct lc_points pts;
			struct lc_formula *chosen = NULL;
			struct lc_fit fit;

			c[1] = pow(10, 5 * rng_uniform() - 2);
			c[0] = c[1] * pow(10, 2 * rng_uniform()) / gen1_mean(f, xs, 8);
			gen_points(&pts, 1, 8);
			for (int i = 0; i < 8; i++) {
				pts.x[i] = xs[i];
				gen_value(&pts, (size_t)i, lc_fit_eval(f, c, &xs[i]), noise, 5);
			}
			r->cases++;
			if (gen_select(h, nh, names, &pts, flags | LC_FIT_RANK_AICC, &chosen,
				       &fit) >= 0)	/* as fit --search over one variable */
				r->first += gen1_same(chosen, f, xs, 8);
			lc_formula_free(chosen);
			lc_points_free(&pts);
		}
		lc_formula_free(f);
	}
	lc_strv_free(h, nh);
}

/* ---- generator 2: strong scaling in n and p ---- */

struct gen2_result {
	int cases, first;
	double maxerr;		/* largest relative prediction error, percent */
	int within;		/* cases whose every prediction is within the goal */
};

/* True when term t of f is a constant multiple of g at the test points. */
static int gen2_same_term(const struct lc_expr *t, double (*g)(double, double))
{
	static const double at[][2] = { { 64, 1 }, { 256, 4 }, { 1024, 16 }, { 128, 8 } };
	double r0 = 0;

	for (int i = 0; i < 4; i++) {
		double r = lc_expr_eval(t, at[i]) / g(at[i][0], at[i][1]);

		if (i == 0)
			r0 = r;
		else if (!(fabs(r - r0) <= 1e-9 * fabs(r0)))
			return 0;
	}
	return r0 != 0;
}

static double gen2_t1(double n, double p)
{
	return n * log2(n) / p;
}

static double gen2_t2(double n, double p)
{
	(void)p;
	return n;
}

/* Run `seeds` cases at noise; goal is the prediction error bound (percent). */
static inline void gen2_run(double noise, int seeds, unsigned flags, double goal, struct gen2_result *r)
{
	static const char *const names[] = { "n", "p", NULL };
	static const double at[][2] = { { 4096, 16 }, { 1024, 64 }, { 4096, 64 } };

	memset(r, 0, sizeof(*r));
	for (int s = 0; s < seeds; s++) {
		double a = 0.5 + 1.5 * rng_uniform(), b = 0.5 + 1.5 * rng_uniform(), err = 0;
		struct lc_points pts;
		struct lc_formula *chosen = NULL;
		struct lc_fit fit;
		struct lc_search_info info;
		char **h;
		int nh, k = 0;

		/* over the grid, n*log2(n)/p averages 3.55 times n: equal shares */
		a *= 1e-6 / 3.55;
		b *= 1e-6;
		gen_points(&pts, 2, 25);
		for (int i = 0; i < 5; i++)
			for (int j = 0; j < 5; j++, k++) {
				double n = 64 << i, p = 1 << j;

				pts.x[2 * k] = n;
				pts.x[2 * k + 1] = p;
				gen_value(&pts, (size_t)k, a * gen2_t1(n, p) + b * n, noise, 1);
			}
		r->cases++;
		if (!lc_search_hypotheses(names, 2, &pts, LC_SEARCH_NEGATIVE, flags, &h, &nh, &info)) {
			if (gen_select(h, nh, names, &pts, flags, &chosen, &fit) >= 0) {
				int t1 = 0, t2 = 0;

				for (int t = 0; t < chosen->nterms; t++) {
					t1 += gen2_same_term(chosen->term[t], gen2_t1);
					t2 += gen2_same_term(chosen->term[t], gen2_t2);
				}
				r->first += chosen->nterms == 2 && t1 == 1 && t2 == 1;
				for (int i = 0; i < 3; i++) {
					double want = a * gen2_t1(at[i][0], at[i][1]) + b * at[i][0];
					double got = lc_fit_eval(chosen, fit.coef, at[i]);

					err = fmax(err, 100 * fabs(got - want) / want);
				}
			} else {
				err = INFINITY;
			}
			lc_strv_free(h, nh);
		} else {
			err = INFINITY;
		}
		r->maxerr = fmax(r->maxerr, err);
		r->within += err <= goal;
		lc_formula_free(chosen);
		lc_points_free(&pts);
	}
}

#endif
