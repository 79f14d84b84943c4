/*
 * test_fit.c — the fitting core of "lostcycles fit": agreement with an
 * independent least-squares solution, recovery of every default form of
 * share/models.txt from noisy data (with interval coverage), pruning of the
 * zero terms of the case models of Martinez et al. ("Software Tools for
 * Performance Modeling of Parallel Programs", eq. 1-4), and refusals of
 * bad input.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lc_test.h"
#include "lc_util.h"
#include "rng.h"
#include "lc_profile.h"
#include "names.h"
#include "lca_formula.h"
#include "lca_lsq.h"
#include "lca_models.h"
#include "lca_runs.h"

static double gauss(void)
{
	double u = rng_uniform(), v = rng_uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* ---- helpers ---- */

static unsigned rec_flags;
static const char *const var_p[] = { "p" };
static const char *const var_n[] = { "n" };
static const char *const var_x[] = { "x" };

/* Parse formula text over the names (NULL-terminated) or fail the test. */
static struct lc_formula *formula(const char *text, const char *const *names)
{
	struct lc_formula *f = NULL;
	struct lc_parse_error pe;

	if (lc_formula_parse(text, 0, resolve, (void *)names, &f, &pe))
		fail_msg("formula '%s': column %d: %s", text, pe.column, pe.msg);
	return f;
}

/* Points with one row per x (nvars columns), single runs. */
static void points_init(struct lc_points *p, int nvars, size_t n)
{
	*p = (struct lc_points){ .n = n, .nvars = nvars };
	p->x = calloc(n * (size_t)nvars, sizeof(double));
	p->y = calloc(n, sizeof(double));
	p->sd = calloc(n, sizeof(double));
	p->count = calloc(n, sizeof(int));
	for (size_t i = 0; i < n; i++)
		p->count[i] = 1;
}

/* Solve A z = b (k x k) by Gaussian elimination with partial pivoting in
 * long double; A and b are overwritten. */
static void solve_ld(long double *A, long double *b, int k)
{
	for (int c = 0; c < k; c++) {
		int piv = c;

		for (int r = c + 1; r < k; r++)
			if (fabsl(A[r * k + c]) > fabsl(A[piv * k + c]))
				piv = r;
		for (int j = 0; j < k; j++) {
			long double t = A[c * k + j];

			A[c * k + j] = A[piv * k + j];
			A[piv * k + j] = t;
		}
		long double t = b[c];
		b[c] = b[piv];
		b[piv] = t;
		for (int r = c + 1; r < k; r++) {
			long double m = A[r * k + c] / A[c * k + c];

			for (int j = c; j < k; j++)
				A[r * k + j] -= m * A[c * k + j];
			b[r] -= m * b[c];
		}
	}
	for (int r = k - 1; r >= 0; r--) {
		for (int j = r + 1; j < k; j++)
			b[r] -= A[r * k + j] * b[j];
		b[r] /= A[r * k + r];
	}
}

/* ---- tests ---- */

/* GSL's SVD solution agrees with the normal equations solved in long
 * double, coefficients and covariance, to 1e-9 relative. */
static void test_lsq_vs_normal_equations(void **state)
{
	(void)state;
	rng_seed(1);
	for (int trial = 0; trial < 100; trial++) {
		enum { N = 14, K = 4 };
		double X[N * K], y[N], c[K], cov[K * K], chisq;
		long double A[K * K], b[K], inv[K][K], s2 = 0;

		for (int i = 0; i < N; i++) {
			double p = 1 + i + rng_uniform();

			X[i * K + 0] = 1;
			X[i * K + 1] = p;
			X[i * K + 2] = p * sqrt(p);
			X[i * K + 3] = log(p);
			y[i] = 3 * rng_uniform() + 0.5 * p + 0.1 * gauss();
		}
		assert_int_equal(lc_lsq_solve(X, y, NULL, N, K, c, cov, &chisq), 0);
		for (int a = 0; a < K; a++) {
			b[a] = 0;
			for (int j = 0; j < K; j++)
				A[a * K + j] = 0;
			for (int i = 0; i < N; i++) {
				b[a] += (long double)X[i * K + a] * y[i];
				for (int j = 0; j < K; j++)
					A[a * K + j] += (long double)X[i * K + a] * X[i * K + j];
			}
		}
		for (int col = 0; col < K; col++) {	/* columns of (X'X)^-1 */
			long double M[K * K], e[K];

			for (int j = 0; j < K * K; j++)
				M[j] = A[j];
			for (int j = 0; j < K; j++)
				e[j] = j == col;
			solve_ld(M, e, K);
			for (int j = 0; j < K; j++)
				inv[j][col] = e[j];
		}
		solve_ld(A, b, K);
		for (int i = 0; i < N; i++) {
			long double r = y[i];

			for (int j = 0; j < K; j++)
				r -= b[j] * X[i * K + j];
			s2 += r * r;
		}
		assert_true(fabs(chisq - (double)s2) <= 1e-9 * (double)s2);
		s2 /= N - K;
		for (int j = 0; j < K; j++) {
			assert_true(fabs(c[j] - (double)b[j]) <= 1e-9 * fabs((double)b[j]) + 1e-12);
			for (int l = 0; l < K; l++) {
				double ref = (double)(s2 * inv[j][l]);

				assert_true(fabs(cov[j * K + l] - ref) <= 1e-9 * fabs(ref) + 1e-15);
			}
		}
	}
}

/* The grid of variable values a generator uses. */
static const double grid_p[] = { 1, 2, 4, 8, 12, 16, 20, 26 };
static const double grid_n[] = { 16, 32, 64, 128, 256, 512, 1024 };

/* One default form's generator: true coefficients chosen so that each term
 * contributes about equally (within a factor of two) on average. */
static void true_coefs(const struct lc_formula *f, const double *xs, int nx, double *c)
{
	if (f->is_max) {	/* max(k1 p + k2, k3): plateau, then a rise past theta */
		double theta = 5 + 6 * rng_uniform(), k3 = 0.5 + 1.5 * rng_uniform();

		c[0] = k3 * (0.15 + 0.15 * rng_uniform());
		c[1] = k3 - c[0] * theta;
		c[2] = k3;
		return;
	}
	for (int t = 0; t < f->nterms; t++) {
		double m = 0;

		for (int i = 0; i < nx; i++)
			m += fabs(lc_expr_eval(f->term[t], &xs[i]));
		m /= nx;
		c[t] = (0.5 + 1.5 * rng_uniform()) / (m > 0 ? m : 1);
	}
}

/* Recovery statistics at one noise level. */
struct rec {
	int cases, first, covered, coefs;
};

/* Fit every candidate to data from generator g, select (lc_fit_select, the
 * rule of every mode) and record whether g came first and whether its
 * intervals hold the true coefficients. */
static void recover_one(struct lc_formula **cands, int nc, int g, const double *xs, int nx,
			const char *const *names, double noise, struct rec *r)
{
	struct lc_points pts;
	struct lc_fit fits[32], *fp[32], gfit;
	const struct lc_formula *ff[32];
	double c[LC_LSQ_MAXK];
	int bi = -1, idx[32], order[32], m = 0;
	struct lc_select sel;

	true_coefs(cands[g], xs, nx, c);
	points_init(&pts, 1, (size_t)nx);
	for (int i = 0; i < nx; i++) {
		pts.x[i] = xs[i];
		pts.y[i] = lc_fit_eval(cands[g], c, &xs[i]) * (1 + noise * gauss());
	}
	for (int k = 0; k < nc; k++) {
		if (lc_fit_formula(cands[k], &pts, LC_FIT_NOLOO | rec_flags, names, &fits[m], NULL, 0))
			continue;
		if (k == g)
			gfit = fits[m];
		ff[m] = cands[k];
		fp[m] = &fits[m];
		idx[m++] = k;
	}
	assert_int_equal(lc_fit_select(ff, fp, m, &pts, rec_flags, names, order, &sel), 0);
	if (m)
		bi = idx[order[0]];
	r->cases++;
	r->first += bi == g;
	if (!cands[g]->is_max)
		for (int t = 0; t < cands[g]->nterms; t++) {
			r->coefs++;
			r->covered += fabs(gfit.coef[t] - c[t]) <= gfit.half[t];
		}
	lc_points_free(&pts);
}

/* The models file in the source tree. */
static const char *models_file(void)
{
	static char path[4096];
	const char *top = getenv("LC_TOP");

	snprintf(path, sizeof(path), "%s/share/models.txt", top ? top : ".");
	return path;
}

/* Run every default form of every category and variable as a generator
 * `seeds` times at the given noise. */
static void recovery(double noise, int seeds, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	for (int ci = 0; ci < LC_NKEY; ci++)
		for (int v = 0; v < 2; v++) {
			const char *const *names = v ? var_n : var_p;
			const char *const nt[] = { names[0], NULL };
			const double *xs = v ? grid_n : grid_p;
			int nx = v ? 7 : 8, n, line;
			char **forms;
			struct lc_formula *f[32];

			assert_int_equal(lc_models_load(models_file(), lc_cat_info(ci)->key, names, 1, &forms,
							&n, &line), 0);
			for (int k = 0; k < n; k++)
				f[k] = formula(forms[k], nt);
			for (int g = 0; g < n; g++)
				for (int s = 0; s < seeds; s++)
					recover_one(f, n, g, xs, nx, names, noise, r);
			for (int k = 0; k < n; k++)
				lc_formula_free(f[k]);
			lc_strv_free(forms, n);
		}
}

/* Every default form is recovered at 1 % noise in >= 95 % of >= 200 cases,
 * with plain and with relative least squares.  With the default relative
 * fit the 90 % intervals cover the true coefficients near the nominal rate;
 * plain least squares undercovers multiplicative noise (printed, not
 * asserted: that is why it is not the default). */
static void test_recovery(void **state)
{
	static const double noise[] = { 0.01, 0.05, 0.10 };
	struct rec r;

	(void)state;
	for (int m = 0; m < 2; m++)
	for (int i = 0; i < 3; i++) {
		rec_flags = m ? LC_FIT_RELATIVE : 0;
		rng_seed(100 + (uint64_t)i);
		recovery(noise[i], 5, &r);
		printf("%s: recovery at %2.0f%% noise: %d/%d cases ranked first (%.1f%%); "
		       "90%% intervals covered %d/%d true coefficients (%.1f%%)\n",
		       m ? "relative (default)" : "absolute (--absolute)", 100 * noise[i], r.first, r.cases, 100.0 * r.first / r.cases, r.covered,
		       r.coefs, 100.0 * r.covered / r.coefs);
		if (i == 0) {
			assert_true(r.cases >= 200);
			assert_true(r.first >= 0.95 * r.cases);
		}
		if (m == 1)	/* the default fits relative errors: nominal coverage */
			assert_true(r.covered >= 0.75 * r.coefs && r.covered <= 0.98 * r.coefs);
	}
}

/* The case models (eq. 2-4) of Martinez et al., "Software Tools for
 * Performance Modeling of Parallel Programs", as generators of their full
 * model (eq. 1): pruning drops the terms that are zero in each case and
 * keeps the others.  Statistically: a zero term survives pruning only when
 * its interval misses zero by chance (nominally 10 %). */
static void test_prune_case_models(void **state)
{
	static const char *const names[] = { "N", "P", "l2cm", "lat", "bw", NULL };
	static const char *const full =
		"1 + N^3/P + l2cm + ceil(log2(P))*N^2/P*lat + ceil(log2(P))*N/bw";
	static const double truth[3][5] = {
		{ 280, 0.0196, 1.82, 0, 0 },
		{ 5000, 0.0162, 0.66, 0, 4.9 },
		{ 360000, 0.42, 0, 0.42, 0 },
	};
	struct lc_formula *f = formula(full, names);
	int zero_dropped = 0, zeros = 0, kept = 0, nonzero = 0;

	(void)state;
	rng_seed(7);
	for (int cs = 0; cs < 3; cs++)
		for (int rep = 0; rep < 60; rep++) {
			struct lc_points pts;
			struct lc_formula *g;
			struct lc_fit fit;
			int dropped[LC_LSQ_MAXK], i = 0;

			points_init(&pts, 5, 30);
			for (int n = 100; n <= 200; n += 50)
				for (int pi = 0; pi < 5; pi++)
					for (int k = 0; k < 2; k++, i++) {
						double *x = &pts.x[i * 5];

						x[0] = n;
						x[1] = (double[]){ 2, 4, 6, 8, 12 }[pi];
						x[2] = (1 + 9 * rng_uniform()) * 1e4 * (n / 100.0) * (n / 100.0);
						x[3] = 50 + 100 * rng_uniform();
						x[4] = 0.05 + 0.45 * rng_uniform();
						pts.y[i] = lc_fit_eval(f, truth[cs], x) * (1 + 0.01 * gauss());
					}
			assert_int_equal(lc_fit_prune(f, &pts, LC_FIT_NOLOO | LC_FIT_RELATIVE, names, &g, dropped, &fit,
						      NULL, 0), 0);
			for (int t = 1; t < 5; t++) {	/* the constant may go either way */
				if (truth[cs][t] == 0) {
					zeros++;
					zero_dropped += dropped[t];
				} else {
					nonzero++;
					kept += !dropped[t];
				}
			}
			if (g != f)
				lc_formula_free(g);
			lc_points_free(&pts);
		}
	printf("case-model pruning: %d/%d zero terms dropped, %d/%d non-zero terms kept\n",
	       zero_dropped, zeros, kept, nonzero);
	assert_true(zero_dropped >= 0.8 * zeros);
	assert_true(kept == nonzero);
	lc_formula_free(f);
}

/* A formula syntax error points at the column; unknown names are named. */
static void test_formula_errors(void **state)
{
	static const char *const nt[] = { "p", NULL };
	static const struct { const char *text; int column; const char *msg; } cases[] = {
		{ "p*sqrt(p", 9, "missing ')'" },
		{ "p + * 2", 5, "unexpected '*'" },
		{ "p*q", 3, "unknown variable 'q'" },
		{ "foo(p)", 1, "unknown function 'foo'" },
		{ "max(p)", 1, "takes 2 arguments" },
		{ "p 2", 3, "after a complete expression" },
		{ "", 1, "unexpected end" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lc_formula *f = NULL;
		struct lc_parse_error pe;

		assert_int_equal(lc_formula_parse(cases[i].text, 0, resolve, (void *)nt, &f, &pe), -EINVAL);
		assert_null(f);
		assert_int_equal(pe.column, cases[i].column);
		assert_non_null(strstr(pe.msg, cases[i].msg));
	}
}

/* text: n copies of open, then mid, then n copies of close; malloc'd. */
static char *repeat(const char *open, int n, const char *mid, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), lm = strlen(mid);
	char *s = malloc((size_t)n * (lo + lc) + lm + 1), *p = s;

	assert_non_null(s);
	for (int i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, mid, lm + 1);
	p += lm;
	for (int i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	*p = 0;
	return s;
}

/* Whether the expression text parses; when refused, the reason holds msg. */
static int parses(const char *text, const char *msg)
{
	static const char *const nt[] = { "p", NULL };
	struct lc_parse_error pe;
	struct lc_expr *e = NULL;
	int r = lc_expr_parse(text, 0, resolve, (void *)nt, &e, &pe);

	if (r)
		assert_non_null(strstr(pe.msg, msg));
	else
		assert_true(isfinite(lc_expr_eval(e, (double[]){ 1 })));
	lc_expr_free(e);
	return r == 0;
}

/* Hostile texts are refused before they exhaust the stack (a model file of
 * 60 KB of brackets, 100,000 terms), and texts just inside the bounds are
 * parsed and evaluated. */
static void test_formula_bounds(void **state)
{
	static const struct { const char *open, *mid, *close; int n, ok; const char *msg; } cases[] = {
		{ "(", "p", ")", 30000, 0, "nested more than 256 deep" },
		{ "(", "p", ")", 255, 1, "" },
		{ "-", "p", "", 60000, 0, "nested more than 256 deep" },
		{ "sqrt(", "p", ")", 257, 0, "nested more than 256 deep" },
		{ "p^", "1", "", 300, 0, "nested more than 256 deep" },
		{ "", "p", "+p", 100000, 0, "longer than 65536 characters" },
		{ "", "p", "+p", 20000, 0, "more than 1000 levels of operations" },
		{ "", "p", "*1", 998, 1, "" },
		{ "", "p", "*1", 1000, 0, "more than 1000 levels of operations" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = repeat(cases[i].open, cases[i].n, cases[i].mid, cases[i].close);

		assert_int_equal(parses(t, cases[i].msg), cases[i].ok);
		free(t);
	}
}

/* Formulae split into terms, print back, evaluate with log bases. */
static void test_formula_terms(void **state)
{
	static const char *const nt[] = { "n", "p", NULL };
	struct lc_formula *f = formula("n*log(n)*p*sqrt(p) + 1 - p", nt);
	struct lc_expr *e;
	double x[2] = { 8, 4 }, c[3] = { 2, 3, 0.5 };
	char buf[256];

	(void)state;
	assert_int_equal(f->nterms, 3);
	lc_formula_print(f, c, (const char *const *)nt, 6, buf, sizeof(buf));
	assert_string_equal(buf, "2*n*ln(n)*p*sqrt(p) + 3 + 0.5*p");
	assert_true(fabs(lc_fit_eval(f, c, x) - (2 * 8 * log(8) * 8 + 3 + 2)) < 1e-12);
	lc_formula_free(f);
	assert_int_equal(lc_expr_parse("log(n) + n^(1/3) - -p", LC_EXPR_LOG2, resolve, (void *)nt, &e,
				       NULL), 0);
	assert_true(fabs(lc_expr_eval(e, x) - (3 + 2 + 4)) < 1e-12);
	lc_expr_free(e);
	f = formula("max(p + 1, 1)", nt);
	assert_true(f->is_max);
	assert_int_equal(f->na, 2);
	lc_formula_free(f);
}

/* Too few points and linearly dependent terms are refused with a reason. */
static void test_refusals(void **state)
{
	static const char *const nt[] = { "p", NULL };
	struct lc_formula *f = formula("p*sqrt(p) + p + 1", nt), *g = formula("p + 2*p", nt);
	struct lc_points pts;
	struct lc_fit fit;
	char why[256];

	(void)state;
	points_init(&pts, 1, 3);
	for (int i = 0; i < 3; i++) {
		pts.x[i] = i + 1;
		pts.y[i] = i * i;
	}
	assert_int_equal(lc_fit_formula(f, &pts, 0, nt, &fit, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "too few points"));
	assert_int_equal(lc_fit_formula(g, &pts, 0, nt, &fit, why, sizeof(why)), -EDOM);
	assert_non_null(strstr(why, "rank-deficient"));
	pts.x[0] = 0;
	lc_formula_free(f);
	f = formula("log(p)", nt);
	assert_int_equal(lc_fit_formula(f, &pts, 0, nt, &fit, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not finite at p=0"));
	lc_formula_free(f);
	lc_formula_free(g);
	lc_points_free(&pts);
}

/* Select among the formulae texts[0..n) over x on pts; returns the index
 * chosen first and fills *sel. */
static int select_first(const char *const *texts, int n, const struct lc_points *pts,
			struct lc_select *sel, struct lc_fit *fits)
{
	struct lc_formula *f[8];
	struct lc_fit *fp[8];
	int order[8];

	for (int i = 0; i < n; i++) {
		f[i] = formula(texts[i], (const char *const[]){ "x", NULL });
		assert_int_equal(lc_fit_formula(f[i], pts, LC_FIT_NOLOO | LC_FIT_RELATIVE, var_x,
						&fits[i], NULL, 0), 0);
		fp[i] = &fits[i];
	}
	assert_int_equal(lc_fit_select((const struct lc_formula *const *)f, fp, n, pts,
				       LC_FIT_RELATIVE, var_x, order, sel), 0);
	for (int i = 0; i < n; i++)
		lc_formula_free(f[i]);
	return order[0];
}

/* The selection rule: a constant that cannot be told from zero loses to
 * the model without it (a '?' and the one-standard-error rule); repeats
 * whose spread a model's misfit exceeds mark it; leave-one-out SMAPE is
 * the criterion when there are enough points, R2 with two. */
static void test_select(void **state)
{
	static const char *const forms[] = { "x + 1", "x", "1" };
	struct lc_points pts;
	struct lc_select sel;
	struct lc_fit fits[8];

	(void)state;
	rng_seed(7);
	points_init(&pts, 1, 8);
	for (int i = 0; i < 8; i++) {
		double v = 2.0 * (i + 1), s = 0, ss = 0;

		for (int r = 0; r < 4; r++) {
			double y = v * (1 + 0.01 * gauss());

			s += y;
			ss += y * y;
		}
		pts.x[i] = i + 1;
		pts.y[i] = s / 4;
		pts.sd[i] = sqrt(fmax(ss - s * s / 4, 0) / 3);
		pts.count[i] = 4;
	}
	assert_int_equal(select_first(forms, 3, &pts, &sel, fits), 1);
	assert_int_equal(sel.crit, LC_CRIT_LOO);
	assert_true(isfinite(fits[1].smape) && isfinite(fits[1].smape_se));
	assert_true(isfinite(fits[1].lof_p) && !fits[1].lof);
	assert_true(fits[2].lof);		/* a constant cannot follow 2x */
	assert_true(lc_fit_doubtful(&fits[2]));
	pts.n = 2;
	assert_int_equal(select_first(forms + 1, 2, &pts, &sel, fits), 0);
	assert_int_equal(sel.crit, LC_CRIT_R2);
	pts.n = 8;
	lc_points_free(&pts);
}

/* --nonneg holds a would-be negative coefficient at zero. */
static void test_nonneg(void **state)
{
	static const char *const nt[] = { "p", NULL };
	struct lc_formula *f = formula("p + 1", nt);
	struct lc_points pts;
	struct lc_fit fit;

	(void)state;
	points_init(&pts, 1, 6);
	for (int i = 0; i < 6; i++) {
		pts.x[i] = i + 1;
		pts.y[i] = 2 * (i + 1) - 0.5 + 0.01 * (i % 2);
	}
	assert_int_equal(lc_fit_formula(f, &pts, 0, nt, &fit, NULL, 0), 0);
	assert_true(fit.coef[1] < 0);
	assert_int_equal(lc_fit_formula(f, &pts, LC_FIT_NONNEG, nt, &fit, NULL, 0), 0);
	assert_true(fit.zero[1] && fit.coef[1] == 0 && fit.coef[0] > 0);
	assert_int_equal(fit.kfree, 1);
	lc_formula_free(f);
	lc_points_free(&pts);
}

/* Parse a runs file of text into *r; 0 or the error, with re set. */
static int parse_text(const char *text, struct lc_runs **r, struct lc_runs_error *re)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int e;

	assert_non_null(f);
	e = lc_runs_parse(f, r, re);
	fclose(f);
	return e;
}

/* The runs of a well-formed runs file of text. */
static struct lc_runs *runs_of(const char *text)
{
	struct lc_runs *r = NULL;
	struct lc_runs_error re;

	assert_int_equal(parse_text(text, &r, &re), 0);
	return r;
}

/* The points of column key of r over variable p. */
static void p_points(struct lc_runs *r, const char *key, struct lc_points *pts)
{
	int vars[1] = { lc_runs_find_key(r, "p", 1) };

	assert_int_equal(lc_points_build(r, vars, 1, lc_runs_find_key(r, key, strlen(key)), NULL,
					 0, pts), 0);
}

/* The kind of the cell of run row in column key (its value in *v). */
static int cell(struct lc_runs *r, size_t row, const char *key, double *v)
{
	return lc_runs_get(r, row, lc_runs_find_key(r, key, strlen(key)), v);
}

/* The points of key over p in r: n of them; na runs na, missing missing. */
static void points_are(struct lc_runs *r, const char *key, int n, int na, int missing)
{
	struct lc_points pts;

	p_points(r, key, &pts);
	assert_int_equal((int)pts.n, n);
	assert_int_equal((int)pts.na, na);
	assert_int_equal((int)pts.missing, missing);
	lc_points_free(&pts);
}

/* Runs files: -l lines in any order, Figure 5.1 lines, na, repeats
 * averaged with spread. */
static const char runs_text[] =
	"# comment\n\n"
	"n=64 p=4 li=0.5 ip=1.5 sl=0.01 cl=na rc=na ml=na bl=0 wc=0 rt=28.6 tt=49.3\n"
	"tt=50 li=0.7 p=4 n=64 cl=na\n"
	"d=32 v=4.5 p=2 li=0.018748 ip=0.002202 sl=0.276536 cl=0.077673 rc=0.037759 tt=1.313014 rt=0.900096\n";

/* The runs, their lines and cells. */
static void test_runs(void **state)
{
	struct lc_runs *r = runs_of(runs_text);
	double v;

	(void)state;
	assert_int_equal((int)lc_runs_count(r), 3);
	assert_int_equal(lc_runs_line(r, 2), 5);
	assert_int_equal(cell(r, 0, "cl", &v), LC_CELL_NA);
	assert_int_equal(cell(r, 2, "d", &v), LC_CELL_VALUE);
	assert_true(v == 32);
	lc_runs_free(r);
}

/* Repeats of a point are averaged, with their spread; na cells are no
 * points. */
static void test_runs_repeats(void **state)
{
	struct lc_runs *r = runs_of(runs_text);
	struct lc_points pts;

	(void)state;
	p_points(r, "li", &pts);
	assert_int_equal((int)pts.n, 2);
	assert_true(pts.x[1] == 4 && fabs(pts.y[1] - 0.6) < 1e-12 && pts.count[1] == 2);
	assert_true(fabs(pts.sd[1] - sqrt(0.02)) < 1e-12);
	lc_points_free(&pts);
	points_are(r, "cl", 1, 2, 0);
	lc_runs_free(r);
}

/* Word values in notes; a run whose variable is not a number is missing;
 * CSV with a header line, na cells. */
static void test_runs_notes(void **state)
{
	struct lc_runs *r = runs_of("impl=task p=1 li=0.5\nimpl=data p=2 li=0.7\np=x li=1\n");
	struct lc_runs *csv = runs_of("n, p, li\n64, 2, 0.5\n128, 2, na\n");
	double v;

	(void)state;
	assert_int_equal(cell(r, 0, "impl", &v), LC_CELL_TEXT);
	points_are(r, "li", 2, 0, 1);
	assert_int_equal((int)lc_runs_count(csv), 2);
	assert_int_equal(cell(csv, 1, "li", &v), LC_CELL_NA);
	lc_runs_free(r);
	lc_runs_free(csv);
}

/* Malformed lines give the line and the token. */
static void test_runs_errors(void **state)
{
	static const struct { const char *text; int line; const char *token, *msg; } bad[] = {
		{ "p=1 li=0.1\np=2 li=0.x2\n", 2, "li=0.x2", "not a number" },
		{ "p=1 li=0.1 junk\n", 1, "junk", "NAME=VALUE" },
		{ "p=1 li=0.1 p=2\n", 1, "p=2", "twice" },
		{ "p,li\n1,2\n3\n", 3, "3", "expected 2 fields" },
	};
	struct lc_runs *r;
	struct lc_runs_error re;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_text(bad[i].text, &r, &re), -EINVAL);
		assert_int_equal(re.line, bad[i].line);
		assert_string_equal(re.token, bad[i].token);
		assert_non_null(strstr(re.msg, bad[i].msg));
	}
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_lsq_vs_normal_equations), LC_T(test_formula_errors), LC_T(test_formula_bounds),
	     LC_T(test_formula_terms), LC_T(test_refusals), LC_T(test_nonneg), LC_T(test_select),
	     LC_T(test_runs), LC_T(test_runs_repeats), LC_T(test_runs_notes),
	     LC_T(test_runs_errors), LC_T(test_recovery), LC_T(test_prune_case_models))
