/*
 * example_clock.h — what the example programs share: the one way they
 * fail (their name, what failed, why; exit 1: a profile of a half-run
 * program would mislead), the monotonic clock in nanoseconds, and a sleep
 * to an absolute time.  Define EXAMPLE_NAME before including it.
 */
#ifndef EXAMPLE_CLOCK_H
#define EXAMPLE_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Print "EXAMPLE_NAME: what: strerror(e)" and exit 1. */
static void die(const char *what, int e)
{
	fprintf(stderr, "%s: %s: %s\n", EXAMPLE_NAME, what, strerror(e));
	exit(1);
}

/* CLOCK_MONOTONIC in nanoseconds. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime", errno);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleep until the monotonic time t (ns). */
static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
			       .tv_nsec = (long)(t % 1000000000u) };
	int e;

	while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		;
	if (e)
		die("clock_nanosleep", e);
}

#endif
