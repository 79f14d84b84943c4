/*
 * test_calibrate.c — the recommendation of "lostcycles calibrate" on
 * synthetic rows (real timings are noise here): an interval is recommended
 * only when its overhead is shown under budget with its noise taken into
 * account (median + noise / 2, noise the larger spread of its runs and the
 * baseline's, and that noise within the budget); busy-wait intervals only
 * when allowed; otherwise the reason, for the default 100 us.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <math.h>
#include <stdint.h>

#include "lc_test.h"
#include "lc_calib.h"

#define US 1000u

/* A row: interval in us, median overhead and spread in %, runs. */
static struct lc_calib_row row(unsigned us, double over, double spread, size_t runs)
{
	return (struct lc_calib_row){ .interval_ns = (uint64_t)us * US, .overhead = over,
				      .spread = spread, .runs = runs, .busy_wait = us < 30 };
}

/* lc_calib_recommend over the n rows r (baseline spread bs of nbase runs,
 * budget, busy-wait allowed or not): it recommends row index (-1: none). */
static struct lc_calib_rec recommend(const struct lc_calib_row *r, size_t n, double bs,
				     size_t nbase, double budget, int allow, int index)
{
	struct lc_calib_rec rec;

	lc_calib_recommend(r, n, bs, nbase, budget, allow, &rec);
	assert_int_equal(rec.index, index);
	return rec;
}

/* recommend with nothing recommended, for the reason why. */
static struct lc_calib_rec refused(const struct lc_calib_row *r, size_t n, double bs,
				   size_t nbase, double budget, int allow, enum lc_calib_why why)
{
	struct lc_calib_rec rec = recommend(r, n, bs, nbase, budget, allow, -1);

	assert_int_equal(rec.why, why);
	return rec;
}

/* The noisy machine of the audit: overhead spreads up to 177 %, and a
 * -8.6 % "overhead" at the busy-wait 10 us.  Nothing is recommended, and the
 * reason is the noise; the busy-wait row is not even considered. */
static void test_noisy_machine(void **state)
{
	struct lc_calib_row r[] = {
		row(10, -8.6, 60.1, 3), row(25, 40.2, 177.0, 3), row(50, 12.0, 35.5, 3),
		row(100, 3.3, 20.4, 3), row(250, -1.2, 15.0, 3), row(1000, 0.4, 8.2, 3),
	};
	struct lc_calib_rec rec;

	(void)state;
	rec = refused(r, 6, 2.0, 3, 1.0, 0, LC_CALIB_NOISY);
	assert_true(fabs(rec.noise - 8.2) < 1e-9);	/* the least noise seen */
	assert_int_equal(rec.busy_skipped, 0);		/* 10 us was noisy too */
	/* the old rule (first median <= budget) would have taken 10 us; the
	 * rule refuses it for its noise, busy waiting allowed or not ... */
	refused(r, 6, 2.0, 3, 1.0, 1, LC_CALIB_NOISY);
	/* ... and takes it once its runs agree (noise 2.0 from the baseline:
	 * bound -8.6 + 1.0 within a budget of 2) */
	r[0].spread = 0.5;
	rec = recommend(r, 6, 2.0, 3, 2.0, 1, 0);
	assert_true(fabs(rec.bound - (-7.6)) < 1e-9);
}

/* A quiet machine: the smallest interval whose bound is within budget. */
static void test_quiet_machine(void **state)
{
	struct lc_calib_row r[] = {
		row(50, 1.5, 0.4, 3),	/* over budget */
		row(100, 0.7, 0.8, 3),	/* bound 0.7 + 0.4 = 1.1: not shown */
		row(250, 0.3, 0.6, 3),	/* bound 0.3 + 0.3 = 0.6: shown */
		row(1000, 0.1, 0.2, 3),
	};
	struct lc_calib_rec rec;

	(void)state;
	rec = recommend(r, 4, 0.2, 3, 1.0, 0, 2);
	assert_int_equal(rec.why, LC_CALIB_SHOWN);
	assert_true(fabs(rec.bound - 0.6) < 1e-9);
	/* the baseline's spread counts as noise too: 0.9 makes 250 us's bound
	 * 0.75, and 1000 us's 0.55 */
	rec = recommend(r, 4, 0.9, 3, 1.0, 0, 2);
	assert_true(fabs(rec.bound - 0.75) < 1e-9);
	refused(r, 4, 1.2, 3, 1.0, 0, LC_CALIB_NOISY);	/* baseline noisier than budget */
	/* a larger budget takes the smaller interval */
	rec = recommend(r, 4, 0.2, 3, 2.0, 0, 0);
}

/* Quiet but every bound over budget: the least bound is the reason. */
static void test_over_budget(void **state)
{
	struct lc_calib_row r[] = { row(50, 3.0, 0.5, 3), row(1000, 1.1, 0.3, 3) };
	struct lc_calib_rec rec;

	(void)state;
	rec = refused(r, 2, 0.1, 3, 1.0, 0, LC_CALIB_OVER);
	assert_true(fabs(rec.bound - 1.25) < 1e-9);
}

/* A negative median is noise, not a gain: with a spread over budget it is
 * not shown, however low. */
static void test_negative_noise(void **state)
{
	struct lc_calib_row r[] = { row(100, -20.0, 30.0, 3), row(250, 0.2, 0.4, 3) };

	(void)state;
	recommend(r, 2, 0.1, 3, 1.0, 0, 1);
}

/* Busy-wait intervals: only with allow_busy; otherwise noted when they
 * would have been shown. */
static void test_busy_wait(void **state)
{
	struct lc_calib_row r[] = { row(10, 0.2, 0.3, 3), row(100, 0.4, 0.4, 3) };
	struct lc_calib_rec rec;

	(void)state;
	rec = recommend(r, 2, 0.1, 3, 1.0, 0, 1);
	assert_int_equal(rec.busy_skipped, 1);
	rec = recommend(r, 2, 0.1, 3, 1.0, 1, 0);
	assert_int_equal(rec.busy_skipped, 0);
	/* only busy-wait intervals measured, not allowed */
	refused(r, 1, 0.1, 3, 1.0, 0, LC_CALIB_ONLY_BUSY);
}

/* One run per interval (or baseline) shows no spread: nothing is shown. */
static void test_few_runs(void **state)
{
	struct lc_calib_row r[] = { row(100, 0.1, 0.0, 1), row(1000, 0.0, 0.0, 1) };

	(void)state;
	refused(r, 2, 0.0, 1, 1.0, 0, LC_CALIB_FEW_RUNS);
	r[0].runs = r[1].runs = 3;
	refused(r, 2, 0.0, 1, 1.0, 0, LC_CALIB_FEW_RUNS);	/* one baseline run */
	recommend(r, 2, 0.0, 3, 1.0, 0, 0);
	/* nothing measured; a row without a finite overhead is skipped */
	refused(r, 0, 0.0, 3, 1.0, 0, LC_CALIB_NO_ROWS);
	r[0].overhead = NAN;
	recommend(r, 2, 0.0, 3, 1.0, 0, 1);
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_noisy_machine), LC_T(test_quiet_machine), LC_T(test_over_budget),
	     LC_T(test_negative_noise), LC_T(test_busy_wait), LC_T(test_few_runs))
