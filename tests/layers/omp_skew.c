/*
 * omp_skew — an unmodified OpenMP program (no lostcycles macros) that
 * measures its own losses, for the OMPT layer's ground-truth test.
 *
 *   omp_skew static    a skewed loop, schedule(static): the first half of
 *                      the iterations costs 3 ms each, the second half 1 ms,
 *                      so one thread waits at the loop's implicit barrier
 *   omp_skew dynamic   the same loop with schedule(dynamic): little waiting
 *   omp_skew barrier   uneven work before an explicit barrier
 *   omp_skew serial    balanced regions with serial sections between them
 *   omp_skew locks     both threads contend for an omp_lock_t, then for a
 *                      critical section (work 1 ms, enter, work 3 ms, leave)
 *   omp_skew tasks     one thread creates a 10 ms task, works 1 ms and
 *                      waits for it in taskwait; the other thread, at the
 *                      single construct's barrier, runs the task
 *   omp_skew nested    a static loop of two iterations: the first runs a
 *                      nested parallel region, then works 10 ms more; the
 *                      second works 2 ms and waits at the loop's barrier,
 *                      which must stay LI after the nested region ended
 *
 * "Work" is a sleep (as in tests/workloads/): the profiler judges the flags,
 * so the truth does not depend on the CPU, and the two cores stay free for
 * the sampler.  Prints one line of what the program measured, in seconds
 * summed over its threads:
 *   truth p=P li=IDLE_AT_IMPLICIT_BARRIERS sl=WAIT_IN_BARRIERS_LOCKS_TASKWAIT
 *         ip=SERIAL_TIME_TIMES_(P-1) task=TIME_IN_EXPLICIT_TASKS wall=MAIN_DURATION
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "layer_wl.h"

#define ROUNDS 40
#define NITER 8			/* iterations of the skewed loop */
#define MAXT 64

/* Per-thread sums, one cache line each. */
struct acc {
	double idle, sync, task;
	char pad[40];
};

static struct acc acc[MAXT];
static omp_lock_t lock;

/* Cost of iteration i of the skewed loop, in ms. */
static unsigned cost(int i)
{
	return i < NITER / 2 ? 3 : 1;
}

/* One round of the skewed loop; the time from a thread's last iteration to
 * the end of the loop's implicit barrier is its idle time. */
static void skewed_round(int dynamic, int me)
{
	unsigned long long last = now();

	if (dynamic) {
#pragma omp for schedule(dynamic, 1)
		for (int i = 0; i < NITER; i++) {
			work(cost(i));
			last = now();
		}
	} else {
#pragma omp for schedule(static)
		for (int i = 0; i < NITER; i++) {
			work(cost(i));
			last = now();
		}
	}
	acc[me].idle += (double)(now() - last) / 1e9;
}

/* One round of uneven work before an explicit barrier. */
static void barrier_round(int me)
{
	unsigned long long t;

	work(me == 0 ? 12 : 4);
	t = now();
#pragma omp barrier
	acc[me].sync += (double)(now() - t) / 1e9;
}

/* One round of lock contention (first half of the rounds) or of critical
 * section contention (second half): work 1 ms, get in, work 3 ms, leave.
 * The resource is the bottleneck; the time to get in is a wait. */
static void locks_round(int me, int r)
{
	unsigned long long t;

	work(1);
	t = now();
	if (r < ROUNDS / 2) {
		omp_set_lock(&lock);
		acc[me].sync += (double)(now() - t) / 1e9;
		work(3);
		omp_unset_lock(&lock);
		return;
	}
#pragma omp critical
	{
		acc[me].sync += (double)(now() - t) / 1e9;
		work(3);
	}
}

/* One round of the tasks mode: the taskwait is a wait when another thread
 * ran the task, else the creator ran it itself (busy). */
static void tasks_round(int me)
{
#pragma omp single
	{
		int runner = -1;
		unsigned long long t;

#pragma omp task shared(runner)
		{
			unsigned long long t0 = now();

			runner = omp_get_thread_num();
			work(10);
			acc[runner].task += (double)(now() - t0) / 1e9;
		}
		work(1);
		t = now();
#pragma omp taskwait
		if (runner != me)
			acc[me].sync += (double)(now() - t) / 1e9;
	}
}

/* One round of the nested mode; idle time measured as in skewed_round. */
static void nested_round(int me)
{
	unsigned long long last = now();

#pragma omp for schedule(static)
	for (int i = 0; i < 2; i++) {
		if (i == 0) {
#pragma omp parallel
			work(2);
			work(10);
		} else {
			work(2);
		}
		last = now();
	}
	acc[me].idle += (double)(now() - last) / 1e9;
}

/* Rounds inside one parallel region (static, dynamic, barrier, locks,
 * nested). */
static void one_region(const char *mode)
{
#pragma omp parallel
	{
		int me = omp_get_thread_num();

		for (int r = 0; r < ROUNDS; r++) {
			if (!strcmp(mode, "barrier"))
				barrier_round(me);
			else if (!strcmp(mode, "locks"))
				locks_round(me, r);
			else if (!strcmp(mode, "nested"))
				nested_round(me);
			else if (!strcmp(mode, "tasks"))
				tasks_round(me);
			else
				skewed_round(!strcmp(mode, "dynamic"), me);
		}
	}
}

/* Balanced regions separated by serial sections; returns the time spent
 * inside the regions (seen from the master). */
static double serial_rounds(void)
{
	double in = 0;

	for (int r = 0; r < ROUNDS / 2; r++) {
		unsigned long long t = now();

#pragma omp parallel
		work(5);
		in += (double)(now() - t) / 1e9;
		work(5);		/* serial section */
	}
	return in;
}

int main(int argc, char **argv)
{
	unsigned long long t0 = now();
	double li = 0, sl = 0, task = 0, in_regions = 0, wall;
	const char *mode = argc > 1 ? argv[1] : "";
	int p = omp_get_max_threads();

	if (argc != 2 || (strcmp(mode, "static") && strcmp(mode, "dynamic") &&
			  strcmp(mode, "barrier") && strcmp(mode, "serial") &&
			  strcmp(mode, "locks") && strcmp(mode, "nested") && strcmp(mode, "tasks"))) {
		fprintf(stderr, "usage: omp_skew static|dynamic|barrier|serial|locks|nested|tasks\n");
		return 2;
	}
	omp_init_lock(&lock);
	if (p > MAXT)
		p = MAXT;
	omp_set_num_threads(p);
	if (!strcmp(mode, "serial"))
		in_regions = serial_rounds();
	else
		one_region(mode);
	wall = (double)(now() - t0) / 1e9;
	for (int i = 0; i < p; i++) {
		li += acc[i].idle;
		sl += acc[i].sync;
		task += acc[i].task;
	}
	printf("truth p=%d li=%.6f sl=%.6f ip=%.6f task=%.6f wall=%.6f\n", p, li, sl,
	       !strcmp(mode, "serial") ? (p - 1) * (wall - in_regions) : 0.0, task, wall);
	return 0;
}
