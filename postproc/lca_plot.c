/*
 * lca_plot.c — run gnuplot (see lca_plot.h).
 */
#include "lca_plot.h"

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

/* Make a PNG from a gnuplot script.  See lca_plot.h. */
int lc_plot_png(const char *gp, const char *png)
{
	char setup[4200];
	int rc;

	snprintf(setup, sizeof(setup), "set terminal pngcairo size 900,600; set output '%s'", png);
	rc = run_gnuplot(setup, gp);
	if (rc != -EIO)
		return rc;
	snprintf(setup, sizeof(setup), "set terminal png size 900,600; set output '%s'", png);
	return run_gnuplot(setup, gp);
}
