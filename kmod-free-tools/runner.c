/*
 * runner.c — see lc_runner.h.
 */
#include "lc_runner.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_util.h"

volatile int lc_runner_stop;

const char *lc_self_exe(void)
{
	static char path[PATH_MAX];
	ssize_t n;

	if (*path)
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		snprintf(path, sizeof(path), "/proc/self/exe");
	else
		path[n] = 0;
	return path;
}

/* Whether task tid (a name in /proc/PID/task) of pid is named name. */
static int task_named(pid_t pid, const char *tid, const char *name)
{
	char path[512], buf[128];
	size_t n = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid, tid);
	return !lc_read_text(path, buf, sizeof(buf)) && !strncmp(buf, name, n) &&
	       (buf[n] == '\n' || !buf[n]);
}

/* Run time in ns of task tid of pid (its schedstat), or 0. */
static uint64_t task_runtime(pid_t pid, const char *tid)
{
	char path[512], buf[128];
	uint64_t ns;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/schedstat", (int)pid, tid);
	if (lc_read_text(path, buf, sizeof(buf)) || sscanf(buf, "%" SCNu64, &ns) != 1)
		return 0;
	return ns;
}

/* Run time in ns of the thread of pid named name, or 0 when there is none. */
static uint64_t thread_runtime(pid_t pid, const char *name)
{
	char path[64];
	struct dirent *de;
	uint64_t ns = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!ns && (de = readdir(d)))
		if (de->d_name[0] != '.' && task_named(pid, de->d_name, name))
			ns = task_runtime(pid, de->d_name);
	closedir(d);
	return ns;
}

int lc_run_child(char *const argv[], char *const env[], const char *out_path,
		 const char *err_path, struct lc_child_result *res)
{
	return lc_run_child_watch(argv, env, out_path, err_path, NULL, res);
}

/* Wait for child pid; *ru gets its usage.  Blocking (polling when a
 * thread is watched, its run time into res->thread_ns): a signal handler
 * installed without SA_RESTART interrupts it, and a set lc_runner_stop
 * then ends the child.  The wait status, or -errno. */
static int wait_child(pid_t pid, const char *thread, struct lc_child_result *res,
		      struct rusage *ru)
{
	struct timespec nap = { 0, 5000000 };
	int st, stopped = 0;

	res->thread_ns = 0;
	while ((st = lc_wait_status(pid, (thread ? WNOHANG : 0) | LC_WAIT_EINTR, ru)) < 0) {
		if (st != -EINTR && st != -EAGAIN)
			return st;
		if (lc_runner_stop && !stopped) {
			kill(pid, SIGTERM);
			stopped = 1;
		}
		if (thread && st == -EAGAIN) {
			uint64_t ns = thread_runtime(pid, thread);

			if (ns > res->thread_ns)
				res->thread_ns = ns;
			nanosleep(&nap, NULL);
		}
	}
	return st;
}

int lc_run_child_watch(char *const argv[], char *const env[], const char *out_path,
		       const char *err_path, const char *thread, struct lc_child_result *res)
{
	uint64_t t0 = lc_clock_ns();
	struct lc_spawn_io io = { .out = out_path, .err = err_path, .env = env };
	struct rusage ru;
	pid_t pid = lc_spawn(argv, &io);
	int st;

	if (pid < 0)
		return pid;
	st = wait_child(pid, thread, res, &ru);
	if (st < 0)
		return st;
	res->wall_ns = lc_clock_ns() - t0;
	res->cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
		      (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
	res->status = st;
	return 0;
}
