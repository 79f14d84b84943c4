/*
 * balance.c — an unmodified MPI program (no lostcycles header) for the
 * advice tests: every rank computes ITERS iterations per round (a fixed
 * amount of work, not of time) and all meet in an MPI_Allreduce after each
 * round; with SLOW given, rank SLOW computes FACTOR times as much (an
 * imbalanced job whose late rank is known).
 *
 *   balance [ITERS [ROUNDS [SLOW FACTOR]]]   (defaults 2000000, 60: balanced)
 *
 * Rank 0 prints "truth ranks=P slow=SLOW factor=FACTOR".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(long n, double x)
{
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
	long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 60;
	long slow = argc > 3 ? strtol(argv[3], NULL, 10) : -1;
	double factor = argc > 4 ? strtod(argv[4], NULL) : 1, x = 1, sum;
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (iters < 1 || rounds < 1 || factor < 1) {
		if (!rank)
			fprintf(stderr, "usage: balance [ITERS [ROUNDS [SLOW FACTOR>=1]]]\n");
		MPI_Finalize();
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		x = work(rank == slow ? (long)((double)iters * factor) : iters, x);
		MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (!rank)
		printf("truth ranks=%d slow=%ld factor=%g sum=%g\n", size, slow, factor, sum);
	MPI_Finalize();
	return 0;
}
