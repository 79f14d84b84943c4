/*
 * pingpong.c — lostcycles-pingpong, the measurement behind "lostcycles
 * calibrate --mpi": two ranks bounce messages of growing size and rank 0
 * prints, per size (0, then 1 KiB doubling to MAXBYTES), the one-way time (half the shortest round trip
 * seen; the ideal time, undisturbed by other work on the machine), and
 * the send overhead (the average time of back-to-back
 * small sends whose receives are already posted):
 *   overhead_ns O
 *   size BYTES oneway_ns T
 * Not linked with liblostcycles: it measures MPI alone.
 * Usage: lostcycles-pingpong [MAXBYTES]   (default 1 MiB)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 10
#define NSEND 200
#define OTRIES 20

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Round trips of n bytes, BATCHES x reps: half the shortest one (rank 0's
 * view). */
static double oneway(int rank, char *buf, int n, int reps)
{
	double best = 0;

	for (int b = 0; b < BATCHES; b++) {
		MPI_Barrier(MPI_COMM_WORLD);
		for (int i = 0; i < reps; i++) {
			double t0 = now_ns();

			if (rank == 0) {
				MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
			}
			t0 = (now_ns() - t0) / 2;
			if ((b == 0 && i == 0) || t0 < best)
				best = t0;
		}
	}
	return best;
}

/* The mean time of a small send whose receive is posted (the best of
 * OTRIES tries: cheap, and a busy machine disturbs fewer of many). */
static double overhead(int rank)
{
	MPI_Request req[NSEND];
	MPI_Status st[NSEND];
	char b[NSEND][8];
	double best = 0;

	memset(b, 0, sizeof(b));
	for (int k = 0; k < OTRIES; k++) {
		double t;

		if (rank == 1)
			for (int i = 0; i < NSEND; i++)
				MPI_Irecv(b[i], 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[i]);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			t = now_ns();
			for (int i = 0; i < NSEND; i++)
				MPI_Send(b[i], 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
			t = (now_ns() - t) / NSEND;
			if (k == 0 || t < best)
				best = t;
		} else {
			MPI_Waitall(NSEND, req, st);
		}
	}
	return best;
}

int main(int argc, char **argv)
{
	long max = argc > 1 ? atol(argv[1]) : 1L << 20;
	int rank, size;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2 || max < 1 || max > (1L << 28)) {
		if (rank == 0)
			fprintf(stderr, "lostcycles-pingpong: needs exactly 2 ranks and "
					"1 <= MAXBYTES <= 2^28\n");
		MPI_Finalize();
		return 2;
	}
	buf = calloc(1, (size_t)max);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 1);
	oneway(rank, buf, 1, 100);	/* warm up */
	if (rank == 0)
		printf("overhead_ns %.1f\n", overhead(rank));
	else
		overhead(rank);
	for (long n = 0; n <= max; n = n ? n * 2 : 1024) {
		int reps = n < 65536 ? 200 : 50;
		double t = oneway(rank, buf, (int)n, reps);

		if (rank == 0)
			printf("size %ld oneway_ns %.1f\n", n, t);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
