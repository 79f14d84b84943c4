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

#define LC_LSQ_MAXK LC_FORMULA_MAXTERMS

/* Confidence level of the intervals. */
#define LC_LSQ_LEVEL 0.90

/* Fit flags. */
#define LC_FIT_NONNEG	0x1u	/* no negative coefficients */
#define LC_FIT_NOLOO	0x2u	/* skip the leave-one-out error */
#define LC_FIT_WEIGHTS	0x4u	/* weight points by count / sd^2 when every point has repeats */
#define LC_FIT_RELATIVE	0x8u	/* else weight points by 1 / y^2 (relative errors) when no y is 0 */

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
	double threshold;		/* threshold models: split value of the first variable */
};

/* Solve min |W^1/2 (X c - y)| for c (X is n x k, row-major; w NULL means
 * unit weights).  cov gets s^2 (X'WX)^-1 with s^2 = chisq / (n - k), chisq
 * the weighted residual sum of squares.  Returns 0, -EINVAL when n <= k,
 * -EDOM when X has rank below k, -ENOMEM. */
int lc_lsq_solve(const double *X, const double *y, const double *w, size_t n, size_t k,
		 double *coef, double *cov, double *chisq);

/* Evaluate formula f with coefficients coef at the variable values x. */
double lc_fit_eval(const struct lc_formula *f, const double *coef, const double *x);

/* Fit f to pts (names[] are the variables' names, for messages).  Returns 0; -EINVAL with why set when there are too few
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

/* The ranking rule: negative when fit a ranks before fit b, positive after,
 * 0 for a tie.  Models with no coefficient flagged come first, then lower
 * AICc, then lower leave-one-out SMAPE, then higher R2. */
int lc_fit_rank_cmp(const struct lc_fit *a, const struct lc_fit *b);

/* SMAPE in percent of predictions f against actual values a over n points. */
double lc_smape(const double *f, const double *a, size_t n);

#endif
