/*
 * wl_clock.h — the clocks of the workloads that run their own main()
 * (helpers, rcpin, phase, twolocks); wl.h's workloads use wl_now().
 */
#ifndef WL_CLOCK_H
#define WL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Clock id in ns. */
static inline uint64_t clock_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t now_ns(void)
{
	return clock_of(CLOCK_MONOTONIC);
}

#endif
