/*
 * test_noisy.c — predictions from noisy single-variable runs (noisy_gen.h):
 * Gaussian noise of 5 % of each value, 3-5 repeats at p = 2..64, the
 * prediction at 4-16 times the largest p within 15 % in >= 75 % of the
 * cases of a fixed-seed sample.
 *
 * Repeats with right-skewed noise (a loaded machine: some runs slowed a
 * lot): the default median, and the minimum, stay near the truth where the
 * mean does not.
 *
 * The runs' noise estimated from 3 or 5 repeats of known sigma (2 %, 5 %,
 * 10 %) is unbiased: its mean over 150 seeded cases within 5 % of sigma,
 * and clean repeats are listed as outliers in at most 5 of 150 cases.
 *
 * With arguments it is the larger measurement behind docs/performance.md:
 * test_noisy SEEDS [SIGMA]  prints the rate of each variant and asserts nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "noisy_gen.h"

#define NOISY_GOAL 15.0

static unsigned noisy_sflags;	/* the search's flags (the forms generated too) */

/* One variant's rate, printed. */
static double variant(const char *what, double sigma, int seeds, unsigned pflags, int range)
{
	struct noisy_result r;

	rng_seed(7000);
	noisy_run(sigma, seeds, noisy_sflags, pflags, LC_FIT_RELATIVE, range, NOISY_GOAL, &r);
	printf("%s%-44s %d/%d within %.0f%% (%.1f%%), mean error %.1f%%\n", noisy_sflags ? "decreasing too: " : "", what,
	       r.within, r.cases, NOISY_GOAL, 100.0 * r.within / r.cases, r.errsum / r.cases);

	return (double)r.within / r.cases;
}

/* The fixed-seed sample: 56 forms x 3 seeds. */
static void test_noisy_goal(void **state)
{
	(void)state;
	assert_true(variant("default (chosen from the repeats, range to the prediction)", 0.05, 3,
			    LC_POINTS_DEFAULT, 2) >= 0.75);
}

/* A loaded machine's repeats: each run a little slower than the truth
 * (half-normal, 2 %), and 3 of 10 slowed 1.3 to 3 times by other load. */
static double skewed(double v)
{
	return noisy_skewed(v, 0.02);
}

/* The largest relative error of the points of 5 skewed repeats of
 * 1 + 0.5 p (p = 2..64) aggregated as pflags says, and the prediction
 * error at p = 512 of that form fitted to them; percent. */
static void skewed_case(unsigned pflags, double *pointerr, double *prederr)
{
	static const char *const names[] = { "p", NULL };
	struct lc_runs *r = lc_runs_new();
	struct lc_formula *f = NULL;
	struct lc_parse_error pe;
	struct lc_points pts;
	struct lc_fit fit;
	int keys[1] = { 0 }, line = 1;
	double at = 512;

	for (int i = 1; i <= 6; i++)
		for (int k = 0; k < 5; k++) {
			lc_runs_start(r, line++);
			lc_runs_add(r, "p", ldexp(1, i));
			lc_runs_add(r, "y", skewed(1 + 0.5 * ldexp(1, i)));
		}
	assert_int_equal(lc_points_build(r, keys, 1, 1, NULL, pflags, &pts), 0);
	*pointerr = 0;
	for (size_t i = 0; i < pts.n; i++)
		*pointerr = fmax(*pointerr, 100 * fabs(pts.y[i] / (1 + 0.5 * pts.x[i]) - 1));
	assert_int_equal(lc_formula_parse("p + 1", 0, noisy_resolve, NULL, &f, &pe), 0);
	assert_int_equal(lc_fit_formula(f, &pts, LC_FIT_RELATIVE, names, &fit, NULL, 0), 0);
	*prederr = 100 * fabs(lc_fit_eval(f, fit.coef, &at) / (1 + 0.5 * at) - 1);
	lc_formula_free(f);
	lc_points_free(&pts);
	lc_runs_free(r);
}

/* Right-skewed repeats (a loaded machine): over 40 seeded cases the default
 * (chosen from the repeats: their smallest; the median of 5 before, which
 * kept every point within 15 % in about half the cases) keeps every point
 * within 15 % of the truth, the mean in almost none, and predicts within
 * 10 % far more often than the mean, which the slowed runs pull up; the
 * minimum is within 4 % of the truth at every point. */
static void test_skewed_repeats(void **state)
{
	int med_ok = 0, mean_ok = 0, min_ok = 0, med_pred = 0, mean_pred = 0;

	(void)state;
	for (int s = 0; s < 40; s++) {
		double pe, pr;

		rng_seed(8000 + (uint64_t)s);
		skewed_case(LC_POINTS_DEFAULT, &pe, &pr);
		med_ok += pe <= 15;
		med_pred += pr <= 10;
		rng_seed(8000 + (uint64_t)s);
		skewed_case(LC_POINTS_MEAN, &pe, &pr);
		mean_ok += pe <= 15;
		mean_pred += pr <= 10;
		rng_seed(8000 + (uint64_t)s);
		skewed_case(LC_POINTS_MIN, &pe, &pr);
		min_ok += pe <= 4;
	}
	printf("skewed repeats, 40 cases: every point within 15%%: default %d, mean %d; "
	       "prediction at p=512 within 10%%: default %d, mean %d; minimum within 4%%: %d\n",
	       med_ok, mean_ok, med_pred, mean_pred, min_ok);
	assert_true(med_ok >= 36 && med_ok >= mean_ok + 15);
	assert_true(med_pred > mean_pred);
	assert_true(min_ok >= 36);
}

/* The points of one generated case: 6 points of p = 2..64 whose sizes
 * spread over 1e-3..1e3, each with reps repeats (0: 3 to 5 at random) of
 * relative sigma, Gaussian or (skew) right-skewed, built by the default
 * aggregate. */
static void repeat_points(struct lc_points *pts, double sigma, int reps, int skew)
{
	struct lc_runs *r = lc_runs_new();
	int keys[1] = { 0 }, line = 1;

	assert_non_null(r);
	for (int i = 0; i < 6; i++) {
		double v = pow(10, 6 * rng_uniform() - 3);
		int n = reps ? reps : 3 + (int)(3 * rng_uniform());

		for (int k = 0; k < n; k++) {
			lc_runs_start(r, line++);
			lc_runs_add(r, "p", ldexp(1, i + 1));
			lc_runs_add(r, "y", skew ? noisy_skewed(v, sigma) :
					    v * (1 + sigma * noisy_normal()));
		}
	}
	assert_int_equal(lc_points_build(r, keys, 1, 1, NULL, LC_POINTS_DEFAULT, pts), 0);
	lc_runs_free(r);
}

/* The mean noise estimate over `cases` generated cases of 6 points with
 * `reps` Gaussian repeats of relative sigma each (the points' sizes spread
 * over 1e-3..1e3), and how many cases list an outlier. */
static double noise_mean(double sigma, int reps, int cases, int *flagged)
{
	double sum = 0;

	*flagged = 0;
	for (int s = 0; s < cases; s++) {
		struct lc_points pts;

		repeat_points(&pts, sigma, reps, 0);
		sum += pts.noise;
		*flagged += pts.nout > 0;
		lc_points_free(&pts);
	}
	return sum / cases;
}

/* The noise estimate of generated repeats of known sigma: unbiased with 3
 * and 5 repeats (the median absolute deviation it replaced gave 1.95 % and
 * 3.29 % for 5 %), and clean repeats named outliers in at most 5 of 150
 * cases (16 of 45 with 3 repeats before). */
static void test_noise_estimate(void **state)
{
	static const double sigma[] = { 0.02, 0.05, 0.10 };
	static const int reps[] = { 3, 5 };

	(void)state;
	rng_seed(9100);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++) {
			int flagged;
			double m = noise_mean(sigma[i], reps[j], 150, &flagged);

			printf("noise of %d repeats, sigma %.0f%%: mean estimate %.2f%%, "
			       "%d of 150 cases with an outlier\n", reps[j], 100 * sigma[i],
			       100 * m, flagged);
			assert_true(fabs(m / sigma[i] - 1) <= 0.05);
			assert_true(flagged <= 5);
		}
}

/* How often the default aggregate of `cases` generated cases (6 points,
 * 3-5 repeats of sigma 5 %, Gaussian or skewed) is the smallest repeat. */
static int chose_min(int skew, int cases)
{
	int n = 0;

	for (int s = 0; s < cases; s++) {
		struct lc_points pts;

		repeat_points(&pts, 0.05, 0, skew);
		assert_true(pts.agg_auto == LC_POINTS_MIN || pts.agg_auto == LC_POINTS_MEAN);
		n += pts.agg_auto == LC_POINTS_MIN;
		lc_points_free(&pts);
	}
	return n;
}

/* The aggregate chosen from the repeats: of 200 cases of Gaussian repeats
 * at most 20 take the smallest (the mean is right for them), of 200 cases
 * of right-skewed ones at least 180; and on the skewed repeats the
 * single-variable search then predicts 4-16 times the largest p within
 * 15 % in at least 75 % of the fixed-seed sample (the median: 30 %). */
static void test_agg_choice(void **state)
{
	int g, k;
	double rate;

	(void)state;
	rng_seed(9300);
	g = chose_min(0, 200);
	k = chose_min(1, 200);
	printf("aggregate chosen: the smallest in %d of 200 Gaussian cases, %d of 200 skewed\n",
	       g, k);
	assert_true(g <= 20);
	assert_true(k >= 180);
	noisy_skew = 1;
	rate = variant("skewed repeats: default", 0.05, 3, LC_POINTS_DEFAULT, 2);
	noisy_skew = 0;
	assert_true(rate >= 0.75);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_estimate), cmocka_unit_test(test_skewed_repeats),
		cmocka_unit_test(test_agg_choice), cmocka_unit_test(test_noisy_goal),
	};
	int seeds = argc > 1 ? atoi(argv[1]) : 0;
	double sigma = argc > 2 ? atof(argv[2]) : 0.05;

	if (seeds <= 0)
		return cmocka_run_group_tests(tests, NULL, NULL);
	noisy_sflags = argc > 3 && atoi(argv[3]) ? LC_SEARCH_NEGATIVE : 0;
	noisy_share_lo = argc > 4 ? atof(argv[4]) : 0;
	noisy_oracle = getenv("NOISY_ORACLE") != NULL;
	noisy_skew = getenv("NOISY_SKEW") != NULL;
	noisy_verbose = getenv("NOISY_VERBOSE") ? atoi(getenv("NOISY_VERBOSE")) : 0;
	variant("mean, measured range", sigma, seeds, LC_POINTS_MEAN, 1);
	variant("mean, range to the prediction", sigma, seeds, LC_POINTS_MEAN, 2);
	variant("median, range to the prediction", sigma, seeds, LC_POINTS_MEDIAN, 2);
	variant("min, range to the prediction", sigma, seeds, LC_POINTS_MIN, 2);
	variant("default", sigma, seeds, LC_POINTS_DEFAULT, 2);
	return 0;
}
