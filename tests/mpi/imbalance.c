/*
 * imbalance.c — an unmodified MPI program (no lostcycles header): rank k
 * computes (k+1)*T, then all meet at a barrier; repeated ROUNDS times.
 * Each rank measures its own time in MPI_Barrier and its run time (from
 * after MPI_Init to after the last barrier) and prints one line:
 *   rank K wait_ns W run_ns R
 * Usage: imbalance [T_MS [ROUNDS]]   (defaults 5 ms, 20)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_wl.h"

int main(int argc, char **argv)
{
	double t_ms = argc > 1 ? atof(argv[1]) : 5, sink = 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 20, rank;
	uint64_t wait = 0, start;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	start = now_ns();
	for (int r = 0; r < rounds; r++) {
		uint64_t w0;

		sink += compute((uint64_t)((rank + 1) * t_ms * 1e6));
		w0 = now_ns();
		MPI_Barrier(MPI_COMM_WORLD);
		wait += now_ns() - w0;
	}
	printf("rank %d wait_ns %llu run_ns %llu\n", rank, (unsigned long long)wait,
	       (unsigned long long)(now_ns() - start));
	fflush(stdout);
	MPI_Finalize();
	return sink < 0;
}
