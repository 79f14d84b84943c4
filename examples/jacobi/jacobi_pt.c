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

static void *work(void *arg)
{
	struct worker *w = arg;
	struct grid *g = w->g;
	long rows = g->n - 2, lo = 1 + rows * w->id / g->p, hi = 1 + rows * (w->id + 1) / g->p;

	for (long s = 0; s < g->steps; s++) {
		const double *src = s % 2 ? g->b : g->a;

		sweep_rows(src, s % 2 ? g->a : g->b, g->n, lo, hi);
		pthread_barrier_wait(&g->bar);
	}
	return NULL;
}

static int setup(struct grid *g)
{
	size_t cells = (size_t)(g->n * g->n);

	g->a = calloc(cells, sizeof(double));
	g->b = calloc(cells, sizeof(double));
	if (!g->a || !g->b)
		return -1;
	for (long j = 0; j < g->n; j++)
		g->a[j] = g->b[j] = 1.0;	/* a hot top edge */
	for (size_t k = (size_t)g->n; k < cells; k++)
		g->a[k] = g->b[k] = (double)(k % 7) * 1e-3;
	return 0;
}

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

static int args(int argc, char **argv, struct grid *g)
{
	int c;

	while ((c = getopt(argc, argv, "n:p:s:")) != -1) {
		if (c == 'n')
			g->n = strtol(optarg, NULL, 10);
		else if (c == 'p')
			g->p = (int)strtol(optarg, NULL, 10);
		else if (c == 's')
			g->steps = strtol(optarg, NULL, 10);
		else
			return -1;
	}
	return g->n >= 3 && g->n <= 32768 && g->p >= 1 && g->p <= 64 && g->steps >= 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct grid g = { .n = 0, .p = 1, .steps = 100 };
	double sum = 0;

	if (args(argc, argv, &g)) {
		fprintf(stderr, "usage: jacobi_pt -n N -p P [-s STEPS]  (3 <= N <= 32768, 1 <= P <= 64)\n");
		return 2;
	}
	if (setup(&g) || solve(&g)) {
		fprintf(stderr, "jacobi_pt: out of memory or threads\n");
		return 1;
	}
	for (long k = 0; k < g.n * g.n; k += 97)
		sum += (g.steps % 2 ? g.b : g.a)[k];
	printf("checksum %.9g\n", sum);
	free(g.a);
	free(g.b);
	return 0;
}
