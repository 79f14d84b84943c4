/*
 * twolocks — which lock costs the most?  Three threads take a "hot" lock,
 * hold it for 2 ms, then a "cold" one for 0.1 ms, 40 times each: nearly all
 * of their waiting is for the hot lock.
 *
 *	twolocks macros   flag the waits with LC_SYNC_BEGIN_ON and name the
 *	                  locks with LC_NAME
 *	twolocks plain    no flags at all (for record --pthread)
 *
 * Prints the locks' addresses: "hot 0x..." and "cold 0x...".
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"

#define NT 3
#define ROUNDS 40

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cold = PTHREAD_MUTEX_INITIALIZER;
static int macros;

static void hold(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* Take lock l, flagging the wait when the program uses the macros. */
static void take(pthread_mutex_t *l)
{
	if (!macros) {
		pthread_mutex_lock(l);
		return;
	}
	if (pthread_mutex_trylock(l) == 0)
		return;
	LC_SYNC_BEGIN_ON(l);
	pthread_mutex_lock(l);
	LC_SYNC_END();
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

	if (argc != 2 || (strcmp(argv[1], "macros") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: twolocks macros|plain\n");
		return 2;
	}
	macros = !strcmp(argv[1], "macros");
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
	return 0;
}
