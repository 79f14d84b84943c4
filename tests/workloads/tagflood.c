/*
 * tagflood.c — a fragment tag per piece of work: two threads open a new tag
 * (1, 2, 3, ...) every US microseconds (default 200) for MS milliseconds
 * (default 1000), each tag for one piece of BUSY computation, as a program
 * that tags every request or loop iteration by its number.  The distinct
 * tags of a run are unbounded.
 *
 * Prints "tags N" (the tags opened) on stdout.
 *
 * Usage: tagflood [MS [US]]
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lostcycles.h"
#include "wl_args.h"

static uint64_t run_ns, piece_ns;
static int64_t next_tag = 1;
static pthread_mutex_t tag_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A new tag number. */
static int64_t new_tag(void)
{
	int64_t t;

	pthread_mutex_lock(&tag_lock);
	t = next_tag++;
	pthread_mutex_unlock(&tag_lock);
	return t;
}

static void *worker(void *arg)
{
	uint64_t start = *(const uint64_t *)arg, t;
	volatile double x = 1.0;

	while ((t = now_ns()) - start < run_ns) {
		int64_t tag = new_tag();

		LC_FRAGMENT_BEGIN(tag);
		LC_BUSY();
		while (now_ns() - t < piece_ns)
			x = x * 1.0000001 + 1e-9;
		LC_FRAGMENT_END(tag);
	}
	LC_IDLE();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	uint64_t start;

	run_ns = wl_arg_num("tagflood", argc > 1 ? argv[1] : NULL, 1000, 100000000ul) * 1000000ull;
	piece_ns = wl_arg_num("tagflood", argc > 2 ? argv[2] : NULL, 200, 100000000ul) * 1000ull;
	start = now_ns();
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, worker, &start)) {
			fprintf(stderr, "tagflood: cannot start a thread\n");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("tags %lld\n", (long long)(next_tag - 1));
	return 0;
}
