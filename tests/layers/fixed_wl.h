/*
 * fixed_wl.h — what the fixed-work programs of make bench's item 6
 * (omp_stencil, pt_pool) print: their own wall time and their own CPU time,
 * from which the bench takes the slowdown and, beside record's CPU time,
 * the sampler's.
 */
#ifndef FIXED_WL_H
#define FIXED_WL_H

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* CLOCK_MONOTONIC in seconds. */
static inline double fw_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Print "wall=SECONDS cpu=CPU_SECONDS p=THREADS checksum=X" for a run
 * that began at w0 (fw_wall), its CPU time from getrusage. */
static inline void fw_report(double w0, long p, double sum)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("wall=%.6f cpu=%.6f p=%ld checksum=%.6g\n", fw_wall() - w0,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, p, sum);
}

#endif
