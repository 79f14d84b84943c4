/*
 * pt_where — an unmodified pthread program (no lostcycles macros) with two
 * locks of different contention, for tests/t_where.sh: a static one, lock_a,
 * and one in malloc'd memory: three threads take lock_a and hold it 2 ms,
 * two others take the heap lock and hold it 1 ms, 40 times each; report
 * --where must name lock_a's row by its symbol and the heap lock's by its
 * address (built as PIE, the default).  The threads measure their own waits
 * per lock and the program prints, summed over the threads, in seconds:
 *   waited lock_a SECONDS heap 0xADDRESS SECONDS
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define LW_NAME "pt_where"
#include "layer_wl.h"

#define ROUNDS 40

pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *heap_lock;
static uint64_t waited[2];	/* ns, lock_a and heap_lock, summed with atomics */

/* Take lock l (its index k), measuring the wait. */
static void take(pthread_mutex_t *l, int k)
{
	unsigned long long t0 = now();

	pthread_mutex_lock(l);
	__atomic_fetch_add(&waited[k], now() - t0, __ATOMIC_RELAXED);
}

/* A thread of lock arg (0: lock_a, 2 ms held; 1: heap_lock, 1 ms held). */
static void *worker(void *arg)
{
	int k = (int)(intptr_t)arg;
	pthread_mutex_t *l = k ? heap_lock : &lock_a;

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
	void *pad[8];
	int e;

	/* a few other blocks first, so that the lock is not the heap's first */
	for (int i = 0; i < 8; i++)
		if (!(pad[i] = malloc(0x60)))
			die("malloc", 12);
	if (!(heap_lock = malloc(sizeof(*heap_lock))))
		die("malloc", 12);
	pthread_mutex_init(heap_lock, NULL);
	for (int i = 0; i < 5; i++)
		if ((e = pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i >= 3))))
			die("pthread_create", e);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	printf("waited lock_a %.6f heap %p %.6f\n", (double)waited[0] / 1e9, (void *)heap_lock,
	       (double)waited[1] / 1e9);
	for (int i = 0; i < 8; i++)
		free(pad[i]);	/* not leaked: LeakSanitizer ends the run with 1 */
	pthread_mutex_destroy(heap_lock);
	free(heap_lock);
	return 0;
}
