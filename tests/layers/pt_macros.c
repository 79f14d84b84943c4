/*
 * pt_macros — a pthread program that also uses the flag macros, for the
 * precedence test of the pthread layer: the program's macros win.
 *
 * Two threads share a mutex (work 1 ms, lock, hold 3 ms, unlock) for CYCLES
 * cycles.  The program
 *   - brackets only the first half of the main thread's cycles with
 *     LC_PARALLEL_BEGIN/END (the layer would say: while two threads live),
 *   - marks the main thread LC_BUSY() once at the start, so its lock waits
 *     stay BUSY (the layer would say SYNC); the worker uses no macro.
 * Expected: SL = the worker's lock waits while the program's parallel phase
 * was open; its later waits are IP, the main thread's are computation.
 * Prints "truth p=2 sl=... own=... late=... wall=..." (seconds): own is the
 * main thread's waits, late the worker's waits after LC_PARALLEL_END.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"

#define CYCLES 60
#define MS 1000000ull

struct wait {
	unsigned long long from, to;
};

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static struct wait worker_waits[CYCLES];
static unsigned long long phase_end;	/* when LC_PARALLEL_END ran */

/* CLOCK_MONOTONIC in ns. */
static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Stand-in for ms milliseconds of computation. */
static void work(unsigned ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)(ms * MS) };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* One cycle: work, lock (the wait goes to *w), hold, unlock. */
static void cycle(struct wait *w)
{
	int e;

	work(1);
	w->from = now();
	if ((e = pthread_mutex_lock(&shared))) {
		fprintf(stderr, "pt_macros: pthread_mutex_lock: %s\n", strerror(e));
		exit(1);
	}
	w->to = now();
	work(3);
	pthread_mutex_unlock(&shared);
}

/* The worker: no macros. */
static void *worker(void *unused)
{
	(void)unused;
	for (int c = 0; c < CYCLES; c++)
		cycle(&worker_waits[c]);
	return NULL;
}

int main(void)
{
	unsigned long long t0 = now();
	double own = 0, sl = 0, late = 0;
	struct wait w;
	pthread_t th;
	int e;

	LC_BUSY();
	LC_PARALLEL_BEGIN();
	if ((e = pthread_create(&th, NULL, worker, NULL))) {
		fprintf(stderr, "pt_macros: pthread_create: %s\n", strerror(e));
		return 1;
	}
	for (int c = 0; c < CYCLES; c++) {
		cycle(&w);
		own += (double)(w.to - w.from) / 1e9;
		if (c == CYCLES / 2 - 1) {
			phase_end = now();
			LC_PARALLEL_END();
		}
	}
	pthread_join(th, NULL);
	for (int c = 0; c < CYCLES; c++) {
		const struct wait *x = &worker_waits[c];
		unsigned long long cut = x->to < phase_end ? x->to : phase_end;

		if (cut > x->from)
			sl += (double)(cut - x->from) / 1e9;
		late += (double)(x->to - x->from) / 1e9;
	}
	printf("truth p=2 sl=%.6f own=%.6f late=%.6f wall=%.6f\n", sl, own, late - sl,
	       (double)(now() - t0) / 1e9);
	return 0;
}
