/*
 * pt_macros — a pthread program that also uses the flag macros, for the
 * precedence test of the pthread layer: the program's macros win.
 *
 * The main thread works 80 ms alone while the worker waits for it at a
 * barrier; then two threads share a mutex (work 1 ms, lock, hold 3 ms,
 * unlock) for CYCLES cycles.  The program
 *   - brackets only the first half of the main thread's cycles with
 *     LC_PARALLEL_BEGIN/END (the layer would say: while two threads live,
 *     so the worker's wait at the barrier would be SL, not IP),
 *   - marks the main thread LC_BUSY() once at the start, so its lock waits
 *     stay BUSY (the layer would say SYNC); the worker uses no macro.
 * Expected: SL = the worker's lock waits while the program's parallel phase
 * was open; its barrier wait before and its later waits are IP, the main
 * thread's are computation.  Prints "truth p=2 sl=... own=... late=...
 * pre=... wall=..." (seconds): own is the main thread's waits, late the
 * worker's waits after LC_PARALLEL_END, pre its wait at the barrier.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"
#include "layer_wl.h"

#define CYCLES 60

struct wait {
	unsigned long long from, to;
};

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start;
static struct wait worker_waits[CYCLES], worker_pre;
static unsigned long long phase_end;	/* when LC_PARALLEL_END ran */

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

/* Wait at the start barrier, the wait going to *w. */
static void start_wait(struct wait *w)
{
	int e;

	w->from = now();
	e = pthread_barrier_wait(&start);
	if (e && e != PTHREAD_BARRIER_SERIAL_THREAD) {
		fprintf(stderr, "pt_macros: pthread_barrier_wait: %s\n", strerror(e));
		exit(1);
	}
	w->to = now();
}

/* The worker: no macros. */
static void *worker(void *unused)
{
	(void)unused;
	start_wait(&worker_pre);
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
	if ((e = pthread_barrier_init(&start, NULL, 2)) ||
	    (e = pthread_create(&th, NULL, worker, NULL))) {
		fprintf(stderr, "pt_macros: start: %s\n", strerror(e));
		return 1;
	}
	work(80);		/* alone: the worker waits, no parallel work yet */
	start_wait(&w);
	LC_PARALLEL_BEGIN();
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
	printf("truth p=2 sl=%.6f own=%.6f late=%.6f pre=%.6f wall=%.6f\n", sl, own, late - sl,
	       (double)(worker_pre.to - worker_pre.from) / 1e9, (double)(now() - t0) / 1e9);
	return 0;
}
