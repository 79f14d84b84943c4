/*
 * places — an unmodified MPI program (no lostcycles header) that waits in
 * two MPI functions at two call sites, for the places the MPI layer
 * records (tests/test_places_run.c).  Two ranks, 3 rounds: rank 1
 * computes 100 ms and sends to rank 0, which waits in MPI_Recv; then rank
 * 0 computes 100 ms and both call MPI_Allreduce, where rank 1 waits.
 * Each rank measures the time spent in each call and prints:
 *   rank R recv S allreduce S
 */
#include <mpi.h>
#include <stdio.h>

#include "mpi_wl.h"

#define ROUNDS 3
#define WORK_NS 100000000ull

int main(int argc, char **argv)
{
	double in_recv = 0, in_all = 0, x = 0;
	int rank, v = 1, sum;
	uint64_t t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int r = 0; r < ROUNDS; r++) {
		if (rank == 1) {
			x += compute(WORK_NS);
			MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		} else if (rank == 0) {
			t = now_ns();
			MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			in_recv += (double)(now_ns() - t) / 1e9;
			x += compute(WORK_NS);
		}
		t = now_ns();
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		in_all += (double)(now_ns() - t) / 1e9;
	}
	printf("rank %d recv %.6f allreduce %.6f%s\n", rank, in_recv, in_all, x < 0 ? " " : "");
	MPI_Finalize();
	return 0;
}
