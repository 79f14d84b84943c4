/*
 * manythreads.c — many flagged threads that the sampler must read every
 * tick and that cost little CPU: PROCS processes of THREADS/PROCS threads
 * each; every thread computes ~10 us flagged BUSY every 10 ms and sleeps
 * IDLE in between, for SECONDS.  The processes stay on the first allowed
 * CPU, so that the sampler (pinned to the last) keeps a CPU of its own.
 *
 * Usage: manythreads THREADS PROCS SECONDS
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lostcycles.h"

static double seconds;
static __thread volatile double sink;	/* per thread: keeps the work from being optimised out */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Compute briefly, sleep 10 ms, until the deadline. */
static void *work(void *arg)
{
	double end = *(const double *)arg, x = 1.0;
	struct timespec nap = { 0, 10000000 };

	while (now_s() < end) {
		LC_BUSY();
		for (int i = 0; i < 4000; i++)
			x = x * 1.0000001 + 1e-9;
		LC_IDLE();
		nanosleep(&nap, NULL);
	}
	sink += x;
	return NULL;
}

/* One process: n threads until the deadline. */
static int process(long n, double end)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t)
		return 1;
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, &end)) {
			perror("manythreads: pthread_create");
			return 1;
		}
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}

/* Keep this process and its children on the first allowed CPU. */
static void first_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_ZERO(&set);
			CPU_SET(c, &set);
			sched_setaffinity(0, sizeof(set), &set);
			return;
		}
}

int main(int argc, char **argv)
{
	long threads, procs;
	double end;
	int rc = 0;

	if (argc != 4 || (threads = strtol(argv[1], NULL, 10)) < 1 ||
	    (procs = strtol(argv[2], NULL, 10)) < 1 || procs > threads ||
	    (seconds = strtod(argv[3], NULL)) <= 0) {
		fprintf(stderr, "usage: manythreads THREADS PROCS SECONDS\n");
		return 2;
	}
	first_cpu();
	end = now_s() + seconds;
	for (long p = 0; p < procs; p++) {
		long n = threads / procs + (p < threads % procs);
		pid_t pid = fork();

		if (pid < 0) {
			perror("manythreads: fork");
			return 1;
		}
		if (pid == 0)
			_exit(process(n, end));
	}
	for (long p = 0; p < procs; p++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	return rc;
}
