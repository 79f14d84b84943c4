/*
 * bench_search.c — the larger sweep behind tests/test_search.c: the
 * generators of tests/search_gen.h with more seeds and noise levels.
 * Prints recovery rates and prediction errors; asserts nothing.
 *
 * Usage: bench_search [SEEDS]   (default 50; 10 is what make check runs)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../tests/search_gen.h"

int main(int argc, char **argv)
{
	static const double noise[] = { 0.01, 0.02, 0.05, 0.10 };
	int seeds = argc > 1 ? atoi(argv[1]) : 50;

	if (seeds < 1 || seeds > 100000) {
		fprintf(stderr, "usage: bench_search [SEEDS]\n");
		return 2;
	}
	for (int i = 0; i < 4; i++) {
		struct gen1_result a, b;

		rng_seed(5000 + (uint64_t)i);
		gen1_run(0, noise[i], seeds, LC_FIT_RELATIVE, &a);
		gen1_run(1, noise[i], seeds, LC_FIT_RELATIVE, &b);
		printf("56 forms x %d seeds at %3.0f%% noise: design A %.1f%%, design B %.1f%%\n", seeds,
		       100 * noise[i], 100.0 * a.first / a.cases, 100.0 * b.first / b.cases);
	}
	for (int i = 0; i < 4; i++) {
		struct gen2_result r;
		double goal = noise[i] <= 0.01 ? 5 : 15;

		rng_seed(6000 + (uint64_t)i);
		gen2_run(noise[i], 4 * seeds, LC_FIT_RELATIVE, goal, &r);
		printf("a*n*log2(n)/p + b*n x %d seeds at %3.0f%% noise: true form first %.1f%%, "
		       "predictions at 4x n, p within %.0f%% in %.1f%%, largest error %.1f%%\n",
		       r.cases, 100 * noise[i], 100.0 * r.first / r.cases, goal,
		       100.0 * r.within / r.cases, r.maxerr);
	}
	return 0;
}
