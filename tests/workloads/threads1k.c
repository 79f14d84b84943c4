/*
 * threads1k.c — more threads than a segment has slots: N threads (default
 * 1000) each flag themselves BUSY and compute for MS milliseconds of their
 * own CPU time (default 20), then stay alive, IDLE, until every thread has
 * computed, so that all N are alive at once.  With the default 256 slots,
 * N - 256 of them get no slot.
 *
 * Prints "threads N" and "cpu_ns T" (the whole process's CPU time,
 * CLOCK_PROCESS_CPUTIME_ID) on stdout, for the test to judge by.
 *
 * Usage: threads1k [N [MS]]
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"
#include "wl_args.h"

static pthread_barrier_t all_done;
static uint64_t work_ns;
static double sink_total;
static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t cpu_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Compute for work_ns of this thread's CPU time, then wait for the others. */
static void *thread_main(void *arg)
{
	uint64_t end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + work_ns;
	double x = 1.0;

	(void)arg;
	LC_BUSY();
	while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	LC_IDLE();
	pthread_mutex_lock(&sink_lock);
	sink_total += x;
	pthread_mutex_unlock(&sink_lock);
	pthread_barrier_wait(&all_done);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = wl_arg_num("threads1k", argc > 1 ? argv[1] : NULL, 1000, 10000);
	pthread_t *th = calloc(n, sizeof(*th));
	pthread_attr_t at;
	int e;

	work_ns = wl_arg_num("threads1k", argc > 2 ? argv[2] : NULL, 20, 100000) * 1000000ull;
	if (!th || pthread_barrier_init(&all_done, NULL, (unsigned)n) ||
	    pthread_attr_init(&at) || pthread_attr_setstacksize(&at, 64 * 1024)) {
		fprintf(stderr, "threads1k: out of memory\n");
		return 1;
	}
	for (unsigned long i = 0; i < n; i++)
		if ((e = pthread_create(&th[i], &at, thread_main, NULL))) {
			fprintf(stderr, "threads1k: thread %lu: %s\n", i, strerror(e));
			return 1;
		}
	for (unsigned long i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("threads %lu\ncpu_ns %llu\n", n,
	       (unsigned long long)cpu_ns(CLOCK_PROCESS_CPUTIME_ID));
	free(th);
	return sink_total > 0 ? 0 : 1;
}
