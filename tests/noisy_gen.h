/*
 * noisy_gen.h — the seeded generator of noisy single-variable cases as
 * measured machines give them (tests/test_noisy.c): Gaussian noise whose
 * standard deviation is a fraction of each value, 3 to 5 repeats per
 * point, p = 2, 4, ..., 64, and a prediction far past the measured range.
 *
 * A case: one of the 56 forms c0 + c1 * p^i * log2(p)^j of --search (the
 * forms with a constant), coefficients as in search_gen.h's generator 1
 * (the term's mean over the design is c0 times a log-uniform factor in
 * [1, 100)); each point gets 3, 4 or 5 runs value * (1 + sigma * z), z
 * standard normal; the runs go through the runs reader and lc_points_build
 * with the aggregation asked for; the search selects a model (with the
 * prediction point as the range that must stay non-negative), and the
 * case counts when the prediction at F times the largest p (F log-uniform
 * in [4, 16]) is within `goal` percent of the truth.
 */
#ifndef LC_TEST_NOISY_GEN_H
#define LC_TEST_NOISY_GEN_H

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
#include "search_gen.h"

#define NOISY_NP 6

/* The log10 of the smallest share of the term against the constant (the
 * largest is 100). */
static double noisy_share_lo = 0;
static int noisy_oracle;	/* fit the true form only (what the data allow) */
static int noisy_verbose;	/* print the misses and what was chosen */

/* A standard normal number (Box-Muller). */
static double noisy_normal(void)
{
	double u = rng_uniform(), v = rng_uniform();

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* Repeats of a loaded machine instead of Gaussian ones (NOISY_SKEW=1). */
static int noisy_skew;

/* One run of true value v on a loaded machine: a little slower than the
 * truth (half-normal, sigma), and 3 of 10 slowed 1.3 to 3 times by other
 * load (right-skewed). */
static double noisy_skewed(double v, double sigma)
{
	double y = v * (1 + sigma * fabs(noisy_normal()));

	return rng_uniform() < 0.3 ? y * (1.3 + 1.7 * rng_uniform()) : y;
}

/* Resolve "p" to slot 0. */
static int noisy_resolve(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	return len == 1 && name[0] == 'p' ? 0 : -1;
}

struct noisy_result {
	int cases, within;
	double errsum;		/* sum of the relative errors, percent (median is better) */
};

/* The runs of one case: formula g with coefficients c at p = 2..64. */
static struct lc_runs *noisy_runs(const struct lc_formula *g, const double *c, double sigma)
{
	struct lc_runs *r = lc_runs_new();
	int line = 1;

	for (int i = 0; r && i < NOISY_NP; i++) {
		double p = ldexp(1, i + 1), v = lc_fit_eval(g, c, &p);
		int reps = 3 + (int)(3 * rng_uniform());

		for (int k = 0; k < reps; k++) {
			lc_runs_start(r, line++);
			lc_runs_add(r, "p", p);
			lc_runs_add(r, "y", noisy_skew ? noisy_skewed(v, sigma) :
					    v * (1 + sigma * noisy_normal()));
		}
	}
	return r;
}

/* Select a model for pts over the hypotheses h[0..nh) as fit --search
 * does (range: below zero left out over the measured range, and with 2 up
 * to at);
 * its prediction at `at` (NaN: none selected). */
static double noisy_predict(char **h, int nh, const struct lc_points *pts, unsigned flags,
			    double at, int range)
{
	static const char *const names[] = { "p", NULL };
	struct lc_formula *chosen = NULL;
	struct lc_fit fit;
	double pred = NAN;

	if (gen_select_upto(h, nh, names, pts, flags | LC_FIT_RANK_AICC,
			    range > 1 ? &at : NULL, &chosen, &fit) >= 0) {
		pred = lc_fit_eval(chosen, fit.coef, &at);
		if (noisy_verbose > 1) {
			char b[256];

			lc_formula_print(chosen, fit.coef, names, 4, b, sizeof(b));
			printf("  chose %s\n", b);
		}
	}
	lc_formula_free(chosen);
	return pred;
}

/* Run `seeds` cases of every form at noise sigma, aggregating repeats with
 * pflags (lc_points_build's), fitting with flags; goal in percent.  range:
 * 1 no model below zero over the measured range, 2 up to the prediction
 * point too. */
static void noisy_run(double sigma, int seeds, unsigned sflags, unsigned pflags, unsigned flags,
		      int range, double goal, struct noisy_result *res)
{
	static const char *const names[] = { "p", NULL };
	int nh, keys[1] = { 0 };
	char **h;
	struct lc_search_info info;

	memset(res, 0, sizeof(*res));
	if (lc_search_hypotheses(names, 1, NULL, sflags, flags, &h, &nh, &info))
		return;
	for (int g = 0; g < nh; g++) {
		struct lc_formula *f = NULL;
		struct lc_parse_error pe;

		lc_formula_parse(h[g], 0, noisy_resolve, NULL, &f, &pe);
		for (int s = 0; f && f->nterms == 2 && s < seeds; s++) {
			double c[2], mean = 0, want, got, at = 64 * pow(2, 2 + 2 * rng_uniform());

			if (getenv("NOISY_AT"))
				at = atof(getenv("NOISY_AT"));
			struct lc_runs *r;
			struct lc_points pts;

			for (int i = 0; i < NOISY_NP; i++) {
				double p = ldexp(1, i + 1);

				mean += fabs(lc_expr_eval(f->term[0], &p)) / NOISY_NP;
			}
			c[1] = pow(10, 5 * rng_uniform() - 2);
			c[0] = c[1] * pow(10, noisy_share_lo + (2 - noisy_share_lo) * rng_uniform()) /
			       (mean > 0 ? mean : 1);
			r = noisy_runs(f, c, sigma);
			if (!r || lc_points_build(r, keys, 1, 1, NULL, pflags, &pts)) {
				lc_runs_free(r);
				continue;
			}
			want = lc_fit_eval(f, c, &at);
			got = noisy_oracle ? noisy_predict(&h[g], 1, &pts, flags, at, range) :
					     noisy_predict(h, nh, &pts, flags, at, range);
			if (noisy_verbose && !(fabs(got - want) <= goal / 100 * want))
				printf("miss: %-24s c = %.3g, %.3g: want %.4g, got %.4g at p=%g\n", h[g],
				       c[0], c[1], want, got, at);
			res->cases++;
			res->within += fabs(got - want) <= goal / 100 * want;
			res->errsum += isfinite(got) ? 100 * fabs(got - want) / want : 100;
			lc_points_free(&pts);
			lc_runs_free(r);
		}
		lc_formula_free(f);
	}
	lc_strv_free(h, nh);
}

#endif
