/*
 * fixedwork.c — a fixed amount of arithmetic on two threads, flagging
 * BUSY/IDLE around every chunk: its wall time grows with anything that slows
 * the program (the sampler's CPU use, flag-store cost), unlike the
 * ground-truth workloads, whose phases are timed.
 *
 * Usage: fixedwork [CHUNKS [THREADS]]   (prints its own wall time in ms;
 * THREADS defaults to 2, at most 64)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lostcycles.h"

static long chunks = 4000;
static volatile double sink;

/* One thread's share: chunks of ~50 us of arithmetic, each flagged. */
static void *work(void *arg)
{
	double x = 1.0 + (double)(long)arg;

	for (long c = 0; c < chunks; c++) {
		LC_BUSY();
		for (int i = 0; i < 20000; i++)
			x = x * 1.0000001 + 1e-9;
		LC_IDLE();
	}
	sink += x;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	struct timespec a, b;
	long n = 2;

	if ((argc > 1 && (chunks = strtol(argv[1], NULL, 10)) <= 0) ||
	    (argc > 2 && ((n = strtol(argv[2], NULL, 10)) < 1 || n > 64))) {
		fprintf(stderr, "usage: fixedwork [CHUNKS [THREADS]]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	LC_TEAM((uint32_t)n);
	LC_PARALLEL_BEGIN();
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i)) {
			perror("fixedwork: pthread_create");
			return 1;
		}
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	LC_PARALLEL_END();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("fixedwork: %ld chunks on %ld threads: %.1f ms\n", chunks, n,
	       (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
	return 0;
}
