/*
 * hybrid.c — an unmodified hybrid MPI + OpenMP program (no lostcycles
 * header), built with "mpicc -cc=clang -fopenmp" by tests/t_hybrid.sh: every
 * rank runs ROUNDS rounds of one parallel region in which each OpenMP
 * thread computes, then the master calls MPI_Allreduce.  Thread t of rank
 * r computes MS x (1 + SKEW x r) x (1 + TSKEW x t) ms per round, so SKEW
 * makes the ranks uneven (MPI load imbalance) and TSKEW the threads of a
 * rank (OpenMP load imbalance).  "Computing" is a sleep, as in omp_skew.c:
 * the profiler judges the flags, so the truth does not depend on how many
 * CPUs the 2 x 2 threads and the sampler share.  Each thread measures its
 * own computation; each rank prints one line per thread:
 *   rank R thread T useful_ns U wall_ns W pre_ns P
 * where W is the rank's time from the start of main() to before
 * MPI_Finalize.  The master's U also counts its time from main() to the
 * first round (MPI_Init), which the MPI layer marks busy, and P is its time
 * before main() (from the process's start, /proc/self/stat, 10 ms
 * resolution), of which the part after the layer's constructor is busy
 * too: the MPI library's start-up before main() can take a few hundred ms
 * on a busy machine, and how much of it comes before the constructor is
 * not known.
 * Usage: hybrid [MS [ROUNDS [SKEW [TSKEW]]]]   (defaults 20, 20, 0.5, 0.5)
 */
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layer_wl.h"

#define MAXT 64

/* How long ago (ns) this process started, from field 22 of
 * /proc/self/stat (clock ticks after boot) and CLOCK_BOOTTIME; 0 when
 * unknown. */
static uint64_t since_exec(void)
{
	char buf[1024], *p;
	unsigned long long ticks = 0;
	struct timespec ts;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t boot, start;

	if (f)
		fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts))
		return 0;
	/* fields 3 .. 22 after the command's ")" */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		   "%*d %*d %llu", &ticks) != 1)
		return 0;
	boot = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	start = (uint64_t)(ticks * (1000000000.0 / (double)hz));
	return boot > start ? boot - start : 0;
}

/* Stand-in for ns of computation; returns the time it took. */
static uint64_t compute(uint64_t ns)
{
	uint64_t t0 = now();

	nap(ns);
	return now() - t0;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 20, skew = argc > 3 ? atof(argv[3]) : 0.5;
	double tskew = argc > 4 ? atof(argv[4]) : 0.5;
	int rounds = argc > 2 ? atoi(argv[2]) : 20, provided, rank, nt = 1;
	uint64_t useful[MAXT] = { 0 }, pre = since_exec(), start = now(), t0;
	double x = 1, y;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	t0 = now();
	useful[0] = t0 - start;
	for (int r = 0; r < rounds; r++) {
#pragma omp parallel
		{
			int t = omp_get_thread_num();

			if (t == 0)
				nt = omp_get_num_threads();
			if (t < MAXT)
				useful[t] += compute((uint64_t)(ms * 1e6 * (1 + skew * rank) *
								 (1 + tskew * t)));
		}
		MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	t0 = now();
	for (int t = 0; t < nt && t < MAXT; t++)
		printf("rank %d thread %d useful_ns %llu wall_ns %llu pre_ns %llu\n", rank, t,
		       (unsigned long long)useful[t], (unsigned long long)(t0 - start),
		       (unsigned long long)(t ? 0 : pre));
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
