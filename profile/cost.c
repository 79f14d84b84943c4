/*
 * cost.c — what the sampler cost: its interval rule in words and the
 * slowdown of the program it caused (lc_profile.h; the model is in
 * docs/performance.md).
 */
#include <errno.h>
#include <stdio.h>

#include "lc_profile.h"
#include "lc_util.h"

/* "(100us until the error goal 1 % at 0.125 s, then within 2 % of a
 * CPU)" for an adaptive rule, into buf. */
static void adaptive_text(const struct lc_prof_end *e, char *buf, size_t len)
{
	char lo[32], at[48] = "";

	lc_fmt_duration(e->interval_min_ns, 0, lo, sizeof(lo));
	if (e->goal_at_ns)
		snprintf(at, sizeof(at), " at %.3f s", lc_sec(e->goal_at_ns));
	else
		snprintf(at, sizeof(at), ", not reached");
	snprintf(buf, len, "(%s until the error goal %g %%%s, then within %g %% of a CPU)", lo,
		 e->goal_ppm / 1e4, at, e->budget_ppm / 1e4);
}

/* "(100 us until the error goal 1 % (reached at 0.412 s) or 64 ticks,
 * then record within 2 % of a CPU up to 1 ms, from the goal on within
 * 1 %)" for the rule with a short fine start (its top after the goal is
 * LC_RULE_GOAL_TOP_MUL x the one before), into buf. */
static void start_text(const struct lc_prof_end *e, char *buf, size_t len)
{
	char lo[32], hi[32], at[48];

	lc_fmt_duration(e->interval_min_ns, 0, lo, sizeof(lo));
	if (e->goal_at_ns)
		snprintf(at, sizeof(at), "reached at %.3f s", lc_sec(e->goal_at_ns));
	else
		snprintf(at, sizeof(at), "not reached");
	lc_fmt_duration(e->interval_max_ns, 0, hi, sizeof(hi));
	snprintf(buf, len, "(%s until the error goal %g %% (%s) or %u ticks, then record within "
		 "%g %% of a CPU up to %s, from the goal on within %g %%)", lo, e->goal_ppm / 1e4,
		 at, LC_RULE_START_TICKS, e->budget_ppm / 1e4, hi,
		 e->budget_ppm / 1e4 / LC_RULE_GOAL_BUDGET_DIV);
}

const char *lc_cost_rule_text(const struct lc_prof_end *e, char *buf, size_t len)
{
	char lo[32], hi[32], mean[32], how[320] = "";

	*buf = 0;
	if (!e->interval_rule)
		return buf;
	lc_fmt_duration(e->interval_min_ns, 0, lo, sizeof(lo));
	lc_fmt_duration(e->interval_max_ns * (e->rule == LC_RULE_ADAPTIVE_START ?
					      LC_RULE_GOAL_TOP_MUL : 1), 0, hi, sizeof(hi));
	lc_fmt_duration(e->mean_interval_ns, 0, mean, sizeof(mean));
	if (e->rule == LC_RULE_ADAPTIVE)
		adaptive_text(e, how, sizeof(how));
	if (e->rule == LC_RULE_ADAPTIVE_START)
		start_text(e, how, sizeof(how));
	if (e->rule != LC_RULE_FIXED)
		snprintf(buf, len, "adaptive %s..%s %s, mean %s", lo, hi, how, mean);
	else
		snprintf(buf, len, "fixed %s (-i), mean %s", lo, mean);
	return buf;
}

int lc_cost_slowdown(uint64_t sampler_cpu_ns, uint64_t wall_ns, uint32_t ncpus, int shared_cpu,
		     double *lo, double *hi)
{
	double share = wall_ns ? (double)sampler_cpu_ns / (double)wall_ns : 0;
	int rc = 0;

	*lo = *hi = 0;
	if (shared_cpu < 0 || share <= 0)
		return 0;
	if (share > LC_COST_MODEL_SHARE) {
		share = LC_COST_MODEL_SHARE;	/* it held its CPU: no estimate */
		rc = -ERANGE;
	}
	*hi = share / (1 - share);
	share /= ncpus ? ncpus : 1;
	*lo = share / (1 - share);
	return rc;
}

const char *lc_cost_slowdown_text(uint64_t sampler_cpu_ns, uint64_t wall_ns, uint32_t ncpus,
				  int shared_cpu, char *buf, size_t len)
{
	double lo, hi, share = wall_ns ? 100.0 * (double)sampler_cpu_ns / (double)wall_ns : 0;

	if (lc_cost_slowdown(sampler_cpu_ns, wall_ns, ncpus, shared_cpu, &lo, &hi))
		snprintf(buf, len, "cannot be estimated (the sampler held CPU %d, which the program "
			 "used, %.0f %% of the time)", shared_cpu, share);
	else if (shared_cpu < 0)
		snprintf(buf, len, "~0 (the sampler had a CPU of its own)");
	else
		snprintf(buf, len, "%.1f..%.1f %% (its %.1f %% of one CPU, CPU %d, taken from the "
			 "program's %u)", 100 * lo, 100 * hi, share, shared_cpu, ncpus);
	return buf;
}
