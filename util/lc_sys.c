/*
 * lc_sys.c — files and processes: configuration paths, mkdir -p, atomic
 * replacement, append-opens, starting and reaping children.  See
 * lc_util.h.
 */
#include "lc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- files ---------------------------------------------------------------- */

int lc_config_path(const char *name, const char *env, char *buf, size_t len)
{
	const char *e = env ? getenv(env) : NULL, *x = getenv("XDG_CONFIG_HOME");
	const char *h = getenv("HOME");
	int n;

	if (e && *e)
		n = snprintf(buf, len, "%s", e);
	else if (x && *x)
		n = snprintf(buf, len, "%s/lostcycles/%s", x, name);
	else
		n = snprintf(buf, len, "%s/.config/lostcycles/%s", h && *h ? h : ".", name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return (e && *e) || (x && *x) || (h && *h) ? 0 : -ENOENT;
}

int lc_mkdir_p(const char *path, int mode)
{
	char d[PATH_MAX];
	int n = snprintf(d, sizeof(d), "%s", path);

	if (n < 0 || (size_t)n >= sizeof(d))
		return -ENAMETOOLONG;
	for (char *s = d + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = 0;
		if (mkdir(d, (mode_t)mode) && errno != EEXIST)
			return -errno;
		if (!c)
			return 0;
		*s = c;
	}
}

int lc_safe_dir(const char *path, int mode, char *msg, size_t len)
{
	struct stat st;

	if (mkdir(path, (mode_t)mode) && errno != EEXIST)
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	if (lstat(path, &st))
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return lc_fail(msg, len, -EPERM, "%s is a symbolic link: refused (name a "
			       "directory of your own)", path);
	if (!S_ISDIR(st.st_mode))
		return lc_fail(msg, len, -ENOTDIR, "%s is not a directory", path);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return lc_fail(msg, len, -EPERM, "%s belongs to another user (uid %u): refused "
			       "(its owner could read, swap or delete what is put there)", path,
			       (unsigned)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return lc_fail(msg, len, -EPERM, "%s is writable by %s without the sticky bit: "
			       "refused (others could swap or delete what is put there)", path,
			       st.st_mode & S_IWOTH ? "everyone" : "its group");
	return 0;
}

/* The folder of path made (as mkdir -p); 0 when path has none. */
static int make_folder(const char *path)
{
	char d[PATH_MAX];
	char *slash;

	snprintf(d, sizeof(d), "%s", path);
	slash = strrchr(d, '/');
	if (!slash || slash == d)
		return 0;
	*slash = 0;
	return lc_mkdir_p(d, 0755);
}

int lc_replace_file(const char *path, int (*write_fn)(FILE *f, void *arg), void *arg)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	int e = make_folder(path);

	if (e)
		return e;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = lc_out_fopen(tmp);	/* a new file, renamed over path when complete */
	if (!f)
		return -errno;
	e = write_fn(f, arg);
	if (!e && (fflush(f) || fsync(fileno(f)) || ferror(f)))
		e = errno ? -errno : -EIO;
	if (fclose(f) && !e)
		e = -errno;
	if (!e && rename(tmp, path))
		e = -errno;
	if (e)
		unlink(tmp);
	return e;
}

int lc_append_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	return fd < 0 ? -errno : fd;
}

FILE *lc_append_fopen(const char *path)
{
	return lc_fd_stream(lc_append_open(path), "a");
}

/* What a file that is not a regular one is, for a reason. */
static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : "something else";
}

/* The regular file behind the O_PATH descriptor pfd opened for reading:
 * through /proc/self/fd (the same inode, whatever the name now is), else
 * (no /proc) by name, without waiting, checked again once open. */
static int reopen_regular(int pfd, const char *path, const struct stat *st)
{
	char self[64];
	struct stat now;
	int fd;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &now) || !S_ISREG(now.st_mode) || now.st_ino != st->st_ino ||
	    now.st_dev != st->st_dev) {
		close(fd);
		return -EAGAIN;
	}
	return fd;
}

int lc_open_regular(const char *path, uint64_t max, char *msg, size_t len)
{
	int pfd = open(path, O_PATH | O_CLOEXEC), fd;
	struct stat st;

	if (pfd < 0 || fstat(pfd, &st)) {
		fd = -errno;
		if (pfd >= 0)
			close(pfd);
		return msg ? lc_fail(msg, len, fd, "%s", strerror(-fd)) : fd;
	}
	if (!S_ISREG(st.st_mode))
		fd = msg ? lc_fail(msg, len, -EINVAL, "%s, not a regular file: not opened",
				   file_kind(st.st_mode)) : -EINVAL;
	else if (max && (uint64_t)st.st_size > max)
		fd = msg ? lc_fail(msg, len, -EFBIG, "larger than %llu MiB: not read",
				   (unsigned long long)(max >> 20)) : -EFBIG;
	else if ((fd = reopen_regular(pfd, path, &st)) < 0 && msg)
		lc_fail(msg, len, fd, "%s", fd == -EAGAIN ?
			"changed while it was opened: not read" : strerror(-fd));
	close(pfd);
	return fd;
}

/* ---- processes ------------------------------------------------------------ */

/* Child side: fd to path (created or truncated, never through a link). */
static int child_redirect(int fd, const char *path)
{
	int f;

	if (!path)
		return 0;
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	return f < 0 || dup2(f, fd) < 0 ? -1 : 0;
}

/* Child side: io's mask, descriptors and hook; 0 or -errno.  System calls
 * only (and the hook's, which must keep to them too). */
static int child_setup(const struct lc_spawn_io *io)
{
	if (io->sigmask && sigprocmask(SIG_SETMASK, io->sigmask, NULL))
		return -errno;
	if ((io->out_fd > 0 && dup2(io->out_fd, 1) < 0) || child_redirect(1, io->out) ||
	    child_redirect(2, io->err))
		return -errno;
	return io->prepare ? io->prepare(io->arg) : 0;
}

/* Child side: set up as io says and run argv with envp (or wait to be
 * killed when argv is NULL); the errno of a failure goes to report, then
 * _exit(127). */
static void child(char *const argv[], char **envp, const struct lc_spawn_io *io, int report)
{
	int e;

	if (io && io->die_with_parent)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!argv) {
		close(report);	/* nothing to report: the parent reads EOF */
		for (;;)
			pause();
	}
	e = io ? -child_setup(io) : 0;
	if (!e) {
		execvpe(argv[0], argv, envp);
		e = errno;
	}
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Whether one of the m NAME=VALUE strings of add sets the name of the
 * environment string var. */
static int overridden(const char *var, char *const *add, size_t m)
{
	const char *eq = strchr(var, '=');
	size_t len = eq ? (size_t)(eq - var) : strlen(var);

	for (size_t j = 0; j < m; j++)
		if (!strncmp(add[j], var, len) && add[j][len] == '=')
			return 1;
	return 0;
}

/* This process's environment with the NAME=VALUE strings of add (NULL:
 * none) set over it, as a new array of the same strings: built before the
 * fork, as the child of a threaded process may not call putenv or malloc.
 * NULL when out of memory. */
static char **spawn_env(char *const *add)
{
	extern char **environ;
	size_t n = 0, k = 0, m = 0;
	char **v;

	while (environ && environ[n])
		n++;
	while (add && add[m])
		m++;
	v = malloc((n + m + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!overridden(environ[i], add, m))
			v[k++] = environ[i];
	for (size_t j = 0; j < m; j++)
		v[k++] = add[j];
	v[k] = NULL;
	return v;
}

/* Whether a signal of io->stopset is pending: then it is taken into
 * *io->stopsig and the child pid is ended. */
static int stop_signal(pid_t pid, const struct lc_spawn_io *io)
{
	siginfo_t si;
	int s = sigtimedwait(io->stopset, &si, &(struct timespec){ 0, 0 });

	if (s <= 0 || s == SIGCHLD)
		return 0;
	if (io->stopsig)
		*io->stopsig = s;
	lc_spawn_end(pid);
	return 1;
}

/* Parent side: wait for the child's exec (the pipe closed by it) or its
 * errno on the pipe.  A signal of io->stopset first kills the child and
 * returns -EINTR with the signal in *io->stopsig.  0 or -errno. */
static int wait_exec(pid_t pid, int fd, const struct lc_spawn_io *io)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	int e = 0;

	while (io && io->stopset) {
		int k;

		if (stop_signal(pid, io))
			return -EINTR;
		k = poll(&pf, 1, 20);
		if (k > 0 || (k < 0 && errno != EINTR))
			break;
	}
	if (read(fd, &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		return e > 0 ? -e : -ECHILD;
	}
	return 0;
}

pid_t lc_spawn(char *const argv[], const struct lc_spawn_io *io)
{
	char **envp = spawn_env(io ? io->env : NULL);
	int pfd[2], e = 0;
	pid_t pid;

	if (!envp)
		return -ENOMEM;
	if (pipe2(pfd, O_CLOEXEC)) {
		e = -errno;
		free(envp);
		return e;
	}
	pid = fork();
	if (pid == 0)
		child(argv, envp, io, pfd[1]);
	if (pid < 0)
		e = -errno;
	free(envp);
	close(pfd[1]);
	if (pid > 0)
		e = wait_exec(pid, pfd[0], io);
	close(pfd[0]);
	return e ? e : pid;
}

int lc_wait_status(pid_t pid, int flags, struct rusage *ru)
{
	int ws = 0;
	pid_t w;

	do
		w = wait4(pid, &ws, flags & WNOHANG, ru);
	while (w < 0 && errno == EINTR && !(flags & LC_WAIT_EINTR));
	if (w < 0)
		return -errno;
	if (w == 0)
		return -EAGAIN;
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 1;
}

void lc_spawn_end(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	lc_wait_status(pid, 0, NULL);
}
