/*
 * calib_mpi.c — the ping-pong of "lostcycles calibrate --mpi" (see
 * lc_calib_mpi.h).
 */
#include "lc_calib_mpi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_util.h"

char **lc_pingpong_argv(char **launcher, int n, const char *prog, const char *max)
{
	static char *const deflt[] = { "mpiexec", "-n", "2" };
	char **argv = calloc((size_t)(n > 3 ? n : 3) + 3, sizeof(*argv));
	int k = 0;

	if (!argv)
		return NULL;
	for (int i = 0; i < (n ? n : 3); i++)
		argv[k++] = n ? launcher[i] : deflt[i];
	argv[k++] = (char *)prog;
	argv[k++] = (char *)max;
	return argv;
}

/* Take one line of the ping-pong's output into p. */
static void take_line(const char *line, struct lc_pingpong *p)
{
	double a, b;

	if (sscanf(line, "overhead_ns %lf", &a) == 1) {
		p->o = a;
		p->have_o = 1;
	} else if (sscanf(line, "size %lf oneway_ns %lf", &a, &b) == 2 && p->n < LC_PINGPONG_MAX) {
		p->bytes[p->n] = a;
		p->t[p->n++] = b;
	}
}

/* Read the lines of fd (closing it) into p. */
static void read_lines(int fd, struct lc_pingpong *p)
{
	FILE *f = fdopen(fd, "r");
	char line[256];

	if (!f) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f))
		take_line(line, p);
	fclose(f);
}

int lc_pingpong_run(char **argv, struct lc_pingpong *p)
{
	struct lc_spawn_io io = { 0 };
	int fd[2];
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	io.out_fd = fd[1];
	pid = lc_spawn(argv, &io);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return pid;
	}
	read_lines(fd[0], p);
	return lc_wait_status(pid, 0, NULL);
}

int lc_pingpong_fit(const struct lc_pingpong *p, struct lc_loggp *lg, int *clamped, char *msg,
		    size_t len)
{
	if (!p->have_o)
		return lc_fail(msg, len, -ENODATA, "the ping-pong printed no measurement");
	return lc_loggp_fit(p->bytes, p->t, p->n, p->o, lg, clamped, msg, len);
}

void lc_pingpong_print(FILE *out, const struct lc_pingpong *p, const struct lc_loggp *lg,
		       const char *path)
{
	double worst = 0;

	fprintf(out, "%12s %14s %14s %8s\n", "bytes", "measured(us)", "model(us)", "ratio");
	for (int i = 0; i < p->n; i++) {
		double m = lc_loggp_time(lg, p->bytes[i]), r = p->t[i] > 0 ? m / p->t[i] : 1;

		fprintf(out, "%12.0f %14.3f %14.3f %8.3f\n", p->bytes[i], p->t[i] / 1e3, m / 1e3, r);
		r = r < 1 ? 1 / r : r;
		if (r > worst)
			worst = r;
	}
	fprintf(out, "L = %.1f ns, o = %.1f ns, G = %.4f ns/byte (%.2f GB/s)", lg->L, lg->o, lg->G,
		lg->G > 0 ? 1 / lg->G : 0.0);
	if (lg->S > 0)
		fprintf(out, "; from %.0f bytes on (protocol switch): Ls = %.1f ns, Gs = %.4f ns/byte "
			"(%.2f GB/s)", lg->S, lg->Ls, lg->Gs, lg->Gs > 0 ? 1 / lg->Gs : 0.0);
	fprintf(out, "\nworst size off the model by a factor %.2f; written to %s\n", worst, path);
}

/* The ping-pong program and the LogGP file of rq.  0, or -1 with the
 * reason. */
static int mpi_paths(const struct lc_calib_mpi_req *rq, char *prog, char *out, size_t plen,
		     char *msg, size_t len)
{
	if (lc_mpi_find("lostcycles-pingpong", NULL, prog, plen, msg, len) ||
	    (rq->out && !rq->force && lc_out_prepare(rq->out, LC_OUT_KEEP, msg, len)))
		return -1;
	if (rq->out)
		snprintf(out, plen, "%s", rq->out);
	else
		lc_loggp_default_path(out, plen);
	return 0;
}

/* Run the ping-pong program prog into *p.  0, or -1 with the reason. */
static int mpi_measure(const struct lc_calib_mpi_req *rq, const char *prog, struct lc_pingpong *p,
		       char *msg, size_t len)
{
	char max[32], **cmd;
	int st;

	snprintf(max, sizeof(max), "%llu", (unsigned long long)rq->max);
	cmd = lc_pingpong_argv(rq->launcher, rq->nlauncher, prog, max);
	st = cmd ? lc_pingpong_run(cmd, p) : -ENOMEM;
	if (st < 0)
		lc_fail(msg, len, -1, "the ping-pong failed: cannot run %s: %s", cmd ? cmd[0] : "it",
			strerror(-st));
	else if (st)
		lc_fail(msg, len, -1, "the ping-pong failed (exit status %d)", st);
	free(cmd);
	return st ? -1 : 0;
}

int lc_calib_mpi(const struct lc_calib_mpi_req *rq, FILE *out, struct lc_pingpong *p,
		 struct lc_loggp *lg, int *clamped, char *msg, size_t len)
{
	char path[4096], prog[4096], note[256];

	if (mpi_paths(rq, prog, path, sizeof(path), msg, len) || mpi_measure(rq, prog, p, msg, len))
		return -1;
	snprintf(note, sizeof(note), "from a ping-pong of %d sizes up to %llu bytes", p->n,
		 (unsigned long long)rq->max);
	if (lc_pingpong_fit(p, lg, clamped, msg, len) || lc_loggp_write(path, lg, note, msg, len))
		return -1;
	lc_pingpong_print(out, p, lg, path);
	return 0;
}
