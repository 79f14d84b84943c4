/*
 * test_predict.c — "lostcycles predict": the thesis's Table 5.3 2D FFT
 * models as generators (fit recovers the constants, the emitted model file
 * reproduces every category, and the data- vs task-parallel comparison has
 * its single crossover near n = 64, checked against an independent
 * computation), T(E) and what-if arithmetic, grids, and model-file errors.
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
#include <unistd.h>

#include <cmocka.h>

#include "lc_test.h"
#include "names.h"
#include "lca_formula.h"
#include "lca_grid.h"
#include "lca_lsq.h"
#include "lca_model.h"
#include "lca_predict.h"
#include "lca_runs.h"

/* Table 5.3: category, data parallel and task parallel divisors and forms
 * (form "1" with divisor 1/v for a constant v; 0 for a zero model). */
static const struct fft {
	const char *cat;
	const char *form_data, *form_task;
	double data, task;	/* the model is form / divisor */
} table53[] = {
	{ "rt", "n^2*log(n)", "n^2*log(n)", 3550, 3350 },
	{ "li", "n*log(n)", "n*log(n)", 63.0, 81.9 },
	{ "ip", "1", "n^2", 1 / 3.36, 992 },
	{ "sl", "0", "n^2", 0, 31600 },
	{ "cl", "n^2", "n^2", 14900, 12200 },
	{ "rc", "n^2", "n^2", 20100, 35600 },
};
#define NFFT (sizeof(table53) / sizeof(table53[0]))

/* The generator, written out independently of the formula code: one
 * category of one implementation (task != 0) at n, log base 2. */
static double fft_value(const struct fft *f, int task, double n)
{
	const char *form = task ? f->form_task : f->form_data;
	double div = task ? f->task : f->data, v;

	if (!strcmp(form, "0"))
		return 0;
	if (!strcmp(form, "1"))
		v = 1;
	else if (!strcmp(form, "n^2"))
		v = n * n;
	else if (!strcmp(form, "n*log(n)"))
		v = n * log2(n);
	else
		v = n * n * log2(n);
	return v / div;
}

/* T(n) at p = 26 of one implementation, independently. */
static double fft_time(int task, double n)
{
	double s = 0;

	for (size_t i = 0; i < NFFT; i++)
		s += fft_value(&table53[i], task, n);
	return s / 26;
}

static const char *const nvar[] = { "n", NULL };

/* The path of a fixture under tests/data/fit. */
static const char *fixture(const char *name)
{
	static char path[4096];
	const char *top = getenv("LC_TOP");

	snprintf(path, sizeof(path), "%s/tests/data/fit/%s", top ? top : ".", name);
	return path;
}

/* Read a model file or fail the test. */
static struct lc_model *model(const char *path)
{
	struct lc_model *m;
	char msg[256];
	int line;

	if (lc_model_read(path, &m, &line, msg, sizeof(msg)))
		fail_msg("%s:%d: %s", path, line, msg);
	return m;
}

/* Fit every category of one implementation from generated points (n = 16
 * ... 1024, p = 26), check the constants, emit them all to path. */
static void fit_and_emit(int task, const char *path)
{
	static const double ns[] = { 16, 32, 64, 128, 256, 512, 1024 };

	for (size_t c = 0; c < NFFT; c++) {
		const struct fft *f = &table53[c];
		const char *form = task ? f->form_task : f->form_data;
		struct lc_formula *fm = NULL;
		struct lc_points pts = { .n = 7, .nvars = 1 };
		struct lc_fit fit;
		double x[7], y[7], sd[7] = { 0 };
		int count[7];

		for (int i = 0; i < 7; i++) {
			x[i] = ns[i];
			y[i] = fft_value(f, task, ns[i]);
			count[i] = 1;
		}
		pts.x = x;
		pts.y = y;
		pts.sd = sd;
		pts.count = count;
		assert_int_equal(lc_formula_parse(strcmp(form, "0") ? form : "1", LC_EXPR_LOG2, resolve,
						  (void *)nvar, &fm, NULL), 0);
		assert_int_equal(lc_fit_formula(fm, &pts, LC_FIT_RELATIVE, nvar, &fit, NULL, 0), 0);
		if (strcmp(form, "0"))
			assert_true(fabs(fit.coef[0] * (task ? f->task : f->data) - 1) < 1e-9);
		else
			assert_true(fabs(fit.coef[0]) < 1e-12);
		assert_int_equal(lc_model_append(path, f->cat, nvar, 1, fm, &fit, LC_EXPR_LOG2, "test"), 0);
		lc_formula_free(fm);
	}
}

/* fit recovers Table 5.3's constants; the emitted model file reproduces
 * every category and T(n) at every n of the grid. */
static void test_table53_roundtrip(void **state)
{
	char path[64];

	(void)state;
	for (int task = 0; task < 2; task++) {
		struct lc_model *m;
		const char *names[] = { "n", "p" };

		snprintf(path, sizeof(path), "/tmp/lc-test-predict.%d.%d.model", (int)getpid(), task);
		unlink(path);
		fit_and_emit(task, path);
		m = model(path);
		for (double n = 16; n <= 1024; n *= 2) {
			double vals[] = { n, 26 }, c, h, t;
			struct lc_env env = { names, vals, 2 };

			for (size_t i = 0; i < NFFT; i++) {
				double want = fft_value(&table53[i], task, n);

				assert_int_equal(lc_predict_cat(m, table53[i].cat, &env, &c, &h, NULL), 0);
				assert_true(fabs(c - want) <= 1e-8 * fabs(want) + 1e-12);
			}
			assert_int_equal(lc_predict_total(m, &env, NULL, &t, &h, NULL), 0);
			assert_true(fabs(t - fft_time(task, n)) <= 1e-8 * t);
		}
		lc_model_free(m);
		unlink(path);
	}
}

/* The single crossover near n = 64: task parallel faster below, data
 * parallel above; its location agrees with bisection on the independent
 * formulas. */
static void test_table53_crossover(void **state)
{
	struct lc_model *a = model(fixture("fft_data.model")), *b = model(fixture("fft_task.model"));
	const char *names[] = { "n", "p" };
	double vals[] = { 16, 26 }, xs[7], out[4], lo = 16, hi = 1024;
	int below[4], k;
	struct lc_env env = { names, vals, 2 };

	(void)state;
	for (int i = 0; i < 7; i++)
		xs[i] = 16 << i;
	k = lc_predict_crossovers(a, b, &env, 0, xs, 7, out, below, 4, NULL);
	assert_int_equal(k, 1);
	assert_int_equal(below[0], 1);		/* B, task parallel, faster below */
	for (int it = 0; it < 200; it++) {	/* independent: T_data - T_task = 0 */
		double mid = (lo + hi) / 2;

		if (fft_time(0, mid) - fft_time(1, mid) > 0)
			lo = mid;
		else
			hi = mid;
	}
	printf("crossover: tool n = %.9g, independent n = %.9g\n", out[0], (lo + hi) / 2);
	assert_true(fabs(out[0] - (lo + hi) / 2) < 1e-6 * out[0]);
	assert_true(out[0] > 48 && out[0] < 80);
	lc_model_free(a);
	lc_model_free(b);
}

/* T(E) = sum C/p; what-if changes apply per category. */
static void test_total_and_whatif(void **state)
{
	static const char text[] =
		"%log e\nli(p) = 0.01*p*sqrt(p)\nsl(p) = 0.2*log(p)\nrt(p) = 10\ntt(p) = 99\n";
	char path[64], msg[128];
	struct lc_model *m;
	struct lc_whatif w;
	const char *names[] = { "p" };
	double vals[] = { 16 }, t, h, tw;
	struct lc_env env = { names, vals, 1 };
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/lc-test-predict.%d.m2", (int)getpid());
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	m = model(path);
	assert_int_equal(lc_predict_total(m, &env, NULL, &t, &h, NULL), 0);
	assert_true(fabs(t - (0.01 * 64 + 0.2 * log(16) + 10) / 16) < 1e-12);	/* tt not added */
	assert_true(h == 0);
	assert_int_equal(lc_whatif_parse("balanced sl*=0.5", &w, msg, sizeof(msg)), 0);
	assert_int_equal(lc_predict_total(m, &env, &w, &tw, &h, NULL), 0);
	assert_true(fabs(tw - (0.1 * log(16) + 10) / 16) < 1e-12);
	assert_int_equal(lc_whatif_parse("xx=0", &w, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "unknown category 'xx'"));
	assert_int_equal(lc_whatif_parse("li^0", &w, msg, sizeof(msg)), -EINVAL);
	names[0] = "n";
	assert_int_equal(lc_predict_total(m, &env, NULL, &t, &h, NULL), -EINVAL);
	lc_model_free(m);
	unlink(path);
}

/* Grids: lists, ranges, progressions, errors. */
static void test_grid(void **state)
{
	static const char *const bad[] = { "n=5..1", "n=1 n=2", "n" };
	struct lc_grid g;
	char msg[128];
	int idx[2];

	(void)state;
	assert_int_equal(lc_grid_parse("n=64,128,...,1024 p=1..4", &g, msg, sizeof(msg)), 0);
	assert_int_equal(g.naxes, 2);
	assert_int_equal(g.axis[0].n, 5);
	assert_true(g.axis[0].v[4] == 1024);
	assert_int_equal(g.axis[1].n, 4);
	assert_int_equal((int)lc_grid_count(&g), 20);
	lc_grid_index(&g, 6, idx);
	assert_true(idx[0] == 1 && idx[1] == 2);
	lc_grid_free(&g);
	assert_int_equal(lc_grid_parse("x=1,3,...,11 y=0..1:0.25", &g, msg, sizeof(msg)), 0);
	assert_int_equal(g.axis[0].n, 6);
	assert_true(g.axis[0].v[2] == 5);
	assert_int_equal(g.axis[1].n, 5);
	lc_grid_free(&g);
	assert_int_equal(lc_grid_parse("x=1,3,...,27", &g, msg, sizeof(msg)), 0);
	assert_int_equal(g.axis[0].n, 4);	/* whole ratio reaching the end: geometric */
	lc_grid_free(&g);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(lc_grid_parse(bad[i], &g, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(lc_grid_parse("n=1,x", &g, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "'x' is not a number"));
}

/* Model file errors give the line and the reason. */
static void test_model_errors(void **state)
{
	static const struct { const char *text; int line; const char *msg; } bad[] = {
		{ "li(p) = p\nxx(p) = 1\n", 2, "unknown category 'xx'" },
		{ "li(p) = p*q\n", 1, "unknown variable 'q'" },
		{ "li(p) = p*(p\n", 1, "missing ')'" },
		{ "li(p) p\n", 1, "expected '='" },
		{ "#: li dof=3 s2=1 cov=1\n", 1, "without a model line" },
		{ "li(p) = 2*p + 1\n#: li dof=3 s2=1 cov=1,2\n", 2, "4 covariance values" },
		{ "%log 3\n", 1, "%log" },
		{ "# nothing\n", 1, "no model lines" },
	};
	char path[64], msg[256];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/lc-test-predict.%d.bad", (int)getpid());
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lc_model *m;
		int line;
		FILE *f = fopen(path, "w");

		fputs(bad[i].text, f);
		fclose(f);
		assert_int_equal(lc_model_read(path, &m, &line, msg, sizeof(msg)), -EINVAL);
		assert_int_equal(line, bad[i].line);
		assert_non_null(strstr(msg, bad[i].msg));
	}
	unlink(path);
}

/* A fitted model's prediction interval: about 90 % of new noisy
 * observations from the generator fall inside it. */
static void test_prediction_interval(void **state)
{
	const char *names[] = { "p" };
	char path[64];
	int inside = 0, total = 0;
	uint64_t s = 12345;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/lc-test-predict.%d.pi", (int)getpid());
	for (int rep = 0; rep < 200; rep++) {
		static const double ps[] = { 1, 2, 4, 8, 12, 16, 20, 26 };
		struct lc_formula *fm;
		struct lc_points pts = { .n = 8, .nvars = 1 };
		struct lc_fit fit;
		struct lc_model *m;
		double x[8], y[8], sd[8] = { 0 }, c, h, vals[1] = { 24 };
		int count[8];
		struct lc_env env = { names, vals, 1 };
		const char *const pv[] = { "p", NULL };

		for (int i = 0; i < 9; i++) {	/* 8 fitted points, then a new one at p=24 */
			double u, v, g;

			s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
			u = ((s * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
			s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
			v = ((s * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
			g = sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
			if (i < 8) {
				x[i] = ps[i];
				y[i] = (0.02 * ps[i] * sqrt(ps[i]) + 0.5) * (1 + 0.05 * g);
				count[i] = 1;
				continue;
			}
			pts.x = x;
			pts.y = y;
			pts.sd = sd;
			pts.count = count;
			assert_int_equal(lc_formula_parse("p*sqrt(p) + 1", 0, resolve, (void *)pv, &fm, NULL), 0);
			assert_int_equal(lc_fit_formula(fm, &pts, LC_FIT_RELATIVE, pv, &fit, NULL, 0), 0);
			unlink(path);
			assert_int_equal(lc_model_append(path, "li", pv, 1, fm, &fit, 0, NULL), 0);
			m = model(path);
			assert_int_equal(lc_predict_cat(m, "li", &env, &c, &h, NULL), 0);
			total++;
			inside += fabs((0.02 * 24 * sqrt(24) + 0.5) * (1 + 0.05 * g) - c) <= h;
			lc_model_free(m);
			lc_formula_free(fm);
		}
	}
	unlink(path);
	printf("prediction interval: %d/%d new observations inside (nominal 90%%)\n", inside, total);
	assert_true(inside >= 0.8 * total && inside <= 0.98 * total);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_table53_roundtrip), LC_T(test_table53_crossover),
	     LC_T(test_total_and_whatif), LC_T(test_grid), LC_T(test_model_errors),
	     LC_T(test_prediction_interval))
