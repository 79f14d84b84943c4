/*
 * jacobi_pt.c — a plain pthread Jacobi solver, with no lostcycles code in
 * it: the pthread layer (lostcycles record --pthread) sets the flags at its
 * barrier and thread starts.  P threads each sweep a band of rows of an
 * N x N grid, S times, with a barrier after each sweep; the main thread
 * allocates and sets the grid up first, serially.
 *
 *   jacobi_pt -n N -p P [-s STEPS]     (STEPS default 100)
 *
 * Prints the grid's checksum.  The held-out test of a fitted model
 * (docs/models.md, examples/jacobi/held-out.sh) predicts it at twice the
 * largest n it was fitted on.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct grid {
	double *a, *b;
	long n, steps;
	int p;
	pthread_barrier_t bar;
};

struct worker {
	struct grid *g;
	int id;
};

/* Rows [lo, hi) of src into dst (the border stays). */
static void sweep_rows(const double *src, double *dst, long n, long lo, long hi)
{
	for (long i = lo; i < hi; i++)
		for (long j = 1; j < n - 1; j++)
			dst[i * n + j] = 0.25 * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
						 src[i * n + j - 1] + src[i * n + j + 1]);
}

/* The rows [*lo, *hi) of thread id's band. */
static void band(const struct grid *g, int id, long *lo, long *hi)
{
	long rows = g->n - 2;

	*lo = 1 + rows * id / g->p;
	*hi = 1 + rows * (id + 1) / g->p;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct grid *g = w->g;
	long lo, hi;

	band(g, w->id, &lo, &hi);
	for (long s = 0; s < g->steps; s++) {
		sweep_rows(s % 2 ? g->b : g->a, s % 2 ? g->a : g->b, g->n, lo, hi);
		pthread_barrier_wait(&g->bar);
	}
	return NULL;
}

/* Both grids: a hot top edge, small values elsewhere. */
static void fill(struct grid *g)
{
	size_t cells = (size_t)(g->n * g->n);

	for (long j = 0; j < g->n; j++)
		g->a[j] = g->b[j] = 1.0;
	for (size_t k = (size_t)g->n; k < cells; k++)
		g->a[k] = g->b[k] = (double)(k % 7) * 1e-3;
}

static int setup(struct grid *g)
{
	g->a = calloc((size_t)(g->n * g->n), sizeof(double));
	g->b = calloc((size_t)(g->n * g->n), sizeof(double));
	if (!g->a || !g->b)
		return -1;
	fill(g);
	return 0;
}

/* Start the p threads and join them.  0, or -1 when one did not start. */
static int solve(struct grid *g)
{
	pthread_t th[64];
	struct worker w[64];
	int started = 0;

	if (pthread_barrier_init(&g->bar, NULL, (unsigned)g->p))
		return -1;
	for (; started < g->p; started++) {
		w[started] = (struct worker){ .g = g, .id = started };
		if (pthread_create(&th[started], NULL, work, &w[started]))
			break;
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&g->bar);
	return started == g->p ? 0 : -1;
}

/* Option c's value into g.  0, or -1 for an unknown option. */
static int option(int c, const char *v, struct grid *g)
{
	if (c == 'n')
		g->n = strtol(v, NULL, 10);
	else if (c == 'p')
		g->p = (int)strtol(v, NULL, 10);
	else if (c == 's')
		g->steps = strtol(v, NULL, 10);
	return c == 'n' || c == 'p' || c == 's' ? 0 : -1;
}

static int args(int argc, char **argv, struct grid *g)
{
	int c;

	while ((c = getopt(argc, argv, "n:p:s:")) != -1)
		if (option(c, optarg, g))
			return -1;
	return g->n >= 3 && g->n <= 32768 && g->p >= 1 && g->p <= 64 && g->steps >= 1 ? 0 : -1;
}

/* A sample of the final grid's cells, summed. */
static double checksum(const struct grid *g)
{
	const double *x = g->steps % 2 ? g->b : g->a;
	double sum = 0;

	for (long k = 0; k < g->n * g->n; k += 97)
		sum += x[k];
	return sum;
}

int main(int argc, char **argv)
{
	struct grid g = { .n = 0, .p = 1, .steps = 100 };
	int rc = 0;

	if (args(argc, argv, &g)) {
		fprintf(stderr, "usage: jacobi_pt -n N -p P [-s STEPS]  (3 <= N <= 32768, 1 <= P <= 64)\n");
		return 2;
	}
	if (setup(&g) || solve(&g)) {
		fprintf(stderr, "jacobi_pt: out of memory or threads\n");
		rc = 1;
	} else {
		printf("checksum %.9g\n", checksum(&g));
	}
	free(g.a);
	free(g.b);
	return rc;
}
