/*
 * team.h — the team of the bench workloads (fixedwork, syncwork): n threads
 * run work((void *)i) inside one parallel region of LC_TEAM(n), timed on
 * the monotonic clock; and their operands.
 */
#ifndef LC_BENCH_TEAM_H
#define LC_BENCH_TEAM_H

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lostcycles.h"

/* n steps of the workloads' arithmetic from x: the flagged work. */
static inline double lc_bench_spin(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

/* The operands [COUNT [THREADS]] of a team workload: COUNT (1 or more)
 * into *count and THREADS (1..64) into *n, each left as it is when absent.
 * 0, or -1 after the line "usage: USAGE" on stderr. */
static inline int lc_bench_args(int argc, char **argv, const char *usage, long *count, long *n)
{
	if ((argc > 1 && (*count = strtol(argv[1], NULL, 10)) <= 0) ||
	    (argc > 2 && ((*n = strtol(argv[2], NULL, 10)) < 1 || *n > 64))) {
		fprintf(stderr, "usage: %s\n", usage);
		return -1;
	}
	return 0;
}

/* Run n (1..64) threads of work; returns the region's wall time in ms, or
 * -1 after a message naming prog when a thread cannot start. */
static inline double lc_bench_team(const char *prog, long n, void *(*work)(void *))
{
	pthread_t t[64];
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	LC_TEAM((uint32_t)n);
	LC_PARALLEL_BEGIN();
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i)) {
			fprintf(stderr, "%s: cannot start thread %ld\n", prog, i);
			return -1;
		}
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	LC_PARALLEL_END();
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

/* A team workload's main: its operands (usage as lc_bench_args), then n
 * threads of work timed into *ms.  0, 2 (bad operands) or 1 (a thread
 * could not start), the workload's exit status. */
static inline int lc_bench_main(int argc, char **argv, const char *usage, long *count, long *n,
				void *(*work)(void *), double *ms)
{
	if (lc_bench_args(argc, argv, usage, count, n))
		return 2;
	*ms = lc_bench_team(argv[0], *n, work);
	return *ms < 0;
}

#endif
