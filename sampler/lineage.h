/*
 * lineage.h — whether a process descends from the processes a recording
 * started or was told to attach (its roots).
 *
 * A session's name is visible in /dev/shm, so any local user can start a
 * process with LOSTCYCLES_SESSION set to it; such a process is not the
 * recording's, whatever its segment's owner.  The registry accepts a
 * segment only when its process is a root or descends from one: the
 * parent chain of /proc/PID/stat (field 4) is followed up to a root, every
 * step checked by start time (field 22) so that a reused pid cannot stand
 * in for an ancestor: a parent starts no later than its child, and a root
 * is the process of that pid that started at the time the root was taken.
 * See docs/trust-segments.md.  Plain functions of the caller's thread.
 */
#ifndef LC_LINEAGE_H
#define LC_LINEAGE_H

#include <stdint.h>
#include <sys/types.h>

/* A process the recording vouches for, identified by pid and start time
 * (clock ticks after boot, field 22 of /proc/PID/stat). */
struct lc_root {
	pid_t pid;
	uint64_t start;
};

/* Longest parent chain followed before giving up (pid namespaces nest at
 * most 32 deep, and real trees are far shallower than this). */
#define LC_LINEAGE_MAX_DEPTH 4096

/* The parent pid and start time of process pid from /proc/PID/stat.
 * Returns 0, -ENOENT when there is no such process, or -errno. */
int lc_proc_parent(pid_t pid, pid_t *ppid, uint64_t *start);

/* Take process pid as a root: its start time now.  Returns 0 or -errno. */
int lc_root_take(pid_t pid, struct lc_root *root);

/* Whether process pid is one of the n roots or descends from one.  Returns
 * 1 (it does), 0 (it does not: its chain reached pid 1 or a process that
 * is no root without passing one, or broke at a reused pid), -ENOENT when
 * pid is gone, or another -errno when its chain cannot be read.  *depth, if
 * not NULL, gets the number of parent steps taken. */
int lc_lineage_descends(pid_t pid, const struct lc_root *roots, int n, int *depth);

#endif
