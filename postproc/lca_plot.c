/*
 * lca_plot.c — run gnuplot (see lca_plot.h).
 */
#include "lca_plot.h"
#include "gp_quote.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Run "gnuplot -e SETUP gp" with stdout and stderr to /dev/null.  Returns
 * 0, -ENOENT when there is no gnuplot, -EIO when it exited non-zero. */
static int run_gnuplot(const char *setup, const char *gp)
{
	char *argv[] = { "gnuplot", "-e", (char *)setup, (char *)gp, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return rc == ENOENT ? -ENOENT : -rc;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* Run gnuplot for png with pngcairo, else the plain png terminal. */
static int plot_tries(const char *gp, const char *png)
{
	char setup[8500], out[8400];
	int rc;

	if (lc_gp_quote(out, sizeof(out), png) >= sizeof(out))
		return -ENAMETOOLONG;
	snprintf(setup, sizeof(setup), "set terminal pngcairo size 900,600; set output %s", out);
	rc = run_gnuplot(setup, gp);
	if (rc != -EIO)
		return rc;
	snprintf(setup, sizeof(setup), "set terminal png size 900,600; set output %s", out);
	return run_gnuplot(setup, gp);
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
