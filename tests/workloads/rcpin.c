/*
 * rcpin — ground truth for resource contention from the scheduler.
 *
 *	rcpin N CPU_MS [CPU]
 *
 * N threads, all pinned to CPU (default 0), each BUSY inside one parallel
 * region until it has used CPU_MS of CPU time, computing all the while (it
 * never blocks).  So a thread's time in the run queue is exactly its busy
 * wall time minus its CPU time.  Each thread prints one line
 *	thread TID BUSY_WALL_NS CPU_NS
 * measured with CLOCK_MONOTONIC and CLOCK_THREAD_CPUTIME_ID.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lostcycles.h"
#include "wl_clock.h"

static uint64_t cpu_ns_goal;
static int cpu;
static pthread_barrier_t start;

static void *worker(void *arg)
{
	cpu_set_t set;
	uint64_t w0, c0, c;
	volatile uint64_t sink = 0;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "rcpin: cannot pin to CPU %d\n", cpu);
		exit(1);
	}
	pthread_barrier_wait(&start);
	w0 = clock_of(CLOCK_MONOTONIC);
	c0 = clock_of(CLOCK_THREAD_CPUTIME_ID);
	LC_BUSY();
	do {
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i * i;
		c = clock_of(CLOCK_THREAD_CPUTIME_ID);
	} while (c - c0 < cpu_ns_goal);
	LC_IDLE();
	printf("thread %ld %llu %llu\n", (long)syscall(SYS_gettid),
	       (unsigned long long)(clock_of(CLOCK_MONOTONIC) - w0),
	       (unsigned long long)(clock_of(CLOCK_THREAD_CPUTIME_ID) - c0));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	int n;

	if (argc < 3 || (n = atoi(argv[1])) < 1 || n > 64 || atoi(argv[2]) < 1) {
		fprintf(stderr, "usage: rcpin N CPU_MS [CPU]\n");
		return 2;
	}
	cpu_ns_goal = (uint64_t)atoi(argv[2]) * 1000000ull;
	cpu = argc > 3 ? atoi(argv[3]) : 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	LC_TEAM(n);
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	LC_PARALLEL_BEGIN();
	LC_IDLE();
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			fprintf(stderr, "rcpin: pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&start);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	LC_PARALLEL_END();
	return 0;
}
