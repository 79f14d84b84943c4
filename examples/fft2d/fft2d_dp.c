/*
 * fft2d_dp.c — data-parallel 2D FFT (thesis Figure 6.7): the same four
 * loops as fft2d_tp.c, moved with their lcm: comments into one sequence,
 * each on all p threads, matrix after matrix.
 *
 *   fft2d_dp [-n N] [-p P] [-k K]
 *
 * Build: cc -O2 -fopenmp fft2d_dp.c -llostcycles -lm
 */
#include "fft2d.h"

/* lcm: size a = 16*n^2*k
   lcm: size b = 16*n^2*k */

/* The data-parallel program: the four loops in sequence on p threads. */
static void data_parallel(struct fft2d *f)
{
	int threads = f->p;

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

int main(int argc, char **argv)
{
	struct fft2d f = { 0 };

	if (fft2d_opts(argc, argv, &f, NULL))
		return 2;
	LC_TEAM(f.p);
	/* lcm: name: setup
	   lcm: model setup.model */
	LC_FRAGMENT_BEGIN(FRAG_SETUP);
	if (fft2d_setup(&f)) {
		fprintf(stderr, "fft2d_dp: out of memory\n");
		fft2d_free(&f);
		return 1;
	}
	LC_FRAGMENT_END(FRAG_SETUP);
	data_parallel(&f);
	printf("fft2d_dp: n=%d p=%d k=%d checksum %.6f\n", f.n, f.p, f.k, fft2d_sum(&f));
	fft2d_free(&f);
	return 0;
}
