/*
 * evilname — a program whose names are hostile, for the tests of the
 * report's escaping (t_evilname.sh): a synchronization object named with
 * NAME (argv[1], any bytes), waited on by two threads, inside fragment 7.
 *
 *	evilname NAME [ARG...]   (the ARGs, ignored, make the command line hostile)
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "lostcycles.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Spin for ns nanoseconds of CLOCK_MONOTONIC. */
static void spin(long ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

/* Take the lock 60 times, waiting on it as a named object. */
static void *worker(void *arg)
{
	(void)arg;
	LC_BUSY();
	for (int i = 0; i < 60; i++) {
		LC_SYNC_BEGIN_ON(&lock);
		pthread_mutex_lock(&lock);
		LC_SYNC_END();
		spin(5000000);
		pthread_mutex_unlock(&lock);
	}
	LC_IDLE();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc < 2) {
		fprintf(stderr, "usage: evilname NAME [ARG...]\n");
		return 2;
	}
	LC_TEAM(2);
	LC_NAME(&lock, argv[1]);
	LC_FRAGMENT_BEGIN(7);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	LC_FRAGMENT_END(7);
	return 0;
}
