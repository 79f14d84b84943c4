/*
 * omp_where — an unmodified OpenMP program (no lostcycles macros) with a
 * balanced loop in one function and a skewed loop in another, for
 * tests/t_where.sh: report --where must rank the skewed loop's place first
 * by load imbalance.  Each thread measures its own idle time at each loop's
 * implicit barrier (from its last iteration to the end of the loop).
 * Prints, in seconds summed over the threads:
 *   truth p=P li_skewed=IDLE li_balanced=IDLE wall=MAIN_DURATION
 */
#include <omp.h>
#include <stdio.h>
#include "layer_wl.h"

#define ROUNDS 30
#define NITER 8
#define MAXT 64

struct acc {
	double skewed, balanced;
	char pad[48];
};

static struct acc acc[MAXT];

/* Every iteration costs 2 ms: no thread waits long at the barrier. */
static void balanced(void)
{
#pragma omp parallel
	{
		int me = omp_get_thread_num();

		for (int r = 0; r < ROUNDS; r++) {
			unsigned long long last = now();

#pragma omp for schedule(static)
			for (int i = 0; i < NITER; i++) {
				work(2);
				last = now();
			}
			acc[me].balanced += (double)(now() - last) / 1e9;
		}
	}
}

/* The first half of the iterations costs 3 ms, the second half 1 ms: with
 * schedule(static) the thread of the second half waits at the barrier. */
static void skewed(void)
{
#pragma omp parallel
	{
		int me = omp_get_thread_num();

		for (int r = 0; r < ROUNDS; r++) {
			unsigned long long last = now();

#pragma omp for schedule(static)
			for (int i = 0; i < NITER; i++) {
				work(i < NITER / 2 ? 3 : 1);
				last = now();
			}
			acc[me].skewed += (double)(now() - last) / 1e9;
		}
	}
}

int main(void)
{
	unsigned long long t0 = now();
	double s = 0, b = 0;
	int p = omp_get_max_threads();

	if (p > MAXT)
		p = MAXT;
	balanced();
	skewed();
	for (int i = 0; i < MAXT; i++) {
		s += acc[i].skewed;
		b += acc[i].balanced;
	}
	printf("truth p=%d li_skewed=%.6f li_balanced=%.6f wall=%.6f\n", p, s, b,
	       (double)(now() - t0) / 1e9);
	return 0;
}
