/*
 * omp_where — an unmodified OpenMP program (no lostcycles macros) with a
 * balanced loop in one function and a skewed loop in another (called in
 * parallel regions of a third), for
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
	double idle[2];		/* skewed, balanced */
	char pad[48];
};

static struct acc acc[MAXT];

/* The skewed loop (an orphaned worksharing construct: it binds to the
 * caller's region): the first half of the iterations costs 3 ms, the
 * second half 1 ms, so with schedule(static) the thread of the second half
 * waits at the barrier.  *last: when this thread's last iteration ended. */
static void skewed(unsigned long long *last)
{
#pragma omp for schedule(static)
	for (int i = 0; i < NITER; i++) {
		work(i < NITER / 2 ? 3 : 1);
		*last = now();
	}
}

/* The balanced loop: every iteration costs 2 ms. */
static void balanced(unsigned long long *last)
{
#pragma omp for schedule(static)
	for (int i = 0; i < NITER; i++) {
		work(2);
		*last = now();
	}
}

/* ROUNDS rounds of loop in one parallel region; each thread adds its time
 * from its last iteration to the end of the loop's barrier to idle[k]. */
static void rounds(void (*loop)(unsigned long long *), int k)
{
#pragma omp parallel
	{
		int me = omp_get_thread_num();

		for (int r = 0; r < ROUNDS; r++) {
			unsigned long long last = now();

			loop(&last);
			acc[me].idle[k] += (double)(now() - last) / 1e9;
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
	rounds(balanced, 1);
	rounds(skewed, 0);
	for (int i = 0; i < MAXT; i++) {
		s += acc[i].idle[0];
		b += acc[i].idle[1];
	}
	printf("truth p=%d li_skewed=%.6f li_balanced=%.6f wall=%.6f\n", p, s, b,
	       (double)(now() - t0) / 1e9);
	return 0;
}
