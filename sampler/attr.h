/*
 * attr.h — attribution: the predicate→category table and the accumulator that
 * turns observations of thread states into category time per window, thread
 * and fragment tag, written to a profile as windows complete.
 *
 * The sampler feeds it one observation per tick; the trace replay feeds it
 * one observation per interval between logged transitions.  Both charge
 * through the same code, so the two profiles differ only by sampling.
 */
#ifndef LC_ATTR_H
#define LC_ATTR_H

#include <stdint.h>

#include "lc_profile.h"

/* The category of a thread in state (LC_ST_*, low byte of the state word)
 * in a process where work exists (we) and a solution was found (sf).  An
 * unknown state counts as idle. */
enum lc_cat lc_attr_category(uint32_t state, int we, int sf);

/* What one process looked like over an interval. */
struct lc_obs_proc {
	uint32_t uid;		/* unique per process instance within a run */
	int32_t pid;		/* its pid (the place rows' key) */
	int we;			/* work_exists > 0 */
	int sf;			/* solution_found */
	uint32_t team;		/* LC_TEAM, 0 = none */
	int rank;		/* an MPI rank (its job layer said so): its
				 * threads wait for partners in other processes */
	uint32_t ntags;		/* open fragment tags */
	const int64_t *tags;
};

/* What one live thread looked like over an interval. */
struct lc_obs_thread {
	uint32_t thread;	/* profile thread index (lc_threads_id) */
	uint32_t proc;		/* index into lc_obs.procs */
	uint32_t state;		/* LC_ST_* */
	int qempty;		/* queue-empty flag */
	uint64_t task;		/* current task, 0 = none */
	uint64_t xfer_ns;	/* ideal transfer time to move from SL to CL */
	uint32_t sync;		/* while SYNC: index + 1 of the synchronization
				 * object in its process's table, 0 none */
	uint64_t runq_ns;	/* of the interval, the time the thread waited
				 * for a processor (runnable but not running,
				 * and BUSY, or woken, or a waiter whose event
				 * had happened: the sampler decides), charged
				 * to RC whatever its state */
	uint32_t prev_state;	/* the state it left at a change inside the */
	uint64_t prev_ns;	/* interval, and how long into the interval
				 * (0: none: state held all of it) */
	uint64_t prev_runq_ns;	/* of prev_ns, the run-queue time that is RC
				 * (runq_ns is then of the rest) */
	uint64_t partner_ns;	/* of the interval, the time a waiter (SYNC or
				 * IDLE) waited for partners that waited for a
				 * processor (the partners' rule: waits.h),
				 * charged to RC instead of its wait's category */
	uint64_t place;		/* its place word (lc_abi.h), 0 elsewhere */
	uint64_t obj;		/* the value of its synchronization object, 0 */
};

struct lc_obs {
	uint32_t nprocs;
	const struct lc_obs_proc *procs;
	uint32_t nthreads;
	const struct lc_obs_thread *threads;
};

/* ---- thread identities, shared by the sources of one profile ---------------- */

struct lc_threads;

/* A table of threads that declares each new thread to writer w. */
struct lc_threads *lc_threads_new(struct lc_pwriter *w);
void lc_threads_free(struct lc_threads *t);

/* The profile index of the thread (pid, nonce, slot, gen), declaring it
 * (with tid and first_ns) when it is new.  Returns the index, or -errno. */
int64_t lc_threads_id(struct lc_threads *t, int32_t pid, uint64_t nonce, uint32_t slot,
		      uint32_t gen, int32_t tid, uint64_t first_ns);

/* ---- the accumulator ------------------------------------------------------- */

struct lc_accum;

/* An accumulator for one source writing windows of window_ns to w (fixed
 * windows until lc_accum_window_grow says otherwise), with p processor
 * slots if procs > 0 (else p is settled at the end: a tick is charged with
 * the p known so far, and the slots it could not know of are the empty
 * slots a reader adds, so the categories still sum to p x wall time).
 * NULL on ENOMEM. */
struct lc_accum *lc_accum_new(struct lc_pwriter *w, enum lc_source src, uint64_t window_ns,
			      uint32_t procs);
void lc_accum_free(struct lc_accum *a);

/* Lay the windows out by the schedule of lc_window_span: base window_ns and
 * growth grow (0: every window window_ns long, the default; else even, at
 * least 2).  Call before the first charge.  Returns 0, -EINVAL for a growth
 * the schedule does not define, -EBUSY once charging has begun. */
int lc_accum_window_grow(struct lc_accum *a, uint32_t grow);

/* What the scheduler says of the interval the next lc_accum_charge charges:
 * runnable threads were runnable at once (running or in a run queue), and
 * their affinity masks allow cpus CPUs (0: not known).  Without it, that
 * charge counts the threads whose flags say BUSY or COMM as runnable. */
void lc_accum_runnable(struct lc_accum *a, uint32_t runnable, uint32_t cpus);

/* Charge the interval [t, t + dt) (ns relative to t0) to the state in o.
 * Returns 0 or the writer's -errno (charging goes on after a write error). */
int lc_accum_charge(struct lc_accum *a, uint64_t t, uint64_t dt, const struct lc_obs *o);

/* Task `task` of process uid was declared wasted: its pure computation so
 * far becomes wasted computation. */
void lc_accum_wasted(struct lc_accum *a, uint32_t uid, uint64_t task);

/* Count declarations of wasted tasks that could not be read. */
void lc_accum_wasted_lost(struct lc_accum *a, uint64_t n);
/* Take back n of them: they came from a segment dropped as invalid. */
void lc_accum_wasted_forget(struct lc_accum *a, uint64_t n);

/* ---- counters (docs/counters.md) -------------------------------------------
 * A counter read covers a thread's time since its previous read.  The
 * accumulator remembers where the thread's pure computation went since then
 * (windows and open tags); a read spreads its counts over that time in
 * proportion, and moves the parts of it the counters explain out of PC. */

/* Count these events from now on (writes the profile's events block). */
int lc_accum_events(struct lc_accum *a, uint32_t n, const struct lc_prof_event *ev);

/* Pure computation charged to thread since its previous counter read. */
uint64_t lc_accum_busy_pending(const struct lc_accum *a, uint32_t thread);

/* A counter read of thread: delta[] (the events' order) and the ns of its
 * pending pure computation that go to other categories (move[c]; only ML,
 * CL and RC are used), spread over that computation in proportion.  The
 * thread's pending computation starts again from zero. */
int lc_accum_counters(struct lc_accum *a, uint32_t thread, const uint64_t *delta,
		      const uint64_t move[LC_NCAT]);

/* Synchronization object sync (index + 1) of process uid is obj of process
 * pid, named name (may be "" or NULL), for the sync block. */
void lc_accum_sync_name(struct lc_accum *a, uint32_t uid, int32_t pid, uint32_t sync,
			uint64_t obj, const char *name);

/* Flush the last (partial) window, and write the synchronization loss of
 * every named synchronization object so far (a sync block).  Returns 0 or
 * -errno. */
int lc_accum_flush(struct lc_accum *a);

/* The p the accumulator settles on and where it came from: --procs, else
 * the team the program declared, else the most threads runnable at once,
 * capped by the CPUs their affinity allows (LC_PROCS_RUNNABLE). */
uint32_t lc_accum_procs(const struct lc_accum *a, uint32_t *from);

/* What each rule for p gives: most threads alive at once, most runnable
 * at once, CPUs their affinity allows (0: not known). */
void lc_accum_procs_rules(const struct lc_accum *a, uint32_t *threads, uint32_t *runnable,
			  uint32_t *cpus);

/* Most live threads at one tick so far. */
uint32_t lc_accum_max_threads(const struct lc_accum *a);

/* The largest f (1 - f) of the run so far, f the share of its slots' time
 * (p x wall) of each category and of the slots no thread claimed, each
 * moved toward 1/2 by margin (at most to 1/2): a category's standard error
 * after n slot observations is sqrt(f (1 - f) / n), as report's +- column
 * says.  1/4, the largest there is, before anything was charged. */
double lc_accum_spread(const struct lc_accum *a, double margin);

/* Statistics for the end block. */
uint64_t lc_accum_ticks(const struct lc_accum *a);
uint64_t lc_accum_wasted_lost_count(const struct lc_accum *a);

/* Ticks at which a fragment tag beyond the run's first LC_TAGS_CAP distinct
 * ones was open (its time went to the row of LC_TAG_OTHER). */
uint64_t lc_accum_tags_over(const struct lc_accum *a);

#endif /* LC_ATTR_H */
