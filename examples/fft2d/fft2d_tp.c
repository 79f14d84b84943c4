/*
 * fft2d_tp.c — task-parallel 2D FFT (thesis section 3.2, Figures 6.1 and
 * 6.4): two tasks of p/2 threads each run as a pipeline over k matrices.
 * The first initialises a matrix and transforms its rows, then hands it
 * over (a flag per matrix, spin-waited on); the second transposes it and
 * transforms the rows of the transpose.
 *
 *   fft2d_tp [-n N] [-p P] [-k K]      the task-parallel program (P >= 2)
 *   fft2d_tp -f [-n N] [-p P] [-k K]   measure its fragments: each of the
 *                                      four loops alone on P threads, over
 *                                      the k matrices, one fragment tag each
 *
 * The lcm: comments carry each fragment's model, its data annotations and
 * the task structure's rules for "lostcycles compose --extract".
 * Build: cc -O2 -fopenmp fft2d_tp.c -llostcycles -lm
 */
#include <sched.h>
#include <stdatomic.h>

#include "fft2d.h"

/* lcm: size a = 16*n^2*k
   lcm: size b = 16*n^2*k */

/* The task-parallel program: two pipelined tasks of p/2 threads. */
static void task_parallel(struct fft2d *f)
{
	atomic_int *ready = calloc((size_t)f->k, sizeof(*ready));
	int threads = f->p / 2;

	if (!ready) {
		perror("fft2d_tp");
		exit(1);
	}
	omp_set_max_active_levels(2);
	/* lcm: name: tasks */
#pragma omp parallel sections num_threads(2)
	{
		/* lcm: name: task1 */
#pragma omp section
		{
			for (int m = 0; m < f->k; m++) {
				/* lcm: name: init
				   lcm: model init.model
				   lcm: output: a */
				LC_FRAGMENT_BEGIN(FRAG_INIT);
				loop_init(f, m, threads);
				LC_FRAGMENT_END(FRAG_INIT);
				/* lcm: name: rows
				   lcm: model cffts.model
				   lcm: input: a
				   lcm: output: a */
				LC_FRAGMENT_BEGIN(FRAG_ROWS);
				loop_cffts(f, f->a[m], threads);
				LC_FRAGMENT_END(FRAG_ROWS);
				atomic_store_explicit(&ready[m], 1, memory_order_release);
			}
		}
		/* lcm: name: task2
		   lcm: after: task1 / k */
#pragma omp section
		{
			for (int m = 0; m < f->k; m++) {
				if (!atomic_load_explicit(&ready[m], memory_order_acquire)) {
					LC_SYNC_BEGIN();
					while (!atomic_load_explicit(&ready[m], memory_order_acquire))
						sched_yield();
					LC_SYNC_END();
				}
				/* lcm: name: transpose
				   lcm: model transpose.model
				   lcm: input: a
				   lcm: output: b */
				LC_FRAGMENT_BEGIN(FRAG_TRANSPOSE);
				loop_transpose(f, m, threads);
				LC_FRAGMENT_END(FRAG_TRANSPOSE);
				/* lcm: name: cols
				   lcm: model cffts.model
				   lcm: input: b
				   lcm: output: b */
				LC_FRAGMENT_BEGIN(FRAG_COLS);
				loop_cffts(f, f->b[m], threads);
				LC_FRAGMENT_END(FRAG_COLS);
			}
		}
	}
	free(ready);
}

int main(int argc, char **argv)
{
	struct fft2d f = { 0 };
	int frag = 0;

	if (fft2d_opts(argc, argv, &f, &frag))
		return 2;
	if (!frag && f.p < 2) {
		fprintf(stderr, "fft2d_tp: the task-parallel version needs p >= 2 (two tasks)\n");
		return 2;
	}
	LC_TEAM(f.p);
	/* lcm: name: setup
	   lcm: model setup.model */
	LC_FRAGMENT_BEGIN(FRAG_SETUP);
	if (fft2d_setup(&f)) {
		fprintf(stderr, "fft2d_tp: out of memory\n");
		fft2d_free(&f);
		return 1;
	}
	LC_FRAGMENT_END(FRAG_SETUP);
	if (frag)
		fft2d_fragments(&f);
	else
		task_parallel(&f);
	printf("fft2d_tp%s: n=%d p=%d k=%d checksum %.6f\n", frag ? " -f" : "", f.n, f.p, f.k, fft2d_sum(&f));
	fft2d_free(&f);
	return 0;
}
