/*
 * fft2d.h — the parts the two 2D FFT programs share (thesis section 3.2 and
 * chapter 6): k complex n x n matrices, each initialised, transformed along
 * its rows (1D FFTs), transposed and transformed along its rows again.
 * Each step is a parallel loop (OpenMP, static schedule) on a given number
 * of threads, instrumented with the lostcycles flags: a thread is busy in
 * its share of the loop and idle from the end of its share to the loop's
 * barrier; parallel work exists while a loop runs.
 *
 * The fragment tags (LC_FRAGMENT_BEGIN/END) mark the loops for
 * "lostcycles report -t TAG".
 */
#ifndef FFT2D_H
#define FFT2D_H

#include <complex.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lostcycles.h"

/* The fragment tags.  FRAG_SETUP marks the serial set-up in main(); its
 * model covers everything outside the four loops (process start, set-up,
 * checksum, exit), so it is fitted to a run's total minus the loops'. */
enum { FRAG_INIT = 1, FRAG_ROWS = 2, FRAG_TRANSPOSE = 3, FRAG_COLS = 4, FRAG_SETUP = 5 };

typedef double complex cplx;

/* The problem: k matrices of n x n, and the twiddle factors. */
struct fft2d {
	int n, k, p;
	cplx **a, **b;		/* a[m]: initialised and row-transformed; b[m]: transposed */
	cplx *w;		/* w[j] = exp(-2 pi i j / n), j < n/2 */
};

/* Parse a whole number option in [lo, hi]. */
static int fft2d_num(const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "fft2d: %s wants a whole number in %ld..%ld, not '%s'\n", opt, lo, hi, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Allocate the matrices and twiddles; 0 or -1. */
static int fft2d_setup(struct fft2d *f)
{
	size_t nn = (size_t)f->n * (size_t)f->n;

	if (f->n < 2 || (f->n & (f->n - 1))) {
		fprintf(stderr, "fft2d: n must be a power of two >= 2\n");
		return -1;
	}
	f->a = calloc((size_t)f->k, sizeof(*f->a));
	f->b = calloc((size_t)f->k, sizeof(*f->b));
	f->w = malloc(sizeof(cplx) * (size_t)(f->n / 2));
	if (!f->a || !f->b || !f->w)
		return -1;
	for (int m = 0; m < f->k; m++)
		if (!(f->a[m] = malloc(sizeof(cplx) * nn)) || !(f->b[m] = malloc(sizeof(cplx) * nn)))
			return -1;
	for (int j = 0; j < f->n / 2; j++)
		f->w[j] = cexp(-2.0 * M_PI * I * j / f->n);
	return 0;
}

/* Free what fft2d_setup allocated. */
static void fft2d_free(struct fft2d *f)
{
	for (int m = 0; f->a && m < f->k; m++) {
		free(f->a[m]);
		free(f->b[m]);
	}
	free(f->a);
	free(f->b);
	free(f->w);
}

/* In-place radix-2 FFT of x[0..n). */
static void fft1d(cplx *x, int n, const cplx *w)
{
	for (int i = 1, j = 0; i < n; i++) {
		int bit = n >> 1;

		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			cplx t = x[i];

			x[i] = x[j];
			x[j] = t;
		}
	}
	for (int len = 2; len <= n; len <<= 1) {
		int step = n / len;

		for (int i = 0; i < n; i += len)
			for (int j = 0; j < len / 2; j++) {
				cplx u = x[i + j], v = x[i + j + len / 2] * w[j * step];

				x[i + j] = u + v;
				x[i + j + len / 2] = u - v;
			}
	}
}

/* The parallel loop of one step on threads threads: rows [lo, hi) of each
 * thread's static share.  STEP is a statement using r (the row). */
#define FFT2D_LOOP(threads, n, STEP)						\
	do {									\
		LC_PARALLEL_BEGIN();						\
		_Pragma("omp parallel num_threads(threads)")			\
		{								\
			LC_BUSY();						\
			_Pragma("omp for schedule(static) nowait")		\
			for (int r = 0; r < (n); r++) {				\
				STEP;						\
			}							\
			LC_IDLE();						\
		}								\
		LC_PARALLEL_END();						\
	} while (0)

/* Initialise matrix m: a deterministic signal. */
static void loop_init(struct fft2d *f, int m, int threads)
{
	int n = f->n;
	cplx *a = f->a[m];

	FFT2D_LOOP(threads, n, for (int c = 0; c < n; c++)
		a[(size_t)r * n + c] = sin(0.01 * (r + 1) * (c + m + 1)) + I * cos(0.02 * r * c));
}

/* 1D FFTs of the rows of x. */
static void loop_cffts(struct fft2d *f, cplx *x, int threads)
{
	int n = f->n;

	FFT2D_LOOP(threads, n, fft1d(x + (size_t)r * n, n, f->w));
}

/* b[m] = a[m] transposed. */
static void loop_transpose(struct fft2d *f, int m, int threads)
{
	int n = f->n;
	const cplx *a = f->a[m];
	cplx *b = f->b[m];

	FFT2D_LOOP(threads, n, for (int c = 0; c < n; c++) b[(size_t)r * n + c] = a[(size_t)c * n + r]);
}

/* A checksum of the results, the same for both versions. */
static double fft2d_sum(const struct fft2d *f)
{
	double s = 0;

	for (int m = 0; m < f->k; m++)
		for (size_t i = 0; i < (size_t)f->n * f->n; i += 97)
			s += cabs(f->b[m][i]);
	return s;
}

/* The row FFTs of matrix m (in a) and the column FFTs (rows of b), as
 * loops over a matrix number like loop_init and loop_transpose. */
static void loop_rows(struct fft2d *f, int m, int threads)
{
	loop_cffts(f, f->a[m], threads);
}

static void loop_cols(struct fft2d *f, int m, int threads)
{
	loop_cffts(f, f->b[m], threads);
}

/* One fragment measured alone: loop over the k matrices, under tag. */
static inline void fragment_alone(struct fft2d *f, int tag, void (*loop)(struct fft2d *, int, int))
{
	LC_FRAGMENT_BEGIN(tag);
	for (int m = 0; m < f->k; m++)
		loop(f, m, f->p);
	LC_FRAGMENT_END(tag);
}

/* Measuring the fragments (fft2d_tp -f): each loop alone on all p threads,
 * over the k matrices, under its own tag.  Kept here, out of the programs'
 * sources, so that "lostcycles compose --extract" sees only their structure. */
static inline void fft2d_fragments(struct fft2d *f)
{
	fragment_alone(f, FRAG_INIT, loop_init);
	fragment_alone(f, FRAG_ROWS, loop_rows);
	fragment_alone(f, FRAG_TRANSPOSE, loop_transpose);
	fragment_alone(f, FRAG_COLS, loop_cols);
}

/* Parse -n N -p P -k K and the flags in extra (each sets *flag). */
static int fft2d_opts(int argc, char **argv, struct fft2d *f, int *frag)
{
	int c;

	f->n = 256;
	f->p = 2;
	f->k = 4;
	while ((c = getopt(argc, argv, "n:p:k:f")) != -1) {
		switch (c) {
		case 'n': if (fft2d_num("-n", optarg, 2, 8192, &f->n)) return -1; break;
		case 'p': if (fft2d_num("-p", optarg, 1, 1024, &f->p)) return -1; break;
		case 'k': if (fft2d_num("-k", optarg, 1, 1024, &f->k)) return -1; break;
		case 'f': if (frag) { *frag = 1; break; } /* fall through */
		default:
			fprintf(stderr, "usage: %s [-n N] [-p P] [-k K]%s\n", argv[0], frag ? " [-f]" : "");
			return -1;
		}
	}
	return 0;
}

#endif
