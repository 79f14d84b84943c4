/*
 * lineage.c — the parent chain of a process, against the roots of a
 * recording (see lineage.h).
 */
#include "lineage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_abi.h"

/* Read /proc/PID/stat into buf[len], NUL-terminated.  Returns 0 or
 * -errno (-ENOENT: no such process). */
static int read_stat(pid_t pid, char *buf, size_t len)
{
	char path[48];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n < 0 && errno == ESRCH ? -ENOENT : -EIO;
	buf[n] = '\0';
	return 0;
}

/* The parent and start time of pid.  See lineage.h. */
int lc_proc_parent(pid_t pid, pid_t *ppid, uint64_t *start)
{
	char buf[1024], *p, *end;
	long v;
	int rc = read_stat(pid, buf, sizeof(buf));

	if (rc)
		return rc;
	/* fields after the name, which may hold ") ": " S PPID ..." */
	p = strrchr(buf, ')');
	if (!p || !(p = strchr(p + 2, ' ')))
		return -EIO;
	errno = 0;
	v = strtol(p + 1, &end, 10);
	*start = lc_stat_start_ticks(buf);
	if (end == p + 1 || errno || v < 0 || !*start)
		return -EIO;
	*ppid = (pid_t)v;
	return 0;
}

/* Take pid as a root.  See lineage.h. */
int lc_root_take(pid_t pid, struct lc_root *root)
{
	pid_t ppid;
	int rc = lc_proc_parent(pid, &ppid, &root->start);

	root->pid = pid;
	return rc;
}

/* The root of pid and start, or -1. */
static int root_of(pid_t pid, uint64_t start, const struct lc_root *roots, int n)
{
	for (int i = 0; i < n; i++)
		if (roots[i].pid == pid && roots[i].start == start)
			return i;
	return -1;
}

/* Follow pid's parents up to a root.  See lineage.h. */
int lc_lineage_descends(pid_t pid, const struct lc_root *roots, int n, int *depth)
{
	pid_t cur = pid, parent;
	uint64_t start, child_start = UINT64_MAX;
	int steps, rc, ret = 0;

	for (steps = 0; steps <= LC_LINEAGE_MAX_DEPTH; steps++) {
		rc = lc_proc_parent(cur, &parent, &start);
		if (rc) {
			/* pid itself gone or unreadable: say so; an ancestor
			 * that exited meanwhile cuts the chain */
			ret = !steps || rc == -EMFILE || rc == -ENFILE ? rc :
			      rc == -ENOENT ? 0 : -EIO;
			break;
		}
		if (start > child_start)
			break;	/* the pid is another process's now: cut */
		if (root_of(cur, start, roots, n) >= 0) {
			ret = 1;
			break;
		}
		if (parent <= 1)
			break;	/* init, or the top of the pid namespace */
		child_start = start;
		cur = parent;
	}
	if (depth)
		*depth = steps;
	return ret;
}
