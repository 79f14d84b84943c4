/*
 * team.h — the team of the bench workloads (fixedwork, syncwork): n threads
 * run work((void *)i) inside one parallel region of LC_TEAM(n), timed on
 * the monotonic clock.
 */
#ifndef LC_BENCH_TEAM_H
#define LC_BENCH_TEAM_H

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#include "lostcycles.h"

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

#endif
