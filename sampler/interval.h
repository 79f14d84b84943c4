/*
 * interval.h — the sampling thread's interval: the nominal one, fixed or
 * adaptive (the rule of tick.h's LC_TICK_BUDGET_PPM, interval.c), and the
 * jitter of each tick's interval around it.
 *
 * Threads: the sampling thread's alone (tick.c embeds one in its sampler);
 * the owner reads goal_at and cur only after joining it.
 */
#ifndef LC_INTERVAL_H
#define LC_INTERVAL_H

#include <stdint.h>

#include "tick.h"

struct lc_interval {
	const struct lc_sampler_cfg *cfg;	/* the rule: interval_ns,
						 * interval_max_ns (> interval_ns:
						 * adaptive), jitter_ns, budget_ppm,
						 * goal_obs, acc, the windows */
	uint64_t cur;		/* the nominal interval now */
	uint64_t obs;		/* slot observations so far (the tick adds them) */
	uint64_t rng;		/* the jitter's random state */
	uint64_t a_cpu, a_ticks, per;	/* the adaptive rule's look at the process's
					 * CPU clock every few ticks: at the last one,
					 * and the smoothed CPU time of a tick */
	uint64_t goal_at;	/* CLOCK_MONOTONIC when the error goal was
				 * reached, 0 not yet */
};

/* Start at cfg's interval (cfg stays where it is: the sampler's). */
void lc_interval_init(struct lc_interval *iv, const struct lc_sampler_cfg *cfg);

/* The next tick's interval: cur made longer or shorter by up to
 * lc_interval_jitter, drawn uniformly. */
uint64_t lc_interval_next(struct lc_interval *iv);

/* How far a tick's interval may be from cur: cfg's jitter scaled to it. */
uint64_t lc_interval_jitter(const struct lc_interval *iv);

/* After tick number ticks, ending at now: the adaptive rule's step (every
 * few ticks: the error goal, then the CPU budget); nothing when fixed. */
void lc_interval_adapt(struct lc_interval *iv, uint64_t ticks, uint64_t now);

#endif /* LC_INTERVAL_H */
