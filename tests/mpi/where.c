/*
 * where.c — an unmodified MPI program (no lostcycles header) whose ranks
 * wait in two MPI functions, for tests/t_where.sh: each round rank 0
 * computes T and sends to rank 1, which waits for it in MPI_Recv; then
 * rank 1 computes 2T while rank 0 waits for it in MPI_Allreduce.  Each rank
 * measures its own time in each function and prints one line:
 *   rank K recv_ns R allreduce_ns A send_ns S run_ns N
 * Usage: where [T_MS [ROUNDS]]   (defaults 6 ms, 25)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_wl.h"

int main(int argc, char **argv)
{
	double t_ms = argc > 1 ? atof(argv[1]) : 6, sink = 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 25, rank, v = 1, sum;
	uint64_t recv = 0, allr = 0, send = 0, start, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	start = now_ns();
	for (int r = 0; r < rounds; r++) {
		if (rank == 0) {
			sink += compute((uint64_t)(t_ms * 1e6));
			t = now_ns();
			MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			send += now_ns() - t;
		} else if (rank == 1) {
			t = now_ns();
			MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			recv += now_ns() - t;
			sink += compute((uint64_t)(2 * t_ms * 1e6));
		}
		t = now_ns();
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		allr += now_ns() - t;
	}
	printf("rank %d recv_ns %llu allreduce_ns %llu send_ns %llu run_ns %llu\n", rank,
	       (unsigned long long)recv, (unsigned long long)allr, (unsigned long long)send,
	       (unsigned long long)(now_ns() - start));
	fflush(stdout);
	MPI_Finalize();
	return sink < 0;
}
