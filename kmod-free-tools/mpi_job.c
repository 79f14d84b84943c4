/*
 * mpi_job.c — LogGP files and the MPI helper files (see mpi_job.h).
 */
#include "mpi_job.h"

#include <errno.h>
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
	const char *e = getenv(LC_ENV_LOGGP), *x = getenv("XDG_CONFIG_HOME");

	if (e && *e)
		snprintf(buf, len, "%s", e);
	else if (x && *x)
		snprintf(buf, len, "%s/lostcycles/loggp", x);
	else
		snprintf(buf, len, "%s/.config/lostcycles/loggp",
			 getenv("HOME") ? getenv("HOME") : ".");
}

int lc_loggp_read(const char *path, struct lc_loggp *lg, char *msg, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int seen = 0, n = 0;

	if (!f)
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	*lg = (struct lc_loggp){ 0 };
	while (fgets(line, sizeof(line), f)) {
		char key[16];
		double v;

		n++;
		if (sscanf(line, " %15s", key) != 1 || key[0] == '#')
			continue;
		if (sscanf(line, " %15s %lf", key, &v) != 2 || !isfinite(v) || v < 0) {
			fclose(f);
			return lc_fail(msg, len, -EINVAL, "%s:%d: expected KEY VALUE with a "
				       "value >= 0", path, n);
		}
		if (!strcmp(key, "L"))
			lg->L = v, seen |= 1;
		else if (!strcmp(key, "o"))
			lg->o = v, seen |= 2;
		else if (!strcmp(key, "G"))
			lg->G = v, seen |= 4;
	}
	fclose(f);
	if (seen != 7)
		return lc_fail(msg, len, -EINVAL, "%s: needs the parameters L, o and G", path);
	return 0;
}

/* mkdir -p of the folder of path. */
static void make_folder(const char *path)
{
	char d[PATH_MAX];

	snprintf(d, sizeof(d), "%s", path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		mkdir(d, 0755);
		*p = '/';
	}
}

int lc_loggp_write(const char *path, const struct lc_loggp *lg, const char *note, char *msg,
		   size_t len)
{
	char tmp[4200];
	FILE *f;

	make_folder(path);
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	f = lc_out_fopen(tmp);	/* a new file, renamed over path when complete */
	if (!f)
		return lc_fail(msg, len, -errno, "%s: %s", tmp, strerror(errno));
	fprintf(f, "# lostcycles LogGP parameters: a message of k bytes ideally takes "
		   "L + o + k*G ns\n");
	if (note && *note)
		fprintf(f, "# %s\n", note);
	fprintf(f, "L %.10g\no %.10g\nG %.10g\n", lg->L, lg->o, lg->G);
	if (fclose(f) || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return lc_fail(msg, len, -e, "%s: %s", path, strerror(e));
	}
	return 0;
}

int lc_loggp_fit(const double *bytes, const double *t_ns, int n, double o,
		 struct lc_loggp *lg, char *msg, size_t len)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, d, a, b;

	/* weights 1/t^2: relative errors count, so small messages fix L + o
	 * and large ones G */
	for (int i = 0; i < n; i++) {
		double w = t_ns[i] > 0 ? 1 / (t_ns[i] * t_ns[i]) : 0;

		sw += w;
		sx += w * bytes[i];
		sy += w * t_ns[i];
		sxx += w * bytes[i] * bytes[i];
		sxy += w * bytes[i] * t_ns[i];
	}
	d = sw * sxx - sx * sx;
	if (n < 2 || d <= 0)
		return lc_fail(msg, len, -EINVAL, "a fit needs at least two message sizes");
	b = (sw * sxy - sx * sy) / d;
	a = (sy - b * sx) / sw;
	if (b < 0)
		return lc_fail(msg, len, -EINVAL, "time falls with message size (%.3g ns/byte): "
			       "the measurement is too noisy", b);
	lg->G = b;
	lg->o = o < a ? o : a;
	lg->L = a - lg->o > 0 ? a - lg->o : 0;
	return 0;
}

/* 0 when path names a readable file. */
static int usable(const char *path)
{
	return access(path, R_OK);
}

int lc_mpi_find(const char *name, const char *env, char *buf, size_t len, char *msg,
		size_t msglen)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;
	const char *e = env ? getenv(env) : NULL;

	if (e && *e) {
		snprintf(buf, len, "%s", e);
		if (!usable(buf))
			return 0;
		return lc_fail(msg, msglen, -ENOENT, "%s=%s: %s", env, e, strerror(errno));
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(buf, len, "%s/build/%s", exe, name);
			if (!usable(buf))
				return 0;
			snprintf(buf, len, "%s/../lib/%s", exe, name);
			if (!usable(buf))
				return 0;
		}
	}
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
