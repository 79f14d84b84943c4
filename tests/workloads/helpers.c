/*
 * helpers — a program with helper threads, as pigz has: W workers compute
 * (spin, never blocking) for MS milliseconds each while H helper threads
 * wait on a condition marked SYNC, inside one parallel region, with
 * LC_TEAM(W).  The helpers could not have used a processor, so the truth is
 * that the W slots computed the whole time: pure computation (plus run-queue
 * time where the workers shared a CPU) is the workers' busy time, and
 * synchronization loss is zero.
 *
 *	helpers W H MS [idle]
 *
 * With "idle" the helpers are idle pool threads (LC_IDLE) instead: the same
 * truth, since an idle thread claims a slot only after every other thread.
 * Prints "worker TID BUSY_WALL_NS CPU_NS" per worker: its busy wall time and
 * its own CPU time (CLOCK_THREAD_CPUTIME_ID), the kernel's on-CPU time; the
 * difference is the time it waited for a CPU.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lostcycles.h"
#include "wl_clock.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;
static uint64_t ms;
static int pool;

static void *worker(void *arg)
{
	uint64_t t0 = now_ns(), end = t0 + ms * 1000000ull;
	uint64_t c0 = clock_of(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t sink = 0;

	(void)arg;
	LC_BUSY();
	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
	LC_IDLE();
	printf("worker %ld %llu %llu\n", (long)syscall(SYS_gettid),
	       (unsigned long long)(now_ns() - t0),
	       (unsigned long long)(clock_of(CLOCK_THREAD_CPUTIME_ID) - c0));
	return NULL;
}

static void *helper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	if (pool)
		LC_IDLE();
	else
		LC_SYNC_BEGIN();
	while (!done)
		pthread_cond_wait(&cv, &mu);
	if (!pool)
		LC_SYNC_END();
	LC_IDLE();
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w[32], h[32];
	int nw, nh;

	if (argc < 4 || argc > 5 || (nw = atoi(argv[1])) < 1 || nw > 32 || (nh = atoi(argv[2])) < 0 ||
	    nh > 32 || atoi(argv[3]) < 1) {
		fprintf(stderr, "usage: helpers W H MS [idle]\n");
		return 2;
	}
	ms = (uint64_t)atoi(argv[3]);
	pool = argc == 5;
	setvbuf(stdout, NULL, _IOLBF, 0);
	LC_TEAM(nw);
	LC_PARALLEL_BEGIN();
	LC_SYNC_BEGIN();	/* the main thread waits for the workers too */
	for (int i = 0; i < nh; i++)
		pthread_create(&h[i], NULL, helper, NULL);
	for (int i = 0; i < nw; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 0; i < nw; i++)
		pthread_join(w[i], NULL);
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < nh; i++)
		pthread_join(h[i], NULL);
	LC_SYNC_END();
	LC_PARALLEL_END();
	LC_IDLE();
	return 0;
}
