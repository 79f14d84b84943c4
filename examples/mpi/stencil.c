/*
 * stencil.c — a plain MPI program (it knows nothing of lostcycles): a 2-D
 * Jacobi heat solver on an N x N grid split into blocks of rows, one block
 * per rank.  Every iteration each rank exchanges its edge rows with its
 * neighbours (MPI_Sendrecv) and updates its block; every 10 iterations all
 * ranks agree on the residual (MPI_Allreduce).
 *
 * The split may be uneven on purpose: with SKEW s, rank k gets a share of
 * the rows proportional to 1 + s*k/(P-1), so the last rank has the most
 * work and the others wait for it at every exchange.
 *
 * Usage: stencil [N [ITERATIONS [SKEW]]]   (defaults 1024, 200, 0)
 * Profile it unmodified: lostcycles record --mpi -- mpiexec -n 2 ./stencil
 * (docs/mpi.md walks through the result).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First row of rank k's block of n rows among p ranks with skew s. */
static int first_row(int k, int p, int n, double s)
{
	double total = 0, before = 0;

	for (int i = 0; i < p; i++) {
		double w = 1 + (p > 1 ? s * i / (p - 1) : 0);

		total += w;
		if (i < k)
			before += w;
	}
	return (int)(n * before / total + 0.5);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1024;
	int iters = argc > 2 ? atoi(argv[2]) : 200;
	double skew = argc > 3 ? atof(argv[3]) : 0, res = 0;
	int rank, p, lo, hi, rows, up, down;
	double *u, *v, t0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	if (n < 4 || iters < 1 || skew < 0 || n < 2 * p) {
		if (rank == 0)
			fprintf(stderr, "usage: stencil [N >= 2P [ITERATIONS [SKEW >= 0]]]\n");
		MPI_Finalize();
		return 2;
	}
	lo = first_row(rank, p, n, skew);
	hi = first_row(rank + 1, p, n, skew);
	rows = hi - lo;
	up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	down = rank < p - 1 ? rank + 1 : MPI_PROC_NULL;
	/* rows + 2 halo rows; the grid's first row (rank 0's first) is hot */
	u = calloc((size_t)(rows + 2) * n, sizeof(double));
	v = calloc((size_t)(rows + 2) * n, sizeof(double));
	if (!u || !v)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (rank == 0)
		for (int j = 0; j < n; j++)
			u[n + j] = v[n + j] = 100;
	t0 = MPI_Wtime();
	for (int it = 0; it < iters; it++) {
		double local = 0;

		MPI_Sendrecv(u + n, n, MPI_DOUBLE, up, 0, u + (size_t)(rows + 1) * n, n,
			     MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(u + (size_t)rows * n, n, MPI_DOUBLE, down, 1, u, n, MPI_DOUBLE, up,
			     1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 1; i <= rows; i++) {
			if ((rank == 0 && i == 1) || (rank == p - 1 && i == rows))
				continue;	/* fixed boundary rows */
			for (int j = 1; j < n - 1; j++) {
				double *c = u + (size_t)i * n + j;
				double x = 0.25 * (c[-n] + c[n] + c[-1] + c[1]);

				local += (x - *c) * (x - *c);
				v[(size_t)i * n + j] = x;
			}
		}
		memcpy(u + n, v + n, sizeof(double) * (size_t)rows * n);
		if (it % 10 == 9)
			MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("stencil: %d x %d, %d ranks, %d iterations, skew %.2f: residual %.3e, "
		       "%.3f s\n", n, n, p, iters, skew, sqrt(res), MPI_Wtime() - t0);
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
