/*
 * syncwork.c — a synchronization-heavy workload of fixed size: every
 * iteration is ~2 us of flagged arithmetic, then a mutex taken inside
 * LC_SYNC_BEGIN_ON/LC_SYNC_END and a short critical section: four state
 * changes per iteration, well over 100 k per second per thread.  Its wall
 * time grows with anything that slows the program (the pair of fixedwork.c,
 * which changes state only every ~50 us).
 *
 * Usage: syncwork [ITERATIONS [THREADS]]   (prints its own wall time in ms
 * and its state changes per second per thread; THREADS defaults to 1, at
 * most 64)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lostcycles.h"
#include "team.h"

static long iters = 100000;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile double shared;
static __thread volatile double sink;	/* per thread: keeps the work from being optimised out */

/* One thread's share of the iterations. */
static void *work(void *arg)
{
	double x = 1.0 + (double)(long)arg;

	for (long k = 0; k < iters; k++) {
		LC_BUSY();
		x = lc_bench_spin(x, 800);
		LC_SYNC_BEGIN_ON(&lock);
		pthread_mutex_lock(&lock);
		LC_SYNC_END();
		shared += x;
		pthread_mutex_unlock(&lock);
		LC_IDLE();
	}
	sink += x;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = 1;
	double ms;
	int rc;

	LC_NAME(&lock, "syncwork lock");
	rc = lc_bench_main(argc, argv, "syncwork [ITERATIONS [THREADS]]", &iters, &n, work, &ms);
	if (!rc)
		printf("syncwork: %ld iterations on %ld threads, %.0f state changes/s/thread: "
		       "%.1f ms\n", iters, n, 4e3 * (double)iters / ms, ms);
	return rc;
}
