/*
 * pt_twolocks — tests/workloads/twolocks.c without any flag: three threads
 * take a "hot" lock for 2 ms and a "cold" one for 0.1 ms, 40 times each,
 * for "record --pthread" to tell which lock costs the most.  Prints the
 * locks' addresses ("hot 0x...", "cold 0x...") and the time all threads
 * waited for each ("waited hot SECONDS cold SECONDS").
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define NT 3
#define ROUNDS 40

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cold = PTHREAD_MUTEX_INITIALIZER;
static uint64_t waited[2];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void hold(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

static void take(pthread_mutex_t *l)
{
	uint64_t t0;

	if (pthread_mutex_trylock(l) == 0)
		return;
	t0 = now_ns();
	pthread_mutex_lock(l);
	__atomic_fetch_add(&waited[l == &cold], now_ns() - t0, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		take(&hot);
		hold(2000000);
		pthread_mutex_unlock(&hot);
		take(&cold);
		hold(100000);
		pthread_mutex_unlock(&cold);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[NT];

	printf("hot %p\ncold %p\n", (void *)&hot, (void *)&cold);
	fflush(stdout);
	for (int i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	printf("waited hot %.6f cold %.6f\n", (double)waited[0] / 1e9, (double)waited[1] / 1e9);
	return 0;
}
