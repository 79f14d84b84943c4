/*
 * lc_calib_mpi.h — "lostcycles calibrate --mpi": run the ping-pong
 * (kmod-free-tools/mpi/pingpong.c, two ranks under the MPI launcher), read
 * its points, fit the LogGP parameters (mpi_job.c) and print the table of
 * measured against modelled times.  Nothing here prints but the table.
 */
#ifndef LC_CALIB_MPI_H
#define LC_CALIB_MPI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpi_job.h"

#define LC_PINGPONG_MAX 32

/* The ping-pong's measurement. */
struct lc_pingpong {
	double o;		/* the per-message overhead, ns */
	int have_o;
	int n;
	double bytes[LC_PINGPONG_MAX], t[LC_PINGPONG_MAX];	/* size, one-way ns */
};

/* The command that runs the ping-pong program prog with the largest size
 * max: the launcher words launcher[0..n) (none: mpiexec -n 2), then prog
 * and max.  A NULL-terminated array to free(); NULL when out of memory. */
char **lc_pingpong_argv(char **launcher, int n, const char *prog, const char *max);

/* Run argv with its stdout into a pipe and read the ping-pong's lines
 * ("overhead_ns O", "size B oneway_ns T") into *p.  Returns the command's
 * status as a shell reports it, or -errno when it could not run (-ENOENT:
 * no such program). */
int lc_pingpong_run(char **argv, struct lc_pingpong *p);

/* Fit lg to p (lc_loggp_fit); *clamped as there.  0, or -errno with the
 * reason. */
int lc_pingpong_fit(const struct lc_pingpong *p, struct lc_loggp *lg, int *clamped, char *msg,
		    size_t len);

/* Print each size's measured and modelled time, the parameters and the
 * worst ratio, and where they were written (path), to out. */
void lc_pingpong_print(FILE *out, const struct lc_pingpong *p, const struct lc_loggp *lg,
		       const char *path);

/* What calibrate --mpi measures: the launcher words (none: mpiexec -n 2),
 * the largest message in bytes, and where the parameters go (NULL: the
 * default file; an existing -o FILE is kept unless force). */
struct lc_calib_mpi_req {
	char **launcher;
	int nlauncher;
	uint64_t max;
	const char *out;
	int force;
};

/* Run the ping-pong into *p, fit *lg (*clamped as lc_loggp_fit's), write
 * the file and print the table to out.  0, or -1 with the reason in msg. */
int lc_calib_mpi(const struct lc_calib_mpi_req *rq, FILE *out, struct lc_pingpong *p,
		 struct lc_loggp *lg, int *clamped, char *msg, size_t len);

#endif /* LC_CALIB_MPI_H */
