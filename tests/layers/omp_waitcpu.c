/*
 * omp_waitcpu — an unmodified, balanced OpenMP program (no lostcycles
 * macros) for the test of resource contention on a busy machine
 * (t_busy.sh): REGIONS parallel loops, each giving every thread the same
 * number of iterations of the same CPU-bound work (schedule(static)), each
 * ending at the loop's implicit barrier.  Alone on its CPUs it loses almost
 * nothing; beside other programs, what it loses is waiting for a CPU.
 *
 *   omp_waitcpu REGIONS ITERS_PER_THREAD
 *
 * Prints, in seconds summed over its threads:
 *   truth p=P cpu=THREADS'_CPU_TIME_IN_REGIONS wall=MAIN_DURATION
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "layer_wl.h"

#define MAXT 64

static double cpu_of[MAXT];

/* One iteration: a fixed amount of arithmetic (~0.2 ms). */
static double iterate(double x)
{
	for (int i = 0; i < 200000; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	int regions = argc > 1 ? atoi(argv[1]) : 20;
	int iters = argc > 2 ? atoi(argv[2]) : 100, p = 1;
	double t0 = lw_clock(CLOCK_MONOTONIC), sink = 0, cpu = 0;

	if (regions <= 0 || iters <= 0) {
		fprintf(stderr, "usage: omp_waitcpu REGIONS ITERS_PER_THREAD\n");
		return 2;
	}
	for (int r = 0; r < regions; r++) {
#pragma omp parallel reduction(+ : sink)
		{
			int t = omp_get_thread_num(), n = omp_get_num_threads();
			double c0 = lw_clock(CLOCK_THREAD_CPUTIME_ID);

#pragma omp for schedule(static)
			for (int i = 0; i < iters * n; i++)
				sink += iterate((double)i);
			if (t < MAXT)
				cpu_of[t] += lw_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
#pragma omp single nowait
			p = n;
		}
	}
	for (int t = 0; t < p && t < MAXT; t++)
		cpu += cpu_of[t];
	printf("truth p=%d cpu=%.6f wall=%.6f sink=%g\n", p, cpu, lw_clock(CLOCK_MONOTONIC) - t0,
	       sink > 0 ? 1.0 : 0.0);
	return 0;
}
