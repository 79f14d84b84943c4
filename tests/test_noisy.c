/*
 * test_noisy.c — predictions from noisy single-variable runs (noisy_gen.h):
 * Gaussian noise of 5 % of each value, 3-5 repeats at p = 2..64, the
 * prediction at 4-16 times the largest p within 15 % in >= 75 % of the
 * cases of a fixed-seed sample.
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
	assert_true(variant("default (median, range to the prediction)", 0.05, 3,
			    LC_POINTS_DEFAULT, 2) >= 0.75);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noisy_goal),
	};
	int seeds = argc > 1 ? atoi(argv[1]) : 0;
	double sigma = argc > 2 ? atof(argv[2]) : 0.05;

	if (seeds <= 0)
		return cmocka_run_group_tests(tests, NULL, NULL);
	noisy_sflags = argc > 3 && atoi(argv[3]) ? LC_SEARCH_NEGATIVE : 0;
	noisy_share_lo = argc > 4 ? atof(argv[4]) : 0;
	noisy_oracle = getenv("NOISY_ORACLE") != NULL;
	noisy_verbose = getenv("NOISY_VERBOSE") ? atoi(getenv("NOISY_VERBOSE")) : 0;
	variant("mean, no range check", sigma, seeds, LC_POINTS_MEAN, 0);
	variant("mean, measured range", sigma, seeds, LC_POINTS_MEAN, 1);
	variant("mean, range to the prediction", sigma, seeds, LC_POINTS_MEAN, 2);
	variant("median, range to the prediction", sigma, seeds, LC_POINTS_MEDIAN, 2);
	variant("default", sigma, seeds, LC_POINTS_DEFAULT, 2);
	return 0;
}
