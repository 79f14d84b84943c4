/*
 * omp_stencil — an unmodified OpenMP program of fixed work (no lostcycles
 * macros) for the sampler's cost rows of "make bench": STEPS Jacobi sweeps
 * of an N x N grid, each a schedule(static) loop over every thread of the
 * team and its barrier, so that a thread the sampler preempts delays the
 * whole team at the next barrier.
 *
 *   omp_stencil [STEPS [N]]   (defaults 2000, 512)
 *
 * Prints "wall=SECONDS cpu=CPU_SECONDS p=THREADS checksum=X": its own wall
 * time and its own CPU time (getrusage), from which the bench takes the
 * slowdown and, beside record's CPU time, the sampler's.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixed_wl.h"

/* One sweep of a into b (the border stays). */
static void sweep(const double *a, double *b, long n)
{
#pragma omp for schedule(static)
	for (long i = 1; i < n - 1; i++)
		for (long j = 1; j < n - 1; j++)
			b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
					       a[i * n + j - 1] + a[i * n + j + 1]);
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 512;
	double *a, *b, w0 = fw_wall(), sum = 0;
	int p = 1;

	if (steps < 1 || n < 3 || n > 16384) {
		fprintf(stderr, "usage: omp_stencil [STEPS [N]]\n");
		return 2;
	}
	a = calloc((size_t)(n * n), sizeof(*a));
	b = calloc((size_t)(n * n), sizeof(*b));
	if (!a || !b) {
		fprintf(stderr, "omp_stencil: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++)
		a[i] = b[i] = 1.0;	/* a hot top edge */
#pragma omp parallel
	{
#pragma omp single
		p = omp_get_num_threads();
		for (long s = 0; s < steps; s++)
			sweep(s % 2 ? b : a, s % 2 ? a : b, n);
	}
	for (long i = 0; i < n * n; i++)
		sum += a[i];
	fw_report(w0, p, sum);
	free(a);
	free(b);
	return 0;
}
