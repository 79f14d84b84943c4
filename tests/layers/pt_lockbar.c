/*
 * pt_lockbar — an unmodified pthread program (no lostcycles macros) that
 * measures its own waits, for the pthread layer's ground-truth test.
 *
 *   pt_lockbar contended    two threads share a mutex (work 1 ms, lock,
 *                           hold 3 ms, unlock) and every 10 cycles meet at a
 *                           barrier after uneven work
 *   pt_lockbar uncontended  two threads lock and unlock a mutex of their own
 *                           in a tight loop for 300 ms
 *   pt_lockbar join         the main thread works 40 ms, the other 200 ms:
 *                           the main thread waits in pthread_join (idle
 *                           while the other works: load imbalance)
 *
 * "Work" in the contended mode is a sleep, as in tests/workloads/.  Prints
 * what the program measured around its own calls, in seconds summed over
 * its threads:
 *   truth p=2 sl=LOCK_AND_BARRIER_WAITS lock=LOCK_WAITS barrier=BARRIER_WAITS
 *         join=MAIN_IN_PTHREAD_JOIN locks=UNCONTENDED_LOCK_CALLS
 *         busy=TIME_IN_THE_UNCONTENDED_LOOPS wall=...
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define LW_NAME "pt_lockbar"
#include "layer_wl.h"

#define CYCLES 60
#define SPIN_NS (300 * MS)

struct member {
	int me;
	double lock, barrier;	/* seconds waited */
	double busy;		/* seconds in the uncontended loop */
	unsigned long long locks;	/* uncontended lock calls */
};

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static int contended, joining;

/* Lock m, adding the time the call took to *waited. */
static void timed_lock(pthread_mutex_t *m, double *waited)
{
	unsigned long long t = now();
	int e = pthread_mutex_lock(m);

	if (e)
		die("pthread_mutex_lock", e);
	*waited += (double)(now() - t) / 1e9;
}

/* The contended cycle of member m. */
static void contend(struct member *m)
{
	for (int c = 0; c < CYCLES; c++) {
		work(1);
		timed_lock(&shared, &m->lock);
		work(3);
		pthread_mutex_unlock(&shared);
		if (c % 10 == 9) {
			unsigned long long t;
			int e;

			work(m->me == 0 ? 6 : 2);
			t = now();
			e = pthread_barrier_wait(&bar);
			if (e && e != PTHREAD_BARRIER_SERIAL_THREAD)
				die("pthread_barrier_wait", e);
			m->barrier += (double)(now() - t) / 1e9;
		}
	}
}

/* Lock and unlock a private mutex for SPIN_NS, counting the calls. */
static void spin(struct member *m)
{
	pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
	unsigned long long start = now(), end = start + SPIN_NS;
	double ignored = 0;

	while (now() < end) {
		for (int i = 0; i < 1000; i++) {
			timed_lock(&own, &ignored);
			pthread_mutex_unlock(&own);
		}
		m->locks += 1000;
	}
	m->busy = (double)(now() - start) / 1e9;
}

/* Thread body. */
static void *run(void *p)
{
	struct member *m = p;

	if (joining)
		work(m->me == 0 ? 40 : 200);
	else if (contended)
		contend(m);
	else
		spin(m);
	return NULL;
}

int main(int argc, char **argv)
{
	struct member m[2] = { { .me = 0 }, { .me = 1 } };
	unsigned long long t0 = now(), t;
	double join;
	pthread_t th;
	int e;

	if (argc != 2 || (strcmp(argv[1], "contended") && strcmp(argv[1], "uncontended") &&
			  strcmp(argv[1], "join"))) {
		fprintf(stderr, "usage: pt_lockbar contended|uncontended|join\n");
		return 2;
	}
	contended = !strcmp(argv[1], "contended");
	joining = !strcmp(argv[1], "join");
	if ((e = pthread_barrier_init(&bar, NULL, 2)))
		die("pthread_barrier_init", e);
	if ((e = pthread_create(&th, NULL, run, &m[1])))
		die("pthread_create", e);
	run(&m[0]);
	t = now();
	if ((e = pthread_join(th, NULL)))
		die("pthread_join", e);
	join = (double)(now() - t) / 1e9;
	printf("truth p=2 sl=%.6f lock=%.6f barrier=%.6f join=%.6f locks=%llu busy=%.6f "
	       "wall=%.6f\n", m[0].lock + m[1].lock + m[0].barrier + m[1].barrier,
	       m[0].lock + m[1].lock, m[0].barrier + m[1].barrier, join,
	       m[0].locks + m[1].locks, m[0].busy + m[1].busy, (double)(now() - t0) / 1e9);
	return 0;
}
