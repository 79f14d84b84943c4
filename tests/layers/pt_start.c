/*
 * pt_start — an unmodified pthread program (no lostcycles macros) whose
 * serial set-up runs before its first pthread call: it computes for
 * SECONDS (default 1.5) on the main thread, then runs two threads that
 * compute 0.3 s each while the main thread joins them.  Only a layer that
 * marks the main thread BUSY from the program's start charges the set-up
 * as computation of one processor and insufficient parallelism of the
 * other p - 1 (p = 2: the two workers, or LC_TEAM from record -p).
 *
 * Prints what the program measured:
 *   truth p=2 serial=SETUP_S ip=SETUP_S wall=MAIN_DURATION
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "layer_wl.h"

#define NT 2

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

static void *worker(void *arg)
{
	(void)arg;
	spin(0.3);
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.5, t0 = secs_now(), serial;
	pthread_t t[NT];

	if (secs < 0 || secs > 60) {
		fprintf(stderr, "usage: pt_start [SECONDS]\n");
		return 2;
	}
	spin(secs);		/* serial set-up: no pthread call yet */
	serial = secs_now() - t0;
	for (int i = 0; i < NT; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	printf("truth p=%d serial=%.6f ip=%.6f wall=%.6f\n", NT, serial, (NT - 1) * serial,
	       secs_now() - t0);
	return 0;
}
