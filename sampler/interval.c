/*
 * interval.c — the sampling thread's interval: the jitter of each tick's,
 * and the adaptive rule.  See interval.h.
 */
#include "interval.h"

#include <math.h>
#include <time.h>

static uint64_t process_cpu_ns(void);

void lc_interval_init(struct lc_interval *iv, const struct lc_sampler_cfg *cfg)
{
	*iv = (struct lc_interval){ .cfg = cfg, .cur = cfg->interval_ns, .rng = cfg->t0 | 1 };
	iv->a_cpu = process_cpu_ns();
}

uint64_t lc_interval_jitter(const struct lc_interval *iv)
{
	return iv->cur * iv->cfg->jitter_ns / iv->cfg->interval_ns;
}

/* The next interval: the nominal one made longer or shorter by up to
 * jitter_ns, drawn uniformly (xorshift64).  The ticks' phase then moves
 * against any periodic phase of the program by a random amount each tick,
 * while the mean interval stays the nominal one: ticks on a fixed grid
 * would see a phase locked to it in the same state every time, and small
 * moves (the +-10 % of an earlier default) only walk slowly across it, so
 * that a half-busy phase of 1 ms sampled at 1 ms read 0.5 +- 0.03 to 0.07
 * (2-6 % of the run against its exact trace, with a standard error of
 * 1.1 %).  At the default +-50 % a tick's phase in any period up to the
 * interval is uniform after one step, so the ticks sample it independently
 * and the binomial error bars hold; the spread of the intervals makes the
 * error bars 4 % wider than a fixed grid's (E[dt^2] = (1 + 1/12) E[dt]^2). */
uint64_t lc_interval_next(struct lc_interval *iv)
{
	uint64_t j = lc_interval_jitter(iv);

	if (!j)
		return iv->cur;
	iv->rng ^= iv->rng << 13;
	iv->rng ^= iv->rng >> 7;
	iv->rng ^= iv->rng << 17;
	return iv->cur - j + (iv->rng >> 11) % (2 * j + 1);
}

/*
 * The adaptive interval (cfg.interval_max_ns > cfg.interval_ns).  On these
 * machines a tick's CPU time is mostly its wake-up (10-20 us), so only
 * fewer ticks make the sampler cheaper.  The interval stays at interval_ns
 * for the first LC_RULE_START_TICKS ticks, or until the run reaches its
 * error goal (goal_reached: the binomial standard error of every category
 * within the goal) if that comes first: a program's start and a very short run are sampled finely.  Then
 * every ADAPT_TICKS ticks it becomes the CPU time of a tick to the whole
 * process (its own CPU clock: this thread, discovery, the writer; smoothed)
 * over the budget, between interval_ns and interval_max_ns, growing by at
 * most GROW_STEP a step; once the error goal is reached, over half the
 * budget and up to LC_RULE_GOAL_TOP_MUL x interval_max_ns.  The mean interval, when the error goal was reached
 * and the error bars that came of it are in the profile's end block.
 */
#define ADAPT_TICKS 32u

/* The process's CPU time (a system call: every ADAPT_TICKS ticks). */
static uint64_t process_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The interval at which a tick's smoothed CPU cost iv->per is the budget's
 * share, within the rule's range and at most GROW_STEP times the current
 * one (from the fine start to the top in two steps). */
#define GROW_STEP 4u

static uint64_t budget_interval(const struct lc_interval *iv)
{
	uint32_t ppm = iv->cfg->budget_ppm ? iv->cfg->budget_ppm : LC_TICK_BUDGET_PPM;
	uint64_t top = iv->cfg->interval_max_ns, want;

	if (iv->goal_at) {	/* the error goal reached: ease off */
		ppm /= LC_RULE_GOAL_BUDGET_DIV;
		top *= LC_RULE_GOAL_TOP_MUL;
		if (!iv->cfg->window_grow && iv->cfg->window_ns && top > iv->cfg->window_ns)
			top = iv->cfg->window_ns > iv->cfg->interval_max_ns ? iv->cfg->window_ns
									: iv->cfg->interval_max_ns;
	}
	want = iv->per * 1000000u / (ppm ? ppm : 1);
	want = want > GROW_STEP * iv->cur ? GROW_STEP * iv->cur : want;
	want = want > top ? top : want;
	return want > iv->cfg->interval_ns ? want : iv->cfg->interval_ns;
}

/* Whether the run holds enough slot observations for the error goal:
 * cfg.goal_obs is what the largest binomial error, f (1 - f) = 1/4, needs
 * (0.25 / goal^2); a run whose categories are further from 1/2 needs that
 * times 4 f (1 - f), the largest of its categories so far, each moved
 * toward 1/2 by two of its worst-case standard errors (1 / sqrt(obs)), so
 * that an early share that is off by chance does not end the fine start
 * early. */
static int goal_reached(const struct lc_interval *iv)
{
	double obs = (double)iv->obs;

	if (iv->obs >= iv->cfg->goal_obs)
		return 1;
	return obs >= 4 * lc_accum_spread(iv->cfg->acc, 1 / sqrt(obs ? obs : 1)) *
		      (double)iv->cfg->goal_obs;
}

void lc_interval_adapt(struct lc_interval *iv, uint64_t ticks, uint64_t now)
{
	uint64_t cpu, per;

	if (iv->cfg->interval_max_ns <= iv->cfg->interval_ns || ticks - iv->a_ticks < ADAPT_TICKS)
		return;
	cpu = process_cpu_ns();
	per = (cpu - iv->a_cpu) / (ticks - iv->a_ticks);
	iv->per = iv->per ? (3 * iv->per + per) / 4 : per;
	iv->a_cpu = cpu;
	iv->a_ticks = ticks;
	if (!iv->goal_at && goal_reached(iv))
		iv->goal_at = now;
	if (iv->goal_at || ticks >= LC_RULE_START_TICKS)
		iv->cur = budget_interval(iv);
}
