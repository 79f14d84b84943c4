/*
 * omp_balanced — an unmodified, balanced OpenMP program (no lostcycles
 * macros), the balanced control of the advice tests: ROUNDS parallel
 * regions, each a schedule(static) loop whose iterations all cost the same,
 * so that every thread gets the same work, then the region's barrier.
 *
 *   omp_balanced [ROUNDS [ITERS]]   (defaults 40, 20000000 iterations a round)
 *
 * Prints "truth p=THREADS cpu=CPU_SECONDS wall=SECONDS".
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 40;
	long iters = argc > 2 ? strtol(argv[2], NULL, 10) : 20000000;
	double w0 = now(CLOCK_MONOTONIC), sum = 0;
	int p = 1;

	if (rounds < 1 || iters < 1) {
		fprintf(stderr, "usage: omp_balanced [ROUNDS [ITERS]]\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
#pragma omp parallel reduction(+ : sum)
		{
			long nt = omp_get_num_threads(), me = omp_get_thread_num();
			double x = 1.0;

			if (!me)
				p = (int)nt;
			/* the same share of iterations for every thread */
			for (long i = me; i < iters; i += nt)
				x = x * 1.0000001 + 1e-9;
			sum += x;
		}
	}
	printf("truth p=%d cpu=%.6f wall=%.6f sum=%g\n", p, now(CLOCK_PROCESS_CPUTIME_ID),
	       now(CLOCK_MONOTONIC) - w0, sum);
	return 0;
}
