/*
 * lca_lsq.h — linear least squares for lost cycles models, through GSL's
 * SVD-based solver, with the statistics lca reported and more: 90 %
 * confidence intervals (t distribution), R², adjusted R², AICc,
 * leave-one-out cross-validated SMAPE, flags on coefficients whose interval
 * contains zero, pruning of such terms, non-negative fits, and threshold
 * (max) models fitted by a search over the split point.
 *
 * Nothing here prints.  Functions return 0 or -errno and, where a fit is
 * refused, a one-line reason.
 */
#ifndef LCA_LSQ_H
#define LCA_LSQ_H

#include <stddef.h>

#include "lca_formula.h"
#include "lca_runs.h"

/* The most terms a fit takes (a formula may have more: it is refused).  A
 * fit's covariance is LC_LSQ_MAXK^2 doubles and the search keeps a fit per
 * hypothesis: 16 keeps a two-variable search near 11 MB. */
#define LC_LSQ_MAXK 16

/* Confidence level of the intervals. */
#define LC_LSQ_LEVEL 0.90

/* Significance level of the lack-of-fit test. */
#define LC_LOF_LEVEL 0.01

/* Fit flags. */
#define LC_FIT_NONNEG	0x1u	/* no negative coefficients */
#define LC_FIT_NOLOO	0x2u	/* skip the leave-one-out error */
#define LC_FIT_WEIGHTS	0x4u	/* weight points by count / sd^2 when every point has repeats */
#define LC_FIT_RELATIVE	0x8u	/* else weight points by 1 / y^2 (relative errors) when no y is 0 */
#define LC_FIT_RANK_AICC 0x10u	/* lc_fit_select: rank by AICc alone (see there) */
#define LC_FIT_NOEXTRAP 0x20u	/* lc_fit_select: no hold-out of the largest levels */

/* One fitted model. */
struct lc_fit {
	int n;				/* points */
	int k;				/* terms (coefficients, including ones held at 0) */
	int kfree;			/* free parameters (+1 for a threshold) */
	int dof;			/* n - kfree */
	int weighted;			/* 1: weights from repeats, 2: relative */
	double coef[LC_LSQ_MAXK];
	double se[LC_LSQ_MAXK];		/* standard errors */
	double half[LC_LSQ_MAXK];	/* half widths of the 90 % intervals */
	double cov[LC_LSQ_MAXK * LC_LSQ_MAXK];
	int zero[LC_LSQ_MAXK];		/* held at zero by --nonneg */
	int flagged[LC_LSQ_MAXK];	/* interval contains zero */
	int nflagged;
	double sse;			/* (weighted) residual sum of squares */
	double s2;			/* sse / dof */
	double tcrit;			/* t quantile used for the intervals */
	double r2, adjr2, aicc;
	double smape;			/* leave-one-out SMAPE in percent; NaN if unavailable */
	double smape_se;		/* its standard error (spread of the per-point errors / sqrt n) */
	double smape_in;		/* in-sample SMAPE in percent */
	double xerr;			/* extrapolation error in percent (lc_fit_extrap);
					 * NaN when not computed or not possible */
	double lof_p;			/* lack-of-fit p-value against the spread of repeats; NaN without */
	int lof;			/* lof_p < LC_LOF_LEVEL: misfit beyond the repeats' spread */
	double threshold;		/* threshold models: split value of the first variable */
	int negative;			/* the curve goes below zero in the range (lc_fit_below_zero) */
};

/* Solve min |W^1/2 (X c - y)| for c (X is n x k, row-major; w NULL means
 * unit weights).  cov gets s^2 (X'WX)^-1 with s^2 = chisq / (n - k), chisq
 * the weighted residual sum of squares.  Returns 0, -EINVAL when n <= k,
 * -EDOM when X has rank below k, -ENOMEM. */
int lc_lsq_solve(const double *X, const double *y, const double *w, size_t n, size_t k,
		 double *coef, double *cov, double *chisq);

/* Evaluate formula f with coefficients coef at the variable values x. */
double lc_fit_eval(const struct lc_formula *f, const double *coef, const double *x);

/* Fit f to pts (names[] are the variables' names, for messages).  When
 * points average repeated runs, the lack-of-fit F test compares the misfit
 * of the means (n - k degrees of freedom) with the spread of the repeats
 * (runs - n), each scaled by 1/y^2 (by 1 when some y is 0).  Returns 0; -EINVAL with why set when there are too few
 * points (fewer than parameters + 1) or a term is not finite at a point;
 * -EDOM with why set when the terms are linearly dependent over the points;
 * -ENOMEM. */
int lc_fit_formula(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		   const char *const *names, struct lc_fit *out, char *why, size_t whylen);

/* Fit f, then while some coefficient's interval contains zero (and more
 * than one term is left), drop the least significant such term and refit.
 * On return *pf is the final formula (a new one if terms were dropped; the
 * caller frees it unless it is f) and dropped[] marks f's dropped terms.
 * Returns as lc_fit_formula. */
int lc_fit_prune(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		 const char *const *names, struct lc_formula **pf, int *dropped,
		 struct lc_fit *out, char *why, size_t whylen);

/* Points of the grid lc_fit_below_zero checks along one variable (besides
 * the measured values); with several variables, this over their count
 * along each. */
#define LC_RANGE_GRID 24

/* Whether the fitted curve of f goes below zero anywhere in the range: per
 * variable, from its smallest measured value to the larger of its largest
 * measured value and upto[v] (NULL, or NaN for a variable: the measured
 * range only), checked at the measured values and on a grid (log-spaced
 * when the range is positive).  A time cannot be negative, so such a model
 * is not physical.  Values within 1e-9 of the largest |y| below zero count
 * as zero (a term that vanishes at a point).  Sets fit->negative; where
 * gets the first such point ("p=1024" with names[], may be NULL).  Returns 1 or 0. */
int lc_fit_below_zero(const struct lc_formula *f, struct lc_fit *fit,
		      const struct lc_points *pts, const double *upto, const char *const *names,
		      char *where, size_t wl);

/* Whether the fitted curve of f turns (rises, then falls, or the reverse)
 * between the data and upto: per variable v with upto[v] above its largest
 * measured value, from each measured point at that largest value along v
 * up to upto[v] (log-spaced), other variables as measured there.  A time
 * that turns past the data is a form that only holds inside them.  where
 * gets the place of the first turn ("p=23.1" with names[]).  1 or 0. */
int lc_fit_turns(const struct lc_formula *f, const struct lc_fit *fit,
		 const struct lc_points *pts, const double *upto, const char *const *names,
		 char *where, size_t wl);

/* The index of the first change of direction of y[0..n) (differences
 * beyond tol, of both signs), or -1 when y is monotone. */
int lc_turn_index(const double *y, int n, double tol);

/* True when a fit is doubtful: a coefficient's interval contains zero, it
 * fails the lack-of-fit test, or its curve goes below zero in the range. */
int lc_fit_doubtful(const struct lc_fit *f);

/* The ranking rule: negative when fit a ranks before fit b, positive after,
 * 0 for a tie.  Models that are not doubtful come first, then lower
 * AICc, then lower leave-one-out SMAPE, then higher R2. */
int lc_fit_rank_cmp(const struct lc_fit *a, const struct lc_fit *b);

/* Fill fit->smape and fit->smape_se (fit from lc_fit_formula with
 * LC_FIT_NOLOO and the same flags) by leaving out each point in turn.  Both
 * stay NaN when some refit is not possible.  Returns 0 or -ENOMEM. */
int lc_fit_loo(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
	       const char *const *names, struct lc_fit *fit);

/* How many of the largest levels of each variable lc_fit_extrap holds
 * out in turn, and how many levels must stay to fit on. */
#define LC_EXTRAP_HOLD 2
#define LC_EXTRAP_KEEP 3

/* Fill fit->xerr (fit from lc_fit_formula with the same flags): for each
 * variable, the points at its largest level are left out, f is refitted on
 * the others and predicts them; then the two largest levels (while
 * LC_EXTRAP_KEEP levels and more points than parameters stay).  xerr is
 * the mean relative error of those predictions in percent (a prediction
 * below zero counts its full distance): how well f predicts data it did
 * not see in the direction a user extrapolates.  NaN when no such refit is
 * possible.  Returns 0 or -ENOMEM. */
int lc_fit_extrap(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		  const char *const *names, struct lc_fit *fit);

/* What lc_fit_select ranked by. */
enum lc_crit {
	LC_CRIT_LOO,		/* leave-one-out SMAPE */
	LC_CRIT_AICC,		/* too few points for leave-one-out */
	LC_CRIT_R2,		/* too few points for either: in-sample fit only */
};

/* How many of the best models by AICc lc_fit_select cross-validates. */
#define LC_SELECT_SHORTLIST 24

/* What lc_fit_select did. */
struct lc_select {
	enum lc_crit crit;
	int shortlist;		/* models cross-validated */
	int promoted;		/* the model the simpler-model rule moved to the top, or -1 */
	int promoted_over;	/* the model it moved ahead of */
	int extrap;		/* models ranked first by their extrapolation error */
	double band;		/* the errors counted as ties, percent */
};

/*
 * The selection rule, the same in every mode.  fit[0..n) are fits of
 * f[0..n) to pts (made with LC_FIT_NOLOO and flags).  order[] gets the
 * indices best first:
 *  1. models with a coefficient whose 90 % interval contains zero ("?"),
 *     or that fail the lack-of-fit test against the spread of repeated
 *     runs (lof), rank after every model with neither;
 *  2. the LC_SELECT_SHORTLIST best by AICc are cross-validated
 *     (lc_fit_loo) and ranked by leave-one-out SMAPE (by AICc when too few
 *     points leave none, by R² when AICc is not finite either); the others
 *     follow in AICc order;
 *  3. one-standard-error rule: among the models without "?" whose
 *     leave-one-out SMAPE is within one standard error of the best's (whose
 *     AICc is within 2 of the best's), the simplest is moved to the top:
 *     fewest parameters, then fewest variable reads in its terms (n counts
 *     1, n*log2(n)/p counts 3), then the better criterion.
 *  4. unless LC_FIT_NOEXTRAP: the shortlist's models are scored by how well
 *     they predict the largest levels of each variable held out
 *     (lc_fit_extrap); those whose error is within a band of the best's
 *     (the runs' noise, at least 1 %) come first in the order of steps 2
 *     and 3, which only break these ties; the others follow by that error.
 * With LC_FIT_RANK_AICC in flags, when every model of the shortlist has a
 * finite AICc, step 2 ranks by AICc and step 3 is left out: the single-variable search, whose hypotheses c0 + c1*f differ in the
 * shape of f alone, so that the best weighted fit wins.  On six points
 * leave-one-out errors are noisy, and preferring c1*f or a factor without
 * a log picks a curve that bends the wrong way past the range: on Gaussian
 * noise of 5 % (tests/test_noisy.c) this predicts 16 times past the largest
 * measured value within 15 % in 5 more cases of 100.
 * Returns 0 or -ENOMEM.
 */
int lc_fit_select(const struct lc_formula *const *f, struct lc_fit *const *fit, int n,
		  const struct lc_points *pts, unsigned flags, const char *const *names,
		  int *order, struct lc_select *info);

/* SMAPE in percent of predictions f against actual values a over n points. */
double lc_smape(const double *f, const double *a, size_t n);

#endif
