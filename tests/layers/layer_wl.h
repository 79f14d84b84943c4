/*
 * layer_wl.h — helpers shared by the unmodified test programs of
 * tests/layers/: the monotonic and CPU-time clocks, a spin on the CPU, a sleep that
 * stands in for computation (so the truth does not depend on the CPU's
 * speed), and the one way a program dies on an error.  Define LW_NAME (the program's name,
 * for messages) before including it.
 */
#ifndef LAYER_WL_H
#define LAYER_WL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MS
#define MS 1000000ull		/* one millisecond in ns */
#endif

/* CLOCK_MONOTONIC in ns. */
static inline unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Sleep ns nanoseconds, resumed after a signal. */
static inline void nap(unsigned long long ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* CLOCK_MONOTONIC in seconds. */
static inline double lw_secs(void)
{
	return (double)now() / 1e9;
}

/* Clock c (e.g. CLOCK_THREAD_CPUTIME_ID) in seconds. */
static inline double lw_clock(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile unsigned long lw_sink __attribute__((unused));

/* Compute on the CPU for s seconds of wall time. */
static inline void lw_spin(double s)
{
	double t0 = lw_secs();

	while (lw_secs() - t0 < s)
		for (int i = 0; i < 1000; i++)
			lw_sink += (unsigned long)i;
}

/* Stand-in for ms milliseconds of computation. */
static inline void work(unsigned ms)
{
	nap(ms * MS);
}

#ifdef LW_NAME
/* Print what failed and exit 1. */
static inline void die(const char *what, int e)
{
	fprintf(stderr, LW_NAME ": %s: %s\n", what, strerror(e));
	exit(1);
}
#endif

#endif
