/*
 * lca_lsq.c — least-squares fits of formulae to points, with statistics.
 *
 * The solver is gsl_multifit_linear (SVD with column balancing) on rows
 * scaled by the square roots of the weights.  Non-negative fits try every
 * subset of free terms (exact for the handful of terms a lost cycles model
 * has); threshold models try every split of the points ordered by the first
 * variable.
 */
#include "lc_util.h"
#include "lca_lsq.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

/* Relative singular value below which the design counts as rank-deficient. */
#define RANK_TOL 1e-11

/* Largest number of terms for the exhaustive non-negative search. */
#define NONNEG_MAXK 14

/* Copy the GSL results into plain arrays. */
static void unpack(const gsl_vector *c, const gsl_matrix *C, size_t k, double *coef, double *cov)
{
	for (size_t i = 0; i < k; i++) {
		coef[i] = gsl_vector_get(c, i);
		for (size_t j = 0; j < k && cov; j++)
			cov[i * k + j] = gsl_matrix_get(C, i, j);
	}
}

/* Solve a weighted linear least-squares problem.  See lca_lsq.h. */
int lc_lsq_solve(const double *X, const double *y, const double *w, size_t n, size_t k,
		 double *coef, double *cov, double *chisq)
{
	gsl_multifit_linear_workspace *ws = NULL;
	gsl_matrix *A = NULL, *C = NULL;
	gsl_vector *b = NULL, *c = NULL;
	int rc = -ENOMEM;

	if (n <= k || k == 0)
		return -EINVAL;
	gsl_set_error_handler_off();
	A = gsl_matrix_alloc(n, k);
	C = gsl_matrix_alloc(k, k);
	b = gsl_vector_alloc(n);
	c = gsl_vector_alloc(k);
	ws = gsl_multifit_linear_alloc(n, k);
	if (!A || !C || !b || !c || !ws)
		goto out;
	for (size_t i = 0; i < n; i++) {
		double sw = w ? sqrt(w[i]) : 1;

		for (size_t j = 0; j < k; j++)
			gsl_matrix_set(A, i, j, X[i * k + j] * sw);
		gsl_vector_set(b, i, y[i] * sw);
	}
	rc = -EDOM;
	if (gsl_multifit_linear(A, b, c, C, chisq, ws) ||
	    gsl_multifit_linear_rank(RANK_TOL, ws) < k)
		goto out;
	unpack(c, C, k, coef, cov);
	rc = 0;
out:
	gsl_multifit_linear_free(ws);
	gsl_matrix_free(A);
	gsl_matrix_free(C);
	gsl_vector_free(b);
	gsl_vector_free(c);
	return rc;
}

/* Evaluate a plain sum of terms [from, to) of f. */
static double eval_sum(const struct lc_formula *f, int from, int to, const double *coef,
		       const double *x)
{
	double s = 0;

	for (int i = from; i < to; i++)
		if (coef[i] != 0)
			s += coef[i] * lc_expr_eval(f->term[i], x);
	return s;
}

/* Evaluate a fitted formula.  See lca_lsq.h. */
double lc_fit_eval(const struct lc_formula *f, const double *coef, const double *x)
{
	if (!f->is_max)
		return eval_sum(f, 0, f->nterms, coef, x);
	return fmax(eval_sum(f, 0, f->na, coef, x), eval_sum(f, f->na, f->nterms, coef, x));
}

/* SMAPE in percent.  See lca_lsq.h. */
double lc_smape(const double *f, const double *a, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs(f[i]) + fabs(a[i]);

		if (d > 0)
			s += 2 * fabs(f[i] - a[i]) / d;
	}
	return n ? 100 * s / (double)n : NAN;
}

/* The fitting problem: points (by index into pts), weights, a work area. */
struct prob {
	const struct lc_formula *f;
	const struct lc_points *pts;
	const char *const *names;
	const size_t *rows;	/* which points take part */
	size_t m;
	const double *w;	/* weights per point of pts, or NULL */
	double *X, *y, *wr;	/* scratch: m x k design, values, weights */
};

/* Describe point i of pts as "n=16 p=4" into buf. */
static void point_text(const struct prob *pb, size_t i, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < pb->pts->nvars && used < len; v++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", v ? " " : "",
					 pb->names[v], pb->pts->x[i * (size_t)pb->pts->nvars + (size_t)v]);
}

/* Fill the design for the terms of f marked in use[] (k of them) over the
 * problem's rows.  Returns 0 or -EINVAL (with why) for a non-finite term. */
static int design(const struct prob *pb, const int *use, size_t k, char *why, size_t wl)
{
	for (size_t r = 0; r < pb->m; r++) {
		size_t i = pb->rows[r], j = 0;
		const double *x = &pb->pts->x[i * (size_t)pb->pts->nvars];

		for (int t = 0; t < pb->f->nterms; t++) {
			double v;
			char where[128], text[128];

			if (!use[t])
				continue;
			v = lc_expr_eval(pb->f->term[t], x);
			if (!isfinite(v)) {
				point_text(pb, i, where, sizeof(where));
				lc_expr_print(pb->f->term[t], pb->names, 6, text, sizeof(text));
				lc_fail(why, wl, 0, "term %s is not finite at %s", text, where);
				return -EINVAL;
			}
			pb->X[r * k + j++] = v;
		}
		pb->y[r] = pb->pts->y[i];
		pb->wr[r] = pb->w ? pb->w[i] : 1;
	}
	return 0;
}

/* Fit the terms marked in use[] over the problem's rows; scatter the
 * results to coef[]/cov[] (full k x k of f, zero elsewhere).  Returns as
 * lc_lsq_solve, with why set. */
static int fit_subset(const struct prob *pb, const int *use, double *coef, double *cov,
		      double *chisq, char *why, size_t wl)
{
	int nt = pb->f->nterms, idx[LC_LSQ_MAXK], k = 0, rc;
	double c[LC_LSQ_MAXK], cv[LC_LSQ_MAXK * LC_LSQ_MAXK];

	for (int t = 0; t < nt; t++)
		if (use[t])
			idx[k++] = t;
	rc = design(pb, use, (size_t)k, why, wl);
	if (rc)
		return rc;
	if (k == 0) {
		*chisq = 0;
		for (size_t r = 0; r < pb->m; r++)
			*chisq += pb->wr[r] * pb->y[r] * pb->y[r];
		rc = 0;
	} else {
		rc = lc_lsq_solve(pb->X, pb->y, pb->wr, pb->m, (size_t)k, c, cv, chisq);
	}
	if (rc == -EDOM)
		lc_fail(why, wl, 0, "rank-deficient: the terms are linearly dependent over these %zu points",
		    pb->m);
	else if (rc == -EINVAL)
		lc_fail(why, wl, 0, "too few points: %d parameters need at least %d points, have %zu",
		    k, k + 1, pb->m);
	if (rc)
		return rc;
	for (int t = 0; t < nt; t++)
		coef[t] = 0;
	for (int t = 0; t < nt * nt; t++)
		cov[t] = 0;
	for (int a = 0; a < k; a++) {
		coef[idx[a]] = c[a];
		for (int b = 0; b < k; b++)
			cov[idx[a] * nt + idx[b]] = cv[a * k + b];
	}
	return 0;
}

/* Non-negative least squares by trying every subset of the terms in use[]
 * and keeping the best one whose coefficients are all >= 0.  held[] gets the
 * terms held at zero. */
static int fit_nonneg(const struct prob *pb, const int *use, double *coef, double *cov,
		      double *chisq, int *held, char *why, size_t wl)
{
	int nt = pb->f->nterms, best = -1, rc = 0, cand[LC_LSQ_MAXK], nc = 0;
	double c[LC_LSQ_MAXK], cv[LC_LSQ_MAXK * LC_LSQ_MAXK], x2, bestx2 = INFINITY;

	for (int t = 0; t < nt; t++)
		if (use[t])
			cand[nc++] = t;
	if (nc > NONNEG_MAXK) {
		lc_fail(why, wl, 0, "--nonneg handles at most %d terms", NONNEG_MAXK);
		return -EINVAL;
	}
	rc = fit_subset(pb, use, coef, cov, chisq, why, wl);
	if (rc)
		return rc;	/* the full model must be well posed */
	for (int mask = (1 << nc) - 1; mask >= 0; mask--) {
		int sub[LC_LSQ_MAXK] = { 0 }, ok = 1;

		for (int j = 0; j < nc; j++)
			sub[cand[j]] = (mask >> j) & 1;
		if (fit_subset(pb, sub, c, cv, &x2, NULL, 0))
			continue;
		for (int j = 0; j < nc; j++)
			ok &= !sub[cand[j]] || c[cand[j]] >= 0;
		if (ok && x2 < bestx2 * (1 - 1e-12)) {
			bestx2 = x2;
			best = mask;
			memcpy(coef, c, sizeof(double) * (size_t)nt);
			memcpy(cov, cv, sizeof(double) * (size_t)(nt * nt));
		}
	}
	*chisq = bestx2;
	for (int j = 0; j < nc; j++)
		held[cand[j]] = !((best >> j) & 1);
	return 0;
}

/* Fit the terms in use[] with or without the sign constraint. */
static int fit_plain(const struct prob *pb, const int *use, unsigned flags, double *coef,
		     double *cov, double *chisq, int *held, char *why, size_t wl)
{
	if (flags & LC_FIT_NONNEG)
		return fit_nonneg(pb, use, coef, cov, chisq, held, why, wl);
	return fit_subset(pb, use, coef, cov, chisq, why, wl);
}

/* Order point indices by the first variable of the points ctx (for
 * threshold splits). */
static int cmp_first(const void *a, const void *b, void *ctx)
{
	const struct lc_points *pts = ctx;
	double x = pts->x[*(const size_t *)a * (size_t)pts->nvars];
	double y = pts->x[*(const size_t *)b * (size_t)pts->nvars];

	return x < y ? -1 : x > y;
}

/* The weighted SSE of f with coef over the problem's rows. */
static double sse_of(const struct prob *pb, const double *coef)
{
	double s = 0;

	for (size_t r = 0; r < pb->m; r++) {
		size_t i = pb->rows[r];
		double e = pb->pts->y[i] - lc_fit_eval(pb->f, coef, &pb->pts->x[i * (size_t)pb->pts->nvars]);

		s += (pb->w ? pb->w[i] : 1) * e * e;
	}
	return s;
}

/* The in-sample SMAPE of f with coef over the problem's rows. */
static double smape_of(const struct prob *pb, const double *coef)
{
	double s = 0;

	for (size_t r = 0; r < pb->m; r++) {
		size_t i = pb->rows[r];
		double y = pb->pts->y[i];
		double v = lc_fit_eval(pb->f, coef, &pb->pts->x[i * (size_t)pb->pts->nvars]);
		double d = fabs(v) + fabs(y);

		if (d > 0)
			s += 2 * fabs(v - y) / d;
	}
	return pb->m ? 100 * s / (double)pb->m : NAN;
}

/* Fit one branch of a threshold model (terms [from, to)) over rows. */
static int fit_branch(const struct prob *pb0, const size_t *rows, size_t m, int from, int to,
		      unsigned flags, double *coef, double *cov, int *held)
{
	struct prob pb = *pb0;
	int use[LC_LSQ_MAXK] = { 0 };
	double x2;

	pb.rows = rows;
	pb.m = m;
	for (int t = from; t < to; t++)
		use[t] = 1;
	return fit_plain(&pb, use, flags, coef, cov, &x2, held, NULL, 0);
}

/* Fit a threshold model max(A, B): B (the floor) on the lower points, A on
 * the upper ones, for every split; keep the split with the least SSE of the
 * max() predictions.  out gets coef, cov, zero and threshold. */
static int fit_threshold(const struct prob *pb, unsigned flags, struct lc_fit *out,
			 char *why, size_t wl)
{
	const struct lc_formula *f = pb->f;
	int nt = f->nterms, na = f->na, nb = nt - na, found = 0;
	size_t *rows = malloc(pb->m * sizeof(*rows)), m = pb->m;
	double best = INFINITY;

	if (!rows)
		return -ENOMEM;
	memcpy(rows, pb->rows, m * sizeof(*rows));
	qsort_r(rows, m, sizeof(*rows), cmp_first, (void *)pb->pts);
	for (size_t s = (size_t)nb + 1; s + (size_t)na + 1 <= m; s++) {
		double c[LC_LSQ_MAXK], ca[LC_LSQ_MAXK], cv[LC_LSQ_MAXK * LC_LSQ_MAXK] = { 0 };
		double cva[LC_LSQ_MAXK * LC_LSQ_MAXK], sse;
		int held[LC_LSQ_MAXK] = { 0 };
		size_t nv = (size_t)pb->pts->nvars;

		if (pb->pts->x[rows[s - 1] * nv] == pb->pts->x[rows[s] * nv])
			continue;	/* no split between equal values */
		if (fit_branch(pb, rows, s, na, nt, flags, c, cv, held) ||
		    fit_branch(pb, rows + s, m - s, 0, na, flags, ca, cva, held))
			continue;
		for (int i = 0; i < na; i++) {
			c[i] = ca[i];
			for (int j = 0; j < na; j++)
				cv[i * nt + j] = cva[i * nt + j];
		}
		sse = sse_of(pb, c);
		if (sse < best) {
			best = sse;
			found = 1;
			memcpy(out->coef, c, sizeof(c));
			memcpy(out->cov, cv, sizeof(double) * (size_t)(nt * nt));
			memcpy(out->zero, held, sizeof(held));
			out->threshold = (pb->pts->x[rows[s - 1] * nv] + pb->pts->x[rows[s] * nv]) / 2;
		}
	}
	free(rows);
	if (!found) {
		lc_fail(why, wl, 0, "too few points for a threshold model: need at least %d with %d distinct "
			     "values of %s, have %zu", nt + 2, nt + 2, pb->names[0], m);
		return -EINVAL;
	}
	return 0;
}

/* Fill the per-fit statistics of out from its coefficients over pb. */
static void fit_stats(const struct prob *pb, struct lc_fit *out)
{
	double sw = 0, swy = 0, sst = 0, ymax = 0, floor2, kp;
	int n = (int)pb->m, nt = pb->f->nterms;

	for (size_t r = 0; r < pb->m; r++) {
		size_t i = pb->rows[r];
		double w = pb->w ? pb->w[i] : 1;

		sw += w;
		swy += w * pb->pts->y[i];
		ymax = fmax(ymax, fabs(pb->pts->y[i]));
	}
	for (size_t r = 0; r < pb->m; r++) {
		size_t i = pb->rows[r];
		double d = pb->pts->y[i] - swy / sw;

		sst += (pb->w ? pb->w[i] : 1) * d * d;
	}
	out->sse = sse_of(pb, out->coef);
	out->smape_in = smape_of(pb, out->coef);
	out->s2 = out->sse / out->dof;
	out->r2 = sst > 0 ? 1 - out->sse / sst : (out->sse == 0 ? 1 : 0);
	if (fabs(out->r2) < 1e-12)
		out->r2 = 0;	/* print 0, not -0 */
	out->adjr2 = n > 1 ? 1 - (1 - out->r2) * (n - 1) / out->dof : NAN;
	/* rounding-level residuals must not decide between exact fits */
	floor2 = (double)n * (1e-12 * ymax) * (1e-12 * ymax) * (sw / n);
	kp = out->kfree + 1;
	out->aicc = n * log(fmax(out->sse, floor2 > 0 ? floor2 : 1e-300) / n) + 2 * kp;
	out->aicc = n - kp - 1 > 0 ? out->aicc + 2 * kp * (kp + 1) / (n - kp - 1) : INFINITY;
	out->tcrit = gsl_cdf_tdist_Pinv(0.5 + LC_LSQ_LEVEL / 2, out->dof);
	out->nflagged = 0;
	for (int t = 0; t < nt; t++) {
		out->se[t] = sqrt(fmax(out->cov[t * nt + t], 0));
		out->half[t] = out->tcrit * out->se[t];
		out->flagged[t] = !out->zero[t] && fabs(out->coef[t]) <= out->half[t];
		out->nflagged += out->flagged[t];
	}
}

/* Weights per point for the flags, into w (NULL result: unweighted):
 * count/spread^2 with LC_FIT_WEIGHTS when every point has repeats, else
 * 1/y^2 with LC_FIT_RELATIVE when no value is zero. */
static const double *make_weights(const struct lc_points *pts, unsigned flags, double *w,
				  int *mode)
{
	int all = pts->n > 0, nonzero = 1;

	*mode = 0;
	for (size_t i = 0; i < pts->n; i++) {
		all &= pts->count[i] > 1;
		nonzero &= pts->y[i] != 0;
	}
	if ((flags & LC_FIT_WEIGHTS) && all) {
		for (size_t i = 0; i < pts->n; i++) {
			double fl = 1e-6 * fabs(pts->y[i]), var = pts->sd[i] * pts->sd[i];

			double vf = lc_points_var_factor(pts, i);

			w[i] = pts->count[i] / fmax((vf > 0 ? vf : 1) * var, fmax(fl * fl, 1e-300));
		}
		*mode = 1;
		return w;
	}
	if (!(flags & LC_FIT_RELATIVE) || !nonzero)
		return NULL;
	for (size_t i = 0; i < pts->n; i++)
		w[i] = 1 / (pts->y[i] * pts->y[i]);
	*mode = 2;
	return w;
}

/* Count free parameters: terms not held at zero, plus the threshold. */
static int free_params(const struct lc_formula *f, const struct lc_fit *out)
{
	int k = f->is_max;

	for (int t = 0; t < f->nterms; t++)
		k += !out->zero[t];
	return k;
}

/* Start out for a fit of f over m rows: counts set, statistics NaN.  0,
 * or -EINVAL with the reason (too many terms, too few points). */
static int fit_start(const struct lc_formula *f, size_t m, struct lc_fit *out, char *why,
		     size_t wl)
{
	int nt = f->nterms, need = nt + f->is_max + 1;

	memset(out, 0, sizeof(*out));
	out->n = (int)m;
	out->k = nt;
	if (nt > LC_LSQ_MAXK) {
		lc_fail(why, wl, 0, "%d terms: a fit takes at most %d", nt, LC_LSQ_MAXK);
		return -EINVAL;
	}
	out->threshold = NAN;
	out->smape = NAN;
	out->smape_se = NAN;
	out->smape_in = NAN;
	out->xerr = NAN;
	out->lof_p = NAN;
	if ((int)m < need) {
		lc_fail(why, wl, 0, "too few points: %d parameters need at least %d points, have %zu",
		    need - 1, need, m);
		return -EINVAL;
	}
	return 0;
}

/* Solve pb for every term of its formula (with the threshold when it is a
 * max form), then its degrees of freedom.  0, or -errno with the reason. */
static int fit_solve(struct prob *pb, unsigned flags, struct lc_fit *out, char *why, size_t wl)
{
	int use[LC_LSQ_MAXK], rc;
	double x2;

	for (int t = 0; t < pb->f->nterms; t++)
		use[t] = 1;
	if (pb->f->is_max)
		rc = fit_threshold(pb, flags, out, why, wl);
	else
		rc = fit_plain(pb, use, flags, out->coef, out->cov, &x2, out->zero, why, wl);
	if (rc)
		return rc;
	out->kfree = free_params(pb->f, out);
	out->dof = (int)pb->m - out->kfree;
	if (out->dof < 1) {
		lc_fail(why, wl, 0, "too few points: %d parameters need at least %d points, have %zu",
		    out->kfree, out->kfree + 1, pb->m);
		return -EINVAL;
	}
	return 0;
}

/* Fit without the leave-one-out pass, over the rows given. */
static int fit_core(const struct lc_formula *f, const struct lc_points *pts, const size_t *rows,
		    size_t m, const double *w, unsigned flags, const char *const *names,
		    struct lc_fit *out, char *why, size_t wl)
{
	struct prob pb = { f, pts, names, rows, m, w, NULL, NULL, NULL };
	int nt = f->nterms, rc;

	if ((rc = fit_start(f, m, out, why, wl)))
		return rc;
	pb.X = malloc(m * (size_t)(nt + 1) * sizeof(double));
	pb.y = malloc(m * sizeof(double));
	pb.wr = malloc(m * sizeof(double));
	rc = -ENOMEM;
	if (pb.X && pb.y && pb.wr && !(rc = fit_solve(&pb, flags, out, why, wl)))
		fit_stats(&pb, out);
	free(pb.X);
	free(pb.y);
	free(pb.wr);
	return rc;
}

/* Leave-one-out SMAPE: refit without each point and predict it; *se gets
 * the standard error of the mean of the per-point errors.  NaN when some
 * refit is not possible. */
static double loo_smape(const struct lc_formula *f, const struct lc_points *pts, const double *w,
			unsigned flags, const char *const *names, double *se)
{
	size_t n = pts->n, *rows = malloc(n * sizeof(*rows));
	double *pred = malloc(n * sizeof(*pred)), s = NAN, ss = 0;
	struct lc_fit *tmp = malloc(sizeof(*tmp));

	*se = NAN;
	if (!rows || !pred || !tmp || n < 2)
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t m = 0;

		for (size_t j = 0; j < n; j++)
			if (j != i)
				rows[m++] = j;
		if (fit_core(f, pts, rows, m, w, flags, names, tmp, NULL, 0))
			goto out;
		pred[i] = lc_fit_eval(f, tmp->coef, &pts->x[i * (size_t)pts->nvars]);
	}
	s = lc_smape(pred, pts->y, n);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(pred[i]) + fabs(pts->y[i]);
		double e = d > 0 ? 200 * fabs(pred[i] - pts->y[i]) / d : 0;

		ss += (e - s) * (e - s);
	}
	*se = n > 1 ? sqrt(ss / (double)(n - 1) / (double)n) : NAN;
out:
	free(rows);
	free(pred);
	free(tmp);
	return s;
}

/* The lack-of-fit test of a fit over all of pts against the spread of
 * the repeated runs; sets out->lof_p and out->lof (see lca_lsq.h). */
static void lack_of_fit(const struct lc_formula *f, const struct lc_points *pts,
			struct lc_fit *out)
{
	double lof = 0, pe = 0;
	int runs = 0, rel = 1, d1, d2;

	out->lof = 0;
	for (size_t i = 0; i < pts->n; i++)
		rel &= pts->y[i] != 0;
	for (size_t i = 0; i < pts->n; i++) {
		double s = rel ? 1 / (pts->y[i] * pts->y[i]) : 1;
		double r = pts->y[i] - lc_fit_eval(f, out->coef, &pts->x[i * (size_t)pts->nvars]);
		double vf = lc_points_var_factor(pts, i);

		if (!(vf > 0))
			return;	/* a minimum: its spread is not known */
		lof += s * pts->count[i] * r * r / vf;
		pe += s * (pts->count[i] - 1) * pts->sd[i] * pts->sd[i];
		runs += pts->count[i];
	}
	d1 = (int)pts->n - out->kfree;
	d2 = runs - (int)pts->n;
	out->lof = 0;
	if (d1 < 1 || d2 < 1 || !(pe > 0))
		return;
	out->lof_p = gsl_cdf_fdist_Q((lof / d1) / (pe / d2), d1, d2);
	out->lof = out->lof_p < LC_LOF_LEVEL;
}

/* Fit f to all of pts.  See lca_lsq.h. */
int lc_fit_formula(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		   const char *const *names, struct lc_fit *out, char *why, size_t whylen)
{
	size_t *rows = malloc((pts->n + 1) * sizeof(*rows));
	double *w = malloc((pts->n + 1) * sizeof(*w));
	const double *wp;
	int rc = -ENOMEM, mode;

	if (!rows || !w)
		goto out;
	for (size_t i = 0; i < pts->n; i++)
		rows[i] = i;
	wp = make_weights(pts, flags, w, &mode);
	rc = fit_core(f, pts, rows, pts->n, wp, flags, names, out, why, whylen);
	if (rc)
		goto out;
	out->weighted = mode;
	lack_of_fit(f, pts, out);
	if (!(flags & LC_FIT_NOLOO))
		out->smape = loo_smape(f, pts, wp, flags, names, &out->smape_se);
out:
	free(rows);
	free(w);
	return rc;
}

/* The flagged term with the weakest evidence (smallest |coef|/se), or -1. */
static int weakest(const struct lc_fit *fit)
{
	int best = -1;
	double bt = INFINITY;

	for (int t = 0; t < fit->k; t++) {
		double tv = fit->se[t] > 0 ? fabs(fit->coef[t]) / fit->se[t] : 0;

		if (fit->flagged[t] && tv < bt) {
			bt = tv;
			best = t;
		}
	}
	return best;
}

/* Fit and prune.  See lca_lsq.h. */
int lc_fit_prune(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		 const char *const *names, struct lc_formula **pf, int *dropped,
		 struct lc_fit *out, char *why, size_t whylen)
{
	const struct lc_formula *cur = f;
	int map[LC_LSQ_MAXK], rc;

	*pf = (struct lc_formula *)f;
	for (int t = 0; t < f->nterms; t++) {
		dropped[t] = 0;
		map[t] = t;
	}
	for (;;) {
		int keep[LC_LSQ_MAXK], w, j = 0;
		struct lc_formula *g;

		rc = lc_fit_formula(cur, pts, flags, names, out, why, whylen);
		if (rc || (w = weakest(out)) < 0 || cur->nterms <= 1)
			return rc;
		for (int t = 0; t < cur->nterms; t++)
			keep[t] = t != w;
		g = lc_formula_subset(cur, keep);
		if (!g)
			return -ENOMEM;
		dropped[map[w]] = 1;
		for (int t = 0; t < cur->nterms; t++)
			if (t != w)
				map[j++] = map[t];
		if (cur != f)
			lc_formula_free((struct lc_formula *)cur);
		cur = g;
		*pf = g;
	}
}

/* The range of variable v of pts, widened to upto (when a number). */
static void var_range(const struct lc_points *pts, int v, double upto, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < pts->n; i++) {
		double x = pts->x[i * (size_t)pts->nvars + (size_t)v];

		*lo = fmin(*lo, x);
		*hi = fmax(*hi, x);
	}
	if (!isnan(upto))
		*hi = fmax(*hi, upto);
}

/* Grid value g of ng over [lo, hi]: geometric when lo > 0. */
static double grid_at(double lo, double hi, int g, int ng)
{
	double t = (double)g / (ng - 1);

	return lo > 0 ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
}

/* The check of one point x: 1 when f is below -tol there (where gets x). */
static int below_at(const struct lc_formula *f, const struct lc_fit *fit, const double *x,
		    int nvars, double tol, const char *const *names, char *where, size_t wl)
{
	double v = lc_fit_eval(f, fit->coef, x);
	size_t used = 0;

	if (!(v < -tol))
		return 0;
	for (int k = 0; where && k < nvars && used < wl; k++)
		used += (size_t)snprintf(where + used, wl - used, "%s%s=%g", k ? " " : "", names[k],
					 x[k]);
	return 1;
}

/* The measured points, then a grid over the box: LC_RANGE_GRID values of
 * one variable, half as many of each of two, a third of each of three. */
static int below_grid(const struct lc_formula *f, const struct lc_fit *fit,
		      const struct lc_points *pts, const double *lo, const double *hi,
		      double tol, const char *const *names, char *where, size_t wl)
{
	int nv = pts->nvars, ng = LC_RANGE_GRID / (nv > 0 ? nv : 1), total = 1;
	double x[3];

	for (size_t i = 0; i < pts->n; i++)
		if (below_at(f, fit, &pts->x[i * (size_t)nv], nv, tol, names, where, wl))
			return 1;
	if (nv > 3)
		return 0;
	for (int v = 0; v < nv; v++)
		total *= ng;
	for (int c = 0; c < total; c++) {
		for (int v = 0, r = c; v < nv; v++, r /= ng)
			x[v] = grid_at(lo[v], hi[v], r % ng, ng);
		if (below_at(f, fit, x, nv, tol, names, where, wl))
			return 1;
	}
	return 0;
}

/* Below zero in the range.  See lca_lsq.h. */
int lc_fit_below_zero(const struct lc_formula *f, struct lc_fit *fit,
		      const struct lc_points *pts, const double *upto, const char *const *names,
		      char *where, size_t wl)
{
	double lo[3] = { 0 }, hi[3] = { 0 }, ymax = 0;

	if (where && wl)
		where[0] = '\0';
	for (size_t i = 0; i < pts->n; i++)
		ymax = fmax(ymax, fabs(pts->y[i]));
	for (int v = 0; v < pts->nvars && v < 3; v++)
		var_range(pts, v, upto ? upto[v] : NAN, &lo[v], &hi[v]);
	fit->negative = below_grid(f, fit, pts, lo, hi, 1e-9 * ymax, names, where, wl);
	return fit->negative;
}

/* Steps of the walk lc_fit_turns takes past the data. */
#define TURN_STEPS 48

/* Whether the values y[0..n) change direction (rise, then fall, or the
 * reverse) beyond tol: the index of the first turn, else -1. */
int lc_turn_index(const double *y, int n, double tol)
{
	int dir = 0;

	for (int i = 1; i < n; i++) {
		double d = y[i] - y[i - 1];
		int s = d > tol ? 1 : d < -tol ? -1 : 0;

		if (s && dir && s != dir)
			return i - 1;
		if (s)
			dir = s;
	}
	return -1;
}

/* The walk of f along variable v from the measured point x (at the data's
 * largest v) to upto: 1 when it turns (where gets the place). */
static int turns_from(const struct lc_formula *f, const struct lc_fit *fit, const double *x0,
		      int nv, int v, double upto, double tol, const char *const *names,
		      char *where, size_t wl)
{
	double x[3], y[TURN_STEPS];
	int k;

	memcpy(x, x0, sizeof(double) * (size_t)nv);
	for (int i = 0; i < TURN_STEPS; i++) {
		x[v] = grid_at(x0[v], upto, i, TURN_STEPS);
		y[i] = lc_fit_eval(f, fit->coef, x);
	}
	if ((k = lc_turn_index(y, TURN_STEPS, tol)) < 0)
		return 0;
	if (where && wl)
		snprintf(where, wl, "%s=%.3g", names[v], grid_at(x0[v], upto, k, TURN_STEPS));
	return 1;
}

/* Not monotone past the data.  See lca_lsq.h. */
int lc_fit_turns(const struct lc_formula *f, const struct lc_fit *fit,
		 const struct lc_points *pts, const double *upto, const char *const *names,
		 char *where, size_t wl)
{
	int nv = pts->nvars;
	double ymax = 0;

	for (size_t i = 0; i < pts->n; i++)
		ymax = fmax(ymax, fabs(pts->y[i]));
	for (int v = 0; upto && v < nv && nv <= 3; v++) {
		double lo, hi;

		var_range(pts, v, NAN, &lo, &hi);
		if (isnan(upto[v]) || !(upto[v] > hi))
			continue;
		for (size_t i = 0; i < pts->n; i++) {
			const double *x = &pts->x[i * (size_t)nv];

			if (x[v] == hi && turns_from(f, fit, x, nv, v, upto[v], 1e-9 * ymax, names,
						     where, wl))
				return 1;
		}
	}
	return 0;
}

/* Doubtful: "?", lack of fit or below zero.  See lca_lsq.h. */
int lc_fit_doubtful(const struct lc_fit *f)
{
	return f->nflagged > 0 || f->lof || f->negative;
}

/* The ranking rule.  See lca_lsq.h. */
int lc_fit_rank_cmp(const struct lc_fit *a, const struct lc_fit *b)
{
	if (lc_fit_doubtful(a) != lc_fit_doubtful(b))
		return lc_fit_doubtful(a) - lc_fit_doubtful(b);
	if (a->aicc != b->aicc)
		return a->aicc < b->aicc ? -1 : 1;
	if (!isnan(a->smape) && !isnan(b->smape) && a->smape != b->smape)
		return a->smape < b->smape ? -1 : 1;
	return (a->r2 < b->r2) - (a->r2 > b->r2);
}

/* Cross-validate a fit.  See lca_lsq.h. */
int lc_fit_loo(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
	       const char *const *names, struct lc_fit *fit)
{
	double *w = malloc((pts->n + 1) * sizeof(*w));
	const double *wp;
	int mode;

	if (!w)
		return -ENOMEM;
	wp = make_weights(pts, flags, w, &mode);
	fit->smape = loo_smape(f, pts, wp, flags, names, &fit->smape_se);
	free(w);
	return 0;
}

/* The relative error of a prediction pred of y, percent (against the
 * mean of their sizes when y is 0). */
static double rel_err(double pred, double y)
{
	double d = fabs(y) > 0 ? fabs(y) : (fabs(pred) + fabs(y)) / 2;

	return d > 0 ? 100 * fabs(pred - y) / d : 0;
}

/* Refit f on the points whose variable v is below lim and add the relative
 * errors of its predictions of the others to *sum, counting them in *cnt.
 * 0, 1 when the refit is not possible, or -ENOMEM. */
static int holdout(const struct lc_formula *f, const struct lc_points *pts, const double *w,
		   unsigned flags, const char *const *names, int v, double lim, double *sum,
		   int *cnt)
{
	size_t n = pts->n, m = 0, *rows = malloc((n + 1) * sizeof(*rows));
	struct lc_fit *tmp = malloc(sizeof(*tmp));
	int rc = -ENOMEM, nv = pts->nvars;

	if (!rows || !tmp)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (pts->x[i * (size_t)nv + (size_t)v] < lim)
			rows[m++] = i;
	rc = 1;
	if (fit_core(f, pts, rows, m, w, flags, names, tmp, NULL, 0))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (!(pts->x[i * (size_t)nv + (size_t)v] < lim)) {
			*sum += rel_err(lc_fit_eval(f, tmp->coef, &pts->x[i * (size_t)nv]), pts->y[i]);
			(*cnt)++;
		}
	rc = 0;
out:
	free(rows);
	free(tmp);
	return rc;
}

/* Order doubles. */
static int cmp_double(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;

	return p < q ? -1 : p > q;
}

/* The distinct values of variable v of pts, ascending, into lv; how many. */
static size_t levels(const struct lc_points *pts, int v, double *lv)
{
	size_t k = 0, j = 0;

	for (size_t i = 0; i < pts->n; i++)
		lv[k++] = pts->x[i * (size_t)pts->nvars + (size_t)v];
	qsort(lv, k, sizeof(*lv), cmp_double);
	for (size_t i = 0; i < k; i++)
		if (!j || lv[i] != lv[j - 1])
			lv[j++] = lv[i];
	return j;
}

/* Hold out the largest levels.  See lca_lsq.h. */
int lc_fit_extrap(const struct lc_formula *f, const struct lc_points *pts, unsigned flags,
		  const char *const *names, struct lc_fit *fit)
{
	double *w = malloc((pts->n + 1) * sizeof(*w)), *lv = malloc((pts->n + 1) * sizeof(*lv));
	double sum = 0;
	const double *wp;
	int mode, cnt = 0, rc = 0;

	fit->xerr = NAN;
	if (!w || !lv) {
		rc = -ENOMEM;
		goto out;
	}
	wp = make_weights(pts, flags, w, &mode);
	for (int v = 0; v < pts->nvars && rc >= 0; v++) {
		size_t L = levels(pts, v, lv);

		for (size_t h = 1; h <= LC_EXTRAP_HOLD && L >= h + LC_EXTRAP_KEEP && rc >= 0; h++)
			rc = holdout(f, pts, wp, flags, names, v, lv[L - h], &sum, &cnt);
	}
	if (rc >= 0 && cnt)
		fit->xerr = sum / cnt;
	rc = rc < 0 ? rc : 0;
out:
	free(w);
	free(lv);
	return rc;
}

/* The value a model is ranked by under crit (lower is better; NaN and
 * infinities become +inf). */
static double crit_value(const struct lc_fit *f, enum lc_crit crit)
{
	double v = crit == LC_CRIT_LOO ? f->smape : crit == LC_CRIT_AICC ? f->aicc : 1 - f->r2;

	return isfinite(v) ? v : INFINITY;
}

/* Context for the comparators below. */
struct sel_ctx {
	struct lc_fit *const *fit;
	enum lc_crit crit;
};

/* Step-1 order: lc_fit_rank_cmp. */
static int cmp_rank(const void *a, const void *b, void *ctx)
{
	const struct sel_ctx *c = ctx;

	return lc_fit_rank_cmp(c->fit[*(const int *)a], c->fit[*(const int *)b]);
}

/* Shortlist order: unflagged first, then the criterion, then AICc. */
static int cmp_crit(const void *a, const void *b, void *ctx)
{
	const struct sel_ctx *c = ctx;
	const struct lc_fit *x = c->fit[*(const int *)a], *y = c->fit[*(const int *)b];
	double u = crit_value(x, c->crit), v = crit_value(y, c->crit);

	if (lc_fit_doubtful(x) != lc_fit_doubtful(y))
		return lc_fit_doubtful(x) - lc_fit_doubtful(y);
	if (u != v)
		return u < v ? -1 : 1;
	return lc_fit_rank_cmp(x, y);
}

/* True when every model of order[0..m) has a finite AICc. */
static int all_aicc(struct lc_fit *const *fit, const int *order, int m)
{
	for (int i = 0; i < m; i++)
		if (!isfinite(fit[order[i]]->aicc))
			return 0;
	return m > 0;
}

/* The criterion the shortlist can be ranked by. */
static enum lc_crit pick_crit(struct lc_fit *const *fit, const int *order, int m)
{
	int loo = 0, aicc = 0;

	for (int i = 0; i < m; i++) {
		loo |= isfinite(fit[order[i]]->smape);
		aicc |= isfinite(fit[order[i]]->aicc);
	}
	return loo ? LC_CRIT_LOO : aicc ? LC_CRIT_AICC : LC_CRIT_R2;
}

/* Count one variable read (lc_expr_slots callback). */
static void count_read(void *ctx, int slot)
{
	(void)slot;
	(*(int *)ctx)++;
}

/* The complexity of f: how many times its terms read a variable, so that
 * n*log2(n)/p counts 3 and n counts 1. */
static int complexity(const struct lc_formula *f)
{
	int c = 0;

	for (int t = 0; t < f->nterms; t++)
		lc_expr_slots(f->term[t], count_read, &c);
	return c;
}

/* True when model a is simpler than b: fewer parameters, then (when
 * cplx) fewer variable reads. */
static int simpler(const struct lc_formula *fa, const struct lc_fit *a,
		   const struct lc_formula *fb, const struct lc_fit *b)
{
	if (a->kfree != b->kfree)
		return a->kfree < b->kfree;
	return complexity(fa) < complexity(fb);
}

/* One-standard-error rule over the shortlist order[0..m): move the simplest
 * model within reach of the best to the front. */
static void one_se(const struct lc_formula *const *f, struct lc_fit *const *fit, int *order,
		   int m, enum lc_crit crit, struct lc_select *info)
{
	const struct lc_fit *b = fit[order[0]];
	double best = crit_value(b, crit), tol;
	int w = 0, keep;

	if (lc_fit_doubtful(b) || crit == LC_CRIT_R2 || !isfinite(best))
		return;
	tol = crit == LC_CRIT_LOO ? (isfinite(b->smape_se) ? b->smape_se : 0) : 2;
	for (int i = 1; i < m; i++) {
		const struct lc_fit *c = fit[order[i]];

		if (!lc_fit_doubtful(c) && crit_value(c, crit) <= best + tol &&
		    simpler(f[order[i]], c, f[order[w]], fit[order[w]]))
			w = i;
	}
	if (!w)
		return;
	info->promoted = order[w];
	info->promoted_over = order[0];
	keep = order[w];
	memmove(order + 1, order, sizeof(*order) * (size_t)w);
	order[0] = keep;
}

/* Context of the extrapolation order. */
struct xctx {
	struct lc_fit *const *fit;
	const int *rank;	/* each model's place in the order before */
};

/* Extrapolation order: the front group (rank < 0) in the order before,
 * then not doubtful first, the lower error (none last), the order before. */
static int cmp_xerr(const void *a, const void *b, void *ctx)
{
	const struct xctx *c = ctx;
	int i = *(const int *)a, j = *(const int *)b;
	const struct lc_fit *x = c->fit[i], *y = c->fit[j];
	double u = isfinite(x->xerr) ? x->xerr : INFINITY, v = isfinite(y->xerr) ? y->xerr : INFINITY;

	if ((c->rank[i] < 0) != (c->rank[j] < 0))
		return c->rank[i] < 0 ? -1 : 1;
	if (c->rank[i] < 0)
		return c->rank[i] - c->rank[j];
	if (lc_fit_doubtful(x) != lc_fit_doubtful(y))
		return lc_fit_doubtful(x) - lc_fit_doubtful(y);
	if (u != v)
		return u < v ? -1 : 1;
	return c->rank[i] - c->rank[j];
}

/* The band of extrapolation errors counted as ties, percent: what noise
 * alone makes of them, the runs' noise (from repeats) or the in-sample
 * error of the best model, four times over (a prediction past the points
 * carries their noise, amplified), at least 1 %: a tighter band cost 5 of
 * 100 cases of recovery on 5 % noise (tests/test_search.c) for nothing
 * past the range (tests/test_noisy.c). */
static double extrap_band(const struct lc_points *pts, const struct lc_fit *best)
{
	double band = isfinite(best->smape_in) ? best->smape_in : 0;
	int reps = 0;

	for (size_t i = 0; i < pts->n; i++)
		reps |= pts->count[i] > 1;
	if (reps)
		band = fmax(band, 100 * pts->noise);
	return fmax(4 * band, 1);
}

/* Step 4: score order[0..m) by lc_fit_extrap; the models within the band
 * of the best error move to the front in their order, the others follow
 * by their error.  Returns how many are in the front group (m when no
 * model could be scored), or -ENOMEM. */
static int extrap_order(const struct lc_formula *const *f, struct lc_fit *const *fit, int *order,
			int m, int nfit, const struct lc_points *pts, unsigned flags,
			const char *const *names, struct lc_select *info)
{
	int *rank = malloc(((size_t)nfit + 1) * sizeof(*rank)), g = 0;
	struct xctx ctx = { fit, rank };
	double best = INFINITY;

	if (!rank)
		return -ENOMEM;
	for (int i = 0; i < m; i++) {
		rank[order[i]] = i;
		if (isnan(fit[order[i]]->xerr) &&
		    lc_fit_extrap(f[order[i]], pts, flags, names, fit[order[i]])) {
			free(rank);
			return -ENOMEM;
		}
		if (!lc_fit_doubtful(fit[order[i]]) && isfinite(fit[order[i]]->xerr))
			best = fmin(best, fit[order[i]]->xerr);
	}
	if (!isfinite(best)) {
		free(rank);
		return m;
	}
	info->extrap = 1;
	info->band = extrap_band(pts, fit[order[0]]);
	for (int i = 0; i < m; i++)	/* the ties keep the order before */
		if (!lc_fit_doubtful(fit[order[i]]) && fit[order[i]]->xerr <= best + info->band)
			rank[order[i]] = i - m, g++;
	qsort_r(order, (size_t)m, sizeof(*order), cmp_xerr, &ctx);
	free(rank);
	return g;
}

/* Select.  See lca_lsq.h. */
int lc_fit_select(const struct lc_formula *const *f, struct lc_fit *const *fit, int n,
		  const struct lc_points *pts, unsigned flags, const char *const *names,
		  int *order, struct lc_select *info)
{
	struct sel_ctx ctx = { fit, LC_CRIT_LOO };
	int m = n < LC_SELECT_SHORTLIST ? n : LC_SELECT_SHORTLIST, g = m;

	*info = (struct lc_select){ .promoted = -1, .promoted_over = -1 };
	for (int i = 0; i < n; i++)
		order[i] = i;
	if (n == 0)
		return 0;
	qsort_r(order, (size_t)n, sizeof(*order), cmp_rank, &ctx);
	for (int i = 0; i < m; i++)
		if (isnan(fit[order[i]]->smape) &&
		    lc_fit_loo(f[order[i]], pts, flags, names, fit[order[i]]))
			return -ENOMEM;
	ctx.crit = pick_crit(fit, order, m);
	if ((flags & LC_FIT_RANK_AICC) && ctx.crit == LC_CRIT_LOO && all_aicc(fit, order, m))
		ctx.crit = LC_CRIT_AICC;
	qsort_r(order, (size_t)m, sizeof(*order), cmp_crit, &ctx);
	info->crit = ctx.crit;
	info->shortlist = m;
	if (!(flags & LC_FIT_NOEXTRAP) &&
	    (g = extrap_order(f, fit, order, m, n, pts, flags, names, info)) < 0)
		return g;
	if (!(flags & LC_FIT_RANK_AICC) || ctx.crit != LC_CRIT_AICC)
		one_se(f, fit, order, g, ctx.crit, info);
	return 0;
}
