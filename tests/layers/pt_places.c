/*
 * pt_places — an unmodified pthread program whose threads wait for two
 * mutexes at two call sites, for the places the pthread layer records
 * (tests/test_places_run.c).  Two threads take lock "a" (held 2 ms,
 * then 1 ms of work) at lock_at_a() 30 times, then lock "b" (held 1 ms,
 * then 0.5 ms of work) at lock_at_b() 30 times; each measures the time it
 * waited for either.  Work is a sleep (layer_wl.h).
 * Prints the locks' addresses and, summed over the threads, the waits:
 *   a 0xADDR
 *   b 0xADDR
 *   waited a=SECONDS b=SECONDS
 */
#define LW_NAME "pt_places"
#include <pthread.h>
#include <stdint.h>
#include "layer_wl.h"

#define NT 2
#define ROUNDS 30

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long waited[2];

/* Lock l, adding the time it took to waited[k]. */
static void timed_lock(pthread_mutex_t *l, int k, int (*lock)(pthread_mutex_t *))
{
	unsigned long long t0 = now();
	int e = lock(l);

	if (e)
		die("pthread_mutex_lock", e);
	__atomic_fetch_add(&waited[k], now() - t0, __ATOMIC_RELAXED);
}

/* The two call sites: each calls pthread_mutex_lock from its own code. */
static __attribute__((noinline)) int lock_at_a(pthread_mutex_t *l)
{
	return pthread_mutex_lock(l);
}

static __attribute__((noinline)) int lock_at_b(pthread_mutex_t *l)
{
	int r = pthread_mutex_lock(l);

	__asm__ volatile("" ::: "memory");	/* not a tail call: a distinct site */
	return r;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		timed_lock(&a, 0, lock_at_a);
		nap(2 * MS);
		pthread_mutex_unlock(&a);
		nap(MS);
	}
	for (int i = 0; i < ROUNDS; i++) {
		timed_lock(&b, 1, lock_at_b);
		nap(MS);
		pthread_mutex_unlock(&b);
		nap(MS / 2);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[NT];

	printf("a %p\nb %p\n", (void *)&a, (void *)&b);
	for (int i = 0; i < NT; i++) {
		int e = pthread_create(&t[i], NULL, worker, NULL);

		if (e)
			die("pthread_create", e);
	}
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	printf("waited a=%.6f b=%.6f\n", (double)waited[0] / 1e9, (double)waited[1] / 1e9);
	return 0;
}
