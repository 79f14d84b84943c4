/*
 * targets.h — the target registry: the processes being sampled.
 *
 * A discovery thread finds the shared-memory segments of a session (or of
 * given pids), validates and maps them, and appends them to an RCU list; it
 * removes a target when its process exits or an exec'd image replaces it,
 * and unmaps it after a grace period (call_rcu).  The tick loop is the only
 * reader: it walks the list inside urcu_memb_read_lock() without ever
 * blocking on the writers.  Segments are untrusted input from any local
 * user: what is checked before a target counts, and the bounds on the work
 * one can cause, are in docs/trust-segments.md.
 */
#ifndef LC_TARGETS_H
#define LC_TARGETS_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculist.h>

#include "lc_abi.h"

/* Why the tick loop gave up a target (lc_target.fault). */
#define LC_FAULT_SIGBUS 1	/* a read faulted: the file was truncated */
#define LC_FAULT_DATA 2		/* LC_TARGET_BAD_MAX bad reads */

/* Bounds on the work a target's segment can cause: bad reads before it is
 * dropped (a garbage header is one a tick: 64 ms at the default's 1 ms),
 * and new thread identities checked per tick over all targets. */
#define LC_TARGET_BAD_MAX 64u
#define LC_ID_CHECKS_PER_TICK 32u

/* What the tick loop remembers about one slot between ticks (the tick
 * loop's alone). */
struct lc_slot_cache {
	uint32_t tid;		/* 0 = free when last seen */
	uint32_t gen;
	int64_t thread;		/* profile thread index, -1 = none yet */
	int refused;		/* (tid, gen) is not a thread of the process */
	uint32_t nwasted;	/* wasted declarations consumed */
	uint32_t xfer_seen;	/* the slot's xfer_ns when last read */
	uint64_t xfer_credit;	/* ideal transfer time not yet charged to CL */
};

/*
 * One attached process.  The discovery thread (the writer) makes it, and
 * removes it from the list; the tick loop reads it inside an RCU read-side
 * critical section, so it stays mapped and allocated until the reader has
 * left (call_rcu frees it).
 */
struct lc_target {
	/* the list links: the writer's, under the registry lock */
	struct cds_list_head node;
	struct rcu_head rcu;
	/* set by the writer before publication, then read-only: the list
	 * insertion is a release, so a reader that finds the target sees them.
	 * nslots, pid, nonce, start_ns and comm come from one validated copy
	 * of the segment header, never from the live mapping. */
	const struct lc_seg_hdr *hdr;
	size_t len;
	uint32_t nslots;
	const uint64_t *places;	/* the place cells (ABI 1.4), NULL: none */
	const struct lc_stamp *stamps;	/* the stamps (ABI 1.5), NULL: none */
	int32_t pid;
	uint64_t nonce;
	uint64_t start_ns;
	uint32_t uid;		/* unique within the run */
	char comm[16];
	char name[NAME_MAX + 1];	/* shm name, for unlink */
	int pidfd;		/* -1: watched by kill(pid, 0) (the writer's) */
	int gone;		/* the process exited or was replaced: written by
				 * the writer (release), read by the tick loop
				 * (acquire) */
	uint64_t leave_at;	/* CLOCK_MONOTONIC when the writer saw the process
				 * exit, 0: not leaving.  Written by the writer
				 * (release), which detaches the target once a
				 * tick that began later has read its last
				 * LC_TASK_WASTED declarations; read by the tick
				 * loop (acquire), which reads only those then */
	int fault;		/* LC_FAULT_*: a read of the mapping faulted (the
				 * segment was truncated), or it held too much
				 * garbage: written by the tick loop (release),
				 * read by the writer (acquire), which drops it */
	/* private to the tick loop once published (the writer allocates cache
	 * with every thread -1, the rest starts zero) */
	uint32_t bad;		/* bad reads so far */
	uint64_t wasted_lost;	/* LC_TASK_WASTED calls it said were missed:
				 * forgotten when it is dropped as invalid */
	int announced;
	int job_announced;	/* its rank block is written */
	struct lc_slot_cache *cache;
	uint32_t tag_seq;
	uint32_t ntags;
	int64_t tags[LC_MAX_TAGS];
	uint64_t sync_told;	/* bit i: sync object i described to the
				 * accumulator; */
	uint64_t sync_named;	/* bit i: with its name */
	/* which slots are read at a tick (slotsweep.h) */
	uint32_t *active;	/* slots holding an accepted thread */
	uint32_t nactive;
	size_t active_cap;
	uint8_t *listed;	/* per slot: in active[] (nslots bytes) */
	uint32_t cursor;	/* where the window over the others goes on */
	/* the writer's alone: the threads without a slot (unslotted.h) */
	struct lc_unslot_thread *unslot;	/* by tid */
	uint32_t unslot_n;
	size_t unslot_cap;
	uint64_t unslot_done;	/* run time of threads whose tid was reused */
	uint32_t unslot_refused;	/* the segment's slots_full, largest seen */
	uint64_t unslot_next;	/* the next look is due (CLOCK_MONOTONIC) */
};

/* A target that left the run, for the trace replay. */
struct lc_departure {
	int32_t pid;
	uint64_t nonce;
	uint64_t t_ns;		/* CLOCK_MONOTONIC when it left */
	uint32_t seg_flags;	/* LC_SEG_* of its segment then (LC_SEG_TRACE_CUT:
				 * its trace stopped early) */
};

/* A segment refused as invalid, with a one-line reason such as "target 1234
 * speaks segment ABI 2, this sampler 1: skipped". */
#define LC_REASON_MAX 160
struct lc_rejection {
	int32_t pid;
	uint64_t nonce;
	char reason[LC_REASON_MAX];
};

struct lc_registry;

/* Start discovering the segments of session (when pids is NULL) or of the
 * npids processes in pids (any session).  Installs the process's SIGBUS
 * handler (guard.h), which readers of the mappings rely on.  Returns NULL
 * with *err = -errno. */
struct lc_registry *lc_registry_start(const char *session, const pid_t *pids, int npids,
				      int *err);

/* As lc_registry_start for a session, but a segment is accepted only when
 * its process is one of the roots given by lc_registry_set_roots, or
 * descends from one (lineage.h): another user's process started with the
 * session's name in its environment is refused.  Until the roots are
 * given, segments wait (the command is being started). */
struct lc_registry *lc_registry_start_lineage(const char *session, int *err);

/* Give the roots of a registry started with lc_registry_start_lineage: the
 * n processes in pids (the recorded command), taken with their start time
 * now.  Any thread.  Returns 0 or -errno (-ENOENT: a pid is gone); on an
 * error the segments keep waiting. */
int lc_registry_set_roots(struct lc_registry *r, const pid_t *pids, int n);

/* The pids of the roots given (at most max) into pids; how many (0 before
 * they are given, and for a registry of pids).  Any thread. */
int lc_registry_roots(struct lc_registry *r, pid_t *pids, int max);

/* Segments refused because their process does not descend from the roots
 * (any thread, any time); each is also a rejection, with its reason. */
uint32_t lc_registry_outsiders(struct lc_registry *r);

/* The tick loop's word that a tick that began at now has read every
 * target's LC_TASK_WASTED declarations: a target whose process was seen
 * exiting before now may be detached.  Until a tick loop says so, targets
 * are detached as soon as their process exits.  The sampling thread. */
void lc_registry_ticked(struct lc_registry *r, uint64_t now);

/* Like lc_registry_start, but no discovery thread runs: the caller drives
 * discovery with lc_registry_scan, and so knows what each scan found (tests
 * assert "not yet attached" without waiting).  Returns NULL with *err =
 * -errno. */
struct lc_registry *lc_registry_open(const char *session, const pid_t *pids, int npids,
				     int *err);

/* One round of discovery in the calling thread, on a registry from
 * lc_registry_open: every wanted name in /dev/shm that is not done with is
 * tried now (back-off ignored), targets whose process is gone are detached,
 * faulted ones dropped.  Returns 0, or -EBUSY when a discovery thread runs
 * (lc_registry_start). */
int lc_registry_scan(struct lc_registry *r);

/* Stop discovery, detach every target, and wait until all are unmapped.
 * Departures stay readable until lc_registry_free. */
void lc_registry_stop(struct lc_registry *r);
void lc_registry_free(struct lc_registry *r);

/* The RCU list of struct lc_target (walk with cds_list_for_each_entry_rcu
 * inside urcu_memb_read_lock). */
struct cds_list_head *lc_registry_list(struct lc_registry *r);

/* Targets attached so far in total, and attached now. */
uint32_t lc_registry_seen(struct lc_registry *r);
uint32_t lc_registry_live(struct lc_registry *r);

/* The departures so far.  The array may move while discovery runs: read it
 * after lc_registry_stop, or while no target can leave. */
const struct lc_departure *lc_registry_departures(struct lc_registry *r, uint32_t *n);

/* Segments rejected as invalid so far (any thread may ask). */
uint32_t lc_registry_rejected(struct lc_registry *r);

/* Segment names tried so far (opened, or attempted), for diagnostics and
 * tests; any thread, any time. */
uint64_t lc_registry_tries(struct lc_registry *r);

/* Segments of wanted processes that could not be opened for want of file
 * descriptors (EMFILE, ENFILE) and have not been attached since: their
 * processes are missing from the profile (any thread, any time). */
uint32_t lc_registry_untracked(struct lc_registry *r);

/* The threads without a slot of every target so far (unslotted.h): those
 * the segments refused, those seen in /proc, their CPU time.  Any thread;
 * takes the registry lock. */
struct lc_unslotted;
void lc_registry_unslotted(struct lc_registry *r, struct lc_unslotted *out);

/* Copy the first max rejected segments, with their reasons, into out, for
 * the command to report (the library prints nothing); returns how many
 * there are in all (and also when more than max).  Any thread, any time. */
uint32_t lc_registry_rejections(struct lc_registry *r, struct lc_rejection *out, uint32_t max);

#endif /* LC_TARGETS_H */
