/*
 * exchange.c — an unmodified MPI program (no lostcycles header): ranks 0
 * and 1 exchange messages of BYTES, ROUNDS times; rank 1 computes
 * COMPUTE_US before each reply, so rank 0 waits for it.  Each rank counts
 * its point-to-point calls and their bytes and measures its time inside
 * them, and prints:
 *   rank K msgs M bytes B wait_ns W run_ns R
 * Usage: exchange [BYTES [ROUNDS [COMPUTE_US]]]   (defaults 65536, 200, 500)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_wl.h"

int main(int argc, char **argv)
{
	int bytes = argc > 1 ? atoi(argv[1]) : 65536;
	int rounds = argc > 2 ? atoi(argv[2]) : 200;
	double us = argc > 3 ? atof(argv[3]) : 500, sink = 0;
	uint64_t wait = 0, msgs = 0, start, t;
	int rank, peer;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	buf = calloc(1, (size_t)bytes + 1);
	start = now_ns();
	/* rank 0: send, receive the reply; rank 1: receive, compute, reply */
	for (int r = 0; r < rounds && rank < 2; r++) {
		t = now_ns();
		if (rank == 0)
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
		MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		wait += now_ns() - t;
		if (rank == 1) {
			sink += compute((uint64_t)(us * 1e3));
			t = now_ns();
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
			wait += now_ns() - t;
		}
		msgs += 2;
	}
	printf("rank %d msgs %llu bytes %llu wait_ns %llu run_ns %llu\n", rank,
	       (unsigned long long)msgs, (unsigned long long)msgs * (unsigned long long)bytes,
	       (unsigned long long)wait, (unsigned long long)(now_ns() - start));
	fflush(stdout);
	free(buf);
	MPI_Finalize();
	return sink < 0;
}
