/*
 * omp_start — an unmodified OpenMP program (no lostcycles macros) whose
 * serial set-up runs before its first OpenMP call, as NPB is.B generates
 * its keys: it computes for SECONDS (default 1.5) on the main thread, then
 * runs one balanced parallel region of 0.3 s per thread.  The OpenMP
 * runtime, and with it the OMPT tool, start only at that region, so only a
 * layer that marks the main thread BUSY from the program's start charges
 * the set-up as computation of one processor and insufficient parallelism
 * of the other p - 1.
 *
 * The computation spins on the CPU (a balanced region ends when each
 * thread has spun 0.3 s of wall time).  Prints what the program measured:
 *   truth p=P serial=SETUP_S ip=(P-1)*SETUP_S wall=MAIN_DURATION
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "layer_wl.h"

static volatile unsigned long sink;

/* CLOCK_MONOTONIC in seconds. */
static double secs_now(void)
{
	return (double)now() / 1e9;
}

/* Compute for s seconds of wall time. */
static void spin(double s)
{
	double t0 = secs_now();

	while (secs_now() - t0 < s)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.5, t0 = secs_now(), serial;
	int p = 1;

	if (secs < 0 || secs > 60) {
		fprintf(stderr, "usage: omp_start [SECONDS]\n");
		return 2;
	}
	spin(secs);		/* serial set-up: no OpenMP call yet */
	serial = secs_now() - t0;
#pragma omp parallel
	{
#pragma omp single
		p = omp_get_num_threads();
		spin(0.3);
	}
	printf("truth p=%d serial=%.6f ip=%.6f wall=%.6f\n", p, serial, (p - 1) * serial,
	       secs_now() - t0);
	return 0;
}
