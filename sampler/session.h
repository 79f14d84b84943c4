/*
 * session.h — the lifecycle of one profiling session, shared by "record"
 * and "attach": open the profile, start the pinned sampler, and at the end
 * stop it, add the trace-mode source, write the end record and release
 * everything.  The command layer decides what runs and when it ends; this
 * layer prints nothing and reports through return values and notes.
 *
 * Threads: every function here is called from the one thread that owns the
 * session (the command's main thread).  Between lc_session_start and
 * lc_session_finish the sampling thread owns the accumulator and the profile
 * writer; lc_session_finish takes them back after joining it.
 */
#ifndef LC_SESSION_H
#define LC_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "lc_profile.h"
#include "targets.h"

#define LC_SESSION_DEFAULT_INTERVAL_NS 100000u	/* 100 us */
#define LC_SESSION_DEFAULT_WINDOW_NS 10000000u	/* 10 ms */
#define LC_SESSION_ADAPT_MAX_NS 1000000u	/* the adaptive interval's top: 1 ms */
#define LC_SESSION_DEFAULT_JITTER_PCT 50u	/* each interval +- up to 50 %, drawn
					 * uniformly (docs/performance.md) */
#define LC_SESSION_REASONS_SHOWN 4	/* refused segments named in the notes */
#define LC_SESSION_PHASES 8	/* the parts of a tick (tick.h's LC_NPHASES) */

/* What the command asked for. */
struct lc_session_opts {
	uint64_t interval_ns;	/* nominal tick interval (the first, when adaptive) */
	uint64_t interval_max_ns;	/* > interval_ns: the adaptive rule
					 * (tick.h) up to this; else fixed */
	uint32_t budget_ppm;	/* adaptive: the sampler's CPU budget, 0 default */
	uint32_t goal_ppm;	/* adaptive: the error goal, 0 default */
	uint64_t window_ns;	/* timeline window: the first windows' length */
	uint32_t window_grow;	/* 0: every window window_ns long; else even
				 * >= 2: the length doubles after that many
				 * windows (lc_window_span) */
	int cpu;		/* sampler CPU, -1: choose a spare one */
	uint32_t procs;		/* --procs, 0: not given */
	const char *out;	/* profile path */
	int trace;		/* add the exact trace-mode profile at the end */
	const char *trace_dir;	/* where the targets write their trace logs */
	int own_trace_dir;	/* remove trace_dir and its logs at the end */
	const char *name;	/* the session name (the segments' prefix) */
	const char *command;	/* the command line, for the profile */
	uint32_t unavailable;	/* bit c: category c cannot be measured in this
				 * session (e.g. CL of an MPI job without LogGP
				 * parameters), with the reason: */
	const char *unavailable_why;
	const char *host;	/* host name for the profile; NULL: LOSTCYCLES_HOST,
				 * else the machine's */
	int sched;		/* run-queue source wanted (enum lc_sched_source;
				 * 0 = none): LC_SCHED_SWITCH tries context-switch
				 * records, then schedstat */
	uint32_t jitter_pct;	/* each interval up to this percent longer or
				 * shorter at random (0..50; 0: a fixed grid) */
	/* counters (docs/counters.md) */
	const char *events;	/* record -e, NULL: the default set */
	const char *events_file;	/* NULL: LC_DATADIR/events.txt */
	uint64_t counter_interval_ns;	/* 0: the default */
	double miss_latency_ns;	/* ideal latency of one miss, 0 unknown */
	const char *miss_latency_from;	/* where it came from, or why there is none
					 * (lc_ctr_cfg.latency_from) */
	const char *counter_replay;	/* a counter trace (tests) */
	int no_counters;	/* do not count */
};

/* The settings of a session that the command line did not change: the
 * adaptive interval from 100 us up to 1 ms, 10 ms windows, a spare CPU,
 * run-queue data from context switches, +-50 % jitter, the counters of
 * events.txt.  record, attach and exec all start from it. */
#define LC_SESSION_OPTS_DEFAULT { \
	.interval_ns = LC_SESSION_DEFAULT_INTERVAL_NS, \
	.interval_max_ns = LC_SESSION_ADAPT_MAX_NS, \
	.window_ns = LC_SESSION_DEFAULT_WINDOW_NS, .cpu = -1, .sched = LC_SCHED_SWITCH, \
	.jitter_pct = LC_SESSION_DEFAULT_JITTER_PCT }

/* What a finished session measured, for the command's summary line. */
struct lc_session_result {
	uint64_t wall_ns;	/* from t0 to the last tick */
	uint64_t ticks;
	uint32_t procs;		/* p of the profile */
	uint32_t procs_from;	/* enum lc_procs_from */
	uint32_t max_threads;	/* what p's other rules give (lc_procs_text) */
	uint32_t max_runnable;
	uint32_t affinity_cpus;
	uint32_t seen;		/* processes that appeared */
	uint32_t proc_threads;	/* most threads a program process had at a
				 * machine read (0 unknown): threads created,
				 * flags or none */
	uint32_t rejected;	/* invalid segments ignored */
	uint32_t untracked;	/* processes that could not be tracked for want
				 * of file descriptors */
	int fds_short;		/* descriptors ran out (fdroom.h) */
	/* the limits (the end block's): threads without a slot, fragment
	 * tags beyond the cap */
	uint32_t unslotted;	/* threads the segments refused a slot */
	uint32_t unslotted_seen;	/* threads seen without a slot */
	uint64_t unslotted_cpu_ns;	/* their CPU time, at least */
	uint64_t tags_over;	/* ticks with a tag beyond LC_TAGS_CAP open */
	int opened;		/* the profile file was created */
	int write_err;		/* -errno when the profile is incomplete, else 0 */
	uint64_t sampler_cpu_ns;	/* CPU time of the sampler's process */
	uint64_t max_gap_ns, max_gap_at_ns, missed_ticks;	/* tick gaps */
	int shared_cpu;		/* CPU the sampler shared with the program, -1 */
	int busy_wait;		/* the sampler busy-waited for its ticks */
	int sched_source;	/* enum lc_sched_source used */
	/* the interval rule and what it cost (the end block's minor-5 fields) */
	uint32_t rule;		/* enum lc_interval_rule */
	uint64_t interval_min_ns, interval_max_ns, mean_interval_ns, last_interval_ns;
	uint32_t goal_ppm, budget_ppm;
	uint64_t goal_at_ns;	/* 0: the error goal was not reached */
	uint64_t thread_cpu_ns;	/* the sampling thread's own */
	double err_bound;	/* the largest standard error of a category,
				 * of p x wall: sqrt(f (1 - f) / (ticks x p)),
				 * f the category's share (lc_accum_spread) */
	int timed;		/* LC_TICK_BREAKDOWN: phase_ns holds it */
	uint64_t phase_ns[LC_SESSION_PHASES];	/* by enum lc_tick_phase */
	char notes[1024];	/* warnings, one per line, "" when none */
};

struct lc_session;

/* A session over the targets that reg discovers (reg is owned by the
 * session from now on and freed with it).  NULL on ENOMEM. */
struct lc_session *lc_session_new(const struct lc_session_opts *o, struct lc_registry *reg);

/* A warning for the command to print once after lc_session_start (e.g.
 * why counters are unavailable, with the fix), or NULL. */
const char *lc_session_warning(const struct lc_session *s);

/* The registry the session watches. */
struct lc_registry *lc_session_registry(struct lc_session *s);

/* Open the profile and start the sampler, ticking from now.  Returns 0, or
 * -errno with a one-line reason in msg. */
int lc_session_start(struct lc_session *s, char *msg, size_t len);

/* Stop sampling (a last tick now), write the rest of the profile with the
 * command's exit status (-1 when there is none) and the reason the session
 * ended, and fill *res.  Returns 0, or -errno when the profile could not be
 * written completely (it then holds what was written before).  Safe to call
 * after a failed or missing lc_session_start. */
int lc_session_finish(struct lc_session *s, int status, const char *reason,
		      struct lc_session_result *res);

/* Release the session and its registry; accepts NULL. */
void lc_session_free(struct lc_session *s);

/* A fresh session name, "lc<pid>-<random hex>", into buf. */
void lc_session_name(char *buf, size_t len);

/* The program lc_session_free runs as "PROGRAM --hold-perf PID" to hold the
 * session's perf events while this process exits (their last release
 * waits for an RCU grace period: session.c), or NULL (the default: they
 * are closed here).  The command sets it once before any session. */
extern const char *lc_session_holder;

#endif /* LC_SESSION_H */
