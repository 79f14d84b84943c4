/*
 * lc_sched.h — the scheduler's view of the target threads: for each tick, how
 * long each thread was runnable but not running (waiting in a run queue).
 * Resource contention is that time while the thread is BUSY
 * (docs/counters.md, "Resource contention from the scheduler").
 *
 * Sources, best first:
 *   switch     perf context-switch records (a dummy software event with
 *              context_switch = 1, one ring buffer per thread, read without
 *              interrupting the thread): exact preempted-to-switch-in spans;
 *   schedstat  /proc/PID/task/TID/schedstat run delay, read with pread on a
 *              kept-open descriptor; the kernel adds a wait when the thread
 *              gets the CPU, so the time is charged from then on (a credit);
 *   none       not measured.
 *
 * Threads: lc_sched_new and lc_sched_free on the session's thread before the
 * sampler starts and after it stopped; everything else on the sampling
 * thread.  Nothing here prints.
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

/* The run-queue time of thread (profile index; pid, tid its kernel ids)
 * within [last, now) (CLOCK_MONOTONIC ns).  The first call for a thread
 * starts watching it (and returns 0). */
uint64_t lc_sched_runq(struct lc_sched *s, uint32_t thread, pid_t pid, pid_t tid,
		       uint64_t last, uint64_t now);

/* Whether lc_sched_runq has started watching thread (or has nothing to
 * start): the first call opens the thread's source, which costs ~20 us of
 * system calls (perf_event_open and mmap of its ring). */
int lc_sched_watching(const struct lc_sched *s, uint32_t thread);

/* Start loading what lc_sched_runq will read first for thread: the head
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
