/*
 * mpi_wl.h — helpers shared by the unmodified MPI test programs of
 * tests/mpi/: the monotonic clock and computation that takes a given wall
 * time, so each rank's truth does not depend on the CPU's speed.
 */
#ifndef MPI_WL_H
#define MPI_WL_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Compute for ns of wall time; the result keeps the loop from being
 * optimised away. */
static inline double compute(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	double x = 1;

	while (now_ns() < end)
		for (int i = 0; i < 100; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

#endif
