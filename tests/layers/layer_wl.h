/*
 * layer_wl.h — helpers shared by the unmodified test programs of
 * tests/layers/: the monotonic clock, a sleep that stands in for
 * computation (so the truth does not depend on the CPU's speed), and the
 * one way a program dies on an error.  Define LW_NAME (the program's name,
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
