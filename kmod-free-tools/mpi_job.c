/*
 * mpi_job.c — LogGP files and the MPI helper files (see mpi_job.h).
 */
#include "mpi_job.h"

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_util.h"

#ifndef LC_LIBDIR
#define LC_LIBDIR "/usr/local/lib"
#endif

void lc_loggp_default_path(char *buf, size_t len)
{
	lc_config_path("loggp", LC_ENV_LOGGP, buf, len);
}

double lc_loggp_time(const struct lc_loggp *lg, double k)
{
	if (lg->S > 0 && k >= lg->S)
		return lg->Ls + lg->o + k * lg->Gs;
	return lg->L + lg->o + k * lg->G;
}

/* The parameters of a LogGP file by key; bit i of "seen" is row i's. */
static const struct {
	const char *key;
	size_t off;
} loggp_keys[] = {
	{ "L", offsetof(struct lc_loggp, L) },	 { "o", offsetof(struct lc_loggp, o) },
	{ "G", offsetof(struct lc_loggp, G) },	 { "S", offsetof(struct lc_loggp, S) },
	{ "Ls", offsetof(struct lc_loggp, Ls) }, { "Gs", offsetof(struct lc_loggp, Gs) },
};

/* Parameter key (unknown keys, later additions, are ignored) = v into lg;
 * its bit into *seen. */
static void loggp_set(struct lc_loggp *lg, const char *key, double v, int *seen)
{
	for (size_t i = 0; i < sizeof(loggp_keys) / sizeof(loggp_keys[0]); i++)
		if (!strcmp(key, loggp_keys[i].key)) {
			*(double *)(void *)((char *)lg + loggp_keys[i].off) = v;
			*seen |= 1 << i;
		}
}

/* The parameters of the lines of f into lg, their bits into *seen.  0, or
 * the number of the first line that is not KEY VALUE (a value >= 0). */
static int loggp_lines(FILE *f, struct lc_loggp *lg, int *seen)
{
	char line[256], key[16];
	double v;

	for (int n = 1; fgets(line, sizeof(line), f); n++) {
		if (sscanf(line, " %15s", key) != 1 || key[0] == '#')
			continue;
		if (sscanf(line, " %15s %lf", key, &v) != 2 || !isfinite(v) || v < 0)
			return n;
		loggp_set(lg, key, v, seen);
	}
	return 0;
}

int lc_loggp_read(const char *path, struct lc_loggp *lg, char *msg, size_t len)
{
	FILE *f = fopen(path, "r");
	int seen = 0, bad;

	if (!f)
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	*lg = (struct lc_loggp){ 0 };
	bad = loggp_lines(f, lg, &seen);
	fclose(f);
	if (bad)
		return lc_fail(msg, len, -EINVAL, "%s:%d: expected KEY VALUE with a value >= 0",
			       path, bad);
	if ((seen & 7) != 7)
		return lc_fail(msg, len, -EINVAL, "%s: needs the parameters L, o and G", path);
	if ((seen & 56) != 0 && ((seen & 56) != 56 || lg->S <= 0))
		return lc_fail(msg, len, -EINVAL, "%s: S (> 0), Ls and Gs go together: the "
			       "protocol switch and the line from it on", path);
	return 0;
}

/* What lc_loggp_write writes (lc_replace_file's writer). */
struct loggp_text {
	const struct lc_loggp *lg;
	const char *note;
};

static int write_loggp(FILE *f, void *arg)
{
	const struct loggp_text *t = arg;
	const struct lc_loggp *lg = t->lg;

	fprintf(f, "# lostcycles LogGP parameters: a message of k bytes ideally takes "
		   "L + o + k*G ns\n");
	if (t->note && *t->note)
		fprintf(f, "# %s\n", t->note);
	fprintf(f, "L %.10g\no %.10g\nG %.10g\n", lg->L, lg->o, lg->G);
	if (lg->S > 0)
		fprintf(f, "# from S bytes on (the MPI library's switch of protocol): "
			   "Ls + o + k*Gs ns\nS %.10g\nLs %.10g\nGs %.10g\n", lg->S, lg->Ls,
			lg->Gs);
	return 0;
}

int lc_loggp_write(const char *path, const struct lc_loggp *lg, const char *note, char *msg,
		   size_t len)
{
	struct loggp_text t = { lg, note };
	int e = lc_replace_file(path, write_loggp, &t);

	return e ? lc_fail(msg, len, e, "%s: %s", path, strerror(-e)) : 0;
}

/* Least squares of the relative errors (weights 1/t^2) of the line a + b k
 * through points [i0, i1).  Returns 0, or -1 when they fix no line. */
static int line_fit(const double *k, const double *t, int i0, int i1, double *a, double *b)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, d;

	for (int i = i0; i < i1; i++) {
		double w = t[i] > 0 ? 1 / (t[i] * t[i]) : 0;

		sw += w;
		sx += w * k[i];
		sy += w * t[i];
		sxx += w * k[i] * k[i];
		sxy += w * k[i] * t[i];
	}
	d = sw * sxx - sx * sx;
	if (i1 - i0 < 2 || d <= 0 || sw <= 0)
		return -1;
	*b = (sw * sxy - sx * sy) / d;
	*a = (sy - *b * sx) / sw;
	return 0;
}

/* The largest relative error of the line a + b k over points [i0, i1). */
static double worst(const double *k, const double *t, int i0, int i1, double a, double b)
{
	double m = 0;

	for (int i = i0; i < i1; i++) {
		double e = t[i] > 0 ? fabs(a + b * k[i] - t[i]) / t[i] : 0;

		if (e > m)
			m = e;
	}
	return m;
}

/* Where one line (worst point off by best) is better split in two at the
 * protocol switch: the first size of the second line, when one line misses
 * a point by more than 10 % and two miss less; else 0. */
static int best_split(const double *bytes, const double *t_ns, int n, double best)
{
	int split = 0;

	for (int j = 2; best > 0.10 && j <= n - 2; j++) {
		double a1, b1, a2, b2, w;

		if (line_fit(bytes, t_ns, 0, j, &a1, &b1) || line_fit(bytes, t_ns, j, n, &a2, &b2) ||
		    b1 < 0 || b2 < 0)
			continue;
		w = fmax(worst(bytes, t_ns, 0, j, a1, b1), worst(bytes, t_ns, j, n, a2, b2));
		if (w < best) {
			best = w;
			split = j;
		}
	}
	return split;
}

/* lg from the line a + k b (and from S bytes on, S > 0, a2 + k b2) with
 * the overhead o measured.  o is part of the intercept: measured above it
 * (a busy machine), it is cut to the intercept and L is 0.  Returns
 * whether a latency was clamped so. */
static int loggp_of(struct lc_loggp *lg, double o, double a, double b, double S, double a2,
		    double b2)
{
	int clamped = o > a;

	*lg = (struct lc_loggp){ .G = b, .o = o < a ? o : a };
	lg->L = a - lg->o > 0 ? a - lg->o : 0;
	if (S > 0) {
		lg->S = S;
		lg->Gs = b2;
		lg->Ls = a2 - lg->o > 0 ? a2 - lg->o : 0;
		clamped |= a2 < lg->o;
	}
	return clamped;
}

int lc_loggp_fit(const double *bytes, const double *t_ns, int n, double o,
		 struct lc_loggp *lg, int *clamped, char *msg, size_t len)
{
	double a, b, a2 = 0, b2 = 0;
	int split;

	*clamped = 0;
	if (n < 2 || line_fit(bytes, t_ns, 0, n, &a, &b))
		return lc_fail(msg, len, -EINVAL, "a fit needs at least two message sizes");
	split = best_split(bytes, t_ns, n, worst(bytes, t_ns, 0, n, a, b));
	if (split) {
		line_fit(bytes, t_ns, 0, split, &a, &b);
		line_fit(bytes, t_ns, split, n, &a2, &b2);
	}
	if (b < 0)
		return lc_fail(msg, len, -EINVAL, "time falls with message size (%.3g ns/byte): "
			       "the measurement is too noisy", b);
	*clamped = loggp_of(lg, o, a, b, split ? bytes[split] : 0, a2, b2);
	return 0;
}

/* 0 when path names a readable file. */
static int usable(const char *path)
{
	return access(path, R_OK);
}

/* name in build/ beside this program (a build tree) or in ../lib (an
 * installation) into buf; 0 when readable there. */
static int beside_exe(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = 0;
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = 0;
	snprintf(buf, len, "%s/build/%s", exe, name);
	if (!usable(buf))
		return 0;
	snprintf(buf, len, "%s/../lib/%s", exe, name);
	return usable(buf);
}

int lc_mpi_find(const char *name, const char *env, char *buf, size_t len, char *msg,
		size_t msglen)
{
	const char *e = env ? getenv(env) : NULL;

	if (e && *e) {
		snprintf(buf, len, "%s", e);
		if (!usable(buf))
			return 0;
		return lc_fail(msg, msglen, -ENOENT, "%s=%s: %s", env, e, strerror(errno));
	}
	if (!beside_exe(name, buf, len))
		return 0;
	snprintf(buf, len, "%s/%s", LC_LIBDIR, name);
	if (!usable(buf))
		return 0;
	return lc_fail(msg, msglen, -ENOENT, "%s not found beside lostcycles or in %s "
		       "(was lostcycles built with mpicc present?)", name, LC_LIBDIR);
}

int lc_mpi_setup(struct lc_mpi_setup *m, const char *loggp, char *msg, size_t len)
{
	const char *old = getenv("LD_PRELOAD");
	struct lc_loggp lg;
	char why[512], *pre;
	int r;

	*m = (struct lc_mpi_setup){ 0 };
	r = lc_mpi_find("liblostcycles-mpi.so", LC_ENV_MPI_LIB, m->layer, sizeof(m->layer), msg,
			len);
	if (r)
		return r;
	if (loggp)
		snprintf(m->loggp, sizeof(m->loggp), "%s", loggp);
	else
		lc_loggp_default_path(m->loggp, sizeof(m->loggp));
	r = lc_loggp_read(m->loggp, &lg, why, sizeof(why));
	if (r == -ENOENT && !loggp) {
		snprintf(m->warning, sizeof(m->warning), "%s: no LogGP parameters (run "
			 "'lostcycles calibrate --mpi'): communication loss is na", m->loggp);
		m->loggp[0] = 0;
		unsetenv(LC_ENV_LOGGP);
	} else if (r) {
		return lc_fail(msg, len, r, "%s", why);
	} else {
		m->have_loggp = 1;
		setenv(LC_ENV_LOGGP, m->loggp, 1);
	}
	if (asprintf(&pre, "%s%s%s", m->layer, old && *old ? ":" : "", old ? old : "") < 0)
		return lc_fail(msg, len, -ENOMEM, "out of memory");
	setenv("LD_PRELOAD", pre, 1);
	free(pre);
	return 0;
}
