/*
 * counters.h — hardware and software counters of the target threads, named
 * through libpfm4 and read through a backend: perf_event (real), replay (a
 * recorded counter trace, for deterministic tests of the arithmetic) or none
 * (counting unavailable, with the reason).  docs/counters.md explains the
 * categories derived from them.
 *
 * Threads: every function is called from the sampling thread, except
 * lc_ctr_open and lc_ctr_close (the session's thread, before the sampler
 * starts and after it stopped).  Nothing here prints.
 */
#ifndef LC_COUNTERS_H
#define LC_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lc_profile.h"

#define LC_CTR_DEFAULT_INTERVAL_NS 10000000u	/* 10 ms */

struct lc_ctr_cfg {
	const char *events;	/* record -e: "EV[,EV...]", each "name[=role]";
				 * NULL: the default set of the detected PMU
				 * from DATADIR/events.txt */
	const char *events_file;	/* that file; NULL: $LOSTCYCLES_EVENTS, else
					 * events.txt found as lc_share_file does */
	uint64_t interval_ns;	/* per-thread read interval; 0: default */
	uint64_t tick_ns;	/* the sampler's tick, to spread reads */
	double miss_latency_ns;	/* ideal latency of one miss; 0: unknown */
	const char *latency_from;	/* where miss_latency_ns came from ("--miss-latency",
					 * "FILE (calibrate --memory)"), or, when it is 0,
					 * why there is none; NULL: not said */
	const char *replay;	/* a counter trace: use the replay backend */
	int off;		/* counting not asked for: backend none, no reason */
	int exclude_kernel;	/* 1: count user space only, for every target; 0:
				 * decide per target (lc_ctr_user_only): a target
				 * thread whose effective uid is not 0 counts user
				 * space only, a root one the kernel too */
};

struct perf_event_attr;

/* For tests: when set, called instead of perf_event_open(2) with its
 * arguments; returns a descriptor, or -1 with errno set. */
extern long (*lc_ctr_open_hook)(struct perf_event_attr *attr, pid_t tid, int cpu,
				int group_fd, unsigned long flags);

/* Whether target thread tid is counted in user space only: its effective
 * uid (from /proc/TID/status) is not 0, or cannot be read.  tid 0: this
 * thread. */
int lc_ctr_user_only(pid_t tid);

struct lc_ctr;

/* Parse and encode the events, choose the backend and find out (by opening
 * the events once on this process) whether counting works here.  An unknown
 * event name or a bad modifier is -EINVAL with a reason naming the event and
 * libpfm4's explanation in msg.  When the events encode but cannot be opened
 * (no PMU: ENOENT, perf_event_paranoid, not permitted) this returns 0 with
 * the none backend, and lc_ctr_unavailable gives the reason with the fix.
 * *out is freed with lc_ctr_close. */
int lc_ctr_open(const struct lc_ctr_cfg *cfg, struct lc_ctr **out, char *msg, size_t len);

/* NULL when counting, else why not and what to do, one line. */
const char *lc_ctr_unavailable(const struct lc_ctr *c);

/* The events counted (names and roles), for the profile's events block:
 * *n of them, 0 when unavailable. */
const struct lc_prof_event *lc_ctr_events(const struct lc_ctr *c, uint32_t *n);

/* How category cat (LC_CAT_ML, _CL, _RC) is derived from the counters, one
 * line for the profile ("busy x STALL/CYCLES (cycles, stalls)"), or NULL when
 * the events cannot give it.  For CL it names the ideal miss latency and
 * where it came from; when a miss event is counted but no latency is known,
 * it says that misses are not charged and why (latency_from). */
const char *lc_ctr_method(const struct lc_ctr *c, int cat);

/* A target thread appeared (profile index thread, kernel id tid) or left.
 * attach opens its counters; a failure for one thread is counted, not
 * fatal.  detach reads it a last time (through the poll callback) and
 * closes its counters. */
typedef void (*lc_ctr_cb)(void *arg, uint32_t thread, const uint64_t *delta);
int lc_ctr_attach(struct lc_ctr *c, uint32_t thread, pid_t tid);
/* Whether thread's counters are still to be opened: lc_ctr_attach was
 * never called for it (0 for the replay backend, which opens nothing). */
int lc_ctr_pending(const struct lc_ctr *c, uint32_t thread);
void lc_ctr_detach(struct lc_ctr *c, uint32_t thread, lc_ctr_cb cb, void *arg);

/* At a tick at monotonic time now: read the threads whose turn it is, so
 * that each thread is read about once per interval and no tick reads every
 * thread; for each read, call cb with the thread and the deltas since its
 * previous read (lc_ctr_events order, scaled by time_enabled/time_running
 * when the kernel multiplexed). */
void lc_ctr_poll(struct lc_ctr *c, uint64_t now, lc_ctr_cb cb, void *arg);

/* The nanoseconds of busy_ns (a thread's running time over the span of one
 * delta) that the deltas move out of pure computation, per category:
 * out[LC_CAT_ML], out[LC_CAT_CL], out[LC_CAT_RC]; other entries 0.  Pure
 * arithmetic (docs/counters.md). */
void lc_ctr_split(const struct lc_ctr *c, const uint64_t *delta, uint64_t busy_ns,
		  uint64_t out[LC_NCAT]);

/* Why a perf event did not open (err = -errno of perf_event_open) and what
 * to do, in one line: "no such event here: no hardware PMU (a virtual
 * machine?)...", "not permitted: perf_event_paranoid is 3; run 'sysctl
 * kernel.perf_event_paranoid=1' or give the tool CAP_PERFMON", ...  Returns
 * buf. */
char *lc_ctr_reason(int err, char *buf, size_t len);

/* Threads whose counters could not be opened, reads that failed. */
uint64_t lc_ctr_failures(const struct lc_ctr *c);

void lc_ctr_close(struct lc_ctr *c);

#endif /* LC_COUNTERS_H */
