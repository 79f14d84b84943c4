/*
 * pt_balanced — an unmodified, balanced pthread program (no lostcycles
 * macros), the balanced control of the advice tests: THREADS threads
 * (default 2) each compute the same number of iterations per round and
 * meet at a barrier after every round.
 *
 *   pt_balanced [THREADS [ROUNDS [ITERS]]]
 *
 * Prints "truth p=THREADS cpu=CPU_SECONDS_OF_ITS_THREADS wall=SECONDS".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t bar;
static long rounds = 40, iters = 25000000;
static volatile double sink;

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The same work for every thread in every round. */
static void *member(void *arg)
{
	double x = 1.0;

	(void)arg;
	for (long r = 0; r < rounds; r++) {
		for (long i = 0; i < iters; i++)
			x = x * 1.0000001 + 1e-9;
		pthread_barrier_wait(&bar);
	}
	__atomic_store(&sink, &x, __ATOMIC_RELAXED);	/* every thread writes it */
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2;
	pthread_t t[64];
	double w0 = now(CLOCK_MONOTONIC), w1;

	if (argc > 2)
		rounds = strtol(argv[2], NULL, 10);
	if (argc > 3)
		iters = strtol(argv[3], NULL, 10);
	if (n < 1 || n > 64 || rounds < 1 || iters < 1) {
		fprintf(stderr, "usage: pt_balanced [THREADS(1-64) [ROUNDS [ITERS]]]\n");
		return 2;
	}
	pthread_barrier_init(&bar, NULL, (unsigned)n);
	for (long i = 1; i < n; i++)
		if (pthread_create(&t[i], NULL, member, NULL)) {
			perror("pthread_create");
			return 1;
		}
	member(NULL);
	for (long i = 1; i < n; i++)
		pthread_join(t[i], NULL);
	w1 = now(CLOCK_MONOTONIC);
	printf("truth p=%ld cpu=%.6f wall=%.6f\n", n, now(CLOCK_PROCESS_CPUTIME_ID), w1 - w0);
	return 0;
}
