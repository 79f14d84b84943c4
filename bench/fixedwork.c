/*
 * fixedwork.c — a fixed amount of arithmetic on two threads, flagging
 * BUSY/IDLE around every chunk: its wall time grows with anything that slows
 * the program (the sampler's CPU use, flag-store cost), unlike the
 * ground-truth workloads, whose phases are timed.
 *
 * Usage: fixedwork [CHUNKS [THREADS]]   (prints its own wall time in ms;
 * THREADS defaults to 2, at most 64)
 */
#include <stdio.h>
#include <stdlib.h>

#include "lostcycles.h"
#include "team.h"

static long chunks = 4000;
static __thread volatile double sink;	/* per thread: keeps the work from being optimised out */

/* One thread's share: chunks of ~50 us of arithmetic, each flagged. */
static void *work(void *arg)
{
	double x = 1.0 + (double)(long)arg;

	for (long c = 0; c < chunks; c++) {
		LC_BUSY();
		x = lc_bench_spin(x, 20000);
		LC_IDLE();
	}
	sink += x;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = 2;
	double ms;
	int rc = lc_bench_main(argc, argv, "fixedwork [CHUNKS [THREADS]]", &chunks, &n, work, &ms);

	if (!rc)
		printf("fixedwork: %ld chunks on %ld threads: %.1f ms\n", chunks, n, ms);
	return rc;
}
