/*
 * wl.h — helpers shared by the ground-truth workloads of tests/workloads/.
 *
 * Every workload runs a team of WL_P threads (the main thread is member 0,
 * so no thread outside the team ever calls a macro) on a fixed schedule of
 * absolute deadlines measured from a common start time.  "Work" is a sleep
 * until a deadline with the thread flagged BUSY: the profiler judges only the
 * flags (RC and ML are unavailable here), so the ground truth does not depend
 * on the CPU's speed, and the two cores of a small VM stay free for the
 * sampler.  A late wake-up shortens the next phase instead of shifting the
 * whole schedule, so timing noise does not accumulate.
 *
 * A workload defines
 *	static void wl_body(int me, uint64_t t0);
 * (me = 0..WL_P-1, t0 = common start, CLOCK_MONOTONIC ns) and includes this
 * header, which supplies main().  Everything here dies with a message on any
 * error: a workload that cannot keep its schedule must not pass as a profile.
 */
#ifndef WL_H
#define WL_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lostcycles.h"

#define WL_P 2			/* team size: this VM has two cores */
#define WL_MS 1000000ull	/* one millisecond in ns */

static void wl_body(int me, uint64_t t0);

/* Failing, the clock and sleeping to a time: the example programs' helpers
 * (examples/example_clock.h), under the workloads' names. */
#define EXAMPLE_NAME "workload"
#include "example_clock.h"
#define wl_die die
#define wl_now now_ns
#define wl_sleep_until sleep_until

/* Be BUSY until time t: the stand-in for computation. */
static inline void wl_busy_until(uint64_t t)
{
	LC_BUSY();
	wl_sleep_until(t);
}

/* Be IDLE until time t. */
static inline void wl_idle_until(uint64_t t)
{
	LC_IDLE();
	wl_sleep_until(t);
}

/* Member me waits IDLE for the common start t0; member 0 opens the
 * parallel region. */
static inline void wl_region_begin(int me, uint64_t t0)
{
	wl_idle_until(t0);
	if (me == 0)
		LC_PARALLEL_BEGIN();
}

/* Member me goes IDLE; member 0 closes the parallel region (a member still
 * running then is load imbalance). */
static inline void wl_region_end(int me)
{
	LC_IDLE();
	if (me == 0)
		LC_PARALLEL_END();
}

/* Lock m, or die. */
static inline void wl_lock(pthread_mutex_t *m)
{
	int e = pthread_mutex_lock(m);

	if (e)
		wl_die("pthread_mutex_lock", e);
}

/* Unlock m, or die. */
static inline void wl_unlock(pthread_mutex_t *m)
{
	int e = pthread_mutex_unlock(m);

	if (e)
		wl_die("pthread_mutex_unlock", e);
}

struct wl_arg {
	int me;
	uint64_t t0;
};

/* Thread entry: run the body for member a->me. */
static void *wl_thread(void *p)
{
	const struct wl_arg *a = p;

	wl_body(a->me, a->t0);
	return NULL;
}

/* Declare the team, start members 1..WL_P-1, be member 0, join them.  The
 * common start is 2 ms ahead so that every member is running by then. */
int main(int argc, char **argv)
{
	pthread_t th[WL_P];
	struct wl_arg arg[WL_P];
	uint64_t t0;
	int e;

	if (argc > 1) {
		fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
		return 2;
	}
	LC_TEAM(WL_P);
	t0 = wl_now() + 2 * WL_MS;
	for (int i = 0; i < WL_P; i++)
		arg[i] = (struct wl_arg){ .me = i, .t0 = t0 };
	for (int i = 1; i < WL_P; i++)
		if ((e = pthread_create(&th[i], NULL, wl_thread, &arg[i])))
			wl_die("pthread_create", e);
	wl_body(0, t0);
	for (int i = 1; i < WL_P; i++)
		if ((e = pthread_join(th[i], NULL)))
			wl_die("pthread_join", e);
	return 0;
}

#endif /* WL_H */
