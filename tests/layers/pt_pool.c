/*
 * pt_pool — an unmodified pthread program of fixed work (no lostcycles
 * macros) for the sampler's cost rows of "make bench": a pool of THREADS
 * workers (default: the CPUs this process may use) takes TASKS tasks of
 * about the same arithmetic from a queue under a mutex and condition
 * variable, as a thread pool does.
 *
 *   pt_pool [TASKS [THREADS [WORK]]]   (defaults 4000, the CPUs, 50000)
 *
 * Prints "wall=SECONDS cpu=CPU_SECONDS p=THREADS checksum=X" (see
 * omp_stencil.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixed_wl.h"

#define MAX_THREADS 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static long queued, taken, work = 50000;
static int closed;
static double total;

/* Take a task; 0 when the queue is closed and empty. */
static int take(void)
{
	int got;

	pthread_mutex_lock(&lock);
	while (taken == queued && !closed)
		pthread_cond_wait(&more, &lock);
	got = taken < queued;
	taken += got;
	pthread_mutex_unlock(&lock);
	return got;
}

/* Queue one task, or (last) close the queue: every waiting worker wakes. */
static void put(int last)
{
	pthread_mutex_lock(&lock);
	if (last) {
		closed = 1;
		pthread_cond_broadcast(&more);
	} else {
		queued++;
		pthread_cond_signal(&more);
	}
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	double x = 1.0 + (double)(long)arg, mine = 0;

	while (take()) {
		for (long i = 0; i < work; i++)
			x = x * 1.0000001 + 1e-9;
		mine += x;
	}
	pthread_mutex_lock(&lock);
	total += mine;
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* The CPUs this process may use. */
static long cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

int main(int argc, char **argv)
{
	long tasks = argc > 1 ? strtol(argv[1], NULL, 10) : 4000;
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : cpus();
	pthread_t t[MAX_THREADS];
	double w0 = fw_wall();

	work = argc > 3 ? strtol(argv[3], NULL, 10) : work;
	if (tasks < 1 || n < 1 || n > MAX_THREADS || work < 1) {
		fprintf(stderr, "usage: pt_pool [TASKS [THREADS [WORK]]]\n");
		return 2;
	}
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i)) {
			fprintf(stderr, "pt_pool: cannot start thread %ld\n", i);
			return 1;
		}
	for (long k = 0; k < tasks; k++)	/* hand the tasks out one by one */
		put(0);
	put(1);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	fw_report(w0, n, total);
	return 0;
}
