/*
 * twolocks — which lock costs the most?  Three threads take a "hot" lock,
 * hold it for 2 ms, then a "cold" one for 0.1 ms, 40 times each: nearly all
 * of their waiting is for the hot lock.  The waits are flagged with
 * LC_SYNC_BEGIN_ON and the locks named with LC_NAME; tests/layers/
 * pt_twolocks.c is this program built without the flag library, for
 * record --pthread.
 *
 *	twolocks [macros]
 *
 * Without "macros" no flag is set.
 * Prints the locks' addresses ("hot 0x...", "cold 0x...") and, at the end,
 * the time all threads waited for each ("waited hot SECONDS cold SECONDS").
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"
#include "wl_clock.h"

#define NT 3
#define ROUNDS 40

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cold = PTHREAD_MUTEX_INITIALIZER;
static int macros;
static uint64_t waited[2];	/* ns, hot and cold, summed with atomics */

static void hold(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* Take lock l, flagging and measuring the wait. */
static void take(pthread_mutex_t *l)
{
	uint64_t t0;

	if (pthread_mutex_trylock(l) == 0)
		return;
	t0 = now_ns();
	if (macros)
		LC_SYNC_BEGIN_ON(l);
	pthread_mutex_lock(l);
	if (macros)
		LC_SYNC_END();
	__atomic_fetch_add(&waited[l == &cold], now_ns() - t0, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	(void)arg;
	if (macros)
		LC_BUSY();
	for (int i = 0; i < ROUNDS; i++) {
		take(&hot);
		hold(2000000);
		pthread_mutex_unlock(&hot);
		take(&cold);
		hold(100000);
		pthread_mutex_unlock(&cold);
	}
	if (macros)
		LC_IDLE();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NT];

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "macros"))) {
		fprintf(stderr, "usage: twolocks [macros]\n");
		return 2;
	}
	macros = argc == 2;
	printf("hot %p\ncold %p\n", (void *)&hot, (void *)&cold);
	fflush(stdout);
	if (macros) {
		LC_TEAM(NT);
		LC_NAME(&hot, "hot lock");
		LC_NAME(&cold, "cold lock");
		LC_PARALLEL_BEGIN();
		LC_IDLE();
	}
	for (int i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	if (macros)
		LC_PARALLEL_END();
	printf("waited hot %.6f cold %.6f\n", (double)waited[0] / 1e9, (double)waited[1] / 1e9);
	return 0;
}
