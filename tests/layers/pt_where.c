/*
 * pt_where — an unmodified pthread program (no lostcycles macros) with two
 * static locks of different contention, for tests/t_where.sh: three threads
 * take lock_a and hold it 2 ms, two others take lock_b and hold it 1 ms, 40
 * times each; report --where must name each lock's row by its symbol.  The
 * threads measure their own waits per lock and the program prints, summed
 * over the threads, in seconds:
 *   waited lock_a SECONDS lock_b SECONDS
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#define LW_NAME "pt_where"
#include "layer_wl.h"

#define ROUNDS 40

pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static uint64_t waited[2];	/* ns, lock_a and lock_b, summed with atomics */

/* Take lock l (its index k), measuring the wait. */
static void take(pthread_mutex_t *l, int k)
{
	unsigned long long t0 = now();

	pthread_mutex_lock(l);
	__atomic_fetch_add(&waited[k], now() - t0, __ATOMIC_RELAXED);
}

/* A thread of lock arg (0: lock_a, 2 ms held; 1: lock_b, 1 ms held). */
static void *worker(void *arg)
{
	int k = (int)(intptr_t)arg;
	pthread_mutex_t *l = k ? &lock_b : &lock_a;

	for (int i = 0; i < ROUNDS; i++) {
		take(l, k);
		nap((k ? 1 : 2) * MS);
		pthread_mutex_unlock(l);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[5];
	int e;

	for (int i = 0; i < 5; i++)
		if ((e = pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i >= 3))))
			die("pthread_create", e);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	printf("waited lock_a %.6f lock_b %.6f\n", (double)waited[0] / 1e9, (double)waited[1] / 1e9);
	return 0;
}
