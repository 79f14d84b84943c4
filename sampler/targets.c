/*
 * targets.c — the target registry and its discovery thread (see targets.h).
 */
#include "targets.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fdroom.h"
#include "guard.h"
#include "lc_util.h"
#include "lineage.h"
#include "nametab.h"
#include "slotsweep.h"
#include "tick.h"
#include "unslotted.h"

#define SHM_DIR "/dev/shm"
#define POLL_NS 20000000	/* rescan period when nothing is pending */
#define RESCAN_NS 200000000	/* ... when inotify names the wanted names */
#define RETRY_MIN_NS 50000	/* first retry of a name that was not ready */
#define RETRY_MAX_NS 1000000000	/* the longest wait between two tries of one */
#define SCAN_TRIES_MAX 64u	/* names the discovery thread tries per scan */
#define MAX_POLL 1024
#define LEAVE_POLL_NS 1000000	/* the wait while targets are leaving */
#define IDLE_POLL_NS 100000000	/* the wait when every event is said */
#define LEAVE_MAX_NS 100000000	/* a leaving target waits for a tick at most */
#define FD_RESERVE 64		/* descriptors never taken by pidfds: the shm
				 * opens, the profile, counters */
#define LOST_RETRY_NS POLL_NS	/* retry period of a name short of descriptors */

/*
 * The registry.  Three parties touch it: the owner (the thread that calls
 * lc_registry_start/stop/free), the discovery thread, and readers (the tick
 * loop, and any thread asking for the counts).
 */
struct lc_registry {
	/* Set by lc_registry_start before the discovery thread exists; read-only
	 * afterwards (pthread_create orders them before the thread's reads). */
	char session[LC_SESSION_MAX];	/* "" in pid mode */
	pid_t *pids;
	int npids;
	int inotify;
	int wake;			/* eventfd: stop writes it to end discovery's
					 * wait at once (-1: none, the wait times out) */
	/* The owner's: written by start and stop only. */
	pthread_t thread;
	int running;
	/* Written by the owner (release) in stop, read by discovery (acquire). */
	int stop;
	/* Writers take lock: the discovery thread, and the owner's scan in
	 * start (before the thread exists) and in stop (after it is joined).
	 * Readers of list walk it under urcu_memb_read_lock without the lock;
	 * cds_list_add_tail_rcu publishes a target's fields with release and
	 * call_rcu frees it only after every reader has left. */
	pthread_mutex_t lock;
	struct cds_list_head list;	/* RCU list of lc_target */
	/* Counters: written under lock by the writer (release for seen and
	 * live; rejected relaxed), read by any thread with atomic loads.  A
	 * departure is recorded before live counts it. */
	uint32_t seen, live, rejected;
	/* The start of the tick loop's last tick (lc_registry_ticked), 0 while
	 * none: written by the sampling thread (release), read by the writer
	 * (acquire).  The writer's alone: how many targets are leaving. */
	uint64_t ticked;
	uint32_t leaving;
	/* The scanning thread's alone (discovery, or the owner while no
	 * discovery thread runs): next_uid and names under lock, next_try_ns
	 * between scan() and the wait that follows it. */
	uint32_t next_uid;
	uint64_t tries;			/* names tried, read by any thread (relaxed) */
	struct lc_nametab names;	/* every wanted name met, and its state */
	uint64_t next_try_ns;		/* when a name waiting is due again */
	int named;			/* inotify named a wanted name since the
					 * last scan (or overflowed) */
	/* Appended under lock by the writer.  The arrays may move while
	 * discovery runs: others read dep after lc_registry_stop (see
	 * targets.h) and copy bad out under lock. */
	struct lc_departure *dep;
	uint32_t ndep;
	size_t depcap;
	struct lc_rejection *bad;	/* rejected segments, not tried again */
	uint32_t nbad;
	size_t badcap;
	/* The scanning thread's: pidfds held by targets, and how many it may
	 * hold (set at start from RLIMIT_NOFILE); a target beyond that is
	 * watched by kill(pid, 0) at every round instead. */
	uint32_t npidfd, pidfd_max;
	/* Segments that could not be opened for want of file descriptors
	 * (EMFILE, ENFILE) and were not attached since: under lock, like
	 * bad; untracked is their count for any thread (relaxed). */
	struct lc_rejection *lost;
	uint32_t nlost, untracked;
	size_t lostcap;
	/* Lineage (lineage.h): set by open before any scan; roots, nroots and
	 * lineage (LINEAGE_SET) then under lock by lc_registry_set_roots;
	 * outsiders under lock, read relaxed. */
	int lineage;			/* LINEAGE_* */
	struct lc_root *roots;
	int nroots;
	uint32_t outsiders;		/* segments refused: not of the roots' tree */
	/* The threads without a slot of the targets detached so far: under
	 * lock (unslotted.h). */
	struct lc_unslotted unslotted;
};

#define LINEAGE_ANY 0		/* every process of the session (pid mode, tests) */
#define LINEAGE_WAIT 1		/* only descendants of roots not yet given */
#define LINEAGE_SET 2		/* only descendants of roots[0..nroots) */

/* Split an shm name "lostcycles.S.PID.NONCE" into its parts.  Returns 0 or
 * -EINVAL when name is not one of ours. */
static int parse_name(const char *name, char *session, size_t slen, pid_t *pid,
		      uint64_t *nonce)
{
	size_t plen = strlen(LC_SHM_PREFIX);
	const char *dn, *dp, *s = name + plen;
	char *end;
	unsigned long long v;

	if (strncmp(name, LC_SHM_PREFIX, plen))
		return -EINVAL;
	dn = strrchr(s, '.');
	if (!dn || dn == s)
		return -EINVAL;
	for (dp = dn - 1; dp > s && *dp != '.'; dp--)
		;
	if (dp <= s || (size_t)(dp - s) >= slen)
		return -EINVAL;
	errno = 0;
	v = strtoull(dp + 1, &end, 10);
	if (end != dn || errno || v == 0 || v > INT32_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	if (strlen(dn + 1) != 16)
		return -EINVAL;
	v = strtoull(dn + 1, &end, 16);
	if (*end || errno)
		return -EINVAL;
	*nonce = v;
	memcpy(session, s, (size_t)(dp - s));
	session[dp - s] = '\0';
	return 0;
}

/* Whether the registry wants the segment of session/pid. */
static int wanted(const struct lc_registry *r, const char *session, pid_t pid)
{
	if (!r->pids)
		return !strcmp(session, r->session);
	for (int i = 0; i < r->npids; i++)
		if (r->pids[i] == pid)
			return 1;
	return 0;
}

/* The attached target of (pid, nonce), or of pid alone when nonce is 0. */
static struct lc_target *find(struct lc_registry *r, pid_t pid, uint64_t nonce)
{
	struct lc_target *t;

	cds_list_for_each_entry(t, &r->list, node)
		if (t->pid == pid && (!nonce || t->nonce == nonce))
			return t;
	return NULL;
}

/* Free a detached target after its grace period (its pidfd was closed and
 * counted off when it was detached). */
static void free_target(struct rcu_head *head)
{
	struct lc_target *t = caa_container_of(head, struct lc_target, rcu);

	munmap((void *)t->hdr, t->len);
	lc_unslotted_free(t);
	free(t->cache);
	lc_slotsweep_free(t);
	free(t);
}

/* A word of t's segment header at offset off, read under the guard (the
 * file may have shrunk); 0 when the read faults or the tick loop saw it
 * fault. */
static uint32_t seg_word(const struct lc_target *t, size_t off)
{
	struct lc_guard g;
	uint32_t f;

	if (__atomic_load_n(&t->fault, __ATOMIC_ACQUIRE))
		return 0;
	if (sigsetjmp(g.env, 0))
		return 0;
	lc_guard_arm(&g, t->hdr, t->len);
	f = __atomic_load_n((const uint32_t *)((const char *)t->hdr + off), __ATOMIC_ACQUIRE);
	lc_guard_disarm();
	return f;
}

/* The flags word of t's segment (see seg_word). */
static uint32_t seg_flags(const struct lc_target *t)
{
	return seg_word(t, offsetof(struct lc_seg_hdr, flags));
}

/* Remove t from the list (caller holds the lock), record its departure, and
 * unlink its name when its process is gone. */
static void detach(struct lc_registry *r, struct lc_target *t, int unlink_name)
{
	uint32_t full;

	__atomic_store_n(&t->gone, 1, __ATOMIC_RELEASE);
	cds_list_del_rcu(&t->node);
	/* the refusals to its end: the last periodic look may have come
	 * before the last of them */
	full = seg_word(t, offsetof(struct lc_seg_hdr, slots_full));
	if (full > t->unslot_refused)
		t->unslot_refused = full;
	lc_unslotted_add(t, &r->unslotted);
	lc_unslotted_free(t);
	if (!lc_grow((void **)&r->dep, &r->depcap, r->ndep + 1, sizeof(*r->dep)))
		r->dep[r->ndep++] = (struct lc_departure){ t->pid, t->nonce,
							   t->leave_at ? t->leave_at : lc_clock_ns(),
							   seg_flags(t) };
	/* the departure is recorded before the count says the target left */
	__atomic_store_n(&r->live, r->live - 1, __ATOMIC_RELEASE);
	if (t->pidfd >= 0) {
		close(t->pidfd);
		t->pidfd = -1;
		r->npidfd--;
	}
	if (unlink_name)
		shm_unlink(t->name);
	urcu_memb_call_rcu(&t->rcu, free_target);
}

/*
 * Attaching a segment takes five steps, one function each:
 *   open      open the name read-only and learn the file's size and owner;
 *   validate  map it, copy the header fields once out of the mapping (the
 *             target may change them at any time) and check the copy against
 *             the ABI and the file; from here on only the copy is used;
 *   map       make the target record from the copy: pidfd, slot cache, names;
 *   verify    check the segment against its process: owners, start time
 *             (docs/trust-segments.md);
 *   publish   add it to the RCU list, replacing an older image of its pid.
 * attach() runs them in order; every refusal comes with a one-line reason.
 */

/* The largest segment of this ABI. */
#define SEG_MAX lc_seg_size_of(LC_SEG_PLACES | LC_SEG_STAMPS, LC_SLOTS_MAX)

/* A segment being attached: what attach() has opened so far. */
struct seg_open {
	int fd;			/* the shm object, -1 if not open */
	uint64_t size;		/* its file size */
	uid_t owner;		/* its owner */
	const struct lc_seg_hdr *map;	/* the mapping, NULL if none */
	size_t len;		/* bytes mapped: min(size, SEG_MAX) */
	int pidfd;		/* the process, -1 if not open */
};

/* The header fields of a segment, copied once out of the mapping. */
struct seg_snap {
	uint64_t magic;
	uint16_t abi_major, abi_minor;
	uint32_t hdr_size, slot_size, nslots;
	uint64_t seg_size, start_ns, nonce, proc_start;
	int32_t pid;
	uint32_t flags;		/* only LC_SEG_PLACES and _STAMPS, set before
				 * publication */
	char comm[16];
};

/* Open the shm object name and read its size into o.  The name is anyone's
 * to plant: it is opened without blocking (a FIFO would block an open for
 * reading until a writer came) and without following a symbolic link, and
 * anything but a regular file is refused before it is read.  Returns 0,
 * -EAGAIN while it is not yet sized to hold a header, -EINVAL when it is
 * not a regular file, or another -errno. */
static int seg_open(struct seg_open *o, const char *name, pid_t pid, char *why, size_t wl)
{
	struct stat st;

	o->fd = shm_open(name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0);
	if (o->fd < 0 && errno == ELOOP)
		return lc_fail(why, wl, -EINVAL, "target %d: %s is a symbolic link: skipped",
			       (int)pid, name);
	if (o->fd < 0)
		return lc_fail(why, wl, -errno, "%s: %s", name, strerror(errno));
	if (fstat(o->fd, &st))
		return lc_fail(why, wl, -errno, "%s: %s", name, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return lc_fail(why, wl, -EINVAL, "target %d: %s is not a regular file: skipped",
			       (int)pid, name);
	o->size = (uint64_t)st.st_size;
	o->owner = st.st_uid;
	if (o->size < LC_HDR_SIZE)	/* created but not yet sized */
		return lc_fail(why, wl, -EAGAIN, "%s: not yet sized", name);
	return 0;
}

/* Map the first min(size, SEG_MAX) bytes of the open segment.  Returns 0 or
 * -errno. */
static int seg_map(struct seg_open *o, const char *name, char *why, size_t wl)
{
	void *m;

	o->len = (size_t)(o->size < SEG_MAX ? o->size : SEG_MAX);
	m = mmap(NULL, o->len, PROT_READ, MAP_SHARED, o->fd, 0);
	if (m == MAP_FAILED)
		return lc_fail(why, wl, -errno, "%s: mmap: %s", name, strerror(errno));
	o->map = m;
	return 0;
}

/* Copy the identity fields of h into s.  magic is read first, with acquire:
 * the library writes line 0 before it publishes magic with release, so a
 * published header's copy is the one the library wrote. */
static void snapshot(const struct lc_seg_hdr *h, struct seg_snap *s)
{
	s->magic = __atomic_load_n(&h->magic, __ATOMIC_ACQUIRE);
	s->abi_major = __atomic_load_n(&h->abi_major, __ATOMIC_RELAXED);
	s->abi_minor = __atomic_load_n(&h->abi_minor, __ATOMIC_RELAXED);
	s->proc_start = __atomic_load_n(&h->proc_start, __ATOMIC_RELAXED);
	s->hdr_size = __atomic_load_n(&h->hdr_size, __ATOMIC_RELAXED);
	s->slot_size = __atomic_load_n(&h->slot_size, __ATOMIC_RELAXED);
	s->nslots = __atomic_load_n(&h->nslots, __ATOMIC_RELAXED);
	s->seg_size = __atomic_load_n(&h->seg_size, __ATOMIC_RELAXED);
	s->pid = __atomic_load_n(&h->pid, __ATOMIC_RELAXED);
	s->start_ns = __atomic_load_n(&h->start_ns, __ATOMIC_RELAXED);
	s->nonce = __atomic_load_n(&h->nonce, __ATOMIC_RELAXED);
	s->flags = __atomic_load_n(&h->flags, __ATOMIC_RELAXED) & (LC_SEG_PLACES | LC_SEG_STAMPS);
	for (size_t i = 0; i < sizeof(s->comm); i++)
		s->comm[i] = __atomic_load_n(&h->comm[i], __ATOMIC_RELAXED);
	s->comm[sizeof(s->comm) - 1] = '\0';
}

/* Check the snapshot s of a segment of size bytes, of which len are mapped,
 * named for (pid, nonce).  The ABI major is checked first, so that a target
 * of another version is named as such.  Returns 0, -EAGAIN while the header
 * is not yet published, or -EINVAL with the reason in why. */
static int check(const struct seg_snap *s, uint64_t size, size_t len, pid_t pid,
		 uint64_t nonce, char *why, size_t wl)
{
	if (s->magic == 0)
		return lc_fail(why, wl, -EAGAIN, "target %d: not yet published", (int)pid);
	if (s->magic != LC_SEG_MAGIC)
		return lc_fail(why, wl, -EINVAL, "target %d: not a lostcycles segment (magic %#llx): skipped",
			       (int)pid, (unsigned long long)s->magic);
	if (s->abi_major != LC_ABI_MAJOR)
		return lc_fail(why, wl, -EINVAL, "target %d speaks segment ABI %u, this sampler %u: skipped",
			       (int)pid, (unsigned)s->abi_major, (unsigned)LC_ABI_MAJOR);
	if (s->hdr_size != LC_HDR_SIZE || s->slot_size != sizeof(struct lc_slot))
		return lc_fail(why, wl, -EINVAL, "target %d: header of %u bytes and slots of %u, ABI %u has %u and %zu: skipped",
			       (int)pid, s->hdr_size, s->slot_size, (unsigned)LC_ABI_MAJOR,
			       LC_HDR_SIZE, sizeof(struct lc_slot));
	if (s->nslots == 0 || s->nslots > LC_SLOTS_MAX)
		return lc_fail(why, wl, -EINVAL, "target %d: %u slots, not 1..%u: skipped",
			       (int)pid, s->nslots, LC_SLOTS_MAX);
	if (!lc_seg_size_of(s->flags, s->nslots) ||
	    s->seg_size != lc_seg_size_of(s->flags, s->nslots) || s->seg_size > len ||
	    size > SEG_MAX)
		return lc_fail(why, wl, -EINVAL, "target %d: header says %u slots in %llu bytes, the file has %llu: skipped",
			       (int)pid, s->nslots, (unsigned long long)s->seg_size,
			       (unsigned long long)size);
	if (s->pid != pid || s->nonce != nonce)
		return lc_fail(why, wl, -EINVAL, "target %d: header names pid %d nonce %016llx, its name %016llx: skipped",
			       (int)pid, (int)s->pid, (unsigned long long)s->nonce,
			       (unsigned long long)nonce);
	return 0;
}

/* snapshot() under a guard: the file may have shrunk since it was sized.
 * Returns 0, or -EAGAIN when the read faulted. */
static int snapshot_guarded(const struct seg_open *o, struct seg_snap *s)
{
	struct lc_guard g;

	if (sigsetjmp(g.env, 0))
		return -EAGAIN;
	lc_guard_arm(&g, o->map, o->len);
	snapshot(o->map, s);
	lc_guard_disarm();
	return 0;
}

/* Map the open segment, snapshot its header into s and check the snapshot.
 * Returns what check() returns, -EAGAIN when the file shrank under the
 * read, or -errno when the mapping fails. */
static int validate(struct seg_open *o, const char *name, pid_t pid, uint64_t nonce,
		    struct seg_snap *s, char *why, size_t wl)
{
	int rc = seg_map(o, name, why, wl);

	if (rc)
		return rc;
	if (snapshot_guarded(o, s))
		return lc_fail(why, wl, -EAGAIN, "target %d: %s shrank while it was read",
			       (int)pid, name);
	return check(s, o->size, o->len, pid, nonce, why, wl);
}

/* Make the target record of the validated segment o, from its snapshot s
 * only; it takes over o's mapping and pidfd.  Returns it, or NULL with
 * errno set. */
static struct lc_target *target_new(struct lc_registry *r, struct seg_open *o,
				    const struct seg_snap *s, const char *name)
{
	struct lc_target *t = calloc(1, sizeof(*t));

	if (!t || !(t->cache = calloc(s->nslots, sizeof(*t->cache)))) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < s->nslots; i++)
		t->cache[i].thread = -1;
	t->hdr = o->map;
	t->len = o->len;
	t->nslots = s->nslots;
	/* from the validated copy: the live nslots is the program's to change */
	t->places = s->flags & LC_SEG_PLACES ?
		    (const uint64_t *)(const void *)((const char *)o->map + LC_HDR_SIZE +
						      (size_t)s->nslots * sizeof(struct lc_slot)) : NULL;
	t->stamps = s->flags & LC_SEG_STAMPS ?
		    (const struct lc_stamp *)(const void *)((const char *)o->map +
							    lc_seg_stamps_at(s->nslots)) : NULL;
	t->pid = s->pid;
	t->nonce = s->nonce;
	t->start_ns = s->start_ns;
	t->pidfd = o->pidfd;
	t->uid = r->next_uid++;
	memcpy(t->comm, s->comm, sizeof(t->comm));
	snprintf(t->name, sizeof(t->name), "%s", name);
	o->map = NULL;
	o->pidfd = -1;
	return t;
}

/* Watch the process of the validated segment and make its target record
 * into *tp.  A pidfd watches it while the registry may hold one more
 * (pidfd_max); without one (over the budget, or pidfd_open failed for
 * another reason than the process's exit) kill(pid, 0) does at every
 * round.  Only ESRCH means the process is gone: an error is never taken
 * for an exit.  Returns 0, -ESRCH when the process is gone (its segment is
 * stale: the name is unlinked), or -ENOMEM. */
static int map_target(struct lc_registry *r, struct seg_open *o, const struct seg_snap *s,
		      const char *name, struct lc_target **tp, char *why, size_t wl)
{
	errno = 0;
	if (r->npidfd < r->pidfd_max)
		o->pidfd = (int)syscall(SYS_pidfd_open, s->pid, 0);
	if ((o->pidfd < 0 && errno == ESRCH) || (kill(s->pid, 0) && errno == ESRCH)) {
		shm_unlink(name);
		return lc_fail(why, wl, -ESRCH, "target %d: exited before it was attached", (int)s->pid);
	}
	*tp = target_new(r, o, s, name);
	if (*tp && (*tp)->pidfd >= 0)
		r->npidfd++;
	if (!*tp)
		return lc_fail(why, wl, -ENOMEM, "target %d: out of memory", (int)s->pid);
	return 0;
}

/* Read the start of /proc/PID/what into buf[len] (NUL-terminated).
 * Returns 0 or -errno (-ENOENT: no such process). */
static int proc_read(pid_t pid, const char *what, char *buf, size_t len)
{
	char path[64];
	int e;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	e = lc_read_text(path, buf, len);
	return e == -ENODATA ? -EIO : e;
}

/* The start time of process pid (field 22 of /proc/PID/stat, clock ticks
 * after boot) into *ticks and its owner, the effective uid of the Uid: line
 * of /proc/PID/status (/proc/PID itself belongs to root for a process that
 * is not dumpable), into *uid.  Returns 0 or -errno. */
static int proc_identity(pid_t pid, uint64_t *ticks, uid_t *uid)
{
	char buf[2048];
	const char *u;
	unsigned long real, eff;
	int rc = proc_read(pid, "stat", buf, sizeof(buf));

	if (rc)
		return rc;
	*ticks = lc_stat_start_ticks(buf);
	rc = proc_read(pid, "status", buf, sizeof(buf));
	if (rc)
		return rc;
	u = strstr(buf, "\nUid:");
	if (!*ticks || !u || sscanf(u + 5, "%lu %lu", &real, &eff) != 2)
		return -EIO;
	*uid = (uid_t)eff;
	return 0;
}

/* Whether -errno e says that descriptors ran out. */
static int no_fds(int e)
{
	return e == -EMFILE || e == -ENFILE;
}

/* CLOCK_MONOTONIC in ns of a process start time in clock ticks after boot
 * (which /proc counts on CLOCK_BOOTTIME: the difference is time suspended). */
static uint64_t start_mono_ns(uint64_t ticks)
{
	struct timespec b;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t boot, mono = lc_clock_ns(), t;

	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &b))
		return 0;
	boot = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
	t = ticks * (1000000000u / (uint64_t)hz);
	return t > boot - mono ? t - (boot - mono) : 0;
}

/*
 * Check the segment of t (owned by owner, header snapshot s) against its
 * process, whose pidfd t holds: the segment's owner must be the process's
 * (its effective uid, which owns /proc/PID) and, unless this sampler runs
 * as root, the sampler's user; the header's process start time (ABI 1.3)
 * must be the process's, or for an older header (or an unknown time) the
 * segment must not predate the process by more than a clock tick.  A pid
 * reused by another process fails the start time.  Returns 0, -EINVAL with
 * the reason, or -ESRCH when the process is gone.
 */
static int verify(const struct lc_target *t, uid_t owner, const struct seg_snap *s,
		  char *why, size_t wl)
{
	struct pollfd pfd = { .fd = t->pidfd, .events = POLLIN };
	uint64_t ticks = 0, start;
	uid_t puid = 0;
	int rc = proc_identity(t->pid, &ticks, &puid);

	if (rc == -ENOENT || (t->pidfd >= 0 && poll(&pfd, 1, 0) > 0))
		return lc_fail(why, wl, -ESRCH, "target %d: exited before it was attached", (int)t->pid);
	if (no_fds(rc))
		return lc_fail(why, wl, rc, "target %d: its process cannot be read for want of "
			       "file descriptors", (int)t->pid);
	if (rc)
		return lc_fail(why, wl, -EINVAL, "target %d: its process cannot be read (%s): skipped",
			       (int)t->pid, strerror(-rc));
	if (owner != puid)
		return lc_fail(why, wl, -EINVAL, "target %d: segment %s of uid %u, the process's uid %u: skipped",
			       (int)t->pid, t->name, (unsigned)owner, (unsigned)puid);
	if (geteuid() != 0 && owner != geteuid())
		return lc_fail(why, wl, -EINVAL, "target %d: segment of uid %u, not this sampler's %u: skipped",
			       (int)t->pid, (unsigned)owner, (unsigned)geteuid());
	if (s->abi_minor >= 3 && s->proc_start) {
		if (s->proc_start != ticks)
			return lc_fail(why, wl, -EINVAL, "target %d: segment of a process started at tick %llu, "
				       "this one at %llu (a reused pid, or forged): skipped", (int)t->pid,
				       (unsigned long long)s->proc_start, (unsigned long long)ticks);
		return 0;
	}
	start = start_mono_ns(ticks);
	if (s->start_ns + 2 * (1000000000u / (uint64_t)sysconf(_SC_CLK_TCK)) < start)
		return lc_fail(why, wl, -EINVAL, "target %d: segment made %.3f s before its process "
			       "started (a reused pid, or forged): skipped", (int)t->pid,
			       (double)(start - s->start_ns) / 1e9);
	return 0;
}

/* Add t to the list (caller holds the lock).  The newest image of a pid
 * wins: an older target of t's pid is detached (exec replaced it); if the
 * list already holds a newer one, t is freed and its name unlinked instead.
 * Returns 0 or -ESTALE. */
static int publish(struct lc_registry *r, struct lc_target *t, char *why, size_t wl)
{
	struct lc_target *old = find(r, t->pid, 0);

	if (old && old->start_ns > t->start_ns) {
		lc_fail(why, wl, -ESTALE, "target %d: %s is older than the attached image",
			(int)t->pid, t->name);
		shm_unlink(t->name);
		if (t->pidfd >= 0) {
			close(t->pidfd);
			r->npidfd--;
		}
		free_target(&t->rcu);
		return -ESTALE;
	}
	if (old)
		detach(r, old, 1);
	cds_list_add_tail_rcu(&t->node, &r->list);
	__atomic_store_n(&r->seen, r->seen + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&r->live, r->live + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Whether the process of t may join the recording (caller holds the lock):
 * with roots, only a root or a descendant of one (lineage.h).  Returns 0,
 * -EACCES with the reason (counted as an outsider), -ESRCH when the
 * process is gone, or -EAGAIN when its parent chain could not be read. */
static int lineage_ok(struct lc_registry *r, const struct lc_target *t, uid_t owner,
		      char *why, size_t wl)
{
	int rc;

	if (r->lineage != LINEAGE_SET)
		return 0;
	rc = lc_lineage_descends(t->pid, r->roots, r->nroots, NULL);
	if (rc == 1)
		return 0;
	if (rc == -ENOENT)
		return lc_fail(why, wl, -ESRCH, "target %d: exited before it was attached", (int)t->pid);
	if (no_fds(rc))
		return lc_fail(why, wl, rc, "target %d: its parents cannot be read for want of "
			       "file descriptors", (int)t->pid);
	if (rc < 0)
		return lc_fail(why, wl, -EAGAIN, "target %d: its parents cannot be read (%s)",
			       (int)t->pid, strerror(-rc));
	__atomic_store_n(&r->outsiders, r->outsiders + 1, __ATOMIC_RELAXED);
	return lc_fail(why, wl, -EACCES, "target %d (uid %u, %s): not started by the recorded "
		       "command (it does not descend from it): refused", (int)t->pid,
		       (unsigned)owner, t->comm);
}

/* Release what attach() opened and did not hand to a target. */
static void seg_close(struct seg_open *o)
{
	if (o->map)
		munmap((void *)o->map, o->len);
	if (o->pidfd >= 0)
		close(o->pidfd);
	if (o->fd >= 0)
		close(o->fd);
}

/* Open, validate, map and publish the segment name of (pid, nonce) (caller
 * holds the lock).  Returns 0; -EAGAIN when it should be tried again later;
 * -EINVAL when it is invalid (rejected for good, the reason in why); or
 * another -errno.  A segment whose process died before publishing it is
 * stale: its name is unlinked and -ESRCH returned. */
static int attach(struct lc_registry *r, const char *name, pid_t pid, uint64_t nonce,
		  char *why, size_t wl)
{
	struct seg_open o = { .fd = -1, .pidfd = -1 };
	struct lc_target *t = NULL;
	struct seg_snap s;
	int rc;

	if (r->lineage == LINEAGE_WAIT)	/* the command is being started */
		return lc_fail(why, wl, -EINPROGRESS, "target %d: waiting for the command's pid",
			       (int)pid);
	rc = seg_open(&o, name, pid, why, wl);
	if (!rc)
		rc = validate(&o, name, pid, nonce, &s, why, wl);
	if (o.fd >= 0) {	/* a mapping needs no descriptor */
		close(o.fd);
		o.fd = -1;
	}
	if (!rc)
		rc = map_target(r, &o, &s, name, &t, why, wl);
	if (!rc)
		rc = verify(t, o.owner, &s, why, wl);
	if (!rc)
		rc = lineage_ok(r, t, o.owner, why, wl);
	if (rc == -ESRCH && t)
		shm_unlink(name);	/* stale: its process is gone */
	if (rc && t) {
		if (t->pidfd >= 0)
			r->npidfd--;
		free_target(&t->rcu);	/* closes its pidfd */
		t = NULL;
	}
	if (!rc)
		rc = publish(r, t, why, wl);
	if (rc == -EAGAIN && kill(pid, 0) && errno == ESRCH) {
		rc = lc_fail(why, wl, -ESRCH, "target %d: exited before publishing its segment",
			     (int)pid);
		shm_unlink(name);
	}
	seg_close(&o);
	return rc;
}

/* Remember that (pid, nonce) is invalid, and why. */
static void reject(struct lc_registry *r, pid_t pid, uint64_t nonce, const char *why)
{
	__atomic_store_n(&r->rejected, r->rejected + 1, __ATOMIC_RELAXED);
	if (lc_grow((void **)&r->bad, &r->badcap, r->nbad + 1, sizeof(*r->bad)))
		return;
	r->bad[r->nbad] = (struct lc_rejection){ .pid = pid, .nonce = nonce };
	snprintf(r->bad[r->nbad].reason, sizeof(r->bad[r->nbad].reason), "%s", why);
	r->nbad++;
}

/* Remember that the segment of (pid, nonce) could not be opened for want of
 * file descriptors (why says so), or forget it once it is attached (why
 * NULL). */
static void note_lost(struct lc_registry *r, pid_t pid, uint64_t nonce, const char *why)
{
	uint32_t i;

	for (i = 0; i < r->nlost; i++)
		if (r->lost[i].pid == pid && r->lost[i].nonce == nonce)
			break;
	if (!why && i < r->nlost)
		r->lost[i] = r->lost[--r->nlost];
	else if (why && i == r->nlost &&
		 !lc_grow((void **)&r->lost, &r->lostcap, r->nlost + 1, sizeof(*r->lost))) {
		r->lost[i] = (struct lc_rejection){ .pid = pid, .nonce = nonce };
		snprintf(r->lost[i].reason, sizeof(r->lost[i].reason), "%s", why);
		r->nlost++;
	}
	__atomic_store_n(&r->untracked, r->nlost, __ATOMIC_RELAXED);
}

/* Set once a registry found no descriptor to attach with (fdroom.h). */
static int fds_short;

int lc_fds_short(void)
{
	return __atomic_load_n(&fds_short, __ATOMIC_RELAXED);
}

/* Give up every pidfd the registry holds, and take no more (caller holds
 * the lock): its targets are watched by kill(pid, 0) from now on. */
static void pidfds_release(struct lc_registry *r)
{
	struct lc_target *t;

	cds_list_for_each_entry(t, &r->list, node)
		if (t->pidfd >= 0) {
			close(t->pidfd);
			t->pidfd = -1;
			r->npidfd--;
		}
	r->pidfd_max = 0;
}

/* Descriptors ran out (caller holds the lock): the tick loop's sources
 * open no more, and the registry gives up its pidfds.  Returns how many
 * descriptors that freed. */
static uint32_t fds_ran_out(struct lc_registry *r)
{
	uint32_t freed = r->npidfd;

	__atomic_store_n(&fds_short, 1, __ATOMIC_RELAXED);
	pidfds_release(r);
	return freed;
}

/* attach(), and when no descriptor was free, once more after the tick
 * loop's sources were told to open no more and the registry gave up its
 * pidfds (fdroom.h): a process is worth more than one thread's scheduler
 * or counter source.  What is still short is tried again later. */
static int attach_fd_short(struct lc_registry *r, const char *name, pid_t pid,
			   uint64_t nonce, char *why, size_t wl)
{
	int rc = attach(r, name, pid, nonce, why, wl);

	if (no_fds(rc) && fds_ran_out(r))
		rc = attach(r, name, pid, nonce, why, wl);
	return rc;
}

/* Have the discovery thread wake by t to try a name again. */
static void due(struct lc_registry *r, uint64_t t)
{
	if (t < r->next_try_ns)
		r->next_try_ns = t;
}

/* Whether attach()'s result rc ends the name's tries: attached, refused
 * (-EINVAL, -EACCES), stale or gone (-ESRCH, -ESTALE, -ENOENT). */
static int final(int rc)
{
	return !rc || rc == -EINVAL || rc == -EACCES || rc == -ESRCH || rc == -ESTALE ||
	       rc == -ENOENT;
}

/* Try to attach the wanted segment name of (pid, nonce), unless it is done
 * with, not yet due again, or the scan has used its tries (*tries; NULL:
 * no limit, every name is due, and a name done with whose process is gone
 * is unlinked) (caller holds the lock).  A name that is not ready waits twice as long after each try,
 * from RETRY_MIN_NS up to RETRY_MAX_NS. */
static void try_name(struct lc_registry *r, const char *name, pid_t pid, uint64_t nonce,
		     uint64_t now, uint32_t *tries)
{
	struct lc_name *n = lc_nametab_get(&r->names, pid, nonce);
	char why[LC_REASON_MAX];
	int rc;

	if (n && n->state == LC_NAME_DONE && !tries && !find(r, pid, nonce) &&
	    kill(pid, 0) && errno == ESRCH)
		shm_unlink(name);	/* refused or dropped, and now stale */
	if (!n || n->state == LC_NAME_DONE)
		return;
	if (tries && n->state == LC_NAME_WAIT && n->next_ns > now) {
		due(r, n->next_ns);
		return;
	}
	if (tries && !*tries) {
		due(r, now);		/* the next scan goes on */
		return;
	}
	if (tries)
		(*tries)--;
	__atomic_store_n(&r->tries, r->tries + 1, __ATOMIC_RELAXED);
	rc = attach_fd_short(r, name, pid, nonce, why, sizeof(why));
	if (rc == -EINVAL || rc == -EACCES)
		reject(r, pid, nonce, why);
	if (no_fds(rc))
		note_lost(r, pid, nonce, why);	/* try again when one is free */
	else if (r->nlost && rc != -ESRCH && rc != -ENOENT && final(rc))
		note_lost(r, pid, nonce, NULL);	/* attached, or refused for a reason */
	n = lc_nametab_get(&r->names, pid, nonce);	/* attach() added none, but be sure */
	if (!n)
		return;
	if (final(rc)) {
		n->state = LC_NAME_DONE;
		return;
	}
	n->state = LC_NAME_WAIT;
	if (rc == -EINPROGRESS || no_fds(rc)) {
		/* no backoff: the roots come at once; descriptors free up
		 * when any process or thread ends */
		n->next_ns = now + (no_fds(rc) ? LOST_RETRY_NS : RETRY_MIN_NS);
		due(r, n->next_ns);
		return;
	}
	n->next_ns = now + (n->tries < 15 ? (uint64_t)RETRY_MIN_NS << n->tries : RETRY_MAX_NS);
	if (n->next_ns > now + RETRY_MAX_NS)
		n->next_ns = now + RETRY_MAX_NS;
	n->tries++;
	due(r, n->next_ns);
}

/* Look for new segments in /dev/shm and try the wanted ones: those due, at
 * most SCAN_TRIES_MAX (the rest at the next scan); with all, every one. */
static void scan(struct lc_registry *r, int all)
{
	uint32_t tries = SCAN_TRIES_MAX;
	char session[LC_SESSION_MAX];
	struct dirent *e;
	uint64_t nonce, now = lc_clock_ns();
	pid_t pid;
	DIR *d = opendir(SHM_DIR);
	int e0 = d ? 0 : -errno, freed = 0;

	r->next_try_ns = now + (r->inotify >= 0 ? RESCAN_NS : POLL_NS);
	if (no_fds(e0)) {	/* the directory too needs a descriptor */
		pthread_mutex_lock(&r->lock);
		freed = fds_ran_out(r) > 0;
		pthread_mutex_unlock(&r->lock);
		d = freed ? opendir(SHM_DIR) : NULL;
		if (!d)
			due(r, now + LOST_RETRY_NS);
	}
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (parse_name(e->d_name, session, sizeof(session), &pid, &nonce) ||
		    !wanted(r, session, pid))
			continue;
		pthread_mutex_lock(&r->lock);
		try_name(r, e->d_name, pid, nonce, now, all ? NULL : &tries);
		pthread_mutex_unlock(&r->lock);
	}
	closedir(d);
}

/* Detach the targets whose mapping faulted in the tick loop (their segment
 * was truncated), with one reason each, and refuse their segment from now
 * on (caller holds the lock).  The name stays while the process lives. */
static void drop_faulted(struct lc_registry *r)
{
	struct lc_target *t, *tmp;
	char why[LC_REASON_MAX];

	cds_list_for_each_entry_safe(t, tmp, &r->list, node) {
		if (!__atomic_load_n(&t->fault, __ATOMIC_ACQUIRE))
			continue;
		if (t->fault == LC_FAULT_SIGBUS)
			snprintf(why, sizeof(why), "target %d: its segment was truncated while mapped "
				 "(a read faulted): dropped, what was measured before is kept",
				 (int)t->pid);
		else
			snprintf(why, sizeof(why), "target %d: %u values in its segment that no "
				 "library writes: dropped, what was measured before is kept",
				 (int)t->pid, LC_TARGET_BAD_MAX);
		reject(r, t->pid, t->nonce, why);
		detach(r, t, kill(t->pid, 0) && errno == ESRCH);
	}
}

/* Detach the targets without a pidfd whose process is gone (caller holds
 * the lock). */
static void reap_unwatched(struct lc_registry *r)
{
	struct lc_target *t, *tmp;

	cds_list_for_each_entry_safe(t, tmp, &r->list, node)
		if (t->pidfd < 0 && kill(t->pid, 0) && errno == ESRCH)
			detach(r, t, 1);
}

/* Whether the inotify events in buf[len] name a segment this registry
 * wants (or were too many to name): the other sessions of a busy machine
 * create and remove names in the same directory, and a scan of it for each
 * cost the sampler's process 1-3 % of a CPU. */
static int names_wanted(const struct lc_registry *r, const char *buf, size_t len)
{
	char session[LC_SESSION_MAX];
	uint64_t nonce;
	pid_t pid;

	for (size_t off = 0; off + sizeof(struct inotify_event) <= len;) {
		const struct inotify_event *ev = (const void *)(buf + off);

		if (ev->mask & IN_Q_OVERFLOW)
			return 1;
		if (ev->len && !parse_name(ev->name, session, sizeof(session), &pid, &nonce) &&
		    wanted(r, session, pid))
			return 1;
		off += sizeof(*ev) + ev->len;
	}
	return 0;
}

/* t's process exited: detach it now when no tick loop reads the targets,
 * else mark it leaving (the next tick reads its last declarations). */
static void leave(struct lc_registry *r, struct lc_target *t)
{
	if (!__atomic_load_n(&r->ticked, __ATOMIC_ACQUIRE)) {
		detach(r, t, 1);
		return;
	}
	__atomic_store_n(&t->leave_at, lc_clock_ns(), __ATOMIC_RELEASE);
	r->leaving++;
}

/* Detach the leaving targets that a tick has read since they left, or
 * that waited LEAVE_MAX_NS (a tick loop that stopped).  Caller holds the
 * lock. */
static void detach_left(struct lc_registry *r)
{
	uint64_t ticked = __atomic_load_n(&r->ticked, __ATOMIC_ACQUIRE), now = lc_clock_ns();
	struct lc_target *t, *tmp;

	cds_list_for_each_entry_safe(t, tmp, &r->list, node)
		if (t->leave_at && (ticked > t->leave_at || now - t->leave_at > LEAVE_MAX_NS)) {
			detach(r, t, 1);
			r->leaving--;
		}
}

/* The longest wait for events: POLL_NS (targets watched by kill(pid, 0),
 * or no inotify), IDLE_POLL_NS when inotify and a pidfd per target say
 * every event (a faulted target is then dropped that late: the tick loop
 * no longer reads it), LEAVE_POLL_NS while targets are leaving. */
static uint64_t wait_top(const struct lc_registry *r)
{
	if (r->leaving)
		return LEAVE_POLL_NS;
	if (r->inotify >= 0 && r->npidfd == __atomic_load_n(&r->live, __ATOMIC_RELAXED))
		return IDLE_POLL_NS;
	return POLL_NS;
}

/* How long the wait for events may be: until the next name waiting is due
 * (each backs off on its own, so a segment that stays unpublished, or
 * thousands of them, cannot keep this SCHED_FIFO thread busy), at most
 * wait_top. */
static long wait_for(const struct lc_registry *r)
{
	uint64_t now = lc_clock_ns(), top = wait_top(r);

	if (r->next_try_ns <= now)
		return 0;
	return (long)(r->next_try_ns - now < top ? r->next_try_ns - now : top);
}

/* Look at the threads without a slot of every target still running
 * (unslotted.h): due ones, or all with force.  Caller holds the lock. */
static void look_unslotted(struct lc_registry *r, int force)
{
	uint64_t now = lc_clock_ns();
	struct lc_target *t;

	cds_list_for_each_entry(t, &r->list, node)
		if (!t->leave_at)
			lc_unslotted_look(t, now, force);
}

/* Wait for inotify or a process exit; detach the targets whose process has
 * exited (leave). */
static void wait_events(struct lc_registry *r)
{
	struct pollfd pfd[MAX_POLL];
	struct lc_target *who[MAX_POLL];
	struct lc_target *t;
	nfds_t n = 0;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	pfd[n++] = (struct pollfd){ .fd = r->inotify, .events = POLLIN };
	pthread_mutex_lock(&r->lock);
	cds_list_for_each_entry(t, &r->list, node) {
		if (n == MAX_POLL - 1 || t->pidfd < 0 || t->leave_at)
			continue;
		who[n] = t;
		pfd[n++] = (struct pollfd){ .fd = t->pidfd, .events = POLLIN };
	}
	pthread_mutex_unlock(&r->lock);
	struct timespec ts = { 0, wait_for(r) };

	pfd[n] = (struct pollfd){ .fd = r->wake, .events = POLLIN };	/* stop's wake-up */
	if (ppoll(pfd, n + (r->wake >= 0), &ts, NULL) < 0)
		n = 1;
	if (r->inotify >= 0 && (pfd[0].revents & POLLIN))
		for (ssize_t len; (len = read(r->inotify, buf, sizeof(buf))) > 0;)
			r->named |= names_wanted(r, buf, (size_t)len);
	pthread_mutex_lock(&r->lock);
	for (nfds_t i = 1; i < n; i++)
		if (pfd[i].revents & (POLLIN | POLLHUP))	/* the process exited */
			leave(r, who[i]);
	look_unslotted(r, 0);
	detach_left(r);
	reap_unwatched(r);
	drop_faulted(r);
	pthread_mutex_unlock(&r->lock);
}

/* The discovery thread. */
static void *discover(void *arg)
{
	struct lc_registry *r = arg;
	struct sched_param sp = { .sched_priority = 1 };

	/* a new target is missed until found: find it as soon as it appears */
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	urcu_memb_register_thread();
	r->named = 1;
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		if (r->named || r->inotify < 0 || lc_clock_ns() >= r->next_try_ns) {
			r->named = 0;
			scan(r, 0);
		}
		wait_events(r);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

/* How many pidfds the registry may hold: the descriptors this process may
 * open, less FD_RESERVE, and no more than one poll can wait on. */
static uint32_t pidfd_budget(void)
{
	struct rlimit rl;
	rlim_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	n = rl.rlim_cur > 2 * FD_RESERVE ? rl.rlim_cur - FD_RESERVE : rl.rlim_cur / 2;
	return n < MAX_POLL - 1 ? (uint32_t)n : MAX_POLL - 1;
}

/* lc_registry_open, with lineage LINEAGE_ANY or LINEAGE_WAIT. */
static struct lc_registry *registry_open(const char *session, const pid_t *pids, int npids,
					 int lineage, int *err)
{
	struct lc_registry *r = calloc(1, sizeof(*r));
	int rc;

	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	rc = lc_guard_init();
	if (rc) {
		free(r);
		*err = rc;
		return NULL;
	}
	CDS_INIT_LIST_HEAD(&r->list);
	pthread_mutex_init(&r->lock, NULL);
	if (session)
		snprintf(r->session, sizeof(r->session), "%s", session);
	if (pids && npids > 0) {
		r->pids = malloc((size_t)npids * sizeof(*pids));
		if (!r->pids) {
			free(r);
			*err = -ENOMEM;
			return NULL;
		}
		memcpy(r->pids, pids, (size_t)npids * sizeof(*pids));
		r->npids = npids;
	}
	r->lineage = lineage;
	r->pidfd_max = pidfd_budget();
	__atomic_store_n(&fds_short, 0, __ATOMIC_RELAXED);
	r->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r->inotify >= 0)
		inotify_add_watch(r->inotify, SHM_DIR, IN_CREATE | IN_MOVED_TO);
	scan(r, 1);		/* what is already there is attached before t0 */
	r->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);	/* after: segments first */
	return r;
}

struct lc_registry *lc_registry_open(const char *session, const pid_t *pids, int npids,
				     int *err)
{
	return registry_open(session, pids, npids, LINEAGE_ANY, err);
}

/* lc_registry_start, with lineage LINEAGE_ANY or LINEAGE_WAIT. */
static struct lc_registry *registry_start(const char *session, const pid_t *pids, int npids,
					  int lineage, int *err)
{
	struct lc_registry *r = registry_open(session, pids, npids, lineage, err);
	int rc;

	if (!r)
		return NULL;
	lc_sampler_reserve_fds();	/* while this may be the only thread: tick.h */
	rc = lc_thread_start(&r->thread, discover, r);
	if (rc) {
		*err = rc;
		lc_registry_stop(r);
		lc_registry_free(r);
		return NULL;
	}
	r->running = 1;
	return r;
}

struct lc_registry *lc_registry_start(const char *session, const pid_t *pids, int npids,
				      int *err)
{
	return registry_start(session, pids, npids, LINEAGE_ANY, err);
}

struct lc_registry *lc_registry_start_lineage(const char *session, int *err)
{
	return registry_start(session, NULL, 0, LINEAGE_WAIT, err);
}

int lc_registry_set_roots(struct lc_registry *r, const pid_t *pids, int n)
{
	struct lc_root *roots = n > 0 ? calloc((size_t)n, sizeof(*roots)) : NULL;
	int rc = 0;

	if (n > 0 && !roots)
		return -ENOMEM;
	for (int i = 0; i < n && !rc; i++)
		rc = lc_root_take(pids[i], &roots[i]);
	if (rc) {
		free(roots);
		return rc;
	}
	pthread_mutex_lock(&r->lock);
	free(r->roots);
	r->roots = roots;
	r->nroots = n;
	r->lineage = LINEAGE_SET;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

int lc_registry_roots(struct lc_registry *r, pid_t *pids, int max)
{
	int n = 0;

	pthread_mutex_lock(&r->lock);
	for (; r->lineage == LINEAGE_SET && n < r->nroots && n < max; n++)
		pids[n] = r->roots[n].pid;
	pthread_mutex_unlock(&r->lock);
	return n;
}

void lc_registry_ticked(struct lc_registry *r, uint64_t now)
{
	__atomic_store_n(&r->ticked, now, __ATOMIC_RELEASE);
}

uint32_t lc_registry_outsiders(struct lc_registry *r)
{
	return __atomic_load_n(&r->outsiders, __ATOMIC_RELAXED);
}

/* Whether t's process has exited: its pidfd is readable (an exit not yet
 * reaped counts), or without one, its pid is gone. */
static int exited(const struct lc_target *t)
{
	struct pollfd p = { .fd = t->pidfd, .events = POLLIN };

	if (t->pidfd < 0)
		return kill(t->pid, 0) && errno == ESRCH;
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP));
}

int lc_registry_scan(struct lc_registry *r)
{
	struct lc_target *t, *tmp;

	if (r->running)
		return -EBUSY;
	scan(r, 1);
	pthread_mutex_lock(&r->lock);
	look_unslotted(r, 1);
	cds_list_for_each_entry_safe(t, tmp, &r->list, node)
		if (exited(t))
			detach(r, t, 1);
	drop_faulted(r);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

void lc_registry_stop(struct lc_registry *r)
{
	struct lc_target *t, *tmp;

	if (!r)
		return;
	if (r->running) {
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
		if (r->wake >= 0)	/* no need to wait out the poll's timeout */
			(void)!write(r->wake, &(uint64_t){ 1 }, sizeof(uint64_t));
		pthread_join(r->thread, NULL);
		r->running = 0;
		scan(r, 1);	/* late arrivals, so that stale names get removed */
	}
	pthread_mutex_lock(&r->lock);
	drop_faulted(r);
	look_unslotted(r, 1);
	cds_list_for_each_entry_safe(t, tmp, &r->list, node)
		detach(r, t, kill(t->pid, 0) && errno == ESRCH);
	pthread_mutex_unlock(&r->lock);
	urcu_memb_barrier();
}

void lc_registry_free(struct lc_registry *r)
{
	if (!r)
		return;
	if (r->inotify >= 0)
		close(r->inotify);
	if (r->wake >= 0)
		close(r->wake);
	pthread_mutex_destroy(&r->lock);
	free(r->dep);
	free(r->bad);
	free(r->lost);
	free(r->roots);
	lc_nametab_free(&r->names);
	free(r->pids);
	free(r);
}

struct cds_list_head *lc_registry_list(struct lc_registry *r)
{
	return &r->list;
}

uint32_t lc_registry_seen(struct lc_registry *r)
{
	return __atomic_load_n(&r->seen, __ATOMIC_RELAXED);
}

uint32_t lc_registry_live(struct lc_registry *r)
{
	return __atomic_load_n(&r->live, __ATOMIC_ACQUIRE);
}

const struct lc_departure *lc_registry_departures(struct lc_registry *r, uint32_t *n)
{
	*n = r->ndep;
	return r->dep;
}

uint32_t lc_registry_rejected(struct lc_registry *r)
{
	return __atomic_load_n(&r->rejected, __ATOMIC_RELAXED);
}

uint64_t lc_registry_tries(struct lc_registry *r)
{
	return __atomic_load_n(&r->tries, __ATOMIC_RELAXED);
}

uint32_t lc_registry_untracked(struct lc_registry *r)
{
	return __atomic_load_n(&r->untracked, __ATOMIC_RELAXED);
}

void lc_registry_unslotted(struct lc_registry *r, struct lc_unslotted *out)
{
	struct lc_target *t;

	pthread_mutex_lock(&r->lock);
	*out = r->unslotted;
	cds_list_for_each_entry(t, &r->list, node) {
		uint32_t full = seg_word(t, offsetof(struct lc_seg_hdr, slots_full));

		if (full > t->unslot_refused)	/* refusals since the last look */
			t->unslot_refused = full;
		lc_unslotted_add(t, out);
	}
	pthread_mutex_unlock(&r->lock);
}

uint32_t lc_registry_rejections(struct lc_registry *r, struct lc_rejection *out, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&r->lock);
	n = r->nbad;
	if (n && max)	/* r->bad is NULL before the first rejection */
		memcpy(out, r->bad, (size_t)(n < max ? n : max) * sizeof(*out));
	pthread_mutex_unlock(&r->lock);
	return n;
}
