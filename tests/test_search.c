/*
 * test_search.c — model selection under noise, with the generators of
 * search_gen.h: the 56 single-variable forms x 2 designs x 10 seeds, and
 * strong scaling a*n*log2(n)/p + b*n found by the two-variable search.
 * Prints the recovery rates and prediction errors; asserts the goals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "lc_test.h"
#include "search_gen.h"

/* The 56 forms, designs A and B, 10 seeds each: >= 99 % at 1 % noise and
 * >= 80 % at 5 %, with the default (relative) fit. */
static void test_single_variable(void **state)
{
	static const double noise[] = { 0.01, 0.05 };
	static const double goal[] = { 0.99, 0.80 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct gen1_result a, b;

		rng_seed(1000 + (uint64_t)i);
		gen1_run(0, noise[i], 10, LC_FIT_RELATIVE, &a);
		gen1_run(1, noise[i], 10, LC_FIT_RELATIVE, &b);
		printf("56 forms at %2.0f%% noise: design A %d/%d (%.1f%%), design B %d/%d (%.1f%%), "
		       "together %.1f%% (goal %.0f%%)\n", 100 * noise[i], a.first, a.cases,
		       100.0 * a.first / a.cases, b.first, b.cases, 100.0 * b.first / b.cases,
		       100.0 * (a.first + b.first) / (a.cases + b.cases), 100 * goal[i]);
		assert_int_equal(a.cases + b.cases, 2 * 56 * 10);
		assert_true(a.first + b.first >= goal[i] * (a.cases + b.cases));
	}
}

/* Strong scaling over a 5 x 5 grid: the true form first in >= 90 % of 20
 * seeded cases at 1 % noise, and the unmeasured points predicted within 5 %
 * (1 % noise) and 15 % (5 % noise) in >= 90 % of the cases. */
static void test_strong_scaling(void **state)
{
	static const double noise[] = { 0.01, 0.05 }, goal[] = { 5, 15 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct gen2_result r;

		rng_seed(2000 + (uint64_t)i);
		gen2_run(noise[i], 20, LC_FIT_RELATIVE, goal[i], &r);
		printf("a*n*log2(n)/p + b*n at %2.0f%% noise: true form first in %d/%d (%.0f%%); "
		       "predictions at 4x n and p within %.0f%% in %d/%d, largest error %.2f%%\n",
		       100 * noise[i], r.first, r.cases, 100.0 * r.first / r.cases, goal[i], r.within,
		       r.cases, r.maxerr);
		if (i == 0)
			assert_true(r.first >= 0.9 * r.cases);
		assert_true(r.within >= 0.9 * r.cases);
	}
}

LC_TEST_MAIN(NULL, NULL,
	     LC_T(test_single_variable), LC_T(test_strong_scaling))
