/*
 * lc_sched.h — the scheduler's view of the target threads: for each tick,
 * how long each thread ran, how long it was runnable but not running
 * (waiting in a run queue) and why it was waiting: preempted, or woken from
 * a wait that was over (docs/counters.md, "Resource contention from the
 * scheduler").  A woken thread waits for a processor whatever its flag
 * says, so its run-queue time is resource contention; a preempted one's is
 * when it was BUSY, or a waiter whose event has happened (tick.c decides).
 *
 * Sources, best first:
 *   switch     perf context-switch records (a dummy software event with
 *              context_switch = 1, one ring buffer per thread, read without
 *              interrupting the thread): exact on-CPU and preempted spans;
 *              the end of a sleep (the wake-up) from the sched:sched_wakeup
 *              tracepoint (wake.h), else from the thread's schedstat run
 *              delay at its switch-in (lc_sched_wake_source says which, and
 *              why the tracepoint could not be used);
 *   schedstat  /proc/PID/task/TID/schedstat run time and run delay, read
 *              with pread on a kept-open descriptor; the kernel adds a wait
 *              when the thread gets the CPU, so the time is charged from then
 *              on (a credit), and preempted and woken waits are not told
 *              apart (both are reported as woken);
 *   none       not measured.
 *
 * Threads: lc_sched_new, lc_sched_keep_spans, lc_sched_spans and
 * lc_sched_free on the session's thread before the sampler starts and after
 * it stopped; everything else on the sampling thread.  Nothing here prints.
 */
#ifndef LC_SCHED_H
#define LC_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lc_profile.h"

struct lc_sched;

/* A scheduler source: want is LC_SCHED_SWITCH (try switch records, fall
 * back to schedstat), LC_SCHED_SCHEDSTAT or LC_SCHED_NONE.  The source
 * actually used is lc_sched_source(); when it is none, why says why in one
 * line.  NULL on ENOMEM. */
struct lc_sched *lc_sched_new(enum lc_sched_source want, char *why, size_t len);
enum lc_sched_source lc_sched_source(const struct lc_sched *s);

/* Where the ends of sleeps come from under the switch source. */
enum lc_wake_source {
	LC_WAKE_NONE = 0,	/* not measured (source is not switch) */
	LC_WAKE_TRACEPOINT = 1,	/* sched:sched_wakeup through perf */
	LC_WAKE_SCHEDSTAT = 2,	/* schedstat run delay at the switch-in */
};

/* The wake-up source; when it is not the tracepoint, why says why (else ""). */
enum lc_wake_source lc_sched_wake_source(const struct lc_sched *s, const char **why);

/* What the scheduler says of one thread over [last, now). */
struct lc_runq {
	uint64_t preempt_ns;	/* runnable, not running, since it was preempted */
	uint64_t woken_ns;	/* runnable, not running, since it was woken */
	uint64_t run_ns;	/* running */
	int known;		/* the source measured run_ns (the thread is
				 * watched and the source is not none) */
	uint64_t cut;		/* in: an instant in (last, now) at which the
				 * thread's flags changed, 0 none (kept) */
	uint64_t cut_preempt_ns; /* of preempt_ns and woken_ns, the parts */
	uint64_t cut_woken_ns;	/* before cut (switch records; schedstat: 0) */
};

/* Read the wake-ups since the previous tick: call once per tick, before
 * lc_sched_read of the tick's threads. */
void lc_sched_tick(struct lc_sched *s);

/* The scheduler's view of thread (profile index; pid, tid its kernel ids)
 * within [last, now) (CLOCK_MONOTONIC ns) into *out, whose cut the caller
 * sets (0: none).  The first call for a
 * thread starts watching it (and reports nothing known). */
void lc_sched_read(struct lc_sched *s, uint32_t thread, pid_t pid, pid_t tid,
		   uint64_t last, uint64_t now, struct lc_runq *out);

/* A span of run-queue time of a thread, kept for the trace replay. */
enum lc_rq_kind { LC_RQ_PREEMPT = 1, LC_RQ_WOKEN = 2 };
struct lc_rq_span {
	uint64_t start, end;	/* CLOCK_MONOTONIC ns */
	uint32_t kind;		/* enum lc_rq_kind */
};

/* Keep every run-queue span from now on (trace mode replays them). */
void lc_sched_keep_spans(struct lc_sched *s);

/* The kept spans of thread, in time order; their count in *n (0: none). */
const struct lc_rq_span *lc_sched_spans(const struct lc_sched *s, uint32_t thread, size_t *n);

/* Whether lc_sched_read has started watching thread (or has nothing to
 * start): the first call opens the thread's source, which costs ~20 us of
 * system calls (perf_event_open and mmap of its ring). */
int lc_sched_watching(const struct lc_sched *s, uint32_t thread);

/* Start loading what lc_sched_read will read first for thread: the head
 * of its switch-record ring, a page of its own per thread, which is a cache
 * (and often a TLB) miss at every tick.  A tick that prefetches a few
 * threads ahead overlaps those misses instead of waiting for each. */
void lc_sched_prefetch(const struct lc_sched *s, uint32_t thread);

/* Stop watching thread (it left). */
void lc_sched_forget(struct lc_sched *s, uint32_t thread);

/* Threads that could not be watched (e.g. gone before opened). */
uint64_t lc_sched_failures(const struct lc_sched *s);

void lc_sched_free(struct lc_sched *s);


#endif /* LC_SCHED_H */
