/*
 * tick.h — the sampling thread: pinned to a spare CPU, it wakes every
 * interval, reads the flags of every target's slots, and charges the real
 * time since its previous tick through the accumulator.
 */
#ifndef LC_TICK_H
#define LC_TICK_H

#include <stdint.h>

#include "attr.h"
#include "counters.h"
#include "lc_sched.h"
#include "machine.h"
#include "targets.h"

/* The sampling thread's name (/proc/PID/task/TID/comm), so that tools can
 * find it and read its CPU time. */
#define LC_SAMPLER_THREAD_NAME "lc-sampler"

/* Intervals shorter than this are kept by busy-waiting on the clock instead
 * of sleeping (sleeps bottom out near 20-30 us): the sampler then uses its
 * whole CPU. */
#define LC_TICK_SPIN_NS 30000u

/* The adaptive interval (record's default, docs/performance.md): ticks at
 * interval_ns for LC_RULE_START_TICKS ticks or until the run has enough
 * slot observations for its error goal, then at the interval that keeps
 * the CPU time of the whole process (the sampling thread and the others)
 * within its budget, between interval_ns and interval_max_ns. */
#define LC_TICK_BUDGET_PPM 20000u	/* 2 % of one CPU */
#define LC_TICK_GOAL_PPM 10000u		/* 1 % of the total time */

/* The parts of a tick that LC_TICK_BREAKDOWN=1 times on the sampling
 * thread's CPU clock (lc_sampler_stats.phase_ns): off, they cost a test. */
enum lc_tick_phase {
	LC_PH_WAKE,		/* from the end of a tick to the start of the next */
	LC_PH_SWEEP,		/* reading every target's slots */
	LC_PH_RUNQ,		/* the run-queue source (switch records, schedstat) */
	LC_PH_CHARGE,		/* attribution of a tick inside a window */
	LC_PH_HANDOFF,		/* attribution of a tick that closed a window:
				 * the blocks handed to the writer */
	LC_PH_COUNTERS,		/* threads that left, counter reads */
	LC_PH_MACHINE,		/* the machine's share at window ends */
	LC_PH_OTHER,		/* wasted tasks, statistics, the interval rule */
	LC_NPHASES
};

/* The phase's name ("wake-up", "flag sweep" ...). */
const char *lc_tick_phase_name(int ph);

struct lc_sampler_cfg {
	uint64_t interval_ns;
	int sleep_only;			/* never busy-wait (to probe the sleep floor) */
	int cpu;			/* -1: choose a spare CPU */
	uint64_t t0;			/* CLOCK_MONOTONIC origin of the profile */
	struct lc_registry *reg;
	struct lc_accum *acc;
	struct lc_threads *threads;
	struct lc_pwriter *w;		/* for process blocks */
	struct lc_sched *sched;		/* run-queue source, NULL: none */
	struct lc_ctr *ctr;		/* counters, NULL: none */
	uint64_t jitter_ns;		/* each tick lands up to this far either
					 * side of its nominal time */
	struct lc_machine *mach;	/* the machine's share, NULL: not measured */
	/* the adaptive interval: interval_max_ns > interval_ns turns it on */
	uint64_t interval_max_ns;
	uint32_t budget_ppm;		/* the process's CPU share */
	uint64_t goal_obs;		/* slot observations before it may grow */
	uint64_t window_ns;		/* the windows (for the breakdown's */
	uint32_t window_grow;		/* hand-off ticks) */
};

struct lc_sampler_stats {
	uint64_t ticks;
	uint64_t max_gap_ns;
	uint64_t max_gap_at;		/* CLOCK_MONOTONIC at the end of that gap */
	uint64_t missed_ticks;		/* nominal ticks inside late gaps */
	int cpu_used;			/* a target thread may run on the
					 * sampler's CPU (its affinity allows it) */
	uint64_t bad_reads;
	uint64_t t_end;			/* CLOCK_MONOTONIC of the last tick */
	int cpu;			/* CPU the thread was pinned to, -1 none */
	int fifo;			/* ran SCHED_FIFO */
	int busy_wait;			/* ticks were kept by busy-waiting */
	uint64_t thread_cpu_ns;		/* the sampling thread's own CPU time */
	uint64_t goal_at;		/* CLOCK_MONOTONIC when the adaptive rule
					 * reached its error goal, 0 never */
	uint64_t last_interval_ns;	/* the adaptive interval at the end */
	int timed;			/* phase_ns holds the breakdown */
	uint64_t phase_ns[LC_NPHASES];
};

struct lc_sampler;

/* The CPU a sampler would choose: the last one this process may run on. */
int lc_sampler_spare_cpu(void);

/* Start the sampling thread, pinned and scheduled as cfg->cpu asks (see
 * lc_sampler_placement), but not yet ticking.  Only cfg->cpu is used here.
 * NULL with *err = -errno (-EINVAL: cfg->cpu cannot be used). */
struct lc_sampler *lc_sampler_start(const struct lc_sampler_cfg *cfg, int *err);

/* Start ticking from cfg->t0 with the complete configuration. */
void lc_sampler_go(struct lc_sampler *s, const struct lc_sampler_cfg *cfg);

/* Grow the process's file table to the descriptors a sampler may open
 * (tick.c): cheap while the process has one thread, an RCU grace period
 * (6-13 ms) once it has several.  Any thread; later calls cost nothing. */
void lc_sampler_reserve_fds(void);

/* Take a last tick now (if ticking), stop the thread, and fill *st.  Frees s. */
void lc_sampler_stop(struct lc_sampler *s, struct lc_sampler_stats *st);

/* Pinning and scheduling as applied (valid after start). */
void lc_sampler_placement(const struct lc_sampler *s, int *cpu, int *fifo);

#endif /* LC_TICK_H */
