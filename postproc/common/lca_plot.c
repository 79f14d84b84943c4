/*
 * lca_plot.c — run gnuplot (see lca_plot.h).
 */
#include "lca_plot.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "lc_emit.h"
#include "lc_util.h"

/* Run "gnuplot -e SETUP gp" with stdout and stderr to /dev/null.  Returns
 * 0, -ENOENT when there is no gnuplot, -EIO when it exited non-zero. */
static int run_gnuplot(const char *setup, const char *gp)
{
	char *argv[] = { "gnuplot", "-e", (char *)setup, (char *)gp, NULL };
	struct lc_spawn_io io = { .out = "/dev/null", .err = "/dev/null" };
	pid_t pid = lc_spawn(argv, &io);
	int st;

	if (pid < 0)
		return pid;
	st = lc_wait_status(pid, 0, NULL);
	return st < 0 ? st : st == 0 ? 0 : -EIO;
}

/* Run gnuplot for png with pngcairo, else the plain png terminal. */
static int plot_tries(const char *gp, const char *png)
{
	char setup[2][8500];
	int rc = 0;

	for (int i = 0; i < 2; i++) {	/* the output's name quoted for gnuplot */
		FILE *m = fmemopen(setup[i], sizeof(setup[i]), "w");

		if (!m)
			return -errno;
		fprintf(m, "set terminal %s size 900,600; set output ", i ? "png" : "pngcairo");
		lc_emit_gnuplot_str(m, png);
		rc = ferror(m);
		if (fclose(m) || rc)
			return -ENAMETOOLONG;
	}
	rc = run_gnuplot(setup[0], gp);
	if (rc != -EIO)
		return rc;
	return run_gnuplot(setup[1], gp);
}

/* Prepare the files of a plot.  See lca_plot.h. */
int lc_plot_prepare(const char *gp, const char *data, const char *png, enum lc_out_mode how,
		    char *msg, size_t len)
{
	const char *paths[] = { gp, data, png };
	int rc;

	for (int i = 0; i < 3; i++)
		if (paths[i] && (rc = lc_out_prepare(paths[i], how, msg, len)))
			return rc;
	return 0;
}

/* Make a PNG from a gnuplot script.  See lca_plot.h. */
int lc_plot_png(const char *gp, const char *png)
{
	int rc = lc_out_create(png, 0644);

	if (rc < 0)
		return rc;
	close(rc);
	rc = plot_tries(gp, png);
	if (rc == -ENOENT)
		unlink(png);
	return rc;
}
